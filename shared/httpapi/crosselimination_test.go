package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// S-3 cross elimination (交叉淘汰, 001 §10.3) as a knockout stage of its
// own: 10 players in two snake groups, A = 1 4 5 8 9 and B = 2 3 6 7 10
// (registration numbers, ratings falling), the higher seed winning every
// game. Four qualify from each group, seeded A1 B1 A2 B2 A3 B3 A4 B4 into a
// bracket of eight whose first round crosses the groups: A1–B4 (1 v 7),
// B2–A3 (3 v 5), B1–A4 (2 v 8), A2–B3 (4 v 6); semi-finals 1 v 3 and 2 v 4;
// final 1 v 2 and third place 3 v 4. Overall places: 1–4 by the final and
// the third-place match, the quarter-final losers share 5th, and the fifth
// of each group, who never met, share 9th.
func TestCrossElimination_S3_TwoGroupsFourQualifiers(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cross","system":"groups","groups":{"count":2,"finals":"cross","qualifiers":4}}`, 10)
	if g := f.ev.T["groups"].(map[string]any); g["qualifiers"] != 4.0 {
		t.Fatalf("groups %v", g)
	}
	arb := s.Post("/tournaments/"+f.ev.ID+"/officials", f.ev.Token, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	num := func(id string) int { return indexOf(f.players, id) + 1 }
	var stages []string
	for n := 1; ; n++ {
		r := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil)
		if r.Status == http.StatusUnprocessableEntity && r.ErrorCode() == "event_complete" {
			break
		}
		r.Want(t, http.StatusCreated)
		var round groupsRoundJSON
		r.Decode(t, &round)
		var pairs []string
		for _, p := range round.Pairings {
			a, b := num(p.Red), num(p.Black)
			pairs = append(pairs, fmt.Sprintf("%d-%d", min(a, b), max(a, b)))
			res := "1-0"
			if b < a {
				res = "0-1"
			}
			s.Post("/games/"+p.GameID+"/result", arb, map[string]any{"result": res}).Want(t, http.StatusOK)
		}
		if round.Stage == "cross" {
			stages = append(stages, strings.Join(pairs, " "))
		}
		if n > 12 {
			t.Fatal("the event does not end")
		}
	}
	if got, want := strings.Join(stages, " | "), "1-7 3-5 2-8 4-6 | 1-3 2-4 | 1-2 3-4"; got != want {
		t.Errorf("cross elimination rounds %q, want %q", got, want)
	}
	var out overallJSON
	s.Get("/tournaments/"+f.ev.ID+"/standings?view=overall").Want(t, http.StatusOK).Decode(t, &out)
	want := []int{1, 2, 3, 4, 5, 5, 5, 5, 9, 9}
	from := []string{"cross", "cross", "cross", "cross", "cross", "cross", "cross", "cross", "A", "B"}
	if len(out.Rows) != 10 {
		t.Fatalf("%d rows", len(out.Rows))
	}
	for _, row := range out.Rows {
		i := num(row.PlayerID) - 1
		if row.Place != want[i] || row.From != from[i] {
			t.Errorf("player %d: place %d from %s, want %d from %s", i+1, row.Place, row.From, want[i], from[i])
		}
	}
	for _, c := range []struct{ body, field string }{
		{`{"name":"x","system":"groups","groups":{"count":3,"finals":"cross"}}`, "groups.finals"},
		{`{"name":"x","system":"groups","groups":{"count":2,"finals":"samePlace","qualifiers":2}}`, "groups.qualifiers"},
	} {
		if r := s.Post("/tournaments", "", c.body).Want(t, http.StatusBadRequest); !strings.Contains(string(r.Body), c.field) {
			t.Errorf("%s: %s", c.body, r.Body)
		}
	}
}
