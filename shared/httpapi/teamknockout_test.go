package httpapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type tieMatchJSON struct {
	matchJSON
	Tie, Winner, DecidedBy string
	Rapid                  bool
	Explanation            *struct{ ColourReason string }
}

type tieRoundJSON struct {
	teamRoundJSON
	Matches []tieMatchJSON
}

// playMatch records a team match's boards from the home team's side: "H" the
// home player wins the board, "A" the away player, "D" a draw.
func (te *teamEvent) playMatch(t *testing.T, s *apitest.Server, r tieRoundJSON, m tieMatchJSON, boards string) {
	t.Helper()
	home := te.byID[m.Home].roster()
	for _, p := range r.Pairings {
		if p.Match != m.Match {
			continue
		}
		homeRed := slices.Contains(home, p.Red)
		res := "1/2-1/2"
		switch {
		case boards[p.Board-1] == 'H' && homeRed, boards[p.Board-1] == 'A' && !homeRed:
			res = "1-0"
		case boards[p.Board-1] != 'D':
			res = "0-1"
		}
		te.result(t, s, p.GameID, res)
	}
}

// S-3 for teams (000 ch.2 §4 第6条): a knockout of 8 teams of 4 boards,
// teams seeded by their members' mean rating (team 1 the strongest), so the
// quarter-finals are 1–8, 4–5, 2–7 and 3–6. The lot lists one team of each
// tie first; it has red on the odd boards (T-6). The quarter-finals show the
// three ways a tie ends:
//   - 1–8: team 1 wins every board, decided by match points (T-7);
//   - 4–5: 4-4 on board points, team 5 won board 1 and team 4 board 2, the
//     rest drawn: the board count-back gives it to team 5;
//   - 2–7: every board drawn, so level on every board: reading the round adds
//     an additional rapid match (附加快棋) with the colours swapped at the
//     tie-break preset, which team 7 wins;
//
// and the next round waits for it. The higher seed wins every later board:
// semi-finals 1–5 and 7–3, final 1–3, third place 5–7; the overall places are
// 1, 3, 5, 7, then the quarter-final losers share 5th. The rapid match does
// not count in the team table.
func TestTeamKnockout_S3_EightTeamsTieBreak(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Team cup","system":"knockout","teams":true,"boards":4,"knockout":{"thirdPlace":true}}`, 8, 4, 0)
	if k := te.ev.T["knockout"].(map[string]any); k["teamTieBreak"] != "boardCount" {
		t.Fatalf("default tie-break: %v", k)
	}
	num := map[string]int{}
	for _, tc := range te.teams {
		num[tc.ID] = tc.Team.Number
	}
	pairOf := func(m tieMatchJSON) [2]int {
		a, b := num[m.Home], num[m.Away]
		return [2]int{min(a, b), max(a, b)}
	}
	getRound := func(n int) tieRoundJSON {
		var r tieRoundJSON
		s.Get(fmt.Sprintf("/tournaments/%s/rounds/%d?explain=true", te.ev.ID, n)).Want(t, http.StatusOK).Decode(t, &r)
		return r
	}
	var r1 tieRoundJSON
	s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r1)
	if len(r1.Matches) != 4 || len(r1.Pairings) != 16 {
		t.Fatalf("round 1: %d matches, %d boards", len(r1.Matches), len(r1.Pairings))
	}
	r1 = getRound(1)
	var got [][2]int
	for _, m := range r1.Matches {
		got = append(got, pairOf(m))
		if m.Tie == "" || m.Explanation == nil || m.Explanation.ColourReason != "lot" {
			t.Errorf("match %s: tie %q, explanation %+v (colours by lot)", m.Match, m.Tie, m.Explanation)
		}
	}
	if want := [][2]int{{1, 8}, {4, 5}, {2, 7}, {3, 6}}; !slices.Equal(got, want) {
		t.Fatalf("quarter-finals %v, want %v", got, want)
	}
	// The lot: each first-listed team has red on its odd boards (T-6).
	for _, p := range r1.Pairings {
		m := r1.Matches[slices.IndexFunc(r1.Matches, func(m tieMatchJSON) bool { return m.Match == p.Match })]
		if homeRed := slices.Contains(te.byID[m.Home].roster(), p.Red); homeRed != (p.Board%2 == 1) {
			t.Errorf("match %s board %d: the first-listed team has red %v (T-6)", m.Match, p.Board, homeRed)
		}
	}
	// side returns the board string with the home team as the given team.
	side := func(m tieMatchJSON, team int, boards string) string {
		if num[m.Home] == team {
			return boards
		}
		return strings.Map(func(r rune) rune {
			switch r {
			case 'H':
				return 'A'
			case 'A':
				return 'H'
			}
			return r
		}, boards)
	}
	plan := map[[2]int]string{{1, 8}: "HHHH", {4, 5}: "AHDD", {2, 7}: "DDDD", {3, 6}: "HHHD"} // from the lower number's side
	for _, m := range r1.Matches {
		te.playMatch(t, s, r1, m, side(m, pairOf(m)[0], plan[pairOf(m)]))
	}
	// The 2–7 tie is level on every board: reading the round adds a rapid
	// match with the colours swapped, and round 2 waits for it.
	r1 = getRound(1)
	if len(r1.Matches) != 5 {
		t.Fatalf("round 1 after the results: %+v", r1.Matches)
	}
	var rapid tieMatchJSON
	for _, m := range r1.Matches {
		switch pairOf(m) {
		case [2]int{1, 8}:
			if num[m.Winner] != 1 || m.DecidedBy != "matchPoints" {
				t.Errorf("1–8: winner %d by %q", num[m.Winner], m.DecidedBy)
			}
		case [2]int{4, 5}:
			if num[m.Winner] != 5 || m.DecidedBy != "boardCount" || *m.HomeBoardPoints != 4 || *m.HomeMatchPoints != 1 {
				t.Errorf("4–5: winner %d by %q, %+v", num[m.Winner], m.DecidedBy, m.matchJSON)
			}
		case [2]int{2, 7}:
			if m.Rapid {
				rapid = m
			} else if m.Winner != "" {
				t.Errorf("2–7 regular match has a winner: %+v", m)
			}
		}
	}
	first := r1.Matches[slices.IndexFunc(r1.Matches, func(m tieMatchJSON) bool { return pairOf(m) == [2]int{2, 7} && !m.Rapid })]
	if !rapid.Rapid || rapid.Tie != first.Tie || rapid.Home != first.Away || rapid.Match != first.Match+"-R1" || !rapid.Set {
		t.Fatalf("rapid match %+v after %+v", rapid, first)
	}
	for _, p := range r1.Pairings {
		if p.Match != rapid.Match {
			continue
		}
		var g struct{ TimeControl struct{ Name string } }
		s.Get("/games/"+p.GameID).Want(t, http.StatusOK).Decode(t, &g)
		if g.TimeControl.Name != "rapid-10/40+5/30" {
			t.Errorf("rapid board %d plays %q, want the tie-break preset", p.Board, g.TimeControl.Name)
		}
	}
	if r := s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "round_unfinished" {
		t.Fatalf("round 2 before the rapid match: %s", r.Body)
	}
	te.playMatch(t, s, r1, rapid, side(rapid, 7, "HDDD"))
	if m := getRound(1).Matches[4]; num[m.Winner] != 7 || len(getRound(1).Matches) != 5 {
		t.Fatalf("rapid match: %+v", m)
	}
	// The higher seed wins every later board.
	for n, want := range [][][2]int{{{1, 5}, {3, 7}}, {{1, 3}, {5, 7}}} {
		var r tieRoundJSON
		s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r)
		var got [][2]int
		for _, m := range r.Matches {
			got = append(got, pairOf(m))
			te.playMatch(t, s, r, m, side(m, pairOf(m)[0], "HHHH"))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %v, want %v", n+2, got, want)
		}
	}
	if r := s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "event_complete" {
		t.Fatalf("after the final: %s", r.Body)
	}
	if st := s.Get("/tournaments/"+te.ev.ID).Want(t, http.StatusOK).JSON()["status"]; st != "finished" {
		t.Errorf("status after the final %v, want finished", st)
	}
	var places struct {
		Rows []struct {
			Place  int
			TeamID string
			Name   string
			From   string
		}
	}
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=overall").Want(t, http.StatusOK).Decode(t, &places)
	var order []string
	for _, row := range places.Rows {
		order = append(order, fmt.Sprintf("%d:%d", row.Place, num[row.TeamID]))
	}
	if got := strings.Join(order, " "); got != "1:1 2:3 3:5 4:7 5:2 5:4 5:6 5:8" {
		t.Errorf("overall places %s", got)
	}
	// The team table counts the regular matches only: 4 + 2 + 2 matches,
	// two teams each; the 2–7 tie counts once, as a 1-1 draw.
	var st teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=teams").Want(t, http.StatusOK).Decode(t, &st)
	matches := 0
	for _, row := range st.Rows {
		matches += row.Matches
	}
	if matches != 2*(4+2+2) {
		t.Errorf("the team table counts %d team appearances, want 16 (the rapid match is not counted)", matches)
	}
}

