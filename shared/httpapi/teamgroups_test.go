package httpapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// The team combined system (S-5 for teams, then the S-3 cross elimination
// as team knockout matches): 8 teams of 2 boards, seeded by their members'
// mean rating into snake groups A = 1 4 5 8 and B = 2 3 6 7, three rounds of
// team round robin in each group, the higher seed winning every board. Each
// group's team table gives A 1-4-5-8 and B 2-3-6-7, so the cross
// elimination is A1–B2 (1 v 3) and B1–A2 (2 v 4). 1 v 3 is drawn on every
// board: the count-back cannot split it, so an additional rapid match
// follows, which team 3 wins. Final 2 v 3 and third place 1 v 4 go to the
// higher seed. Overall: 2, 3, 1, 4, then the third of each group share 5th
// and the fourth share 7th.
func TestTeamGroups_S5_CrossElimination(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Team groups","system":"groups","teams":true,"boards":2,"groups":{"count":2,"finals":"cross"}}`, 8, 2, 0)
	num := map[string]int{}
	for _, tc := range te.teams {
		num[tc.ID] = tc.Team.Number
	}
	groups := map[string][]int{"A": {1, 4, 5, 8}, "B": {2, 3, 6, 7}}
	var cross []string
	rapids := 0
	for n := 1; ; n++ {
		r := s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil)
		if r.Status == http.StatusUnprocessableEntity && r.ErrorCode() == "event_complete" {
			break
		}
		r.Want(t, http.StatusCreated)
		var round struct {
			tieRoundJSON
			Stage   string
			Matches []struct {
				tieMatchJSON
				Group string
			}
		}
		r.Decode(t, &round)
		var pairs []string
		for _, m := range round.Matches {
			a, b := num[m.Home], num[m.Away]
			lo := min(a, b)
			pairs = append(pairs, fmt.Sprintf("%d-%d", lo, max(a, b)))
			if n <= 3 {
				g := groups[m.Group]
				if round.Stage != "groups" || !slices.Contains(g, a) || !slices.Contains(g, b) {
					t.Errorf("round %d: match %d-%d in group %q (stage %s)", n, a, b, m.Group, round.Stage)
				}
			}
			plan := "HH" // the lower number wins both boards
			if lo == 1 && max(a, b) == 3 {
				plan = "DD"
			}
			if num[m.Home] != lo {
				plan = strings.NewReplacer("H", "A").Replace(plan)
			}
			te.playMatch(t, s, round.tieRoundJSON, m.tieMatchJSON, plan)
		}
		if round.Stage == "cross" {
			cross = append(cross, strings.Join(pairs, " "))
			// The level tie gets its rapid match on reading the round.
			var again tieRoundJSON
			s.Get(fmt.Sprintf("/tournaments/%s/rounds/%d", te.ev.ID, n)).Want(t, http.StatusOK).Decode(t, &again)
			for _, m := range again.Matches {
				if m.Rapid {
					rapids++
					plan := "HH" // team 3 wins the rapid match
					if num[m.Home] != 3 {
						plan = "AA"
					}
					te.playMatch(t, s, again, m, plan)
				}
			}
		}
		if n == 3 {
			var st teamStandingsJSON
			s.Get("/tournaments/"+te.ev.ID+"/standings?view=teams&group=B").Want(t, http.StatusOK).Decode(t, &st)
			var order []int
			for _, row := range st.Rows {
				order = append(order, num[row.TeamID])
			}
			if fmt.Sprint(order) != "[2 3 6 7]" {
				t.Errorf("group B team table %v", order)
			}
		}
		if n > 8 {
			t.Fatal("the event does not end")
		}
	}
	if rapids != 1 {
		t.Errorf("%d rapid matches, want 1 (the level 1–3 tie)", rapids)
	}
	if got, want := strings.Join(cross, " | "), "1-3 2-4 | 2-3 1-4"; got != want {
		t.Errorf("cross elimination %q, want %q", got, want)
	}
	var places struct {
		Rows []struct {
			Place      int
			TeamID     string
			From       string
			GroupPlace int
		}
	}
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=overall").Want(t, http.StatusOK).Decode(t, &places)
	var got []string
	for _, row := range places.Rows {
		got = append(got, fmt.Sprintf("%d:%d:%s", row.Place, num[row.TeamID], row.From))
	}
	if want := "1:2:cross 2:3:cross 3:1:cross 4:4:cross 5:5:A 5:6:B 7:8:A 7:7:B"; strings.Join(got, " ") != want {
		t.Errorf("overall places %s, want %s", strings.Join(got, " "), want)
	}
}

// S-5 same-place finals for teams: 4 teams in groups A = 1 4 and B = 2 3;
// the higher seed wins, so F1 is 1 v 2 and F2 4 v 3, further team round
// robins, and the overall places follow the finals.
func TestTeamGroups_S5_SamePlaceFinals(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Team groups","system":"groups","teams":true,"boards":2}`, 4, 2, 0)
	num := map[string]int{}
	for _, tc := range te.teams {
		num[tc.ID] = tc.Team.Number
	}
	var finals []string
	for n := 1; ; n++ {
		r := s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil)
		if r.Status == http.StatusUnprocessableEntity && r.ErrorCode() == "event_complete" {
			break
		}
		r.Want(t, http.StatusCreated)
		var round struct {
			tieRoundJSON
			Stage   string
			Matches []struct {
				tieMatchJSON
				Group string
			}
		}
		r.Decode(t, &round)
		for _, m := range round.Matches {
			a, b := num[m.Home], num[m.Away]
			if round.Stage == "samePlace" {
				finals = append(finals, fmt.Sprintf("%s:%d-%d", m.Group, min(a, b), max(a, b)))
			}
			plan := "HH"
			if a > b {
				plan = "AA"
			}
			te.playMatch(t, s, round.tieRoundJSON, m.tieMatchJSON, plan)
		}
		if n > 4 {
			t.Fatal("the event does not end")
		}
	}
	if got := strings.Join(finals, " "); got != "F1:1-2 F2:3-4" {
		t.Errorf("same-place finals %s", got)
	}
	var places struct {
		Rows []struct {
			Place  int
			TeamID string
			From   string
		}
	}
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=overall").Want(t, http.StatusOK).Decode(t, &places)
	var got []string
	for _, row := range places.Rows {
		got = append(got, fmt.Sprintf("%d:%d:%s", row.Place, num[row.TeamID], row.From))
	}
	if want := "1:1:F1 2:2:F1 3:3:F2 4:4:F2"; strings.Join(got, " ") != want {
		t.Errorf("overall places %s, want %s", strings.Join(got, " "), want)
	}
}
