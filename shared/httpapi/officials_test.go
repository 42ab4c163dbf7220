package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// officialsEvent is a four-player event with round 1 paired: an arbiter, a
// chief arbiter, a scribe of table 1 and a scribe of table 2.
type officialsEvent struct {
	ev                           created
	arb, chief, scribe1, scribe2 string
	games                        map[int]string // table → game id
	players                      map[string]created
	round                        roundJSON
}

func newOfficialsEvent(t *testing.T, s *apitest.Server, settings string, names ...string) officialsEvent {
	t.Helper()
	if len(names) == 0 {
		names = []string{"A", "B", "C", "D"}
	}
	oe := officialsEvent{ev: newEvent(t, s, settings), games: map[int]string{}, players: map[string]created{}}
	for _, name := range names {
		var p created
		s.Post("/tournaments/"+oe.ev.ID+"/players", oe.ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		oe.players[p.ID] = p
	}
	official := func(body string) string {
		return s.Post("/tournaments/"+oe.ev.ID+"/officials", oe.ev.Token, body).Want(t, http.StatusCreated).JSON()["token"].(string)
	}
	oe.arb = official(`{"role":"arbiter","name":"Roving"}`)
	oe.chief = official(`{"role":"chiefArbiter","name":"Chief"}`)
	oe.scribe1 = official(`{"role":"scribe","name":"Li","tables":[1]}`)
	oe.scribe2 = official(`{"role":"scribe","name":"Wu","tables":[2]}`)
	s.Post("/tournaments/"+oe.ev.ID+"/rounds", oe.ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &oe.round)
	for _, p := range oe.round.Pairings {
		oe.games[p.Table] = p.GameID
	}
	return oe
}

// TestOfficials_O1_WhoRulesWhat over HTTP, 000 ch.3 (职责) and ch.4:
//   - 书记员 4 "提醒并记录运动员的违规行为" and ch.4 "凡判处'犯规',书记员应当当场
//     明确宣布并及时记录": the table's scribe records a foul and a warning —
//     at its own table only — and nothing heavier;
//   - 巡回裁判员 2 "有权对犯纪律的运动员给予'警告'处分": an arbiter warns and
//     records fouls, but may not disqualify from the game;
//   - 裁判长 7 "裁判长有权作出'取消当场比赛资格'的处分决定": the chief arbiter
//     does, and so does the organiser acting as chief arbiter.
func TestOfficials_O1_WhoRulesWhat(t *testing.T) {
	s := apitest.New(t)
	oe := newOfficialsEvent(t, s, `{"name":"Roles Open","rounds":3}`)
	g1, g2 := oe.games[1], oe.games[2]
	rule := func(gid, token, body string) *apitest.Resp { return s.Post("/games/"+gid+"/rulings", token, body) }

	// The scribe of table 1 records a foul and a warning there.
	st := rule(g1, oe.scribe1, `{"kind":"foul","side":"red","note":"touched a piece on the opponent's time"}`).Want(t, http.StatusOK).JSON()
	if f := st["fouls"].(map[string]any); f["red"] != float64(1) {
		t.Errorf("after the scribe's foul red has %v fouls, want 1", f["red"])
	}
	rule(g1, oe.scribe1, `{"kind":"penalty","penalty":"warning","side":"black","note":"talking"}`).Want(t, http.StatusOK)
	wantError(t, rule(g1, oe.scribe1, `{"kind":"penalty","penalty":"loss","side":"black","note":"phone"}`), http.StatusForbidden, "forbidden", "O-2")
	wantError(t, rule(g1, oe.scribe1, `{"kind":"clock","side":"red","remainingMs":1000,"note":"x"}`), http.StatusForbidden, "forbidden", "O-1")
	// …but not at another table.
	rule(g1, oe.scribe2, `{"kind":"foul","side":"red"}`).Want(t, http.StatusForbidden)
	rule(g2, oe.scribe2, `{"kind":"foul","side":"black"}`).Want(t, http.StatusOK)

	// An arbiter warns and records fouls; disqualification is the chief's.
	rule(g1, oe.arb, `{"kind":"penalty","penalty":"warning","side":"red","note":"left the board"}`).Want(t, http.StatusOK)
	rule(g1, oe.arb, `{"kind":"foul","side":"black"}`).Want(t, http.StatusOK)
	wantError(t, rule(g1, oe.arb, `{"kind":"penalty","penalty":"loss","side":"red","note":"phone"}`), http.StatusForbidden, "forbidden", "O-2")
	wantError(t, rule(g1, oe.arb, `{"kind":"penalty","penalty":"expulsion","side":"red","note":"phone"}`), http.StatusForbidden, "forbidden", "O-2")
	if st := s.Get("/games/"+g1).Want(t, http.StatusOK).JSON(); st["status"] == "over" {
		t.Fatalf("a refused penalty ended the game: %v", st["reason"])
	}

	// The chief arbiter disqualifies red from the game at table 1.
	st = rule(g1, oe.chief, `{"kind":"penalty","penalty":"loss","side":"red","note":"a phone at the board"}`).Want(t, http.StatusOK).JSON()
	wantOver(t, st, "0-1", "penalty")
	// The organiser, acting as chief arbiter, disqualifies black at table 2.
	st = rule(g2, oe.ev.Token, `{"kind":"penalty","penalty":"loss","side":"black","note":"refused to sign"}`).Want(t, http.StatusOK).JSON()
	wantOver(t, st, "1-0", "penalty")

	// GET /me names the role.
	if m := me(t, s, oe.chief); m.Role != "chiefArbiter" {
		t.Errorf("GET /me of the chief arbiter: role %q", m.Role)
	}
	// A player still may not rule.
	for _, p := range oe.players {
		rule(g1, p.Token, `{"kind":"foul","side":"red"}`).Want(t, http.StatusForbidden)
		break
	}
}
