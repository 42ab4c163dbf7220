package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/game"
)

// C-7 (000 ch.3 书记员 3 封棋、续赛): an adjourned game keeps its sealed move
// through the store's encoding and resumes with it; a resignation during
// the adjournment ends the game and leaves nothing to resume.
func TestAdjourn_C7_EncodesAndResumes(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-10/40+5/30"), StartMs: t0})
	if err := g.Move(t0+mn, red, "h2e2", 0, true); err != nil {
		t.Fatal(err)
	}
	if err := g.Adjourn(t0+3*mn, black, "h9g7", 1); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, g, t0+60*mn)
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	d, err := game.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Resume(t0+90*mn, scribe); err != nil {
		t.Fatal(err)
	}
	if v := d.View(t0 + 90*mn); v.Ply != 2 || v.Moves[1] != "h9g7" || v.Adjourned || v.Clock.Faces[1].RemainingMs != 8*mn {
		t.Errorf("resumed: ply %d moves %v adjourned %v black %d ms", v.Ply, v.Moves, v.Adjourned, v.Clock.Faces[1].RemainingMs)
	}

	if err := g.Resign(t0+61*mn, black); err != nil {
		t.Fatal(err)
	}
	if err := g.Resume(t0+62*mn, scribe); err == nil {
		t.Error("a game resigned while adjourned resumed")
	}
	roundTrip(t, g, t0+62*mn)
}
