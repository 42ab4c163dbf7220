package game_test

import (
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Scenarios a chief arbiter checks before trusting the service with a
// championship, each citing the rule it pins.

// TestScenario_C3_PressExactlyAtTheDeadline: a press one millisecond before
// the deadline counts; one at the deadline finds the time run out (000 ch.7
// §1 1: the flag has fallen once the time is used up).
func TestScenario_C3_PressExactlyAtTheDeadline(t *testing.T) {
	g := newGame(t, game.Setup{Control: clock.SuddenDeath(mn)})
	run(t, g, []step{
		{at: mn - 1, do: "move+press", by: red, move: "h2e2"},
		{at: mn - 1 + mn, do: "move+press", by: black, move: "h9g7", code: game.CodeGameOver},
	})
	wantResult(t, g, result.RedWins, game.Time)
	if v := g.View(t0 + 5*mn); v.EndedAt != t0+2*mn-1 || v.Clock.Faces[xiangqi.Black].UsedMs != mn {
		t.Errorf("ended at %d, black used %d; want the deadline and exactly its minute", v.EndedAt-t0, v.Clock.Faces[xiangqi.Black].UsedMs)
	}
}

// TestScenario_C3_MateStandsAgainstALatePress: the mating move was made in
// time; that it was never pressed does not turn it into a loss on time
// (000 ch.7 §1 3: 除非已经出现将死).
func TestScenario_C3_MateStandsAgainstALatePress(t *testing.T) {
	const mateInOne = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1"
	g := newGame(t, game.Setup{FEN: mateInOne, Control: clock.SuddenDeath(mn)})
	run(t, g, []step{
		{at: 30 * sec, do: "move", by: red, move: "b7b9"},
		{at: 5 * mn, do: "press", by: red, code: game.CodeGameOver},
		{at: 5 * mn, do: "claimTime", by: black, code: game.CodeGameOver},
	})
	wantResult(t, g, result.RedWins, game.Checkmate)
}

// TestScenario_C5_CorrectionWhileRunningMovesTheDeadline: an arbiter's
// correction of the running clock counts from the moment of the ruling; the
// flag then falls at the new deadline, not the old one (C-5, C-3).
func TestScenario_C5_CorrectionWhileRunningMovesTheDeadline(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "90/40+15/10")})
	run(t, g, []step{{at: mn, do: "move+press", by: red, move: "h2e2"}})
	// Black's clock runs from t0+1 mn; at t0+11 mn the arbiter sets it to 2 mn.
	if err := g.Rule(t0+11*mn, arb, game.Ruling{Kind: game.RulingClock, Side: xiangqi.Black, RemainingMs: 2 * mn, Note: "clock display fault"}); err != nil {
		t.Fatal(err)
	}
	if v := g.View(t0 + 13*mn - 1); v.Result != result.None || v.Clock.Faces[xiangqi.Black].RemainingMs != 1 {
		t.Fatalf("just before the new deadline: %v, black %+v", v.Result, v.Clock.Faces[xiangqi.Black])
	}
	run(t, g, []step{{at: 13 * mn, do: "move+press", by: black, move: "h9g7", code: game.CodeGameOver}})
	wantResult(t, g, result.RedWins, game.Time)
	if v := g.View(t0 + 20*mn); v.EndedAt != t0+13*mn {
		t.Errorf("ended at +%d ms, want the corrected deadline", v.EndedAt-t0)
	}
}

