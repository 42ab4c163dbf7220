package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

func TestTournamentLifecycle(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Saturday Swiss","system":"swiss","rounds":7,"timeControl":"rapid-10/40+5/30"}`)
	if ev.T["scoring"] != "2-1-0" || ev.T["status"] != "registration" {
		t.Fatalf("defaults not applied (K-1): %v", ev.T)
	}
	tc := ev.T["timeControl"].(map[string]any)
	if tc["name"] != "rapid-10/40+5/30" || len(tc["periods"].([]any)) != 2 {
		t.Fatalf("time control preset (C-2): %v", tc)
	}
	got := s.Get("/tournaments/"+ev.ID).Want(t, http.StatusOK).JSON()
	if got["name"] != "Saturday Swiss" || got["rounds"] != 7.0 {
		t.Fatalf("GET tournament: %v", got)
	}
	for i, name := range []string{"Wang Tianyi", "Zheng Weitong", "Hong Zhi"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name, "rating": 2600 - i}).Want(t, http.StatusCreated).Decode(t, &p)
		if p.P["number"] != float64(i+1) || p.Token == "" {
			t.Fatalf("player %d: %v", i+1, p)
		}
	}
	var list struct{ Players []map[string]any }
	s.Get("/tournaments/"+ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &list)
	if len(list.Players) != 3 || list.Players[2]["name"] != "Hong Zhi" {
		t.Fatalf("players: %v", list.Players)
	}
	pid := list.Players[1]["id"].(string)
	w := s.Post("/tournaments/"+ev.ID+"/players/"+pid+"/withdraw", ev.Token, nil).Want(t, http.StatusOK).JSON()
	if w["player"].(map[string]any)["status"] != "withdrawn" {
		t.Fatalf("withdraw (S-6): %v", w)
	}
	again := s.Post("/tournaments/"+ev.ID+"/players/"+pid+"/withdraw", ev.Token, nil).Want(t, http.StatusUnprocessableEntity)
	if again.ErrorCode() != "already_withdrawn" || again.JSON()["error"].(map[string]any)["rule"] != "S-6" {
		t.Fatalf("second withdrawal: %s", again.Body)
	}
	// A table listed twice is refused (a typo for another table, likely).
	dup := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "scribe", "name": "Li", "tables": []int{3, 1, 3}}).Want(t, http.StatusBadRequest)
	if dup.ErrorCode() != "invalid_field" || !strings.Contains(string(dup.Body), "table 3 is listed twice") {
		t.Fatalf("duplicate tables: %s", dup.Body)
	}
	o := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "scribe", "name": "Li", "tables": []int{3, 1}}).Want(t, http.StatusCreated).JSON()
	if fmt.Sprint(o["official"].(map[string]any)["tables"]) != "[1 3]" {
		t.Fatalf("official: %v", o)
	}
	s.Get("/tournaments/taaaaaaaaaaaaaaaa").Want(t, http.StatusNotFound)
	s.Get("/openapi.json").Want(t, http.StatusOK)
}

func TestCreateTournamentRejectsBadSettings(t *testing.T) {
	s := apitest.New(t)
	cases := []struct {
		name, body, field, rule string
	}{
		{"no name", `{"system":"swiss","rounds":7}`, "name", ""},
		{"unknown system", `{"name":"x","system":"ladder","rounds":7}`, "system", "S-1"},
		{"swiss without rounds", `{"name":"x","system":"swiss"}`, "rounds", "P-2"},
		{"scoring with a draw above a win", `{"name":"x","rounds":7,"scoring":"1-2-0"}`, "scoring", "K-1"},
		{"unknown tiebreak", `{"name":"x","rounds":7,"tiebreaks":["points","luck"]}`, "tiebreaks", "R-11"},
		{"unknown preset", `{"name":"x","rounds":7,"timeControl":"bullet"}`, "timeControl", "C-2"},
		{"empty period", `{"name":"x","rounds":7,"timeControl":{"periods":[{"moves":40,"ms":0}]}}`, "timeControl", "C-2"},
		{"unknown repetition rule", `{"name":"x","rounds":7,"rules":{"repetition":"never"}}`, "rules.repetition", "G-6"},
		{"unknown illegal-move handling", `{"name":"x","rounds":7,"rules":{"illegalMoves":"ignore"}}`, "rules.illegalMoves", "G-2"},
		{"draw offer limit out of range", `{"name":"x","rounds":7,"rules":{"drawOfferLimit":-2}}`, "rules.drawOfferLimit", "D-4"},
		{"no-capture limit out of range", `{"name":"x","rounds":7,"rules":{"noCaptureMoves":5}}`, "rules.noCaptureMoves", "G-3"},
		{"boards without teams", `{"name":"x","rounds":7,"boards":4}`, "boards", "T-1"},
		{"bad first round", `{"name":"x","rounds":7,"firstRound":"random"}`, "firstRound", "P-3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: tc.body, Invalid: true}).Want(t, http.StatusBadRequest)
			e := r.JSON()["error"].(map[string]any)
			if !strings.HasPrefix(e["message"].(string), tc.field) {
				t.Errorf("message %q does not name the field %s", e["message"], tc.field)
			}
			if tc.rule != "" && e["rule"] != tc.rule {
				t.Errorf("rule %v, want %s", e["rule"], tc.rule)
			}
		})
	}
	if recs, _ := s.Store.Export(t.Context()); len(recs) != 0 {
		t.Fatalf("refused creations stored %d items", len(recs))
	}
}

