package game_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

func TestRule_O2_OfficialsAndLog(t *testing.T) {
	type ruling struct {
		at   int64
		by   game.Actor
		r    game.Ruling
		code string
		rule string
	}
	tests := []struct {
		name    string
		moves   []step
		rulings []ruling
		want    result.Result
		why     game.Reason
		logged  int
	}{
		{
			name: "G2_ThirdFoulLoses",
			rulings: []ruling{
				{at: 1, by: arb, r: game.Ruling{Kind: game.RulingFoul, Side: xiangqi.Black, Note: "touched a piece out of turn"}},
				{at: 2, by: arb, r: game.Ruling{Kind: game.RulingFoul, Side: xiangqi.Black}},
				{at: 3, by: red, r: game.Ruling{Kind: game.RulingFoul, Side: xiangqi.Black}, code: game.CodeForbidden},
				// 000 ch.4: 凡判处"犯规",书记员应当当场明确宣布并及时记录.
				{at: 4, by: scribe, r: game.Ruling{Kind: game.RulingFoul, Side: xiangqi.Black}},
				{at: 5, by: arb, r: game.Ruling{Kind: game.RulingFoul, Side: xiangqi.Black}, code: game.CodeGameOver},
			},
			want: result.RedWins, why: game.Fouls, logged: 3,
		},
		{
			name: "O2_WarningThenLoss",
			rulings: []ruling{
				{at: 1, by: arb, r: game.Ruling{Kind: game.RulingPenalty, Side: xiangqi.Red, Penalty: game.Warning, Note: "phone"}},
				// 000 ch.3 裁判长 7: disqualification from the game is the chief arbiter's.
				{at: 2, by: arb, r: game.Ruling{Kind: game.RulingPenalty, Side: xiangqi.Red, Penalty: game.LossOfGame, Note: "phone again"}, code: game.CodeForbidden, rule: "O-2"},
				{at: 2, by: chief, r: game.Ruling{Kind: game.RulingPenalty, Side: xiangqi.Red, Penalty: game.LossOfGame, Note: "phone again"}},
				{at: 3, by: chief, r: game.Ruling{Kind: game.RulingPenalty, Side: xiangqi.Red, Penalty: game.Expulsion, Note: "refused to sign"}},
				{at: 4, by: chief, r: game.Ruling{Kind: game.RulingPenalty, Side: xiangqi.Black, Penalty: game.LossOfGame}, code: game.CodeGameOver},
			},
			want: result.BlackWins, why: game.Penalty, logged: 3,
		},
		{
			name: "C5_ClockCorrectionNeedsReason",
			rulings: []ruling{
				{at: 1, by: arb, r: game.Ruling{Kind: game.RulingClock, Side: xiangqi.Red, RemainingMs: 30 * mn}, code: game.CodeInvalidRuling, rule: "C-5"},
				{at: 2, by: arb, r: game.Ruling{Kind: game.RulingClock, Side: xiangqi.Red, RemainingMs: -1, Note: "x"}, code: game.CodeInvalidArgument},
				{at: 3, by: arb, r: game.Ruling{Kind: game.RulingClock, Side: xiangqi.Red, RemainingMs: 30 * mn, Note: "clock reset itself"}},
			},
			logged: 1,
		},
		{
			name: "C5_CorrectionToZeroFlags",
			rulings: []ruling{
				{at: 5, by: arb, r: game.Ruling{Kind: game.RulingClock, Side: xiangqi.Black, RemainingMs: 0, Note: "flag fell on the old clock"}},
			},
			want: result.RedWins, why: game.Time, logged: 1,
		},
		{
			name: "C6_OneSideLate",
			rulings: []ruling{
				{at: 31 * mn, by: arb, r: game.Ruling{Kind: game.RulingLateForfeit, Late: [2]bool{false, true}}},
			},
			want: result.RedByForfeit, why: game.Forfeit, logged: 1,
		},
		{
			name: "C6_BothLate",
			rulings: []ruling{
				{at: 31 * mn, by: arb, r: game.Ruling{Kind: game.RulingLateForfeit}, code: game.CodeInvalidArgument, rule: "C-6"},
				{at: 31 * mn, by: arb, r: game.Ruling{Kind: game.RulingLateForfeit, Late: [2]bool{true, true}}},
			},
			want: result.DoubleForfeit, why: game.Forfeit, logged: 1,
		},
		{
			name:  "C6_NotAfterMoving",
			moves: []step{{do: "move+press", by: red, move: "h2e2"}},
			rulings: []ruling{
				{at: 31 * mn, by: arb, r: game.Ruling{Kind: game.RulingLateForfeit, Late: [2]bool{true, false}}, code: game.CodeInvalidRuling, rule: "C-6"},
				{at: 31 * mn, by: arb, r: game.Ruling{Kind: game.RulingLateForfeit, Late: [2]bool{false, true}}},
			},
			want: result.RedByForfeit, why: game.Forfeit, logged: 1,
		},
		{
			name: "ResultCorrection",
			rulings: []ruling{
				{at: 1, by: chief, r: game.Ruling{Kind: game.RulingPenalty, Side: xiangqi.Red, Penalty: game.LossOfGame}},
				{at: 2, by: arb, r: game.Ruling{Kind: game.RulingResult, Result: result.Draw}, code: game.CodeInvalidRuling},
				{at: 3, by: arb, r: game.Ruling{Kind: game.RulingResult, Result: result.Draw, Note: "appeal upheld"}},
			},
			want: result.Draw, why: game.ArbiterDecision, logged: 2,
		},
		{
			name: "G6_RepetitionOnlyWhenPending",
			rulings: []ruling{
				{at: 1, by: arb, r: game.Ruling{Kind: game.RulingRepetition}, code: game.CodeInvalidRuling, rule: "G-6"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, game.Setup{Control: preset(t, "60/30+10/10")})
			run(t, g, tt.moves)
			for i, r := range tt.rulings {
				err := g.Rule(t0+r.at, r.by, r.r)
				checkErr(t, i, step{do: "rule " + r.r.Kind.String(), code: r.code, rule: r.rule}, err)
				roundTrip(t, g, t0+r.at)
			}
			wantResult(t, g, tt.want, tt.why)
			log := g.Log()
			if len(log) != tt.logged {
				t.Fatalf("log = %+v, want %d entries", log, tt.logged)
			}
			for _, e := range log {
				if (e.By.Role != game.Arbiter && e.By.Role != game.ChiefArbiter && e.By.Role != game.Scribe) || e.At < t0 {
					t.Errorf("log entry %+v lacks who or when", e)
				}
			}
		})
	}
}

