package game_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

func moves(t testing.TB, iccs ...string) []xiangqi.Move {
	t.Helper()
	p := xiangqi.NewPosition()
	out := make([]xiangqi.Move, len(iccs))
	for i, s := range iccs {
		m, err := notation.ICCS{}.Parse(p, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Play(m); err != nil {
			t.Fatalf("move %d %s: %v", i+1, s, err)
		}
		out[i] = m
	}
	return out
}

func TestFromRecord_ResultAndContinue(t *testing.T) {
	ms := moves(t, "h2e2", "h9g7", "h0g2", "i9h9")
	g, err := game.FromRecord(game.Setup{StartMs: t0}, ms, result.Draw, game.NoReason, t0)
	if err != nil {
		t.Fatal(err)
	}
	if r, why := g.Result(); r != result.Draw || why != game.RecordSays || g.Ply() != 4 || g.Status() != game.Over {
		t.Errorf("got %v by %v at ply %d (%v), want 1/2-1/2 by record at ply 4", r, why, g.Ply(), g.Status())
	}
	// No result: the game goes on with red to move and red's clock running.
	g, err = game.FromRecord(game.Setup{StartMs: t0, Control: preset(t, "rapid-5/30")}, ms, result.None, game.NoReason, t0+5*sec)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status() != game.Playing || g.Clock().Running != 0 {
		t.Errorf("status %v running %v, want playing with red's clock", g.Status(), g.Clock().Running)
	}
	if err := g.Move(t0+6*sec, red, "i0h0", 4, true); err != nil {
		t.Errorf("the imported game goes on: %v", err)
	}
	enc, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := game.Decode(enc); err != nil {
		t.Errorf("decode: %v", err)
	}
}

// G-1: a record whose last move mates ends by checkmate, and a result that
// says otherwise is refused; a record that goes on after a mate is refused.
func TestFromRecord_G1_MateDecides(t *testing.T) {
	// Red mates with a chariot on black's back rank: the other covers the
	// rank below, and the e-file is barred by the facing generals (B-10).
	s := game.Setup{FEN: "3k5/RR7/9/9/9/9/9/9/9/4K4 w - - 0 1", StartMs: t0}
	p, _ := xiangqi.ParseFEN(s.FEN)
	m, err := notation.ICCS{}.Parse(p, "a8a9")
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.FromRecord(s, []xiangqi.Move{m}, result.None, game.NoReason, t0)
	if err != nil {
		t.Fatal(err)
	}
	if r, why := g.Result(); r != result.RedWins || why != game.Checkmate {
		t.Errorf("got %v by %v, want 1-0 by checkmate", r, why)
	}
	_, err = game.FromRecord(s, []xiangqi.Move{m}, result.BlackWins, game.NoReason, t0)
	var re *game.RuleError
	if !errors.As(err, &re) || re.Rule != "G-1" || !strings.Contains(re.Message, "checkmate") {
		t.Errorf("contradicting result: got %v, want a G-1 refusal", err)
	}
	k := xiangqi.NewMove(xiangqi.NewSquare(3, 9), xiangqi.NewSquare(3, 8)) // d9d8, after the mate
	_, err = game.FromRecord(s, []xiangqi.Move{m, k}, result.None, game.NoReason, t0)
	if !errors.As(err, &re) || re.Rule != "G-1" {
		t.Errorf("moves after mate: got %v, want a G-1 refusal", err)
	}
}

// O-2: loading a scoresheet is logged with who, when and what it replaced; a
// scribe may not replace a finished game's record, an arbiter may; a player
// may not load at all.
func TestLoadRecord_O2_Audited(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30")})
	run(t, g, []step{{at: sec, do: "move", by: red, move: "h2e2"}})
	ms := moves(t, "c3c4", "g6g5", "b0c2")
	if err := g.LoadRecord(t0+2*sec, red, ms, result.None, game.NoReason); err == nil {
		t.Error("a player loaded a record")
	}
	if err := g.LoadRecord(t0+2*sec, scribe, ms, result.None, game.NoReason); err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 3 || g.Position().SideToMove() != xiangqi.Black || g.Clock().Running != 1 {
		t.Errorf("ply %d side %v running %v, want 3, black, black's clock", g.Ply(), g.Position().SideToMove(), g.Clock().Running)
	}
	log := g.Log()
	if len(log) != 1 || log[0].Ruling.Kind != game.RulingLoad || log[0].By != scribe || log[0].At != t0+2*sec ||
		log[0].Ruling.Note != "record loaded: 3 moves in place of 1 moves" {
		t.Errorf("log = %+v", log)
	}
	if err := g.LoadRecord(t0+3*sec, scribe, ms, result.RedWins, game.Resignation); err != nil {
		t.Fatal(err)
	}
	if err := g.LoadRecord(t0+4*sec, scribe, ms[:1], result.Draw, game.NoReason); err == nil {
		t.Error("a scribe replaced a finished game's record")
	}
	if err := g.LoadRecord(t0+4*sec, arb, ms[:1], result.Draw, game.Agreement); err != nil {
		t.Fatal(err)
	}
	if r, why := g.Result(); r != result.Draw || why != game.Agreement || g.Ply() != 1 {
		t.Errorf("after the arbiter's correction: %v by %v at ply %d", r, why, g.Ply())
	}
	// A refused load changes nothing.
	before, _ := g.MarshalBinary()
	bad := append(moves(t, "c3c4"), ms[0])
	if err := g.LoadRecord(t0+5*sec, arb, bad, result.None, game.NoReason); err == nil {
		t.Error("an illegal record loaded")
	}
	after, _ := g.MarshalBinary()
	if string(before) != string(after) {
		t.Error("a refused load changed the game")
	}
}
