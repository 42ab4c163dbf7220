package game_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Two stalemates (困毙), one each way: a crossed pawn steps next to the lone
// general, which then has no legal move and is not in check — its file is
// closed by the facing generals (B-10), the other squares the pawn covers.
var stalemates = []struct {
	name, fen, move string
	mover           game.Actor
	want            result.Result
}{
	{"RedStalematesBlack", "4k4/9/5P3/9/9/9/9/9/9/3K5 w - - 0 1", "f7f8", red, result.RedWins},
	{"BlackStalematesRed", "3k5/9/9/9/9/9/9/5p3/9/4K4 b - - 0 1", "f2f1", black, result.BlackWins},
}

// G-1: the side left without a legal move loses, whether mated or
// stalemated; a stalemate is not a draw as in chess. Played move by move.
func TestGame_G1_StalemateLoses(t *testing.T) {
	for _, tc := range stalemates {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, game.Setup{FEN: tc.fen, Control: preset(t, "rapid-5/30")})
			run(t, g, []step{{at: 4 * sec, do: "move+press", by: tc.mover, move: tc.move}})
			wantResult(t, g, tc.want, game.Stalemate)
			v := g.View(t0 + 5*sec)
			if len(v.LegalMoves) != 0 {
				t.Errorf("legal moves after stalemate: %v", v.LegalMoves)
			}
			other := red
			if tc.mover == red {
				other = black
			}
			var re *game.RuleError
			if err := g.Resign(t0+6*sec, other); !errors.As(err, &re) || re.Code != game.CodeGameOver {
				t.Errorf("resigning a stalemated game = %v, want game_over", err)
			}
		})
	}
}

// G-1 for a record: an imported game whose last move stalemates ends there,
// a loss for the stalemated side; a record that calls it a draw (as chess
// would) contradicts the rules and is refused.
func TestFromRecord_G1_StalemateLoses(t *testing.T) {
	for _, tc := range stalemates {
		t.Run(tc.name, func(t *testing.T) {
			s := game.Setup{FEN: tc.fen, StartMs: t0}
			p, err := xiangqi.ParseFEN(s.FEN)
			if err != nil {
				t.Fatal(err)
			}
			m, err := notation.ICCS{}.Parse(p, tc.move)
			if err != nil {
				t.Fatal(err)
			}
			for _, claimed := range []result.Result{result.None, tc.want} {
				g, err := game.FromRecord(s, []xiangqi.Move{m}, claimed, game.NoReason, t0)
				if err != nil {
					t.Fatalf("record claiming %v: %v", claimed, err)
				}
				wantResult(t, g, tc.want, game.Stalemate)
			}
			_, err = game.FromRecord(s, []xiangqi.Move{m}, result.Draw, game.NoReason, t0)
			var re *game.RuleError
			if !errors.As(err, &re) || re.Rule != "G-1" {
				t.Errorf("a record calling the stalemate a draw: got %v, want a G-1 refusal", err)
			}
		})
	}
}
