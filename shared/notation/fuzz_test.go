package notation_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// fuzzFENs are the positions the fuzz targets parse against: the start, black
// to move, and the tandem cases (three soldiers, two chariots, five soldiers,
// soldier pairs, two black cannons).
var fuzzFENs = []string{
	xiangqi.StartFEN,
	"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
	"3k5/4P4/9/9/4P4/9/4P4/9/9/5K3 w - - 0 1",
	"3k5/9/4R4/9/9/9/9/4R4/9/5K3 w - - 0 1",
	"5k3/4P4/4P4/4P4/4P4/9/4P4/9/9/3K5 w - - 0 1",
	"3k5/9/9/2p1p4/2p1p4/9/9/9/9/5K3 b - - 0 1",
	"3k5/9/4c4/9/4p4/4P4/4P4/9/4c4/5K3 b - - 0 1",
	"rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C4NC1/9/RNBAKAB1R w - - 0 1",
}

// fuzzParse checks one parser: it never panics, it returns only legal moves,
// and what it reads writes back and reads again as the same move.
func fuzzParse(f *testing.F, n notation.Notation) {
	positions := make([]*xiangqi.Position, len(fuzzFENs))
	for i, fen := range fuzzFENs {
		positions[i] = mustFEN(f, fen)
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		p := positions[int(which)%len(positions)]
		m, err := n.Parse(p, s)
		if err != nil {
			if _, ok := err.(*notation.ParseError); !ok {
				t.Fatalf("Parse(%q) error %T is not *ParseError", s, err)
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("Parse(%q) = %v, which is not legal", s, m)
		}
		text, err := n.Format(p, m)
		if err != nil {
			t.Fatalf("Parse(%q) = %v, but Format: %v", s, m, err)
		}
		back, err := n.Parse(p, text)
		if err != nil || back != m {
			t.Fatalf("Parse(%q) = %v; Format = %q; Parse again = %v, %v", s, m, text, back, err)
		}
		if any, err := notation.ParseAny(p, s); err != nil || any != m {
			t.Fatalf("Parse(%q) = %v but ParseAny = %v, %v", s, m, any, err)
		}
	})
}

func FuzzParseICCS(f *testing.F)    { fuzzParse(f, notation.ICCS{}) }
func FuzzParseWXF(f *testing.F)     { fuzzParse(f, notation.WXF{}) }
func FuzzParseChinese(f *testing.F) { fuzzParse(f, notation.Chinese{}) }
func FuzzParseYZ3(f *testing.F)     { fuzzParse(f, notation.YZ3{}) }
func FuzzParseYZ4(f *testing.F)     { fuzzParse(f, notation.YZ4{}) }
