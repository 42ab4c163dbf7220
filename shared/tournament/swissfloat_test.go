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
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5, Numbering: tournament.NumberingRegistration}, 4)
	pair := func(n, table int, red, black, res string) (tournament.Pairing, tournament.Result) {
		g := gid(n, table, 1)
		return tournament.Pairing{Table: table, Red: red, Black: black, GameID: g},
			tournament.Result{Round: n, Table: table, GameID: g, Red: red, Black: black, Result: mustResult(res)}
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

// P-12 with P-6: a round paired while a game was unfinished counted it as a
// draw, and that pairing stands whatever the result, so the floats of that
// round are read from the scores as they were then. Worked by hand, 6
// players (2/1/0):
//
//	R1: 1-2 still playing when R2 is paired, 4-3 1-0, 5-6 1-0
//	R2 paired on 4:2 5:2 | 1:1 2:1 (1-2 as a draw) | 3:0 6:0 as 4-1, 5-2, 3-6
//	    → 4 and 5 float down, 1 and 2 float up (groups of two: counted).
//	Then 1-2 ends 1-0 and R2 is played: 4-1 draw, 5-2 1-0, 3-6 draw.
//	Scores for R3: 1: 2+1 = 3, 2: 0+0 = 0, 3: 0+1 = 1, 4: 2+1 = 3,
//	5: 2+2 = 4, 6: 0+1 = 1. Read with the final R1 result, 4-1 would be
//	2 against 2 and no float; as paired it was 2 against 1.
func TestSwissInput_P12_FloatsAsPaired(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5, Numbering: tournament.NumberingRegistration}, 6)
	var results []tournament.Result
	round := func(n int, unfinished []string, games ...[3]string) *tournament.Round {
		r := &tournament.Round{Number: n, UnfinishedAsDraws: unfinished}
		for i, g := range games {
			id := gid(n, i+1, 1)
			r.Pairings = append(r.Pairings, tournament.Pairing{Table: i + 1, Red: g[0], Black: g[1], GameID: id})
			results = append(results, tournament.Result{Round: n, Table: i + 1, GameID: id, Red: g[0], Black: g[1], Result: mustResult(g[2])})
		}
		return r
	}
	rounds := []*tournament.Round{
		round(1, nil, [3]string{"p1", "p2", "1-0"}, [3]string{"p4", "p3", "1-0"}, [3]string{"p5", "p6", "1-0"}),
		round(2, []string{gid(1, 1, 1)}, [3]string{"p4", "p1", "1/2-1/2"}, [3]string{"p5", "p2", "1-0"}, [3]string{"p3", "p6", "1/2-1/2"}),
	}
	ev.Round = 2
	in, err := tournament.SwissInput(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantFloat := map[int]swiss.Float{1: swiss.Up, 2: swiss.Up, 3: swiss.NoFloat, 4: swiss.Down, 5: swiss.Down, 6: swiss.NoFloat}
	wantScore := map[int]int{1: 3, 2: 0, 3: 1, 4: 3, 5: 4, 6: 1}
	for _, p := range in.Players {
		if got := p.History[1].Float; got != wantFloat[p.Number] {
			t.Errorf("player %d round 2 float %d, want %d", p.Number, got, wantFloat[p.Number])
		}
		if p.Score != wantScore[p.Number] {
			t.Errorf("player %d score %d, want %d", p.Number, p.Score, wantScore[p.Number])
		}
		if p.History[0].Pending || p.History[1].Pending {
			t.Errorf("player %d: a finished game marked pending", p.Number)
		}
	}
}