// TestScenario_G3_CaptureResetsTheFENCount: the no-capture count goes on from
// a FEN's halfmove field and starts again at a capture (G-3).
func TestScenario_G3_CaptureResetsTheFENCount(t *testing.T) {
	const fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 119 60"
	g := newGame(t, game.Setup{FEN: fen, Control: preset(t, "untimed")})
	run(t, g, []step{
		{do: "move+press", by: red, move: "b2b9"}, // the cannon takes the horse
		{do: "claimNoCapture", by: red, code: game.CodeClaimRefused, rule: "G-3"},
	})
	if v := g.View(t0); v.NoCaptureMoves != 0 || v.NoCaptureLimit != game.DefaultNoCaptureMoves {
		t.Errorf("no-capture count %d of %d after a capture", v.NoCaptureMoves, v.NoCaptureLimit)
	}
	// An event's lower limit (根据等级酌减) counts in rounds: 1 round is 2 plies.
	g = newGame(t, game.Setup{FEN: fen, Control: preset(t, "untimed"), Rules: game.Rules{NoCaptureMoves: 1}})
	run(t, g, []step{
		{do: "move+press", by: red, move: "b2b9"},
		{do: "move+press", by: black, move: "a9a8"},
		{do: "claimNoCapture", by: black, code: game.CodeClaimRefused, rule: "G-3"},
		{do: "move+press", by: red, move: "b9b8"},
		{do: "claimNoCapture", by: black},
	})
	wantResult(t, g, result.Draw, game.NoCapture)
}

// TestScenario_D2_ThirdOfferAfterAnsweringOwnRefusal follows 000 §5 offer by
// offer: the first offerer, refused, may not offer again until the other side
// has; the third offer may come from either side; there is no fourth (D-2,
// D-4).
func TestScenario_D2_ThirdOfferAfterAnsweringOwnRefusal(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "world")})
	run(t, g, []step{
		{do: "move", by: red, move: "h2e2"},
		{do: "offer", by: red},
		{do: "press", by: red},
		{do: "move+press", by: black, move: "h9g7"}, // refused by moving (D-3)
		{do: "move", by: red, move: "h0g2"},
		{do: "offer", by: red, code: game.CodeDrawNotAllowed, rule: "D-2"},
		{do: "press", by: red},
		{do: "move", by: black, move: "i9h9"},
		{do: "offer", by: black},
		{do: "decline", by: red},
		{do: "press", by: black},
		// Third offer: red, who made the first, may make it.
		{do: "move", by: red, move: "i0h0"},
		{do: "offer", by: red},
		{do: "press", by: red},
		{do: "move", by: black, move: "b9c7"},
		{do: "offer", by: black, code: game.CodeDrawNotAllowed, rule: "D-4"},
	})
	// Black's move b9c7 declined red's third offer; none are left.
	if v := g.View(t0); v.Draw.Made != 3 || v.Draw.Left != 0 || v.Draw.Pending {
		t.Errorf("draw view = %+v", v.Draw)
	}
}

// TestScenario_G6_MutualPerpetualCheckIsNoLoss: under perpetualCheckLoses,
// when both sides check with every move of the cycle neither is singled out:
// the third occurrence is a draw (G-6 event option).
func TestScenario_G6_MutualPerpetualCheckIsNoLoss(t *testing.T) {
	// Red's horse f3-d4 checks (and uncovers red's cannon); black's cannon
	// f6-d6 answers with a check of its own; both go back, checking again.
	const fen = "5k3/3r5/9/5c3/9/9/5H3/3K5/9/5C3 w - - 0 1"
	cycle := []step{
		{do: "move+press", by: red, move: "f3d4"},
		{do: "move+press", by: black, move: "f6d6"},
		{do: "move+press", by: red, move: "d4f3"},
		{do: "move+press", by: black, move: "d6f6"},
	}
	g := newGame(t, game.Setup{FEN: fen, Control: preset(t, "untimed"), Rules: game.Rules{Repetition: game.PerpetualCheckLoses}})
	run(t, g, append(append([]step{}, cycle...), cycle...))
	wantResult(t, g, result.Draw, game.Threefold)
	if v := g.View(t0); v.Repetition.PerpetualCheck != [2]bool{true, true} {
		t.Errorf("perpetual check facts = %v, want both sides", v.Repetition.PerpetualCheck)
	}
}

