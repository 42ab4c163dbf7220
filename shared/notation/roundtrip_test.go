package notation_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// everyNotation is each notation in each script.
var everyNotation = []notation.Notation{
	notation.ICCS{},
	notation.WXF{},
	notation.Chinese{},
	notation.Chinese{Script: notation.Simplified},
	notation.YZ3{},
	notation.YZ3{Script: notation.Simplified},
	notation.YZ4{},
	notation.YZ4{Script: notation.Simplified},
}

// roundTripFENs gathers the positions of wxf.tsv, positions.tsv and the
// rules engine's perft table (read where it lives, in package xiangqi).
func roundTripFENs(t testing.TB) []string {
	seen := map[string]bool{}
	var fens []string
	for _, f := range []string{"testdata/wxf.tsv", "../xiangqi/testdata/perft.tsv", "testdata/positions.tsv"} {
		for _, row := range readTSV(t, f) {
			if !seen[row[0]] {
				seen[row[0]] = true
				fens = append(fens, row[0])
			}
		}
	}
	return fens
}

// TestRoundTrip_N1toN4 formats every legal move of every test position in
// every notation, and reads the text back — with that notation and with
// ParseAny — to the same move. Distinct moves thus get distinct texts.
func TestRoundTrip_N1toN4(t *testing.T) {
	fens := roundTripFENs(t)
	moves := 0
	for _, fen := range fens {
		p := mustFEN(t, fen)
		before := p.FEN()
		for _, m := range p.LegalMoves() {
			moves++
			for _, n := range everyNotation {
				s, err := n.Format(p, m)
				if err != nil {
					t.Errorf("%s: %s.Format(%v): %v", fen, n.Name(), m, err)
					continue
				}
				back, err := n.Parse(p, s)
				if err != nil || back != m {
					t.Errorf("%s: %s.Parse(%q) = %v, %v; want %v", fen, n.Name(), s, back, err, m)
				}
				any, err := notation.ParseAny(p, s)
				if err != nil || any != m {
					t.Errorf("%s: ParseAny(%q) = %v, %v; want %v", fen, s, any, err, m)
				}
			}
		}
		if p.FEN() != before {
			t.Fatalf("%s: formatting and parsing changed the position to %s", fen, p.FEN())
		}
	}
	if len(fens) < 120 || moves < 4000 {
		t.Errorf("round trip covered %d positions and %d moves; the testdata shrank", len(fens), moves)
	}
	t.Logf("%d positions, %d moves, %d notations", len(fens), moves, len(everyNotation))
}

// TestFormat_IllegalMove refuses to write a move the rules forbid: the
// relative notations would otherwise describe a piece that is not there.
func TestFormat_IllegalMove(t *testing.T) {
	p := xiangqi.NewPosition()
	m := xiangqi.NewMove(xiangqi.NewSquare(7, 0), xiangqi.NewSquare(7, 1)) // h0h1: horse on a file
	for _, n := range everyNotation {
		if s, err := n.Format(p, m); err == nil {
			t.Errorf("%s.Format(h0h1) = %q, want an error", n.Name(), s)
		}
	}
}