func TestRule_C5_CorrectionChangesRemaining(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "60/30+10/10")})
	if err := g.Rule(t0+mn, arb, game.Ruling{Kind: game.RulingClock, Side: xiangqi.Red, RemainingMs: 50 * mn, Note: "display fault"}); err != nil {
		t.Fatal(err)
	}
	if got := g.View(t0 + 2*mn).Clock.Faces[xiangqi.Red].RemainingMs; got != 49*mn {
		t.Errorf("red remaining = %d, want %d", got, 49*mn)
	}
}

func TestRecordResult(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "untimed")})
	if err := g.RecordResult(t0, red, result.RedWins, game.Checkmate); err == nil {
		t.Error("a player recorded a result")
	}
	if err := g.RecordResult(t0, scribe, result.None, game.NoReason); err == nil {
		t.Error("recorded an empty result")
	}
	if err := g.RecordResult(t0+90*mn, scribe, result.BlackWins, game.NoReason); err != nil {
		t.Fatal(err)
	}
	wantResult(t, g, result.BlackWins, game.ArbiterDecision)
	err := g.RecordResult(t0+91*mn, arb, result.RedWins, game.Resignation)
	var re *game.RuleError
	if !errors.As(err, &re) || re.Code != game.CodeGameOver {
		t.Errorf("second result = %v, want game_over (a correction is a ruling)", err)
	}
	if log := g.Log(); len(log) != 1 || log[0].By != scribe || log[0].Ruling.Kind != game.RulingRecord {
		t.Errorf("log = %+v", log)
	}
	roundTrip(t, g, t0+92*mn)
}

func TestNames_API(t *testing.T) {
	for _, s := range []string{"checkmate", "stalemate", "resignation", "time", "agreement", "noCapture",
		"deadPosition", "repetitionRuling", "fouls", "forfeit", "arbiter", "threefold", "perpetualCheck"} {
		if r, ok := game.ParseReason(s); !ok || r.String() != s {
			t.Errorf("ParseReason(%q) = %v, %v", s, r, ok)
		}
	}
	for _, s := range []string{"repetition", "foul", "penalty", "clock", "result", "lateForfeit"} {
		if k, ok := game.ParseRulingKind(s); !ok || k.String() != s {
			t.Errorf("ParseRulingKind(%q) = %v, %v", s, k, ok)
		}
	}
	for _, s := range []string{"time", "noCapture", "ruling"} {
		if k, ok := game.ParseClaimKind(s); !ok || k.String() != s {
			t.Errorf("ParseClaimKind(%q) = %v, %v", s, k, ok)
		}
	}
	for _, s := range []string{"ruling", "threefoldDraw", "perpetualCheckLoses"} {
		if k, ok := game.ParseRepetitionRule(s); !ok || k.String() != s {
			t.Errorf("ParseRepetitionRule(%q) = %v, %v", s, k, ok)
		}
	}
}

