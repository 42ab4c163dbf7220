package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// TestRepetition_G6_MatchesEngineHistory checks, after every ply, that the
// game's own cycle count and perpetual-check facts agree with the engine's
// History.Repetition over the same line.
func TestRepetition_G6_MatchesEngineHistory(t *testing.T) {
	const checkFEN = "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1"
	checks := []string{"a8a9", "d9d8", "a9a8", "d8d9"}
	var checkLine []string
	for range 3 {
		checkLine = append(checkLine, checks...)
	}
	var shuffleLine []string
	for range 6 {
		shuffleLine = append(shuffleLine, "h0g2", "h9g7", "g2h0", "g7h9")
	}
	tests := []struct {
		name, fen string
		line      []string
	}{
		{"SixCycles", "", shuffleLine},
		{"PerpetualCheck", checkFEN, checkLine},
		{"FreshCountAfterOtherPlay", "", []string{"h0g2", "h9g7", "g2h0", "g7h9", "b0c2", "b9c7", "c2b0", "c7b9", "h0g2", "h9g7", "g2h0", "g7h9"}},
		{"CyclesAfterACapture", "", []string{"h2e2", "h9g7", "e2e6", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9", "h0g2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, game.Setup{FEN: tt.fen, Control: preset(t, "untimed")})
			start := g.Position()
			h := xiangqi.NewHistory(start)
			for i, text := range tt.line {
				side := game.PlayerOf(g.Position().SideToMove())
				if err := g.Move(t0, side, text, i, true); err != nil {
					t.Fatalf("ply %d %s: %v", i, text, err)
				}
				if err := h.Play(g.Moves()[i]); err != nil {
					t.Fatal(err)
				}
				want := h.Repetition()
				got := g.View(t0).Repetition
				if got.Cycles != want.Cycles || got.CycleLength != want.CycleLength || got.PerpetualCheck != want.PerpetualCheck {
					t.Fatalf("ply %d: cycles %d/%d, checks %v; engine says %d/%d, %v",
						i+1, got.Cycles, got.CycleLength, got.PerpetualCheck, want.Cycles, want.CycleLength, want.PerpetualCheck)
				}
				if got.Cycles >= game.RulingRequestCycles && got.PerpetualChase != want.PerpetualChase {
					t.Fatalf("ply %d: chase %v, engine says %v", i+1, got.PerpetualChase, want.PerpetualChase)
				}
			}
		})
	}
}
