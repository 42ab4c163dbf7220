package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// TestVotes_G6_SealedPerArbiter over HTTP (000 ch.8 请裁制度: three arbiters
// each find the root of the cycle and show it at the same moment): each
// arbiter posts their own vote; until the third is in the game's view says
// how many votes are in and who cast them but never a side, a second vote
// from the same arbiter and a scribe's vote are refused; the third vote rules
// (2:1 against black) and the view then shows every vote with its note.
func TestVotes_G6_SealedPerArbiter(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Three Arbiters","rounds":5,"timeControl":"90/40+15/10"}`)
	tokens := map[string]string{}
	for _, name := range []string{"Hu", "Xu"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		tokens[p.ID] = p.Token
	}
	official := func(body string) string {
		return s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, body).Want(t, http.StatusCreated).JSON()["token"].(string)
	}
	arbs := []string{official(`{"role":"arbiter","name":"A"}`), official(`{"role":"arbiter","name":"B"}`), official(`{"role":"chiefArbiter","name":"C"}`)}
	scribe := official(`{"role":"scribe","name":"S"}`)
	var round roundJSON
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
	s.Post("/tournaments/"+ev.ID+"/rounds/1/start", ev.Token, nil).Want(t, http.StatusOK)
	p := round.Pairings[0]
	tb := &table{t: t, s: s, g: newGame{ID: p.GameID, RedToken: tokens[p.Red], BlackToken: tokens[p.Black]}}
	vote := func(token, side, note string) *apitest.Resp {
		return s.Post("/games/"+p.GameID+"/votes", token, map[string]any{"side": side, "note": note})
	}
	wantError(t, vote(arbs[0], "red", ""), http.StatusUnprocessableEntity, "invalid_ruling", "G-6") // nothing pending yet

	cycle := []struct{ side, move string }{{"red", "h0g2"}, {"black", "h9g7"}, {"red", "g2h0"}, {"black", "g7h9"}}
	for range 6 {
		for _, m := range cycle {
			if tb.state()["status"] == "pendingRuling" {
				break
			}
			tb.move(m.side, m.move, true)
		}
	}
	st := tb.state()
	if st["status"] != "pendingRuling" {
		t.Fatalf("after six cycles: %v", st["status"])
	}
	rep := st["repetition"].(map[string]any)
	if v := rep["votes"].(map[string]any); v["cast"] != 0.0 || v["needed"] != 3.0 || rep["ruling"] != nil {
		t.Fatalf("before any vote: %v", rep)
	}
	vote(arbs[0], "black", "black's horse began the cycle").Want(t, http.StatusOK)
	wantError(t, vote(arbs[0], "red", ""), http.StatusUnprocessableEntity, "invalid_ruling", "G-6")
	vote(scribe, "red", "").Want(t, http.StatusForbidden)
	vote(tokens[p.Red], "black", "").Want(t, http.StatusForbidden)
	st = vote(arbs[1], "red", "").Want(t, http.StatusOK).JSON()
	raw, _ := json.Marshal(st)
	if st["status"] != "pendingRuling" || strings.Contains(string(raw), "black's horse") {
		t.Fatalf("two votes in: status %v; the view shows a sealed vote: %s", st["status"], raw)
	}
	if v := st["repetition"].(map[string]any)["votes"].(map[string]any); v["cast"] != 2.0 || len(v["by"].([]any)) != 2 {
		t.Fatalf("two votes in: %v", v)
	}
	st = vote(arbs[2], "black", "").Want(t, http.StatusOK).JSON()
	wantOver(t, st, "1-0", "repetitionRuling")
	rep = st["repetition"].(map[string]any)
	ruling := rep["ruling"].(map[string]any)
	if rep["votes"] != nil || ruling["loser"] != "black" || ruling["by"] != "chiefArbiter" || len(ruling["cast"].([]any)) != 3 {
		t.Fatalf("the ruling: %v", rep)
	}
	if c := ruling["cast"].([]any)[0].(map[string]any); c["side"] != "black" || c["note"] != "black's horse began the cycle" || c["by"] != "arbiter" {
		t.Fatalf("the first vote: %v", c)
	}
	wantError(t, vote(arbs[1], "red", ""), http.StatusUnprocessableEntity, "game_over", "")
}
