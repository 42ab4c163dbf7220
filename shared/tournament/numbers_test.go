package tournament_test

import (
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/tournament"
)

// P-3 numbers (002 appendix 3 §1.3): before round 1 a player's number is the
// entry number; once round 1 is paired it is the number drawn, the same
// PairingNumbers the pairing reads, and a late entrant takes the next one.
func TestShownNumbers_P3(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 8)
	if tournament.NumbersDrawn(ev) {
		t.Fatal("numbers drawn before round 1")
	}
	for _, p := range ps {
		if n := tournament.ShownNumbers(ev, ps)[p.ID]; n != p.Number {
			t.Errorf("before the draw %s shows %d, want entry number %d", p.ID, n, p.Number)
		}
	}
	var rounds []*tournament.Round
	var results []tournament.Result
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	if !tournament.NumbersDrawn(ev) {
		t.Fatal("numbers not drawn after round 1")
	}
	late, err := ev.Register(tournament.Player{ID: "late", Name: "Late", Rating: 2500}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ps = append(ps, &late)
	shown, drawn := tournament.ShownNumbers(ev, ps), tournament.PairingNumbers(ev, ps)
	moved := 0
	for _, p := range ps {
		if shown[p.ID] != drawn[p.ID] {
			t.Errorf("%s shows %d, pairs as %d", p.ID, shown[p.ID], drawn[p.ID])
		}
		if shown[p.ID] != p.Number {
			moved++
		}
	}
	if shown["late"] != 9 || moved == 0 {
		t.Errorf("late entrant shows %d, want 9; %d players' numbers differ from their entry numbers", shown["late"], moved)
	}
	// A round robin keeps its entry numbers (its table numbering is S-1's).
	rr, rps := event(t, tournament.Settings{Name: "x", System: tournament.RoundRobin, Numbering: tournament.NumberingDraw}, 6)
	rr.Round = 1
	for _, p := range rps {
		if n := tournament.ShownNumbers(rr, rps)[p.ID]; n != p.Number {
			t.Errorf("round robin: %s shows %d, want %d", p.ID, n, p.Number)
		}
	}
}

// P-11 with drawn numbers (002 appendix 3 §4(8): 两号相加之和，奇数小号先走，
// 偶数大号先走): round 1's red winners share one colour history, so in round 2
// the sum of two of their numbers decides who is red — the drawn numbers.
// Over several lots some of these pairs would get the other colour by entry
// numbers, so the test tells the two apart.
func TestNumberSum_P11_DrawnNumbers(t *testing.T) {
	cases, differ := 0, 0
	for k := range 12 {
		ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 7}, 10)
		ev.ID = fmt.Sprintf("t-sum-%d", k)
		var rounds []*tournament.Round
		var results []tournament.Result
		play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		num := tournament.ShownNumbers(ev, ps)
		entry := map[string]int{}
		for _, p := range ps {
			entry[p.ID] = p.Number
		}
		for i, p := range r.Pairings {
			if r.Explanations[i].ColourReason != "numberSum" {
				continue
			}
			cases++
			red, black := num[p.Red], num[p.Black]
			if odd := (red+black)%2 == 1; odd != (red < black) {
				t.Errorf("%s table %d: no. %d red v no. %d, sum %d", ev.ID, p.Table, red, black, red+black)
			}
			if er, eb := entry[p.Red], entry[p.Black]; ((er+eb)%2 == 1) != (er < eb) {
				differ++ // by entry numbers the other would be red
			}
		}
	}
	t.Logf("%d number-sum pairs, %d decided otherwise by entry numbers", cases, differ)
	if cases < 12 || differ == 0 {
		t.Fatalf("%d number-sum pairs, %d of them decided otherwise by entry numbers", cases, differ)
	}
}
