package httpapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type eliminationRoundJSON struct {
	roundJSON
	Eliminated []string `json:"eliminated"`
}

// S-4 last-place elimination over HTTP: 12 players, 3 rounds, 3 dropped
// after round 2 (past halfway of 3 is the default fromRound) — the three
// lowest of the standings after round 2 are listed on round 3 and not paired.
func TestSwissElimination_S4_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Last place out","system":"swissElimination","rounds":3,"elimination":{"perRound":3}}`, 12)
	el := f.ev.T["elimination"].(map[string]any)
	if el["fromRound"] != 2.0 || el["perRound"] != 3.0 || el["keep"] != 0.0 {
		t.Fatalf("elimination settings %v, want fromRound 2 (past halfway), perRound 3, keep 0", el)
	}
	var last eliminationRoundJSON
	for n := 1; n <= 3; n++ {
		var r eliminationRoundJSON
		s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r)
		if n < 3 && len(r.Eliminated) != 0 {
			t.Fatalf("round %d lists eliminated %v before fromRound", n, r.Eliminated)
		}
		if n == 3 {
			last = r
			break
		}
		f.finishRound(t, s, r.roundJSON, nil)
	}
	var st struct {
		Rows []struct{ PlayerID string }
	}
	s.Get("/tournaments/"+f.ev.ID+"/standings?round=2").Want(t, http.StatusOK).Decode(t, &st)
	var tail []string
	for _, row := range st.Rows[len(st.Rows)-3:] {
		tail = append(tail, row.PlayerID)
	}
	if !slices.Equal(last.Eliminated, tail) {
		t.Fatalf("round 3 eliminated %v, want the last three after round 2 %v", last.Eliminated, tail)
	}
	for _, p := range last.Pairings {
		if slices.Contains(tail, p.Red) || slices.Contains(tail, p.Black) {
			t.Errorf("an eliminated player is paired in round 3: %+v", p)
		}
	}
	if len(last.Pairings) != 4 || len(last.Byes) != 1 || slices.Contains(tail, last.Byes[0]) {
		t.Fatalf("round 3 of the 9 still in: %+v", last)
	}
	var again eliminationRoundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/3").Want(t, http.StatusOK).Decode(t, &again)
	if !slices.Equal(again.Eliminated, tail) {
		t.Fatalf("GET round 3 eliminated %v, want %v", again.Eliminated, tail)
	}
	bad := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"x","system":"swissElimination","rounds":5,"elimination":{"fromRound":5}}`, Invalid: true}).Want(t, http.StatusBadRequest)
	if msg := bad.JSON()["error"].(map[string]any)["message"].(string); !strings.HasPrefix(msg, "elimination.fromRound") {
		t.Fatalf("fromRound at the last round: %s", bad.Body)
	}
}

type groupsRoundJSON struct {
	Round    int    `json:"round"`
	Stage    string `json:"stage"`
	Pairings []struct {
		Table  int     `json:"table"`
		Red    string  `json:"red"`
		Black  string  `json:"black"`
		GameID string  `json:"gameId"`
		Group  string  `json:"group"`
		Result *string `json:"result"`
	} `json:"pairings"`
	Byes []string `json:"byes"`
}

// S-5 seeded groups over HTTP: 6 players by rating into snake groups
// A = 1 4 5 and B = 2 3 6 (registration numbers; ratings fall with the
// number), three group rounds with one game and one rest per group, group
// tables through ?group=, then same-place finals A1-B1, A2-B2, A3-B3.
func TestGroups_S5_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Groups","system":"groups","groups":{"count":2,"finals":"samePlace"}}`, 6)
	if g := f.ev.T["groups"].(map[string]any); g["count"] != 2.0 || g["finals"] != "samePlace" {
		t.Fatalf("groups settings %v", g)
	}
	num := func(id string) int { return indexOf(f.players, id) + 1 }
	members := map[string][]int{"A": {1, 4, 5}, "B": {2, 3, 6}}
	for n := 1; n <= 3; n++ {
		var r groupsRoundJSON
		s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r)
		if r.Stage != "groups" || len(r.Pairings) != 2 || len(r.Byes) != 2 {
			t.Fatalf("round %d: %+v", n, r)
		}
		for i, p := range r.Pairings {
			if p.Table != i+1 || !slices.Contains(members[p.Group], num(p.Red)) || !slices.Contains(members[p.Group], num(p.Black)) {
				t.Errorf("round %d table %d: group %q, numbers %d-%d", n, p.Table, p.Group, num(p.Red), num(p.Black))
			}
		}
		// The lower number wins: each group finishes in seeding order.
		for _, p := range r.Pairings {
			res := "1-0"
			if num(p.Black) < num(p.Red) {
				res = "0-1"
			}
			finish(t, s, f.ev.ID, n, p.Table, p.GameID, p.Red, p.Black, res)
		}
	}
	var st struct {
		Rows []struct {
			PlayerID string
			Points   int
		}
	}
	s.Get("/tournaments/"+f.ev.ID+"/standings?group=B").Want(t, http.StatusOK).Decode(t, &st)
	if len(st.Rows) != 3 || num(st.Rows[0].PlayerID) != 2 || st.Rows[0].Points != 4 || num(st.Rows[2].PlayerID) != 6 {
		t.Fatalf("group B table: %+v", st.Rows)
	}
	var ct struct {
		Rows []struct {
			PlayerID string
			Cells    []struct{ Round int }
		}
	}
	s.Get("/tournaments/"+f.ev.ID+"/crosstable?group=A").Want(t, http.StatusOK).Decode(t, &ct)
	if len(ct.Rows) != 3 || len(ct.Rows[0].Cells) != 3 { // two games and a rest each
		t.Fatalf("group A crosstable: %+v", ct.Rows)
	}
	if r := s.Get("/tournaments/"+f.ev.ID+"/standings?group=Q").Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "unknown_group" {
		t.Fatalf("unknown group: %s", r.Body)
	}
	var fin groupsRoundJSON
	s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &fin)
	var got []string
	for _, p := range fin.Pairings {
		got = append(got, fmt.Sprintf("%s:%d-%d", p.Group, num(p.Red), num(p.Black)))
	}
	if fin.Stage != "samePlace" || strings.Join(got, " ") != "F1:1-2 F2:4-3 F3:5-6" {
		t.Fatalf("same-place finals: %s %v", fin.Stage, got)
	}
	for _, p := range fin.Pairings {
		finish(t, s, f.ev.ID, 4, p.Table, p.GameID, p.Red, p.Black, "1/2-1/2")
	}
	if r := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "event_complete" {
		t.Fatalf("after the finals: %s", r.Body)
	}
	s.Get("/tournaments/"+f.ev.ID+"/standings?group=F2").Want(t, http.StatusOK).Decode(t, &st)
	if len(st.Rows) != 2 || st.Rows[0].Points != 1 {
		t.Fatalf("final F2 table: %+v", st.Rows)
	}
}
