package tournament_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/swiss"
	"github.com/xqtour/xqtour/shared/tournament"
)

// P-6, appendix 3 §1.9: floats are balanced and limited to two "不含本积分段
// 只有一人必然下调或上调" — a player alone in its score group must float and
// that float is not counted. Worked by hand, 4 players (2/1/0 scoring):
//
//	R1: 1-2 1-0, 4-3 1-0            → 1:2 4:2 2:0 3:0
//	R2: 1-4 1-0, 2-3 1-0            → 1:4 4:2 2:2 3:0
//	R3 paired on 1:4 (alone), {4,2}:2, 3:0 (alone): 1-2 and 4-3.
//	    1 floats down alone — not counted; 2 floats up from a group of two —
//	    counted; 4 floats down from a group of two — counted; 3 floats up
//	    alone — not counted.
func TestSwissInput_P6_LoneFloatNotCounted(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 4)
	pair := func(n, table int, red, black, res string) (tournament.Pairing, tournament.Result) {
		g := gid(n, table, 1)
		return tournament.Pairing{Table: table, Red: red, Black: black, GameID: g},
			tournament.Result{Round: n, Table: table, GameID: g, Red: red, Black: black, Result: res}
	}
	var rounds []*tournament.Round
	var results []tournament.Result
	for n, games := range [][2][3]string{
		{{"p1", "p2", "1-0"}, {"p4", "p3", "1-0"}},
		{{"p1", "p4", "1-0"}, {"p2", "p3", "1-0"}},
		{{"p1", "p2", "1-0"}, {"p4", "p3", "1-0"}},
	} {
		r := &tournament.Round{Number: n + 1}
		for i, g := range games {
			p, res := pair(n+1, i+1, g[0], g[1], g[2])
			r.Pairings = append(r.Pairings, p)
			results = append(results, res)
		}
		rounds = append(rounds, r)
	}
	ev.Round = 3
	in, err := tournament.SwissInput(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]swiss.Float{1: swiss.NoFloat, 2: swiss.Up, 3: swiss.NoFloat, 4: swiss.Down}
	for _, p := range in.Players {
		if got := p.History[2].Float; got != want[p.Number] {
			t.Errorf("player %d round 3 float %d, want %d", p.Number, got, want[p.Number])
		}
		if f := p.History[0].Float; f != swiss.NoFloat {
			t.Errorf("player %d round 1 float %d, want none", p.Number, f)
		}
	}
}
