package game_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// The worked games of the issue; the records test writes each in every format.
var worked = map[string]func(t testing.TB) *game.Game{
	"checkmate":  checkmateGame,
	"time":       timeGame,
	"agreement":  agreementGame,
	"nocapture":  noCaptureGame,
	"repetition": repetitionGame,
}

// checkmateGame: a five-ply mate from the start, the moves written in five
// different notations (N-4), each pressed in the same request.
func checkmateGame(t testing.TB) *game.Game {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-10/40+5/30")})
	run(t, g, []step{
		{at: 3 * sec, do: "move+press", by: red, move: "b2c2"},
		{at: 5 * sec, do: "move+press", by: black, move: "A6+5"},
		{at: 9 * sec, do: "move+press", by: red, move: "炮七進四"},
		{at: 20 * sec, do: "move+press", by: black, move: "炮233"},
		{at: 26 * sec, do: "move+press", by: red, move: "砲77x70"},
	})
	return g
}

func TestGame_G1_Checkmate(t *testing.T) {
	g := checkmateGame(t)
	wantResult(t, g, result.RedWins, game.Checkmate)
	v := g.View(t0 + 10*mn)
	if v.Clock.Running != clock.None {
		t.Errorf("a clock runs after mate: %v", v.Clock.Running)
	}
	if got := v.Clock.Faces[xiangqi.Red].UsedMs; got != 3*sec+4*sec+6*sec {
		t.Errorf("red used %d ms, want 13000", got)
	}
	if len(v.LegalMoves) != 0 {
		t.Errorf("legal moves after mate: %v", v.LegalMoves)
	}
	want := []string{"b2c2", "f9e8", "c2c6", "b7c7", "c6c9"}
	for i, m := range want {
		if v.Moves[i] != m {
			t.Errorf("moves = %v, want %v", v.Moves, want)
			break
		}
	}
	if err := g.Move(t0+11*mn, black, "h9g7", 5, true); err == nil || err.(*game.RuleError).Code != game.CodeGameOver {
		t.Errorf("move after mate = %v, want game_over", err)
	}
}