// Every mutating endpoint refuses malformed JSON, unknown fields, missing,
// unknown and wrong-role tokens and oversize bodies with the right status,
// and changes nothing.
func TestMutatingEndpointsRefuseBadRequests(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Open","rounds":5}`)
	other := newEvent(t, s, `{"name":"Other","rounds":5}`)
	var p created
	s.Post("/tournaments/"+ev.ID+"/players", ev.Token, `{"name":"A"}`).Want(t, http.StatusCreated).Decode(t, &p)
	arb := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"B"}`).Want(t, http.StatusCreated).JSON()
	arbToken := arb["token"].(string)

	endpoints := []struct {
		path, valid, unknown string
		open                 bool // no token needed
	}{
		{"/tournaments", `{"name":"x","rounds":5}`, `{"name":"x","rounds":5,"colour":"red"}`, true},
		{"/tournaments/" + ev.ID + "/players", `{"name":"C"}`, `{"name":"C","age":7}`, false},
		{"/tournaments/" + ev.ID + "/players/" + p.ID + "/withdraw", `{}`, `{"why":"ill"}`, false},
		{"/tournaments/" + ev.ID + "/officials", `{"role":"scribe","name":"D"}`, `{"role":"scribe","name":"D","pin":1}`, false},
	}
	before, _ := s.Store.Export(t.Context())
	for _, ep := range endpoints {
		t.Run(ep.path, func(t *testing.T) {
			send := func(token, body string, hdr map[string]string) *apitest.Resp {
				return s.Do(apitest.Req{Method: "POST", Path: ep.path, Token: token, Body: body, Header: hdr, Invalid: true})
			}
			token := ev.Token
			if ep.open {
				token = ""
			}
			if r := send(token, `{"name":`, nil); r.Status != http.StatusBadRequest || r.ErrorCode() != "malformed_json" {
				t.Errorf("malformed JSON: %d %s", r.Status, r.Body)
			}
			if r := send(token, ep.unknown, nil); r.Status != http.StatusBadRequest || r.ErrorCode() != "unknown_field" {
				t.Errorf("unknown field: %d %s", r.Status, r.Body)
			}
			big := `{"name":"` + strings.Repeat("x", 70<<10) + `"}`
			if r := send(token, big, nil); r.Status != http.StatusRequestEntityTooLarge {
				t.Errorf("oversize body: %d %s", r.Status, r.Body)
			}
			if ep.open {
				return
			}
			if r := send("", ep.valid, nil); r.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d %s", r.Status, r.Body)
			}
			if r := send(ev.ID+"."+ev.ID+".forged", ep.valid, nil); r.Status != http.StatusUnauthorized {
				t.Errorf("unknown token: %d %s", r.Status, r.Body)
			}
			if r := send("garbage", ep.valid, nil); r.Status != http.StatusUnauthorized {
				t.Errorf("garbage token: %d %s", r.Status, r.Body)
			}
			if r := send(p.Token, ep.valid, nil); r.Status != http.StatusForbidden {
				t.Errorf("player token (wrong role): %d %s", r.Status, r.Body)
			}
			if r := send(arbToken, ep.valid, nil); r.Status != http.StatusForbidden {
				t.Errorf("arbiter token (wrong role): %d %s", r.Status, r.Body)
			}
			if r := send(other.Token, ep.valid, nil); r.Status != http.StatusForbidden {
				t.Errorf("another event's organiser: %d %s", r.Status, r.Body)
			}
		})
	}
	after, _ := s.Store.Export(t.Context())
	if len(after) != len(before) {
		t.Fatalf("refused requests changed the table: %d items before, %d after", len(before), len(after))
	}
}

func TestIdempotentReplay(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Open","rounds":5}`)
	key := map[string]string{"Idempotency-Key": "5b0c0a4e-3a58-4a43-9c1b-6f7d3f2b9e01"}
	path := "/tournaments/" + ev.ID + "/players"
	first := s.Do(apitest.Req{Method: "POST", Path: path, Token: ev.Token, Body: `{"name":"A"}`, Header: key}).Want(t, http.StatusCreated)
	again := s.Do(apitest.Req{Method: "POST", Path: path, Token: ev.Token, Body: `{"name":"A"}`, Header: key}).Want(t, http.StatusCreated)
	if string(first.Body) != string(again.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay differs:\n%s\n%s", first.Body, again.Body)
	}
	other := s.Do(apitest.Req{Method: "POST", Path: path, Token: ev.Token, Body: `{"name":"B"}`, Header: key}).Want(t, http.StatusUnprocessableEntity)
	if other.ErrorCode() != "idempotency_key_reused" {
		t.Fatalf("key reuse: %s", other.Body)
	}
	got := s.Get("/tournaments/" + ev.ID).JSON()
	if got["players"] != 1.0 {
		t.Fatalf("replays registered %v players, want 1", got["players"])
	}
}

// Concurrent registrations race on the event's player counter: every one is
// registered once, numbers are 1…n without gaps or duplicates.
func TestConcurrentRegistrationsLoseNothing(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Open","rounds":5}`)
	const n = 16
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token, Body: fmt.Sprintf(`{"name":"P%d"}`, i)})
			statuses[i] = r.Status
		}()
	}
	wg.Wait()
	var list struct{ Players []map[string]any }
	s.Get("/tournaments/"+ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &list)
	ok := 0
	for _, st := range statuses {
		if st == http.StatusCreated {
			ok++
		} else if st != http.StatusConflict {
			t.Fatalf("status %d", st)
		}
	}
	if len(list.Players) != ok {
		t.Fatalf("%d registrations answered 201 but %d players stored", ok, len(list.Players))
	}
	for i, p := range list.Players {
		if p["number"] != float64(i+1) {
			t.Fatalf("numbers not 1…n: %v", list.Players)
		}
	}
	if ok < n/2 {
		t.Fatalf("only %d of %d concurrent registrations succeeded after retries", ok, n)
	}
}