func TestDeadPosition_G4_EventOption(t *testing.T) {
	// Red's advisor takes black's last chariot: neither side can mate any more.
	const fen = "3ak4/9/9/9/9/9/9/9/4r4/3K1A3 w - - 0 1"
	for _, on := range []bool{false, true} {
		g := newGame(t, game.Setup{FEN: fen, Control: clock.SuddenDeath(mn), Rules: game.Rules{DeadPositionDraw: on}})
		run(t, g, []step{{do: "move+press", by: red, move: "f0e1"}})
		if on {
			wantResult(t, g, result.Draw, game.DeadPosition)
		} else {
			wantResult(t, g, result.None, game.NoReason)
		}
	}
}

func TestDecode_Corrupt(t *testing.T) {
	g := checkmateGame(t)
	b, _ := g.MarshalBinary()
	for _, cut := range []int{0, 1, 5, len(b) / 2, len(b) - 1} {
		if _, err := game.Decode(b[:cut]); !errors.Is(err, game.ErrCorrupt) {
			t.Errorf("Decode of %d of %d bytes = %v, want ErrCorrupt", cut, len(b), err)
		}
	}
	if _, err := game.Decode(append(b, 0)); !errors.Is(err, game.ErrCorrupt) {
		t.Errorf("Decode with a trailing byte = %v", err)
	}
}

func TestArrive_C6(t *testing.T) {
	setup := game.Setup{Control: preset(t, "60/30+10/10"), LateLimitMs: 15 * mn}
	t.Run("OneSideNeverComes", func(t *testing.T) {
		g := newGame(t, setup)
		if err := g.Arrive(t0+5*mn, red); err != nil {
			t.Fatal(err)
		}
		run(t, g, []step{{at: 6 * mn, do: "move+press", by: red, move: "h2e2"}})
		if v := g.View(t0 + 15*mn - 1); v.Result != result.None {
			t.Fatalf("forfeit before the limit: %v", v.Result)
		}
		g.Settle(t0 + 20*mn)
		wantResult(t, g, result.RedByForfeit, game.Forfeit)
		if v := g.View(t0 + 20*mn); v.EndedAt != t0+15*mn || v.ArrivedAt != [2]int64{t0 + 5*mn, 0} {
			t.Errorf("ended %d, arrivals %v", v.EndedAt, v.ArrivedAt)
		}
	})
	t.Run("NeitherComes", func(t *testing.T) {
		g := newGame(t, setup)
		err := g.Arrive(t0+16*mn, black)
		var re *game.RuleError
		if !errors.As(err, &re) || re.Code != game.CodeGameOver {
			t.Fatalf("arrival after the limit = %v, want game_over", err)
		}
		wantResult(t, g, result.DoubleForfeit, game.Forfeit)
	})
	t.Run("BothLate_SecondArrivesAfterFirstMove", func(t *testing.T) {
		g := newGame(t, setup)
		if err := g.Arrive(t0+5*mn, red); err != nil {
			t.Fatal(err)
		}
		run(t, g, []step{{at: 6 * mn, do: "move+press", by: red, move: "h2e2"}})
		if err := g.Arrive(t0+8*mn, game.Actor{Role: game.Scribe, Side: xiangqi.Black}); err != nil {
			t.Fatal(err)
		}
		// Black's clock ran 2 of its 8 late minutes; the other 6 are deducted.
		if got := g.View(t0 + 8*mn).Clock.Faces[xiangqi.Black].RemainingMs; got != 52*mn {
			t.Errorf("black remaining = %d, want %d", got, 52*mn)
		}
		if log := g.Log(); len(log) != 1 || log[0].Ruling.Kind != game.RulingClock || log[0].Ruling.Side != xiangqi.Black {
			t.Errorf("log = %+v, want black's deduction", log)
		}
		roundTrip(t, g, t0+9*mn)
	})
	t.Run("BothLate_SecondMoverFirst", func(t *testing.T) {
		g := newGame(t, setup)
		if err := g.Arrive(t0+3*mn, black); err != nil {
			t.Fatal(err)
		}
		if err := g.Arrive(t0+10*mn, red); err != nil {
			t.Fatal(err)
		}
		v := g.View(t0 + 10*mn)
		if r, b := v.Clock.Faces[xiangqi.Red].RemainingMs, v.Clock.Faces[xiangqi.Black].RemainingMs; r != 50*mn || b != 57*mn {
			t.Errorf("remaining red %d, black %d; want %d and %d", r, b, 50*mn, 57*mn)
		}
	})
	t.Run("OnlySecondLate_NoDeduction", func(t *testing.T) {
		g := newGame(t, setup)
		if err := g.Arrive(t0, red); err != nil {
			t.Fatal(err)
		}
		run(t, g, []step{{at: mn, do: "move+press", by: red, move: "h2e2"}})
		if err := g.Arrive(t0+8*mn, black); err != nil {
			t.Fatal(err)
		}
		if got := g.View(t0 + 8*mn).Clock.Faces[xiangqi.Black].RemainingMs; got != 53*mn {
			t.Errorf("black remaining = %d, want %d (its clock ran from red's press)", got, 53*mn)
		}
		if len(g.Log()) != 0 {
			t.Errorf("log = %+v", g.Log())
		}
	})
}
