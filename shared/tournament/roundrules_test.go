package tournament_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/tournament"
)

// wantRefusal checks that err is a *RuleError with the code and rule.
func wantRefusal(t *testing.T, what string, err error, code, rule string) {
	t.Helper()
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Code != code || re.Rule != rule {
		t.Errorf("%s: got %v, want %s (%s)", what, err, code, rule)
	}
}

// S-2: rounds are paired one after another, and only a paired round is
// started or changed.
func TestRoundOrder_S2(t *testing.T) {
	ev, _ := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 4)
	ev.Round = 2
	if err := ev.CheckNextRound(3); err != nil {
		t.Errorf("round 3 after 2: %v", err)
	}
	for _, n := range []int{4, 9} {
		wantRefusal(t, fmt.Sprintf("round %d after 2", n), ev.CheckNextRound(n), tournament.CodeRoundOutOfOrder, "S-2")
	}
	for _, n := range []int{1, 2} {
		if err := ev.CheckPaired(n); err != nil {
			t.Errorf("round %d of 2 paired: %v", n, err)
		}
	}
	for _, n := range []int{0, 3} {
		wantRefusal(t, fmt.Sprintf("round %d of 2 paired", n), ev.CheckPaired(n), tournament.CodeRoundNotPaired, "S-2")
	}
}

// C-1: a round has started once it was started or its start time passed.
func TestRoundStarted_C1(t *testing.T) {
	for _, c := range []struct {
		startsAt, now int64
		want          bool
	}{{0, 5000, false}, {5000, 4999, false}, {5000, 5000, true}, {5000, 9000, true}} {
		r := &tournament.Round{Number: 1, StartsAt: c.startsAt}
		if got := r.Started(c.now); got != c.want {
			t.Errorf("StartsAt %d at %d: got %v, want %v", c.startsAt, c.now, got, c.want)
		}
	}
}

// O-1, T-6: manual changes go to the latest round of an individual event,
// before its start time, before any result and before any game has begun.
func TestRoundChange_O1_T6(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 4)
	var rounds []*tournament.Round
	var results []tournament.Result
	r1 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	r2 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(tournament.Pairing) string { return "" })
	h := tournament.NewHistory(ps, rounds, results)

	if err := ev.CheckChange(r2, h, 1000); err != nil {
		t.Errorf("latest round, not started: %v", err)
	}
	wantRefusal(t, "round 1 after round 2", ev.CheckChange(r1, h, 1000), tournament.CodeRoundClosed, "O-1")
	timed := *r2
	timed.StartsAt = 1000
	wantRefusal(t, "at its start time", ev.CheckChange(&timed, h, 1000), tournament.CodeRoundStarted, "O-1")
	p := r2.Pairings[0]
	decided := tournament.NewHistory(ps, rounds, append(results, tournament.Result{Round: 2, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: result.RedWins}))
	wantRefusal(t, "a table with a result", ev.CheckChange(r2, decided, 1000), tournament.CodeRoundStarted, "O-1")

	if err := r2.CheckGamesUnbegun(func(tournament.Pairing) bool { return false }); err != nil {
		t.Errorf("no game begun: %v", err)
	}
	last := r2.Pairings[len(r2.Pairings)-1].Table
	begun := func(q tournament.Pairing) bool { return q.Table == last }
	wantRefusal(t, "a game begun", r2.CheckGamesUnbegun(begun), tournament.CodeRoundStarted, "O-1")

	ev.Settings.Teams = true
	wantRefusal(t, "a team round", ev.CheckChange(r2, h, 1000), tournament.CodeTeamRound, "T-6")
}

// T-1, R-5: lineups and the team and board tables belong to team events.
func TestTeamEventOnly_T1_R5(t *testing.T) {
	ind, _ := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 3}, 2)
	wantRefusal(t, "lineups of an individual event", ind.CheckTeamEvent("lineups"), tournament.CodeNotTeamEvent, "T-1")
	wantRefusal(t, "team table of an individual event", ind.CheckTeamTables(), tournament.CodeTeamTablesUnavailable, "R-5")
	f := newTeamField(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 3, Boards: 2}, 2)
	if err := f.t.CheckTeamEvent("lineups"); err != nil {
		t.Errorf("lineups of a team event: %v", err)
	}
	if err := f.t.CheckTeamTables(); err != nil {
		t.Errorf("team table of a team event: %v", err)
	}
}