// timeGame: a two-period control (2 moves in 1 min, then 1 in 30 s); red
// makes its third move in time but presses after the deadline (C-3).
func timeGame(t testing.TB) *game.Game {
	c, err := clock.NewControl([]clock.Period{{Moves: 2, Ms: mn}, {Moves: 1, Ms: 30 * sec}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, game.Setup{Control: c})
	run(t, g, []step{
		{at: 20 * sec, do: "move+press", by: red, move: "h2e2"},
		{at: 25 * sec, do: "move+press", by: black, move: "h9g7"},
		{at: 55 * sec, do: "move", by: red, move: "h0g2"},
		{at: 58 * sec, do: "press", by: red},
		{at: 60 * sec, do: "move+press", by: black, move: "i9h9"},
	})
	// Red has used 53 s: period 2 opened with 7 + 30 = 37 s, deadline t0+97 s.
	v := g.View(t0 + 60*sec)
	if f := v.Clock.Faces[xiangqi.Red]; f.Period != 1 || f.MovesDue != 1 || f.RemainingMs != 37*sec {
		t.Fatalf("red before its third move: %+v", f)
	}
	// The third move is on the board in time, but the press comes late.
	run(t, g, []step{{at: 90 * sec, do: "move", by: red, move: "i0h0"}})
	if v := g.View(t0 + 96*sec); v.Result != result.None {
		t.Fatalf("flag fell early: %v", v.Result)
	}
	if v := g.View(t0 + 97*sec); v.Result != result.BlackWins || v.Reason != game.Time {
		t.Fatalf("View at the deadline = %v %v, want 0-1 time", v.Result, v.Reason)
	}
	before := g.Version()
	err = g.Press(t0+98*sec, red)
	var re *game.RuleError
	if !errors.As(err, &re) || re.Code != game.CodeGameOver {
		t.Fatalf("late press = %v, want game_over", err)
	}
	if g.Version() == before {
		t.Error("the flag did not change the game's version; the store would not save it")
	}
	roundTrip(t, g, t0+98*sec)
	return g
}

func TestGame_C3_FlagMovedButNotPressed(t *testing.T) {
	g := timeGame(t)
	wantResult(t, g, result.BlackWins, game.Time)
	if f := g.View(t0 + 200*sec).Clock.Faces[xiangqi.Red]; f.UsedMs != 90*sec {
		t.Errorf("red used %d ms, want the full 90 s", f.UsedMs)
	}
}

// agreementGame: red offers after its move and black declines; black offers
// after its move and red accepts (D-1…D-3).
func agreementGame(t testing.TB) *game.Game {
	g := newGame(t, game.Setup{Control: preset(t, "60/30+10/10")})
	run(t, g, []step{
		{at: 10 * sec, do: "move", by: red, move: "炮二平五"},
		{at: 12 * sec, do: "offer", by: red},
		{at: 13 * sec, do: "press", by: red},
		{at: 30 * sec, do: "decline", by: black},
		{at: 40 * sec, do: "move", by: black, move: "馬8進7"},
		{at: 41 * sec, do: "offer", by: black},
		{at: 42 * sec, do: "press", by: black},
		{at: 50 * sec, do: "accept", by: red},
	})
	return g
}

func TestGame_D3_AgreementAfterDecline(t *testing.T) {
	g := agreementGame(t)
	wantResult(t, g, result.Draw, game.Agreement)
	if v := g.View(t0 + mn); v.Draw.Made != 2 || v.Draw.Left != 1 || v.Draw.Pending {
		t.Errorf("draw state = %+v, want 2 made, 1 left, none pending", v.Draw)
	}
}

// noCaptureGame: an event that counts 3 rounds for 自然限着 (G-3 "根据等级酌减").
func noCaptureGame(t testing.TB) *game.Game {
	g := newGame(t, game.Setup{Control: preset(t, "untimed"), Rules: game.Rules{NoCaptureMoves: 3}})
	run(t, g, []step{
		{at: 1 * sec, do: "move+press", by: red, move: "h2e2"},
		{at: 2 * sec, do: "move+press", by: black, move: "h9g7"},
		{at: 3 * sec, do: "move+press", by: red, move: "h0g2"},
		{at: 4 * sec, do: "move+press", by: black, move: "i9h9"},
		{at: 5 * sec, do: "move+press", by: red, move: "i0h0"},
		{at: 6 * sec, do: "claimNoCapture", by: red, code: game.CodeClaimRefused, rule: "G-3"},
		{at: 7 * sec, do: "move+press", by: black, move: "b9c7"},
		{at: 8 * sec, do: "claimNoCapture", by: red},
	})
	return g
}

func TestGame_G3_NoCaptureClaim(t *testing.T) {
	g := noCaptureGame(t)
	wantResult(t, g, result.Draw, game.NoCapture)

	// The default is 60 rounds, counted on from a FEN's halfmove field.
	g = newGame(t, game.Setup{FEN: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 118 60", Control: preset(t, "untimed")})
	run(t, g, []step{
		{do: "move+press", by: red, move: "h2e2"},
		{do: "claimNoCapture", by: black, code: game.CodeClaimRefused, rule: "G-3"},
		{do: "move+press", by: black, move: "h9g7"},
		{do: "claimNoCapture", by: black},
	})
	wantResult(t, g, result.Draw, game.NoCapture)
}

// shuffle is one 4-ply cycle: both right horses out and back.
var shuffle = []step{
	{do: "move+press", by: red, move: "h0g2"},
	{do: "move+press", by: black, move: "h9g7"},
	{do: "move+press", by: red, move: "g2h0"},
	{do: "move+press", by: black, move: "g7h9"},
}

func cycles(n int) []step {
	var out []step
	for range n {
		out = append(out, shuffle...)
	}
	return out
}

// repetitionGame: the same cycle six times; the clocks stop; two arbiters of
// three hold red mainly responsible (G-6).
func repetitionGame(t testing.TB) *game.Game {
	g := newGame(t, game.Setup{Control: preset(t, "90/40+15/10")})
	run(t, g, cycles(5))
	v := g.View(t0)
	if v.Repetition.Cycles != 5 || !v.Repetition.Warning || v.Status != game.Playing {
		t.Fatalf("after 5 cycles: %+v, status %v", v.Repetition, v.Status)
	}
	run(t, g, cycles(1))
	v = g.View(t0 + mn)
	if v.Repetition.Cycles != 6 || v.Status != game.PendingRuling || v.Clock.Running != clock.None {
		t.Fatalf("after 6 cycles: %+v, status %v, running %v", v.Repetition, v.Status, v.Clock.Running)
	}
	run(t, g, []step{
		{do: "move+press", by: red, move: "h0g2", code: game.CodePendingRuling, rule: "G-6"},
	})
	if err := g.Rule(t0+2*mn, arb, game.Ruling{Kind: game.RulingRepetition, Votes: [3]xiangqi.Color{xiangqi.Red, xiangqi.Black, xiangqi.Red}, Note: "red's horse drove the cycle"}); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, g, t0+2*mn)
	return g
}

func TestGame_G6_RepetitionRuledTwoToOne(t *testing.T) {
	g := repetitionGame(t)
	wantResult(t, g, result.BlackWins, game.RepetitionRuling)
	log := g.Log()
	if len(log) != 1 || log[0].By != arb || log[0].At != t0+2*mn || log[0].Ruling.Kind != game.RulingRepetition {
		t.Errorf("log = %+v", log)
	}
}

func TestClaim_G6_RulingFromFiveCycles(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "90/40+15/10")})
	run(t, g, cycles(4))
	run(t, g, []step{{do: "claimRuling", by: black, code: game.CodeClaimRefused, rule: "G-6"}})
	run(t, g, cycles(1))
	run(t, g, []step{
		{at: mn, do: "claimRuling", by: black},
		{at: 2 * mn, do: "move", by: red, move: "h0g2", code: game.CodePendingRuling},
		// The players may still agree a draw (G-6 议和), outside D-1's timing.
		{at: 3 * mn, do: "offer", by: red},
		{at: 4 * mn, do: "accept", by: black},
	})
	wantResult(t, g, result.Draw, game.Agreement)
	if v := g.View(t0 + 5*mn); !v.Repetition.Requested || v.Repetition.RequestedBy != xiangqi.Black {
		t.Errorf("repetition view = %+v, want requested by black", v.Repetition)
	}
}

