package notation_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/notation"
)

// describeGames writes what ReadPGN and Replay make of a file, one block a
// game: its first line, tags, result token, the notation detected and the
// moves in ICCS, or the replay error with everything it names.
func describeGames(games []notation.PGNGame) string {
	var b strings.Builder
	for i, g := range games {
		fmt.Fprintf(&b, "game %d (line %d)\n", i+1, g.Line)
		for _, t := range g.Tags {
			fmt.Fprintf(&b, "  tag %s = %q\n", t.Name, t.Value)
		}
		fmt.Fprintf(&b, "  result token %q, %d move texts\n", g.Result, len(g.Moves))
		r, err := g.Replay()
		if err != nil {
			fmt.Fprintf(&b, "  error: %v\n  at ply %d, move %d (%v), line %d, text %q\n  fen %s\n  rule %q candidates %v\n",
				err, err.Ply, err.Number, err.Side, err.Line, err.Text, err.FEN, err.Rule, err.Candidates)
			continue
		}
		moves := make([]string, len(r.Moves))
		for j, m := range r.Moves {
			moves[j] = m.String()
		}
		fmt.Fprintf(&b, "  notation %s\n  moves %s\n", r.Notation, strings.Join(moves, " "))
	}
	return b.String()
}

// TestReadPGN_RealWorldForms reads each testdata/pgn/*.pgn — the forms real
// files hold: simplified and traditional characters, full-width digits and
// WXF, sign-first tandem WXF, ICCS with dashes, glued move numbers and moves,
// comments of three kinds, nested variations, glyphs, trailing text, [FEN]
// starts, an impossible start, an ambiguous move and a broken game among good
// ones — and compares what it makes of them with the .golden file beside it
// (N-4 for the notations; B-1 for the position checks).
func TestReadPGN_RealWorldForms(t *testing.T) {
	files, err := filepath.Glob("testdata/pgn/*.pgn")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/pgn/*.pgn: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := describeGames(notation.ReadPGN(string(in)))
			golden := strings.TrimSuffix(f, ".pgn") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestReadPGN_ExportRoundTrip checks that what the server writes reads back:
// every notation's numbered record of a line, read as PGN move text, replays
// to the same moves.
func TestReadPGN_ExportRoundTrip(t *testing.T) {
	text := "1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 马2进3 4. 兵七进一 卒7进1 5. 车二进六 炮8平9 6. 车二平三 炮9退1"
	r, err := notation.ReadPGN(text)[0].Replay()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notation.All() {
		texts, ferr := notation.FormatLine(n, r.Start, r.Moves)
		if ferr != nil {
			t.Fatal(ferr)
		}
		var b strings.Builder
		for i, s := range texts {
			if i%2 == 0 {
				fmt.Fprintf(&b, "%d. ", i/2+1)
			}
			b.WriteString(s + " ")
		}
		b.WriteString("*")
		games := notation.ReadPGN(b.String())
		if len(games) != 1 {
			t.Fatalf("%s: %d games", n.Name(), len(games))
		}
		back, err := games[0].Replay()
		if err != nil {
			t.Fatalf("%s: %v\n%s", n.Name(), err, b.String())
		}
		if back.Notation != n.Name() || fmt.Sprint(back.Moves) != fmt.Sprint(r.Moves) {
			t.Errorf("%s: read back %v in %s, want %v", n.Name(), back.Moves, back.Notation, r.Moves)
		}
	}
}

// FuzzReadPGN: no input makes the reader or the replay panic, and every move
// a replay returns is one the reader found.
func FuzzReadPGN(f *testing.F) {
	files, _ := filepath.Glob("testdata/pgn/*.pgn")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("[Event \"x\"\n1. {unclosed")
	f.Add("((((1. h2e2")
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range notation.ReadPGN(s) {
			r, err := g.Replay()
			if err == nil && len(r.Moves) != len(g.Moves) {
				t.Fatalf("replayed %d moves of %d", len(r.Moves), len(g.Moves))
			}
		}
	})
}