// S-1, S-6: a round robin may be over once the last round of its table is
// paired; the table leaves out whoever withdrew before round 1, so
// MayBeFinished turns true exactly when the next pairing is refused as
// complete, however many withdrew (before round 1 or later) or were removed.
func TestMayBeFinished_S1_S6_RoundRobinTable(t *testing.T) {
	for _, c := range []struct {
		system                      string
		players, withdrawn, removed int
		withdrawAfter1              bool
	}{
		{tournament.RoundRobin, 4, 0, 0, false},
		{tournament.RoundRobin, 5, 1, 0, false},
		{tournament.RoundRobin, 6, 2, 0, false},
		{tournament.RoundRobin, 6, 1, 1, false},
		{tournament.RoundRobin, 5, 1, 0, true},
		{tournament.DoubleRoundRobin, 5, 1, 0, false},
	} {
		name := fmt.Sprintf("%s_%d_withdrawn%d_removed%d_after1_%v", c.system, c.players, c.withdrawn, c.removed, c.withdrawAfter1)
		t.Run(name, func(t *testing.T) {
			ev, ps := event(t, tournament.Settings{Name: "x", System: c.system}, c.players)
			ev.Status = tournament.Running
			// The removed were withdrawn first: removal takes them out of both counts.
			for _, p := range ps[len(ps)-c.removed:] {
				if err := ev.Withdraw(p); err != nil {
					t.Fatal(err)
				}
				if err := ev.RemovePlayer(p, false); err != nil {
					t.Fatal(err)
				}
			}
			ps = ps[:len(ps)-c.removed]
			var rounds []*tournament.Round
			var results []tournament.Result
			quitters := ps[len(ps)-c.withdrawn:]
			if !c.withdrawAfter1 {
				for _, p := range quitters {
					if err := ev.Withdraw(p); err != nil {
						t.Fatal(err)
					}
				}
			}
			for n := 1; ; n++ {
				h := tournament.NewHistory(ps, rounds, results)
				_, err := tournament.PairNext(ev, h, tournament.PairOptions{}, gid)
				var re *tournament.RuleError
				if errors.As(err, &re) && re.Code == tournament.CodeEventComplete {
					if !ev.MayBeFinished() {
						t.Fatalf("after the table's %d rounds: MayBeFinished is false", ev.Round)
					}
					return
				}
				if ev.MayBeFinished() {
					t.Fatalf("round %d still to pair: MayBeFinished is true", n)
				}
				play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
				if n == 1 && c.withdrawAfter1 {
					for _, p := range quitters {
						if err := ev.Withdraw(p); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		})
	}
}

// T-6, S-1: a team round robin's table is over its teams, not its players.
func TestMayBeFinished_S1_TeamRoundRobin(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "x", System: tournament.RoundRobin, Boards: 2}, 3)
	f.t.Status = tournament.Running
	for n := 1; n <= 3; n++ {
		if f.t.MayBeFinished() {
			t.Fatalf("round %d of 3 still to pair: MayBeFinished is true", n)
		}
		f.t.Round = n
	}
	if !f.t.MayBeFinished() {
		t.Error("three teams' three rounds paired: MayBeFinished is false")
	}
}

// S-4, S-8: a Swiss may be over after its last round, a swissKnockout after
// its final, a closed challenge ring after its rounds; an open ring never
// ends by itself, and only a running event may be over.
func TestMayBeFinished_S4_S8(t *testing.T) {
	for _, c := range []struct {
		system     string
		rounds, at int
		status     tournament.Status
		want       bool
	}{
		{tournament.Swiss, 5, 4, tournament.Running, false},
		{tournament.Swiss, 5, 5, tournament.Running, true},
		{tournament.Swiss, 5, 5, tournament.Registration, false},
		{tournament.SwissKnockout, 3, 3, tournament.Running, false},
		{tournament.SwissKnockout, 3, 4, tournament.Running, true},
		{tournament.ChallengeSystem, 0, 40, tournament.Running, false},
		{tournament.ChallengeSystem, 6, 6, tournament.Running, true},
		{tournament.Knockout, 0, 1, tournament.Running, true},
	} {
		ev := &tournament.Tournament{Settings: tournament.Settings{System: c.system, Rounds: c.rounds}, Status: c.status, Round: c.at}
		if got := ev.MayBeFinished(); got != c.want {
			t.Errorf("%s of %d rounds at round %d (%s): got %v, want %v", c.system, c.rounds, c.at, c.status, got, c.want)
		}
	}
}

// TestResultsKeepPairings_S3: only a system without knockout matches keeps
// a round's pairings whatever its results.
func TestResultsKeepPairings_S3(t *testing.T) {
	keep := map[string]bool{tournament.Swiss: true, tournament.SwissElimination: true, tournament.SwissNPlusOne: true, tournament.RoundRobin: true, tournament.DoubleRoundRobin: true}
	for _, sys := range tournament.Systems {
		if got := (tournament.Settings{System: sys}).ResultsKeepPairings(); got != keep[sys] {
			t.Errorf("%s: ResultsKeepPairings = %v, want %v", sys, got, keep[sys])
		}
	}
}