func TestRepetition_G6_RuleSets(t *testing.T) {
	const fen = "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1"
	checks := []step{
		{do: "move+press", by: red, move: "a8a9"},
		{do: "move+press", by: black, move: "d9d8"},
		{do: "move+press", by: red, move: "a9a8"},
		{do: "move+press", by: black, move: "d8d9"},
	}
	tests := []struct {
		name string
		rule game.RepetitionRule
		fen  string
		line []step
		want result.Result
		why  game.Reason
	}{
		{"ThreefoldDraw", game.ThreefoldDraw, "", cycles(2), result.Draw, game.Threefold},
		{"PerpetualCheckLoses", game.PerpetualCheckLoses, fen, append(append([]step{}, checks...), checks...), result.BlackWins, game.PerpetualCheck},
		{"PerpetualCheckQuietIsDraw", game.PerpetualCheckLoses, "", cycles(2), result.Draw, game.Threefold},
		{"ArbiterRulingGoesOn", game.ArbiterRuling, fen, append(append([]step{}, checks...), checks...), result.None, game.NoReason},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, game.Setup{FEN: tt.fen, Control: preset(t, "untimed"), Rules: game.Rules{Repetition: tt.rule}})
			run(t, g, tt.line)
			wantResult(t, g, tt.want, tt.why)
			if v := g.View(t0); tt.fen != "" && !v.Repetition.PerpetualCheck[xiangqi.Red] {
				t.Errorf("perpetual check facts = %+v", v.Repetition)
			}
		})
	}
}