// S-3 settings of a team knockout: one match per tie, a known tie-break,
// and the tie-break only for teams.
func TestTeamKnockout_S3_Settings(t *testing.T) {
	s := apitest.New(t)
	for _, c := range []struct{ body, field, rule string }{
		{`{"name":"x","system":"knockout","teams":true,"gamesPerMatch":2}`, "gamesPerMatch", "S-3"},
		{`{"name":"x","system":"knockout","teams":true,"knockout":{"teamTieBreak":"coin"}}`, "knockout.teamTieBreak", "S-3"},
		{`{"name":"x","system":"knockout","knockout":{"teamTieBreak":"rapidMatch"}}`, "knockout.teamTieBreak", "S-3"},
		// Systems that do not pair teams are refused when the event is created.
		{`{"name":"x","system":"swissElimination","rounds":5,"teams":true}`, "system", "S-4"},
		{`{"name":"x","system":"doubleElimination","teams":true}`, "system", "S-4"},
	} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: c.body, Invalid: strings.Contains(c.body, "coin")}).Want(t, http.StatusBadRequest)
		if !strings.Contains(string(r.Body), `"`+c.field) || !strings.Contains(string(r.Body), c.rule) {
			t.Errorf("%s: %s", c.body, r.Body)
		}
	}
	ev := newEvent(t, s, `{"name":"x","system":"knockout","teams":true,"knockout":{"teamTieBreak":"rapidMatch"}}`)
	if k := ev.T["knockout"].(map[string]any); k["teamTieBreak"] != "rapidMatch" {
		t.Errorf("knockout %v", k)
	}
}

