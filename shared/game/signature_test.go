package game_test

import (
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// O-3: the scoresheet is signed when the game is over: each line once, a
// player only its own, a refusal kept for the chief arbiter; the three lines
// make the game signed, and the signatures survive the store's encoding.
func TestSign_O3_ThreeLines(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30")})
	scribe := game.Actor{Role: game.Scribe, ID: "o1"}
	if err := g.Sign(t0, scribe, game.Signature{Line: game.SignRed, Name: "Wang"}); !isCode(err, game.CodeNotOver) {
		t.Fatalf("signing before the result: %v", err)
	}
	if err := g.Resign(t0+mn, game.PlayerOf(xiangqi.Black)); err != nil {
		t.Fatal(err)
	}
	wantResult(t, g, result.RedWins, game.Resignation)
	strokes := [][][2]uint8{{{10, 20}, {30, 40}, {50, 45}}, {{5, 5}, {6, 7}}}
	for _, c := range []struct {
		by   game.Actor
		s    game.Signature
		code string
	}{
		{scribe, game.Signature{Line: game.SignRed, Name: "  "}, game.CodeInvalidArgument},
		{scribe, game.Signature{Line: game.SignRed, Name: strings.Repeat("名", game.MaxSignatureName+1)}, game.CodeInvalidArgument},
		{scribe, game.Signature{Line: game.SignScribe, Name: "Li", Refused: true}, game.CodeInvalidArgument},
		{scribe, game.Signature{Line: game.SignBlack, Name: "Zhao", Refused: true, Strokes: strokes}, game.CodeInvalidArgument},
		{scribe, game.Signature{Line: game.SignRed, Name: "Wang", Strokes: make([][][2]uint8, game.MaxSignatureStroke+1)}, game.CodeInvalidArgument},
		{game.PlayerOf(xiangqi.Red), game.Signature{Line: game.SignBlack, Name: "Wang"}, game.CodeForbidden},
		{game.PlayerOf(xiangqi.Red), game.Signature{Line: game.SignScribe, Name: "Wang"}, game.CodeForbidden},
	} {
		if err := g.Sign(t0+2*mn, c.by, c.s); !isCode(err, c.code) {
			t.Errorf("Sign(%+v, %v) = %v, want %s", c.by, c.s.Line, err, c.code)
		}
	}
	if len(g.Signatures()) != 0 {
		t.Fatalf("a refused signature was kept: %+v", g.Signatures())
	}
	if err := g.Sign(t0+2*mn, game.PlayerOf(xiangqi.Red), game.Signature{Line: game.SignRed, Name: " Wang ", Strokes: strokes}); err != nil {
		t.Fatal(err)
	}
	if err := g.Sign(t0+3*mn, scribe, game.Signature{Line: game.SignRed, Name: "Wang"}); !isCode(err, game.CodeAlreadySigned) {
		t.Fatalf("a second signature on the red line: %v", err)
	}
	pgn, err := g.Record(t0+3*mn, "pgn", game.RecordInfo{})
	if err != nil || !strings.Contains(pgn, `[RedSignature "Wang 2027-01-15T08:02:00Z"]`) || !strings.Contains(pgn, `[Signatures "awaiting"]`) {
		t.Fatalf("PGN with one line signed (%v):\n%s", err, pgn)
	}
	if err := g.Sign(t0+3*mn, scribe, game.Signature{Line: game.SignBlack, Name: "Zhao", Refused: true}); err != nil {
		t.Fatal(err)
	}
	if g.Signed() {
		t.Fatal("signed without the scribe's line")
	}
	if err := g.Sign(t0+4*mn, scribe, game.Signature{Line: game.SignScribe, Name: "Li"}); err != nil {
		t.Fatal(err)
	}
	v := g.View(t0 + 5*mn)
	if !v.Signed || len(v.Signatures) != 3 {
		t.Fatalf("view: signed %v, %d signatures", v.Signed, len(v.Signatures))
	}
	red := v.Signatures[0]
	if red.Name != "Wang" || red.At != t0+2*mn || red.By.Role != game.Player || len(red.Strokes) != 2 {
		t.Fatalf("red's line: %+v", red)
	}
	if v.Signatures[1].Line != game.SignBlack || !v.Signatures[1].Refused || v.Signatures[2].By != scribe {
		t.Fatalf("black's and the scribe's lines: %+v", v.Signatures[1:])
	}
	if got, want := red.SVG(), `<polyline points="10,20 30,40 50,45"/><polyline points="5,5 6,7"/></svg>`; !strings.HasSuffix(got, want) {
		t.Fatalf("SVG = %s, want it to end %s", got, want)
	}
	if !strings.Contains(red.SVG(), `viewBox="1 1 53 48"`) {
		t.Errorf("SVG %s: want the strokes' bounds (5…50, 5…45) and the pen's margin as its view box", red.SVG())
	}
	if v.Signatures[2].SVG() != "" {
		t.Fatal("a signature without strokes draws an SVG")
	}
	pgn, _ = g.Record(t0+5*mn, "pgn", game.RecordInfo{})
	for _, want := range []string{`[BlackSignature "refused: Zhao 2027-01-15T08:03:00Z"]`, `[ScribeSignature "Li 2027-01-15T08:04:00Z"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %s:\n%s", want, pgn)
		}
	}
	if strings.Contains(pgn, "awaiting") {
		t.Errorf("a signed sheet's PGN still awaits signatures:\n%s", pgn)
	}
	roundTrip(t, g, t0+5*mn)
}

// O-3: an arbiter closes a sheet that will not be signed; a scribe may not.
func TestSign_O3_ArbiterCloses(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30")})
	if err := g.Resign(t0+mn, game.PlayerOf(xiangqi.Red)); err != nil {
		t.Fatal(err)
	}
	if err := g.Sign(t0+2*mn, game.Actor{Role: game.Scribe}, game.Signature{Line: game.SignClosed, Name: "Li"}); !isCode(err, game.CodeForbidden) {
		t.Fatalf("a scribe closing: %v", err)
	}
	if err := g.Sign(t0+2*mn, arb, game.Signature{Line: game.SignClosed, Name: "Chief", Refused: true}); !isCode(err, game.CodeInvalidArgument) {
		t.Fatalf("a refused closing: %v", err)
	}
	if err := g.Sign(t0+2*mn, arb, game.Signature{Line: game.SignClosed, Name: "Chief"}); err != nil || !g.Signed() {
		t.Fatalf("closed by the arbiter: %v, signed %v", err, g.Signed())
	}
	roundTrip(t, g, t0+3*mn)
}
