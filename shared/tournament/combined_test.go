package tournament_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

func TestSettings_S4_EliminationDefaultsAndRefusals(t *testing.T) {
	s := tournament.Settings{Name: "x", System: tournament.SwissElimination, Rounds: 9}
	if err := s.Normalize(); err != nil {
		t.Fatal(err)
	}
	// 赛程过半: past halfway of 9 rounds is after round 5.
	if want := (tournament.Elimination{FromRound: 5, PerRound: 1}); s.Elimination != want {
		t.Errorf("defaults %+v, want %+v", s.Elimination, want)
	}
	tests := []struct {
		name  string
		s     tournament.Settings
		field string
	}{
		{"S4_FromLastRound", tournament.Settings{System: tournament.SwissElimination, Rounds: 5, Elimination: tournament.Elimination{FromRound: 5}}, "elimination.fromRound"},
		{"S4_NegativePerRound", tournament.Settings{System: tournament.SwissElimination, Rounds: 5, Elimination: tournament.Elimination{PerRound: -1}}, "elimination.perRound"},
		{"S4_NegativeKeep", tournament.Settings{System: tournament.SwissElimination, Rounds: 5, Elimination: tournament.Elimination{Keep: -2}}, "elimination.keep"},
		{"S4_OneRound", tournament.Settings{System: tournament.SwissElimination, Rounds: 1}, "rounds"},
		{"S4_NotAnEliminationEvent", tournament.Settings{System: tournament.Swiss, Rounds: 5, Elimination: tournament.Elimination{PerRound: 2}}, "elimination"},
		{"S5_NotAGroupsEvent", tournament.Settings{System: tournament.RoundRobin, Groups: tournament.GroupStage{Count: 2}}, "groups"},
		{"S5_OneGroup", tournament.Settings{System: tournament.Groups, Groups: tournament.GroupStage{Count: 1}}, "groups.count"},
		{"S5_CrossOfThree", tournament.Settings{System: tournament.Groups, Groups: tournament.GroupStage{Count: 3, Finals: tournament.FinalsCross}}, "groups.finals"},
		{"S5_UnknownFinals", tournament.Settings{System: tournament.Groups, Groups: tournament.GroupStage{Finals: "random"}}, "groups.finals"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.Name = "x"
			err := tc.s.Normalize()
			var fe *tournament.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("got %v, want a FieldError on %s", err, tc.field)
			}
		})
	}
	g := tournament.Settings{Name: "x", System: tournament.Groups}
	if err := g.Normalize(); err != nil || g.Groups != (tournament.GroupStage{Count: 2, Finals: tournament.FinalsSamePlace}) {
		t.Errorf("groups defaults: %+v, %v", g.Groups, err)
	}
}

// S-4 last-place elimination: 16 players, 5 rounds, 3 dropped after each
// round from round 3 (past halfway) — 16, 16, 16, 13, 10 players in rounds
// 1…5; with Keep 12 the last drop stops at 12. Who leaves is the tail of the standings after the round,
// among those still in, computed here independently of the pairing.
func TestPairNext_S4_SwissElimination(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.SwissElimination, Rounds: 5,
		Elimination: tournament.Elimination{PerRound: 3, Keep: 12}}, 16)
	var rounds []*tournament.Round
	var results []tournament.Result
	none := func(tournament.Pairing) string { return "" }
	in := map[string]bool{}
	for _, p := range ps {
		in[p.ID] = true
	}
	wantField := []int{16, 16, 16, 13, 12}
	for n := 1; n <= 5; n++ {
		var want []string
		if k := n - 1; k >= 3 {
			sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
			if err != nil {
				t.Fatal(err)
			}
			table, err := standings.Standings(sev, k)
			if err != nil {
				t.Fatal(err)
			}
			var still []string
			for _, row := range table.Rows {
				if in[row.PlayerID] {
					still = append(still, row.PlayerID)
				}
			}
			want = still[max(len(still)-3, 12):]
		}
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, none)
		if !slices.Equal(r.Eliminated, want) {
			t.Fatalf("round %d eliminated %v, want %v (the tail of the standings after round %d)", n, r.Eliminated, want, n-1)
		}
		for _, id := range want {
			delete(in, id)
		}
		seen := map[string]bool{}
		for _, p := range r.Pairings {
			seen[p.Red], seen[p.Black] = true, true
		}
		for _, id := range r.Byes {
			seen[id] = true
		}
		if len(seen) != wantField[n-1] {
			t.Fatalf("round %d pairs %d players, want %d", n, len(seen), wantField[n-1])
		}
		for id := range seen {
			if !in[id] {
				t.Errorf("round %d pairs %s, who was eliminated", n, id)
			}
		}
		finishAll(rounds, &results)
	}
	_, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{}, gid)
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Code != tournament.CodeEventComplete {
		t.Fatalf("round 6 of 5: %v", err)
	}
}

// S-4: the elimination is drawn from the standings, so an open game of the
// round it follows refuses the pairing even when P-12 would count it as a draw.
func TestPairNext_S4_EliminationNeedsFinishedRound(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.SwissElimination, Rounds: 3,
		Elimination: tournament.Elimination{FromRound: 1}}, 6)
	var rounds []*tournament.Round
	var results []tournament.Result
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(p tournament.Pairing) string {
		if p.Table == 1 {
			return ""
		}
		return "1-0"
	})
	_, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{UnfinishedAsDraws: true}, gid)
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Code != tournament.CodeRoundUnfinished || re.Rule != "S-4" {
		t.Fatalf("got %v, want round_unfinished (S-4)", err)
	}
}

// S-4 over a simulated 24-player, 7-round elimination event with random
// results, 3 dropped after each round from round 4: every round the engine
// is given (SwissInput, the players out as paused) passes the pairing
// checker, and PairNext pairs exactly that round.
func TestSwissElimination_S4_CheckerPassesEveryRound(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "sim", System: tournament.SwissElimination, Rounds: 7,
		Elimination: tournament.Elimination{PerRound: 3}}, 24)
	rng := rand.New(rand.NewPCG(5, 7))
	var rounds []*tournament.Round
	var results []tournament.Result
	field := 24
	for n := 1; n <= 7; n++ {
		h := tournament.NewHistory(ps, rounds, results)
		in, err := tournament.SwissInput(ev, h, tournament.PairOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := swiss.Pair(in)
		if err != nil {
			t.Fatalf("round %d: %v", n, err)
		}
		if v := checker.Check(in, want); len(v) > 0 {
			t.Fatalf("round %d: %v", n, v)
		}
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(tournament.Pairing) string {
			return [...]string{"1-0", "0-1", "1/2-1/2"}[rng.IntN(3)]
		})
		field -= len(r.Eliminated)
		if len(r.Pairings) != len(want.Boards) || 2*len(r.Pairings)+len(r.Byes) != field {
			t.Fatalf("round %d: %d boards and %d byes for %d players; the engine made %d boards", n, len(r.Pairings), len(r.Byes), field, len(want.Boards))
		}
	}
	if field != 24-3*3 {
		t.Fatalf("%d players in the last round, want 15", field)
	}
}
