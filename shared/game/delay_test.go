package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// AsOf shows the moves made by an instant, the clocks as they read then,
// and a game that ended later as still being played; after the last event
// it is the game itself.
func TestGame_AsOfHidesLaterMoves(t *testing.T) {
	g := checkmateGame(t) // moves at 3, 5, 9, 20, 26 s; mate at 26 s
	at := t0 + 10*sec
	d := g.AsOf(at)
	v := d.View(at)
	if v.Ply != 3 || v.Status != game.Playing || len(v.LegalMoves) == 0 {
		t.Fatalf("as of 10 s: ply %d status %v, %d legal moves; want ply 3, playing", v.Ply, v.Status, len(v.LegalMoves))
	}
	live := g.View(at)
	if v.Moves[2] != live.Moves[2] || len(v.Moves) != 3 {
		t.Fatalf("as of 10 s: moves %v, want the first 3 of %v", v.Moves, live.Moves)
	}
	// Red used 3 s + 4 s, Black 2 s by then; Black's clock runs since 9 s.
	control := preset(t, "rapid-10/40+5/30")
	if v.Clock.Running != clock.Black {
		t.Fatalf("as of 10 s the running clock is %v, want black", v.Clock.Running)
	}
	first := control.Periods[0].Ms
	if got, want := v.Clock.Faces[clock.Red].RemainingMs, first-7*sec+2*control.IncrementMs; got != want {
		t.Errorf("red as of 10 s: %d ms, want %d", got, want)
	}
	if got, want := v.Clock.Faces[clock.Black].RemainingMs, first-2*sec-1*sec+control.IncrementMs; got != want {
		t.Errorf("black as of 10 s: %d ms, want %d", got, want)
	}
	if g.Ply() != 5 || g.Status() != game.Over {
		t.Fatal("AsOf changed the game")
	}
	if g.AsOf(t0+26*sec) != g || g.AsOf(t0+60*sec) != g {
		t.Error("as of its end the game is the game itself")
	}
	if d := g.AsOf(t0 + 25*sec); d.Ply() != 4 || d.Status() != game.Playing {
		t.Errorf("as of 25 s: ply %d %v, want 4 playing", d.Ply(), d.Status())
	}
	before := g.AsOf(t0 - sec)
	if before.Ply() != 0 || before.Clock().Running != clock.None || before.Position().SideToMove() != xiangqi.Red {
		t.Errorf("before the start: ply %d, clock running %v; want 0, none, Red to move", before.Ply(), before.Clock().Running)
	}
}
