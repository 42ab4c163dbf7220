package knockout_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/knockout"
)

const (
	rw = knockout.RedWins
	dr = knockout.Draw
	bw = knockout.BlackWins
)

func TestDecide_S3(t *testing.T) {
	def := knockout.Format{}
	bo3 := knockout.Format{Games: 3}
	two := knockout.Format{Games: 2}
	loser := knockout.Format{Games: 3, Colours: knockout.LoserTakesRed}
	replay := knockout.Format{TieBreak: []knockout.TieBreakStage{{Games: 1}}}
	staged := knockout.Format{TieBreak: []knockout.TieBreakStage{{TimeControl: "rapid-10/40+5/30", Games: 2}, {TimeControl: "rapid-5/30", Games: 1}}}
	tests := []struct {
		name      string
		f         knockout.Format
		aRedFirst bool
		outcomes  []knockout.Outcome
		winner    string // "" while running
		next      knockout.Game
		tieBreak  bool
	}{
		{"S3_OneGame_RedWins", def, true, []knockout.Outcome{rw}, "a", knockout.Game{}, false},
		{"S3_OneGame_BlackWins_BRed", def, false, []knockout.Outcome{bw}, "a", knockout.Game{}, false},
		{"S3_Start_ColoursByLot", def, false, nil, "", knockout.Game{Number: 1, Red: "b", Black: "a"}, false},
		{"S3_Draw_NeedsRapidDefault", def, true, []knockout.Outcome{dr}, "",
			knockout.Game{Number: 2, Red: "b", Black: "a", Stage: 1, TimeControl: knockout.DefaultTieBreakTimeControl}, true},
		{"S3_TieBreak_SecondGameAlternates", def, true, []knockout.Outcome{dr, rw}, "",
			knockout.Game{Number: 3, Red: "a", Black: "b", Stage: 1, TimeControl: knockout.DefaultTieBreakTimeControl}, true},
		{"S3_TieBreak_Decides", def, true, []knockout.Outcome{dr, bw, dr}, "a", knockout.Game{}, false},
		{"S3_TieBreak_LevelRepeatsStage", def, true, []knockout.Outcome{dr, rw, rw}, "",
			knockout.Game{Number: 4, Red: "b", Black: "a", Stage: 2, TimeControl: knockout.DefaultTieBreakTimeControl}, true},
		{"S3_TwoGames_SecondGameSwapped", two, true, []knockout.Outcome{rw}, "", knockout.Game{Number: 2, Red: "b", Black: "a"}, false},
		{"S3_TwoGames_WinEach_TieBreak", two, true, []knockout.Outcome{rw, rw}, "",
			knockout.Game{Number: 3, Red: "a", Black: "b", Stage: 1, TimeControl: knockout.DefaultTieBreakTimeControl}, true},
		{"S3_TwoGames_WinAndDraw", two, true, []knockout.Outcome{rw, dr}, "a", knockout.Game{}, false},
		{"S3_BestOfThree_EarlyFinish", bo3, true, []knockout.Outcome{rw, bw}, "a", knockout.Game{}, false},
		{"S3_BestOfThree_Third", bo3, true, []knockout.Outcome{rw, rw}, "", knockout.Game{Number: 3, Red: "a", Black: "b"}, false},
		{"S3_LoserTakesRed_LoserRed", loser, true, []knockout.Outcome{bw}, "", knockout.Game{Number: 2, Red: "a", Black: "b"}, false},
		{"S3_LoserTakesRed_DrawSwaps", loser, true, []knockout.Outcome{bw, dr}, "", knockout.Game{Number: 3, Red: "b", Black: "a"}, false},
		{"S3_ReplayUntilWinner_EventControl", replay, true, []knockout.Outcome{dr, dr}, "",
			knockout.Game{Number: 3, Red: "a", Black: "b", Stage: 2}, true},
		{"S3_Stages_LastRepeats", staged, true, []knockout.Outcome{dr, rw, rw, dr}, "",
			knockout.Game{Number: 5, Red: "a", Black: "b", Stage: 3, TimeControl: "rapid-5/30"}, true},
		{"S3_Stages_SecondStageDecides", staged, true, []knockout.Outcome{dr, rw, rw, bw}, "a", knockout.Game{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tc.f.Decide("a", "b", tc.aRedFirst, tc.outcomes)
			if err != nil {
				t.Fatal(err)
			}
			if d.Winner != tc.winner || d.Done != (tc.winner != "") {
				t.Errorf("winner %q done %v, want %q", d.Winner, d.Done, tc.winner)
			}
			if !d.Done && (d.Next != tc.next || d.NeedsTieBreak != tc.tieBreak) {
				t.Errorf("next %+v tiebreak %v, want %+v %v", d.Next, d.NeedsTieBreak, tc.next, tc.tieBreak)
			}
			if d.PointsA+d.PointsB != 2*len(tc.outcomes) {
				t.Errorf("points %d+%d for %d games", d.PointsA, d.PointsB, len(tc.outcomes))
			}
		})
	}
}