// TestScenario_D5_NoMaterialSideMayAcceptButNotOffer: the side without mating
// material may not offer while the other has it (G-5), but it may accept the
// other's offer; with material gone on both sides either may offer on its
// own turn (G-4).
func TestScenario_D5_NoMaterialSideMayAcceptButNotOffer(t *testing.T) {
	// Red: general and advisor; black: general, advisor and a soldier on a1.
	const fen = "3ak4/9/9/9/9/9/9/9/p8/3K1A3 b - - 0 1"
	g := newGame(t, game.Setup{FEN: fen, Control: preset(t, "world")})
	run(t, g, []step{
		{do: "move", by: black, move: "a1b1"},
		{do: "offer", by: black},
		{do: "press", by: black},
		{do: "accept", by: red},
	})
	wantResult(t, g, result.Draw, game.Agreement)
}

// TestScenario_G6_PendingKeepsTheClocksAndAnswers: at 6 cycles the mover's
// clock stops without a press; nothing but agreement, resignation or the
// arbiters' ruling moves the game on, and the time used stays as it was.
func TestScenario_G6_PendingKeepsTheClocks(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "90/40+15/10")})
	var line []step
	at := int64(0)
	for _, s := range cycles(6) {
		at += 10 * sec
		s.at = at
		s.do = "move"
		line = append(line, s)
		at += sec
		line = append(line, step{at: at, do: "press", by: s.by})
	}
	line = line[:len(line)-1] // the last move completes the sixth cycle; no press
	run(t, g, line)
	if g.Status() != game.PendingRuling {
		t.Fatalf("status %v after 6 cycles", g.Status())
	}
	before := g.View(t0 + at)
	later := g.View(t0 + at + 60*mn)
	if before.Clock != later.Clock || later.Clock.Running != clock.None {
		t.Errorf("clocks moved while pending:\n%+v\n%+v", before.Clock, later.Clock)
	}
	run(t, g, []step{
		{at: at + mn, do: "press", by: black, code: game.CodePendingRuling},
		{at: at + mn, do: "claimNoCapture", by: red, code: game.CodePendingRuling},
		{at: at + 2*mn, do: "resign", by: black},
	})
	wantResult(t, g, result.RedWins, game.Resignation)
}

