package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type overallJSON struct {
	Rows []struct {
		Place      int
		PlayerID   string
		Name       string
		From       string
		GroupPlace int
	}
}

// playGroupsEvent plays a 6-player groups event to its end: every game is
// won by the higher-rated player (the lower registration number), so the
// groups and finals come out in seeding order.
func playGroupsEvent(t *testing.T, s *apitest.Server, finals string) (field, string) {
	t.Helper()
	f := newField(t, s, fmt.Sprintf(`{"name":"Groups","system":"groups","groups":{"count":2,"finals":%q}}`, finals), 6)
	arb := s.Post("/tournaments/"+f.ev.ID+"/officials", f.ev.Token, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	for n := 1; ; n++ {
		r := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, map[string]any{"round": n})
		if r.Status == http.StatusUnprocessableEntity && r.ErrorCode() == "event_complete" {
			break
		}
		r.Want(t, http.StatusCreated)
		var round roundJSON
		r.Decode(t, &round)
		if n == 1 {
			s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.ev.ID + "/standings?view=overall"}).Want(t, http.StatusUnprocessableEntity)
		}
		for _, p := range round.Pairings {
			res := "1-0"
			if indexOf(f.players, p.Black) < indexOf(f.players, p.Red) {
				res = "0-1"
			}
			s.Post("/games/"+p.GameID+"/result", arb, map[string]any{"result": res}).Want(t, http.StatusOK)
		}
		if n > 10 {
			t.Fatal("the event does not end")
		}
	}
	return f, arb
}

// S-5 overall places: snake seeding puts players 1, 4, 5 in group A and 2,
// 3, 6 in group B; the higher seed wins every game, so A ranks 1-4-5 and B
// 2-3-6. Same-place finals: F1 = {1, 2} gives places 1 and 2, F2 = {4, 3}
// places 3 (player 3 beats 4) and 4, F3 = {5, 6} places 5 and 6. Cross finals: A1–B2 (1 v 3)
// and B1–A2 (2 v 4), the final 1 v 2 and third place 3 v 4; the third of
// each group (5 and 6) never met in a final and share 5th.
func TestGroupPlaces_S5_Overall(t *testing.T) {
	for _, c := range []struct {
		finals string
		want   []int // place of players 1…6 by registration
		from   []string
	}{
		{"samePlace", []int{1, 2, 3, 4, 5, 6}, []string{"F1", "F1", "F2", "F2", "F3", "F3"}},
		{"cross", []int{1, 2, 3, 4, 5, 5}, []string{"cross", "cross", "cross", "cross", "A", "B"}},
	} {
		t.Run(c.finals, func(t *testing.T) {
			s := apitest.New(t)
			f, _ := playGroupsEvent(t, s, c.finals)
			var out overallJSON
			s.Get("/tournaments/"+f.ev.ID+"/standings?view=overall").Want(t, http.StatusOK).Decode(t, &out)
			if len(out.Rows) != 6 {
				t.Fatalf("%d rows", len(out.Rows))
			}
			for _, row := range out.Rows {
				i := indexOf(f.players, row.PlayerID)
				if row.Place != c.want[i] || row.From != c.from[i] {
					t.Errorf("player %d: place %d from %s, want %d from %s", i+1, row.Place, row.From, c.want[i], c.from[i])
				}
			}
			csv := s.Get("/tournaments/"+f.ev.ID+"/standings?view=overall&format=csv").Want(t, http.StatusOK).Body
			if len(csv) == 0 || string(csv[:5]) != "place" {
				t.Errorf("csv: %s", csv)
			}
		})
	}
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"x","rounds":5}`)
	s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + ev.ID + "/standings?view=overall"}).Want(t, http.StatusUnprocessableEntity)
}