// S-3 with "teamTieBreak": "rapidMatch": a match level on board points goes
// to an additional rapid match even when the board count-back would split
// it, and another follows while the rapid match is level too; the tie is
// the first match with a winner.
func TestTeamKnockout_S3_RapidMatchUntilDecided(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Final","system":"knockout","teams":true,"boards":2,"knockout":{"teamTieBreak":"rapidMatch"}}`, 2, 2, 0)
	var r tieRoundJSON
	s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r)
	// Each step plays the round's newest match: red wins both boards (2-2,
	// board 1 to the first-listed team), then again, then the first-listed
	// team wins both.
	for i, boards := range []string{"HA", "HA", "HH"} {
		m := r.Matches[len(r.Matches)-1]
		if want := i > 0; m.Rapid != want || len(r.Matches) != i+1 {
			t.Fatalf("step %d: %d matches, newest %+v", i, len(r.Matches), m)
		}
		te.playMatch(t, s, r, m, boards)
		r = tieRoundJSON{}
		s.Get("/tournaments/"+te.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r)
	}
	if len(r.Matches) != 3 || r.Matches[1].Match != r.Matches[0].Match+"-R1" || r.Matches[2].Match != r.Matches[0].Match+"-R2" {
		t.Fatalf("matches %+v", r.Matches)
	}
	last := r.Matches[2]
	if last.Winner != last.Home || last.DecidedBy != "matchPoints" || r.Matches[0].Winner != "" || r.Matches[1].Winner != "" {
		t.Errorf("matches %+v", r.Matches)
	}
	if r.Matches[1].Home != r.Matches[0].Away || r.Matches[2].Home != r.Matches[1].Away {
		t.Errorf("colours not swapped from match to match: %+v", r.Matches)
	}
	var places struct {
		Rows []struct {
			Place  int
			TeamID string
		}
	}
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=overall").Want(t, http.StatusOK).Decode(t, &places)
	if len(places.Rows) != 2 || places.Rows[0].TeamID != last.Home {
		t.Errorf("places %+v, want %s first", places.Rows, last.Home)
	}
}

// S-4 for teams (the team combined system Swiss then knockout): 6 teams play
// a 3-round team Swiss by match points, then the top four of the team table
// after round 3 play 1 v 4 and 2 v 3 as team knockout matches, then
// the final and the third-place match.
func TestTeamSwissKnockout_S4_TopFour(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Swiss cup","system":"swissKnockout","rounds":3,"teams":true,"boards":2,"knockout":{"finalists":4}}`, 6, 2, 0)
	num := map[string]int{}
	for _, tc := range te.teams {
		num[tc.ID] = tc.Team.Number
	}
	play := func(r tieRoundJSON) {
		for _, m := range r.Matches { // the lower number wins both boards
			plan := "HH"
			if num[m.Home] > num[m.Away] {
				plan = "AA"
			}
			te.playMatch(t, s, r, m, plan)
		}
	}
	for n := 1; n <= 3; n++ {
		var r tieRoundJSON
		s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r)
		if len(r.Matches) != 3 || r.Matches[0].Tie != "" {
			t.Fatalf("Swiss round %d: %+v", n, r.Matches)
		}
		play(r)
	}
	var st teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=teams&round=3").Want(t, http.StatusOK).Decode(t, &st)
	rank := make([]string, len(st.Rows))
	for i, row := range st.Rows {
		rank[i] = row.TeamID
	}
	pair := func(a, b string) string { return fmt.Sprintf("%d-%d", min(num[a], num[b]), max(num[a], num[b])) }
	var semis tieRoundJSON
	s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &semis)
	var got []string
	for _, m := range semis.Matches {
		got = append(got, pair(m.Home, m.Away))
		if m.Tie == "" {
			t.Errorf("semi-final %s has no tie", m.Match)
		}
	}
	if want := []string{pair(rank[0], rank[3]), pair(rank[1], rank[2])}; !slices.Equal(got, want) {
		t.Fatalf("semi-finals %v, want 1v4 and 2v3 of the team table %v", got, want)
	}
	play(semis)
	var finals tieRoundJSON
	s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &finals)
	if len(finals.Matches) != 2 {
		t.Fatalf("final and third place: %+v", finals.Matches)
	}
	play(finals)
	if r := s.Post("/tournaments/"+te.ev.ID+"/rounds", te.ev.Token, nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "event_complete" {
		t.Fatalf("after the final: %s", r.Body)
	}
}