// TestScenario_PGN_Record_000_7_2_6: the PGN record carries what the score
// sheet must (000 ch.7 §2 第6条): the result, each side's time used, fouls.
func TestScenario_PGN_Record_000_7_2_6(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "60/30+10/10"), Rules: game.Rules{IllegalMoves: game.IllegalIsFoul}})
	run(t, g, []step{
		{at: 75 * sec, do: "move+press", by: red, move: "h2e2"},
		{at: 80 * sec, do: "move", by: black, move: "e9e8"},
		{at: 3*mn + 5*sec, do: "press", by: black},
		{at: 4 * mn, do: "move", by: red, move: "a0a3", code: game.CodeIllegalMoveFoul, rule: "B-10"},
		{at: 4*mn + 1, do: "resign", by: red},
	})
	got, err := g.Record(t0+10*mn, "pgn", game.RecordInfo{Event: "national", Red: "A", Black: "B"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Result "0-1"]`, `[Reason "resignation"]`, `[RedTimeUsed "0:02:10"]`, `[BlackTimeUsed "0:01:50"]`, `[RedFouls "1"]`, `[BlackFouls "0"]`, "1. H2-E2 E9-E8\n0-1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("pgn lacks %q:\n%s", want, got)
		}
	}
}

// TestScenario_D3_G4OfferStandsThroughTheOfferersMove: with no mating material
// on either side, red offers on its turn before moving (G-4). Red's own move
// is not black's answer; only black's acceptance, refusal or move is (D-3).
func TestScenario_D3_G4OfferStandsThroughTheOfferersMove(t *testing.T) {
	const bare = "3ak4/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1"
	g := newGame(t, game.Setup{FEN: bare, Control: preset(t, "world")})
	run(t, g, []step{
		{do: "offer", by: red},
		{do: "move", by: red, move: "f0e1"},
		{do: "offer", by: red, code: game.CodeDrawNotAllowed, rule: "D-3"},
		{do: "press", by: red},
		{do: "accept", by: black},
	})
	wantResult(t, g, result.Draw, game.Agreement)

	g = newGame(t, game.Setup{FEN: bare, Control: preset(t, "world")})
	run(t, g, []step{
		{do: "offer", by: red},
		{do: "move+press", by: red, move: "f0e1"},
		{do: "move+press", by: black, move: "d9e8"}, // declines by moving
		{do: "accept", by: black, code: game.CodeNoDrawOffer, rule: "D-3"},
	})
	if v := g.View(t0); v.Draw.Pending || v.Draw.Made != 1 {
		t.Errorf("draw view = %+v, want the one offer declined", v.Draw)
	}
}

// TestScenario_C1_NoMoveBeforeTheClockStarts: a piece may be moved only once
// the mover's clock runs (000 ch.7 §1: 计时进入己方计时器后，方可动棋子); an
// event game's first clock starts at the round's start, so a move before it
// is refused and changes nothing (C-1, C-6).
func TestScenario_C1_NoMoveBeforeTheClockStarts(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "60/30+10/10")})
	before := g.Version()
	run(t, g, []step{
		{at: -sec, do: "move+press", by: red, move: "h2e2", code: game.CodeRoundNotStarted, rule: "C-1"},
	})
	if g.Ply() != 0 || g.Version() != before {
		t.Fatalf("a refused early move changed the game: ply %d", g.Ply())
	}
	run(t, g, []step{{at: 0, do: "move+press", by: red, move: "h2e2"}})
	if f := g.View(t0).Clock.Faces[xiangqi.Red]; f.UsedMs != 0 || f.Moves != 1 {
		t.Errorf("red's face after a move at the start = %+v", f)
	}
}

// TestScenario_C6_FlagBeforeTheLateLimitWithBothAbsent: with a late limit
// longer than red's first period, red's clock (running from the round's
// start) runs out while neither player has sat down. Red has lost, but an
// absent black wins nothing: if black arrives by the limit it wins on time,
// otherwise both forfeit (000 ch.2 §3 第2条 若双方均超过规定时限即判双方弃权).
func TestScenario_C6_FlagBeforeTheLateLimitWithBothAbsent(t *testing.T) {
	setup := game.Setup{Control: preset(t, "rapid-5/30"), LateLimitMs: 15 * mn}
	t.Run("NeitherByTheLimit", func(t *testing.T) {
		g := newGame(t, setup)
		if v := g.View(t0 + 10*mn); v.Result != result.None || !v.Clock.Faces[xiangqi.Red].Flagged {
			t.Fatalf("at 10 mn: result %v, red face %+v; want no result yet, red flagged", v.Result, v.Clock.Faces[xiangqi.Red])
		}
		if err := g.Arrive(t0+11*mn, red); err != nil {
			t.Fatal(err)
		}
		run(t, g, []step{{at: 12 * mn, do: "move", by: red, move: "h2e2", code: game.CodeNotYourTurn, rule: "C-3"}})
		g.Settle(t0 + 15*mn)
		wantResult(t, g, result.DoubleForfeit, game.Forfeit)
		if v := g.View(t0 + 20*mn); v.EndedAt != t0+15*mn {
			t.Errorf("ended at +%d ms, want the late limit", v.EndedAt-t0)
		}
	})
	t.Run("BlackArrivesByTheLimit", func(t *testing.T) {
		g := newGame(t, setup)
		if err := g.Arrive(t0+10*mn, black); err != nil {
			t.Fatal(err)
		}
		wantResult(t, g, result.BlackWins, game.Time)
		if v := g.View(t0 + 20*mn); v.EndedAt != t0+5*mn {
			t.Errorf("ended at +%d ms, want red's flag", v.EndedAt-t0)
		}
	})
	t.Run("BlackPresentBeforeTheFlag", func(t *testing.T) {
		g := newGame(t, setup)
		if err := g.Arrive(t0+mn, black); err != nil {
			t.Fatal(err)
		}
		g.Settle(t0 + 5*mn)
		wantResult(t, g, result.BlackWins, game.Time)
	})
}