func TestMove_Refusals(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		ply   int // -1: the game's
	}{
		{"B6_BlockedHorse", []step{{do: "move", by: red, move: "b0d1", code: game.CodeIllegalMove, rule: "B-6"}}, -1},
		{"B10_OwnPiece", []step{{do: "move", by: red, move: "a0a3", code: game.CodeIllegalMove, rule: "B-10"}}, -1},
		{"N4_Unreadable", []step{{do: "move", by: red, move: "hello", code: game.CodeUnreadableMove, rule: "N-4"}}, -1},
		{"C1_NotYourTurn", []step{{do: "move", by: black, move: "h9g7", code: game.CodeNotYourTurn}}, -1},
		{"C1_NotPressed", []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "move", by: black, move: "h9g7", code: game.CodeNotPressed, rule: "C-1"},
			{do: "press", by: black, code: game.CodeNotYourTurn},
			{do: "press", by: scribe},
			{do: "press", by: red, code: game.CodeNothingToPress, rule: "C-1"},
			{do: "move+press", by: scribe, move: "h9g7"},
		}, -1},
		{"O1_ArbiterMayNotMove", []step{{do: "move", by: arb, move: "h2e2", code: game.CodeForbidden}}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, game.Setup{Control: preset(t, "world")})
			before, _ := g.MarshalBinary()
			run(t, g, tt.steps)
			if tt.steps[len(tt.steps)-1].code != "" && len(tt.steps) == 1 {
				after, _ := g.MarshalBinary()
				if string(before) != string(after) {
					t.Error("a refused move changed the game")
				}
			}
		})
	}
	t.Run("StalePly", func(t *testing.T) {
		g := newGame(t, game.Setup{Control: preset(t, "world")})
		err := g.Move(t0, red, "h2e2", 1, true)
		var re *game.RuleError
		if !errors.As(err, &re) || re.Code != game.CodeStalePly {
			t.Fatalf("Move with ply 1 at ply 0 = %v, want stale_ply", err)
		}
	})
}

func TestMove_G2_IllegalMovesAsFouls(t *testing.T) {
	// Red's horse on e1 is pinned against its general on e0 by black's
	// chariot on e8; black's general stands on d9.
	const pinned = "3k5/4r4/9/9/9/9/9/9/4N4/4K4 w - - 0 1"
	g := newGame(t, game.Setup{FEN: pinned, Control: preset(t, "world"), Rules: game.Rules{IllegalMoves: game.IllegalIsFoul}})
	run(t, g, []step{
		// G-2: a misshapen move or an empty point is refused, not a foul.
		{do: "move", by: red, move: "e1e3", code: game.CodeIllegalMove, rule: "B-6"},
		{do: "move", by: red, move: "e0e2", code: game.CodeIllegalMove, rule: "B-3"},
		{do: "move", by: red, move: "a5a6", code: game.CodeUnreadableMove},
		// B-10's kinds are: own general in check, facing generals, own capture.
		{do: "move", by: red, move: "e1c2", code: game.CodeIllegalMoveFoul, rule: "B-10"},
		{do: "move", by: red, move: "e0d0", code: game.CodeIllegalMoveFoul, rule: "B-3"},
		{do: "move", by: red, move: "e0e1", code: game.CodeIllegalMoveFoul, rule: "B-10"},
	})
	wantResult(t, g, result.BlackWins, game.Fouls)
	if v := g.View(t0); v.Fouls != [2]int{3, 0} {
		t.Errorf("fouls = %v", v.Fouls)
	}
	if n := len(g.Log()); n != 3 {
		t.Errorf("log has %d entries, want the 3 fouls", n)
	}

	g = newGame(t, game.Setup{Control: preset(t, "world"), Rules: game.Rules{IllegalMoves: game.IllegalLoses}})
	run(t, g, []step{
		{do: "move", by: red, move: "e0e2", code: game.CodeIllegalMove, rule: "B-3"},
		{do: "move", by: red, move: "b0d1", code: game.CodeIllegalMove, rule: "B-6"},
		{do: "move", by: red, move: "a0a3", code: game.CodeIllegalMoveLoss, rule: "B-10"},
	})
	wantResult(t, g, result.BlackWins, game.IllegalMove)
	if n := len(g.Log()); n != 1 {
		t.Errorf("log has %d entries, want the losing move only", n)
	}
}

