package tournament_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// layout writes a round as "group:red-black" per table, and the byes.
func layout(r *tournament.Round) string {
	var parts []string
	for _, p := range r.Pairings {
		g := p.Group
		if p.Match != "" {
			g += "/" + p.Match
		}
		parts = append(parts, fmt.Sprintf("%d %s:%s-%s", p.Table, g, p.Red, p.Black))
	}
	if len(r.Byes) > 0 {
		parts = append(parts, "rest "+strings.Join(r.Byes, ","))
	}
	return r.Stage + ": " + strings.Join(parts, " ")
}

func pairAll(t *testing.T, s tournament.Settings, n int) ([]string, *tournament.Tournament, *tournament.History) {
	t.Helper()
	ev, ps := event(t, s, n)
	var rounds []*tournament.Round
	var results []tournament.Result
	var got []string
	for range 20 {
		r, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{}, gid)
		var re *tournament.RuleError
		if errors.As(err, &re) && re.Code == tournament.CodeEventComplete {
			return got, ev, tournament.NewHistory(ps, rounds, results)
		}
		if err != nil {
			t.Fatalf("round %d: %v", ev.Round+1, err)
		}
		ev.Round = r.Number
		rounds = append(rounds, r)
		got = append(got, layout(r))
		finishAll(rounds, &results)
	}
	t.Fatal("the event never completed")
	return nil, nil, nil
}

// S-5 same-place finals: 8 players by rating (p1 best) into snake groups
// A = p1 p4 p5 p8 and B = p2 p3 p6 p7; each group plays its round-robin
// table (S-1, numbers by seeding) on tables numbered across the groups;
// with the smaller id winning every game the groups finish in seeding
// order, and the k-th of A meets the k-th of B for places 2k-1 and 2k.
func TestPairNext_S5_GroupsSamePlaceFinals(t *testing.T) {
	got, ev, h := pairAll(t, tournament.Settings{Name: "x", System: tournament.Groups}, 8)
	want := []string{
		"groups: 1 A:p1-p8 2 A:p4-p5 3 B:p2-p7 4 B:p3-p6",
		"groups: 1 A:p8-p5 2 A:p1-p4 3 B:p7-p6 4 B:p2-p3",
		"groups: 1 A:p4-p8 2 A:p5-p1 3 B:p3-p7 4 B:p6-p2",
		"samePlace: 1 F1:p1-p2 2 F2:p4-p3 3 F3:p5-p6 4 F4:p8-p7",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for name, order := range map[string][]string{"A": {"p1", "p4", "p5", "p8"}, "B": {"p2", "p3", "p6", "p7"}, "F2": {"p3", "p4"}} {
		sev, err := tournament.GroupStandingsEvent(ev, h, name)
		if err != nil {
			t.Fatal(err)
		}
		table, err := standings.Standings(sev, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range table.Rows {
			ids = append(ids, r.PlayerID)
		}
		if !slices.Equal(ids, order) {
			t.Errorf("group %s standings %v, want %v", name, ids, order)
		}
	}
	var re *tournament.RuleError
	if _, err := tournament.GroupStandingsEvent(ev, h, "Z"); !errors.As(err, &re) || re.Code != "unknown_group" {
		t.Errorf("group Z: %v", err)
	}
	if names := tournament.GroupNames(ev, h); !slices.Equal(names, []string{"A", "B", "F1", "F2", "F3", "F4"}) {
		t.Errorf("group names %v", names)
	}
}

// S-5 cross finals: A1-B2 and B1-A2 as knockout semi-finals, then the final
// and the third-place match (S-3 matches).
func TestPairNext_S5_GroupsCrossFinals(t *testing.T) {
	got, _, _ := pairAll(t, tournament.Settings{Name: "x", System: tournament.Groups, Groups: tournament.GroupStage{Finals: tournament.FinalsCross}}, 8)
	if len(got) != 5 {
		t.Fatalf("%d rounds, want 3 group rounds and 2 knockout rounds:\n%s", len(got), strings.Join(got, "\n"))
	}
	semis, finals := got[3], got[4]
	for _, pair := range [][2]string{{"p1", "p3"}, {"p2", "p4"}} {
		if !strings.Contains(semis, pair[0]+"-"+pair[1]) && !strings.Contains(semis, pair[1]+"-"+pair[0]) {
			t.Errorf("semi-finals %q lack %v (A1-B2, B1-A2)", semis, pair)
		}
	}
	if !strings.HasPrefix(semis, "cross: ") || !strings.Contains(finals, "/F:") || !strings.Contains(finals, "/3P:") {
		t.Errorf("cross stage: %q then %q", semis, finals)
	}
	if !strings.Contains(finals, "p1-p2") && !strings.Contains(finals, "p2-p1") {
		t.Errorf("final %q is not p1 v p2", finals)
	}
}

// S-5 with three groups of three: each round every group plays one game and
// rests one player (S-7), then three same-place finals of three players.
func TestPairNext_S5_ThreeGroupsRests(t *testing.T) {
	got, _, _ := pairAll(t, tournament.Settings{Name: "x", System: tournament.Groups, Groups: tournament.GroupStage{Count: 3}}, 9)
	if len(got) != 6 {
		t.Fatalf("%d rounds, want 3 + 3:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i, l := range got {
		stage := "groups"
		if i >= 3 {
			stage = "samePlace"
		}
		if !strings.HasPrefix(l, stage+": ") || strings.Count(l, ":p") != 3 || strings.Count(strings.SplitN(l, "rest ", 2)[1], ",") != 2 {
			t.Errorf("round %d: %s", i+1, l)
		}
	}
	if !strings.Contains(got[3], "F1:") || !strings.Contains(got[3], "F3:") {
		t.Errorf("finals round: %s", got[3])
	}
}

// S-6 in a group: p8 withdraws after round 1, having met one of the three
// opponents due in group A — fewer than half, so group A's table annuls
// p8's results; the whole event's table keeps them as played.
func TestGroups_S6_WithdrawalCountsTheGroup(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Groups}, 8)
	var rounds []*tournament.Round
	var results []tournament.Result
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	if err := ev.Withdraw(ps[7]); err != nil {
		t.Fatal(err)
	}
	r2 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	for _, p := range r2.Pairings {
		if p.Red == "p8" || p.Black == "p8" {
			t.Fatalf("withdrawn p8 paired in round 2: %+v", p)
		}
	}
	h := tournament.NewHistory(ps, rounds, results)
	gev, err := tournament.GroupStandingsEvent(ev, h, "A")
	if err != nil {
		t.Fatal(err)
	}
	ga, err := standings.Standings(gev, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ga.Annulled, []string{"p8"}) {
		t.Errorf("group A annulled %v, want [p8]", ga.Annulled)
	}
	wev, err := tournament.StandingsEvent(ev, h)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := standings.Standings(wev, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Annulled) != 0 {
		t.Errorf("whole event annulled %v", whole.Annulled)
	}
}