func TestDecide_S3_Points(t *testing.T) {
	d, err := knockout.Format{Games: 2}.Decide("a", "b", true, []knockout.Outcome{dr, dr, rw, dr})
	if err != nil {
		t.Fatal(err)
	}
	if d.Winner != "a" || d.RegularA != 2 || d.RegularB != 2 || d.PointsA != 5 || d.PointsB != 3 {
		t.Errorf("got %+v", d)
	}
}

func TestDecide_S3_Errors(t *testing.T) {
	if _, err := (knockout.Format{}).Decide("a", "b", true, []knockout.Outcome{rw, rw}); !errors.Is(err, knockout.ErrMatchOver) {
		t.Errorf("game after decision: got %v", err)
	}
	if _, err := (knockout.Format{}).Decide("a", "b", true, []knockout.Outcome{0}); !errors.Is(err, knockout.ErrOutcome) {
		t.Errorf("zero outcome: got %v", err)
	}
}

func TestDrawFirstRed_S3_SeededLot(t *testing.T) {
	reds := 0
	r1, r2 := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		x, y := knockout.DrawFirstRed(r1), knockout.DrawFirstRed(r2)
		if x != y {
			t.Fatal("same seed, different lot")
		}
		if x {
			reds++
		}
	}
	if reds < 400 || reds > 600 {
		t.Errorf("lot gave red %d times in 1000", reds)
	}
}

func BenchmarkDouble256(b *testing.B) {
	names := entrants(256)
	for b.Loop() {
		br, _ := knockout.NewDouble(names, true)
		var res []knockout.Result
		for !br.Finished() {
			ms, err := br.NextRound(res)
			if err != nil {
				b.Fatal(err)
			}
			res = res[:0]
			for _, m := range ms {
				res = append(res, knockout.Result{Match: m.ID, Winner: m.A})
			}
		}
	}
}

// S-3 properties over random matches: a match always ends, colours follow
// the rule game by game, and the regular games are never more than Games.
func TestDecide_S3_RandomMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 42))
	for range 3000 {
		f := knockout.Format{Games: 1 + r.IntN(5), Colours: knockout.ColourRule(r.IntN(2)),
			TieBreak: []knockout.TieBreakStage{{TimeControl: "rapid-10/40+5/30", Games: 1 + r.IntN(3)}, {Games: 1}}}
		aRed := knockout.DrawFirstRed(r)
		var outs []knockout.Outcome
		prev := knockout.Game{}
		for step := 0; ; step++ {
			d, err := f.Decide("a", "b", aRed, outs)
			if err != nil {
				t.Fatal(err)
			}
			if d.Done {
				if d.Winner == d.Loser || (d.Winner != "a" && d.Winner != "b") {
					t.Fatalf("%+v: bad end %+v", f, d)
				}
				break
			}
			if step > 200 {
				t.Fatalf("%+v: no end after %v", f, outs)
			}
			g := d.Next
			if (g.Stage == 0) != (g.Number <= f.Games) || d.NeedsTieBreak != (g.Stage > 0) {
				t.Fatalf("%+v: game %+v after %v", f, g, outs)
			}
			if step > 0 {
				last := outs[len(outs)-1]
				// alternate; under LoserTakesRed the loser has red, so only a
				// win by black keeps the colours
				wantRed := prev.Black
				if f.Colours == knockout.LoserTakesRed && last == knockout.BlackWins {
					wantRed = prev.Red
				}
				if g.Red != wantRed {
					t.Fatalf("%+v: after %+v (%d) red is %s, want %s", f, prev, last, g.Red, wantRed)
				}
			}
			prev = g
			outs = append(outs, knockout.Outcome(1+r.IntN(3)))
		}
	}
}
