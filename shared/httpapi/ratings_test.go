package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// L-1 over HTTP: the hand-worked example of shared/rating (A 2400, B 2200,
// C 1900, D unrated; A beats D and C and draws B, B draws C and beats D, C
// beats D) played as a round robin, results entered by the arbiter: the
// report gives A 2398 (−2), B 2198 (−2), C 1908 (+8), D still unrated, and
// with minGames 3 a first rating of 1767 for D.
func TestRatings_L1_RoundRobinReport(t *testing.T) {
	for _, c := range []struct {
		settings string
		dNew     int
	}{
		{`{"name":"Rated","system":"roundRobin"}`, 0},
		{`{"name":"Rated","system":"roundRobin","rating":{"minGames":3}}`, 1767},
	} {
		s := apitest.New(t)
		ev := newEvent(t, s, c.settings)
		ids := map[string]string{}
		for _, p := range []struct {
			name   string
			rating int
		}{{"A", 2400}, {"B", 2200}, {"C", 1900}, {"D", 0}} {
			var pl created
			s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": p.name, "rating": p.rating}).Want(t, http.StatusCreated).Decode(t, &pl)
			ids[pl.ID] = p.name
		}
		arb := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
		// The winner of each pair by name; "=" a draw.
		winner := map[string]string{"AD": "A", "BC": "=", "AC": "A", "BD": "B", "AB": "=", "CD": "C"}
		for n := 1; n <= 3; n++ {
			var r roundJSON
			s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": n}).Want(t, http.StatusCreated).Decode(t, &r)
			for _, p := range r.Pairings {
				red, black := ids[p.Red], ids[p.Black]
				pair := red + black
				if red > black {
					pair = black + red
				}
				res := "1/2-1/2"
				switch winner[pair] {
				case red:
					res = "1-0"
				case black:
					res = "0-1"
				}
				s.Post("/games/"+p.GameID+"/result", arb, map[string]any{"result": res}).Want(t, http.StatusOK)
			}
		}
		var rep struct {
			Round      int
			Parameters struct{ MinGames int }
			Rows       []struct {
				PlayerID                     string
				OldRating, NewRating, Change int
				Games                        int
				Score, ExpectedScore         float64
				FirstRating                  bool
			}
		}
		s.Get("/tournaments/"+ev.ID+"/ratings").Want(t, http.StatusOK).Decode(t, &rep)
		want := map[string][3]int{"A": {2400, 2398, -2}, "B": {2200, 2198, -2}, "C": {1900, 1908, 8}, "D": {0, c.dNew, 0}}
		if rep.Round != 3 || len(rep.Rows) != 4 {
			t.Fatalf("report: %+v", rep)
		}
		for _, row := range rep.Rows {
			w := want[ids[row.PlayerID]]
			if row.OldRating != w[0] || row.NewRating != w[1] || row.Change != w[2] {
				t.Errorf("%s: %d → %d (%+d), want %d → %d (%+d)", ids[row.PlayerID], row.OldRating, row.NewRating, row.Change, w[0], w[1], w[2])
			}
		}
		csv := string(s.Get("/tournaments/"+ev.ID+"/ratings?format=csv").Want(t, http.StatusOK).Body)
		if !strings.HasPrefix(csv, "number,playerId,name,oldRating,games,score,expectedScore,k,change,newRating") || !strings.Contains(csv, ",C,1900,2,0.5,0.24,30,8,1908,") {
			t.Errorf("csv:\n%s", csv)
		}
	}
	s := apitest.New(t)
	r := s.Post("/tournaments", "", `{"name":"Bad","rounds":5,"rating":{"kBands":[{"below":2000,"k":20}]}}`).Want(t, http.StatusBadRequest)
	if !strings.Contains(string(r.Body), "L-1") {
		t.Errorf("a closed last band: %s", r.Body)
	}
	ev := newEvent(t, s, `{"name":"x","rounds":5}`)
	s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + ev.ID + "/ratings?format=xml", Invalid: true}).Want(t, http.StatusBadRequest)
}
