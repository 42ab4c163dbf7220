package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// C-6 with recorded arrivals: the round starts at a set time, red takes its
// seat, black never comes; once the late limit has passed, the next read ends
// the game as a forfeit won by red, and the result reaches the event.
func TestLateArrivalForfeit_C6(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Scheduled","rounds":3,"timeControl":"rapid-10/40+5/30","rules":{"recordArrivals":true,"lateForfeitMs":600000}}`)
	if ev.T["rules"].(map[string]any)["recordArrivals"] != true {
		t.Fatalf("rules: %v", ev.T["rules"])
	}
	tokens := map[string]string{}
	for _, name := range []string{"Present", "Absent"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		tokens[p.ID] = p.Token
	}
	arb := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"Chief"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	start := s.Clock.Now().Add(5 * time.Minute)
	var round struct {
		Pairings []struct {
			Red, Black string
			GameID     string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": 1, "startsAt": start.Format(time.RFC3339)}).Want(t, http.StatusCreated).Decode(t, &round)
	p := round.Pairings[0]
	path := "/games/" + p.GameID + "/arrive"
	if r := s.Post(path, tokens[p.Red], map[string]any{"side": "black"}); r.Status != http.StatusForbidden {
		t.Fatalf("red recording black's arrival: %d %s", r.Status, r.Body)
	}
	if r := s.Post(path, arb, map[string]any{}); r.Status != http.StatusBadRequest {
		t.Fatalf("an arbiter must name the side: %d %s", r.Status, r.Body)
	}
	s.Clock.Advance(6 * time.Minute) // a minute after the start
	s.Post(path, tokens[p.Red], nil).Want(t, http.StatusOK)
	s.Post(path, tokens[p.Red], nil).Want(t, http.StatusOK) // twice changes nothing
	s.Clock.Advance(8*time.Minute + 59*time.Second)         // one second before start + 10 min
	if st := s.Get("/games/" + p.GameID).JSON(); st["status"] != "playing" {
		t.Fatalf("forfeit before the limit: %v %v", st["result"], st["reason"])
	}
	s.Clock.Advance(2 * time.Second)
	st := s.Get("/games/"+p.GameID).Want(t, http.StatusOK).JSON()
	if st["status"] != "over" || st["result"] != "+-" || st["reason"] != "forfeit" {
		t.Fatalf("after the limit: %v %v %v", st["status"], st["result"], st["reason"])
	}
	results, err := s.Store.Query(t.Context(), "T#"+ev.ID, "X#", 0)
	if err != nil || len(results) != 1 {
		t.Fatalf("result items: %d, %v", len(results), err)
	}
}