func TestDrawOffer_D1toD5_Refusals(t *testing.T) {
	const (
		noMaterial   = "3ak4/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1"
		redHasNone   = "3ak4/9/9/9/9/9/9/9/r8/3K1A3 w - - 0 1"
		d4Sequence   = "d4"
		offerRefused = game.CodeDrawNotAllowed
	)
	tests := []struct {
		name  string
		fen   string
		rules game.Rules
		steps []step
	}{
		{"D1_BeforeMoving", "", game.Rules{}, []step{
			{do: "offer", by: red, code: offerRefused, rule: "D-1"},
		}},
		{"D1_AfterPressing", "", game.Rules{}, []step{
			{do: "move+press", by: red, move: "h2e2"},
			{do: "offer", by: red, code: offerRefused, rule: "D-1"},
		}},
		{"D1_NotTheMover", "", game.Rules{}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: black, code: offerRefused, rule: "D-1"},
		}},
		{"D2_TwiceInARow", "", game.Rules{}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: red},
			{do: "press", by: red},
			{do: "move+press", by: black, move: "h9g7"}, // declines by moving (D-3)
			{do: "move", by: red, move: "h0g2"},
			{do: "offer", by: red, code: offerRefused, rule: "D-2"},
		}},
		{"D3_OfferPending", "", game.Rules{}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: red},
			{do: "offer", by: red, code: offerRefused, rule: "D-3"},
			{do: "accept", by: red, code: game.CodeNoDrawOffer, rule: "D-3"},
		}},
		{"D3_NothingToAnswer", "", game.Rules{}, []step{
			{do: "accept", by: black, code: game.CodeNoDrawOffer},
			{do: "decline", by: black, code: game.CodeNoDrawOffer},
		}},
		{"D4_ThreeOffers_ThirdFromEither", "", game.Rules{}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: red},
			{do: "press", by: red},
			{do: "decline", by: black},
			{do: "move", by: black, move: "h9g7"},
			{do: "offer", by: black},
			{do: "press", by: black},
			{do: "decline", by: red},
			{do: "move+press", by: red, move: "h0g2"},
			// 000 §5: the third offer may come from either side, black again here.
			{do: "move", by: black, move: "i9h9"},
			{do: "offer", by: black},
			{do: "press", by: black},
			{do: "decline", by: red},
			{do: "move", by: red, move: "i0h0"},
			{do: "offer", by: red, code: offerRefused, rule: "D-4"},
		}},
		// D-2 as settled: 000 §5's third offer by either side belongs to
		// its limit of three; under another limit, or none, offers keep
		// alternating — black may not follow its own offer, red may.
		{"D2_ThirdFromEitherOnlyUnderThree_Limit5", "", game.Rules{DrawOfferLimit: 5}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: red},
			{do: "press", by: red},
			{do: "decline", by: black},
			{do: "move", by: black, move: "h9g7"},
			{do: "offer", by: black},
			{do: "press", by: black},
			{do: "decline", by: red},
			{do: "move+press", by: red, move: "h0g2"},
			{do: "move", by: black, move: "i9h9"},
			{do: "offer", by: black, code: offerRefused, rule: "D-2"},
			{do: "press", by: black},
			{do: "move", by: red, move: "i0h0"},
			{do: "offer", by: red},
		}},
		{"D2_ThirdFromEitherOnlyUnderThree_NoLimit", "", game.Rules{DrawOfferLimit: -1}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: red},
			{do: "press", by: red},
			{do: "decline", by: black},
			{do: "move", by: black, move: "h9g7"},
			{do: "offer", by: black},
			{do: "press", by: black},
			{do: "decline", by: red},
			{do: "move+press", by: red, move: "h0g2"},
			{do: "move", by: black, move: "i9h9"},
			{do: "offer", by: black, code: offerRefused, rule: "D-2"},
			{do: "press", by: black},
			{do: "move", by: red, move: "i0h0"},
			{do: "offer", by: red},
		}},
		{"D4_EventLimitOne", "", game.Rules{DrawOfferLimit: 1}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: red},
			{do: "press", by: red},
			{do: "move", by: black, move: "h9g7"},
			{do: "offer", by: black, code: offerRefused, rule: "D-4"},
		}},
		{"D5_NoMaterialAgainstMaterial", redHasNone, game.Rules{}, []step{
			{do: "move", by: red, move: "f0e1"},
			{do: "offer", by: red, code: offerRefused, rule: "D-5"},
			{do: "press", by: red},
			{do: "move", by: black, move: "a1a2"},
			{do: "offer", by: black},
		}},
		{"G4_BothWithoutMaterialOfferBeforeMoving", noMaterial, game.Rules{}, []step{
			{do: "offer", by: red},
			{do: "accept", by: black},
		}},
		{"G4_StillNotOnTheOpponentsTurn", noMaterial, game.Rules{}, []step{
			{do: "offer", by: black, code: offerRefused, rule: "G-4"},
		}},
		{"O1_ArbiterMayNotOffer", "", game.Rules{}, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: arb, code: game.CodeForbidden},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, game.Setup{FEN: tt.fen, Control: preset(t, "world"), Rules: tt.rules})
			run(t, g, tt.steps)
		})
	}
}

