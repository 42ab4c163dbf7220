package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// O-1: a small event's organiser records a result and corrects it in one
// documented call; a repeated result is refused naming that call; the
// correction is audited in the game view (who, when, before, after, why) and
// reaches the event's result item (the round view, which standings read);
// reasons are listed when unknown.
func TestResult_O1_OrganiserRecordsAndCorrects(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Club Night","rounds":3}`, 4)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	org := f.ev.Token
	scribe := s.Post("/tournaments/"+f.ev.ID+"/officials", org, `{"role":"scribe","name":"Li"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	g, open := "/games/"+r1.Pairings[0].GameID+"/result", "/games/"+r1.Pairings[1].GameID+"/result"

	bad := s.Do(apitest.Req{Method: "POST", Path: g, Token: org, Body: `{"result":"1-0","reason":"boredom"}`, Invalid: true}).Want(t, http.StatusBadRequest)
	if msg := string(bad.Body); !strings.Contains(msg, "checkmate") || !strings.Contains(msg, "forfeit") || !strings.Contains(msg, "arbiter") {
		t.Fatalf("unknown reason lists no allowed ones: %s", msg)
	}
	s.Post(g, org, `{"result":"1-0","reason":"resignation"}`).Want(t, http.StatusOK)
	again := s.Post(g, org, `{"result":"0-1"}`).Want(t, http.StatusUnprocessableEntity)
	if again.ErrorCode() != "game_over" || !strings.Contains(string(again.Body), `\"correction\": true`) {
		t.Fatalf("a repeated result does not name the correction call: %s", again.Body)
	}
	if r := s.Post(g, org, `{"result":"0-1","correction":true}`).Want(t, http.StatusBadRequest); !strings.Contains(string(r.Body), "note") {
		t.Fatalf("a correction without a note: %s", r.Body)
	}
	s.Post(g, scribe, `{"result":"0-1","correction":true,"note":"sheet"}`).Want(t, http.StatusForbidden)
	if r := s.Post(open, org, `{"result":"0-1","correction":true,"note":"sheet"}`).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "not_finished" {
		t.Fatalf("correcting a game without result: %s", r.Body)
	}
	at := s.Clock.Now()
	st := s.Post(g, org, `{"result":"0-1","reason":"time","correction":true,"note":"the clock showed red's flag down"}`).Want(t, http.StatusOK).JSON()
	if st["result"] != "0-1" || st["reason"] != "time" {
		t.Fatalf("corrected game: %v %v", st["result"], st["reason"])
	}
	cs := s.Get("/games/" + r1.Pairings[0].GameID).JSON()["corrections"].([]any)
	if len(cs) != 1 {
		t.Fatalf("corrections: %v", cs)
	}
	c := cs[0].(map[string]any)
	before, after := c["before"].(map[string]any), c["after"].(map[string]any)
	if c["by"] != "organiser" || c["byId"] != f.ev.ID || c["at"] != at.Format("2006-01-02T15:04:05Z") ||
		before["result"] != "1-0" || before["reason"] != "resignation" || after["result"] != "0-1" || after["reason"] != "time" || c["note"] == "" {
		t.Fatalf("audit entry: %v", c)
	}
	if r := s.Post(g, org, `{"result":"0-1","reason":"time","correction":true,"note":"again"}`).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "invalid_ruling" {
		t.Fatalf("a correction to the same result: %s", r.Body)
	}
	var round roundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &round)
	if p := round.Pairings[0]; p.Result == nil || *p.Result != "0-1" {
		t.Fatalf("the event's result after the correction: %v", p.Result)
	}
}

// C-5: an untimed game has no clock for an arbiter to correct.
func TestRuling_C5_ClockRulingOnUntimedGameRefused(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"No Clocks","rounds":3,"timeControl":"untimed"}`)
	r := s.Post("/games/"+pg.gid+"/rulings", pg.arb, `{"kind":"clock","side":"red","remainingMs":60000,"note":"clock broke"}`).Want(t, http.StatusUnprocessableEntity)
	if e := r.JSON()["error"].(map[string]any); e["code"] != "invalid_ruling" || e["rule"] != "C-5" {
		t.Fatalf("clock ruling on an untimed game: %s", r.Body)
	}
	if len(s.Get("/games/" + pg.gid).JSON()["corrections"].([]any)) != 0 {
		t.Fatal("corrections on an untouched game")
	}
}
