package xiangqi_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// FuzzParseFEN checks that ParseFEN never panics, that whatever it accepts
// writes back (FEN) to a string that parses to the same position, and that
// the accepted position's legal moves all play. Seeds are in
// testdata/fuzz/FuzzParseFEN plus the ones added here.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		xiangqi.StartFEN,
		"rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
		"4k4/9/9/9/9/4R4/9/9/9/3K5 b - - 12 40",
		"1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
		"4k4/9/9/9/9/9/9/9/9/4K4 w",
		"4k4/9/9/9/9/9/91/9/9/3K5 w",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := xiangqi.ParseFEN(s)
		if err != nil {
			if p != nil {
				t.Fatalf("ParseFEN(%q) returned a position and %v", s, err)
			}
			return
		}
		fen := p.FEN()
		q, err := xiangqi.ParseFEN(fen)
		if err != nil {
			t.Fatalf("ParseFEN(%q) ok but its FEN %q fails: %v", s, fen, err)
		}
		if q.FEN() != fen || q.Hash() != p.Hash() || q.Ply() != p.Ply() || q.NoCaptureCount() != p.NoCaptureCount() {
			t.Fatalf("round trip of %q: %q %x, want %q %x", s, q.FEN(), q.Hash(), fen, p.Hash())
		}
		for _, m := range p.LegalMoves() {
			c := p.Clone()
			if err := c.Play(m); err != nil {
				t.Fatalf("%s: generated %v but Play says %v", fen, m, err)
			}
			if over := len(c.LegalMoves()) == 0; over != (c.Status() != xiangqi.Ongoing) {
				t.Fatalf("%s after %v: status %v with %d legal moves", fen, m, c.Status(), len(c.LegalMoves()))
			}
		}
	})
}