func TestResign_G2(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "world")})
	run(t, g, []step{
		{do: "move+press", by: red, move: "h2e2"},
		{do: "resign", by: arb, code: game.CodeForbidden},
		{do: "resign", by: red},
		{do: "resign", by: black, code: game.CodeGameOver},
	})
	wantResult(t, g, result.BlackWins, game.Resignation)
}

func TestClaim_C3_Time(t *testing.T) {
	g := newGame(t, game.Setup{Control: clock.SuddenDeath(mn)})
	run(t, g, []step{
		{at: 10 * sec, do: "move+press", by: red, move: "h2e2"},
		{at: 20 * sec, do: "claimTime", by: black, code: game.CodeClaimRefused, rule: "C-3"},
		{at: 71 * sec, do: "claimTime", by: red},
		{at: 72 * sec, do: "claimTime", by: red}, // idempotent
		{at: 73 * sec, do: "claimTime", by: black, code: game.CodeGameOver},
	})
	wantResult(t, g, result.RedWins, game.Time)
	g = newGame(t, game.Setup{Control: clock.SuddenDeath(mn)})
	run(t, g, []step{{at: 61 * sec, do: "claimTime", by: black}})
	wantResult(t, g, result.BlackWins, game.Time)
}

func TestLateArrival_C6_ClockFromRoundStart(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "60/30+10/10")})
	// Red sits down 15 minutes into the round.
	run(t, g, []step{{at: 15*mn + 30*sec, do: "move+press", by: red, move: "h2e2"}})
	if f := g.View(t0 + 16*mn).Clock.Faces[xiangqi.Red]; f.RemainingMs != 44*mn+30*sec {
		t.Errorf("red's remaining = %d, want %d", f.RemainingMs, 44*mn+30*sec)
	}
}

func TestNew_Refusals(t *testing.T) {
	tests := []struct {
		name string
		s    game.Setup
		rule string
	}{
		{"BadFEN", game.Setup{FEN: "xyz"}, ""},
		{"FlyingGeneral", game.Setup{FEN: "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"}, "B-3"},
		{"BadControl", game.Setup{Control: clock.Control{Periods: []clock.Period{{Moves: 1, Ms: -5}}}}, "C-2"},
		{"BadRules", game.Setup{Rules: game.Rules{NoCaptureMoves: -1}}, ""},
		{"AlreadyMate", game.Setup{FEN: "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1"}, "G-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := game.New(tt.s)
			var re *game.RuleError
			if !errors.As(err, &re) || re.Code != game.CodeInvalidArgument || tt.rule != "" && re.Rule != tt.rule {
				t.Errorf("New = %v, want invalid_argument (%s)", err, tt.rule)
			}
		})
	}
}
