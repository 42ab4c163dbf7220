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

// TestExpulsion_O2_ProposedApprovedLeavesEvent over HTTP, 000 ch.3 裁判长 7:
// "'除名'的纪律处分，须经裁判组慎重研究后，由裁判长具文报请竞赛组织机构进行审核。
// 获得批准方可执行". The chief arbiter's expulsion ruling is a written
// proposal: the game goes on and the player is still in the event. An
// arbiter may not propose one, nor may the chief arbiter approve it. The
// organiser approves; the player then leaves the event as a withdrawal (S-6)
// and is not paired in the next round. A rejected proposal changes nothing.
func TestExpulsion_O2_ProposedApprovedLeavesEvent(t *testing.T) {
	s := apitest.New(t)
	oe := newOfficialsEvent(t, s, `{"name":"Discipline Open","rounds":3}`, "A", "B", "C", "D", "E", "F")
	var expelled, spared string
	for _, p := range oe.round.Pairings {
		switch p.Table {
		case 1:
			expelled = p.Red
		case 2:
			spared = p.Black
		}
	}
	rule := func(gid, token, body string) *apitest.Resp { return s.Post("/games/"+gid+"/rulings", token, body) }
	expel := func(pid, token, body string) *apitest.Resp {
		return s.Post("/tournaments/"+oe.ev.ID+"/players/"+pid+"/expulsion", token, body)
	}
	status := func(pid string) string {
		var out struct{ Players []struct{ ID, Status string } }
		s.Get("/tournaments/"+oe.ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &out)
		for _, p := range out.Players {
			if p.ID == pid {
				return p.Status
			}
		}
		return "missing"
	}

	wantError(t, rule(oe.games[1], oe.arb, `{"kind":"penalty","penalty":"expulsion","side":"red","note":"struck the opponent"}`), http.StatusForbidden, "forbidden", "O-2")
	wantError(t, rule(oe.games[1], oe.chief, `{"kind":"penalty","penalty":"expulsion","side":"red"}`), http.StatusBadRequest, "invalid_field", "O-2")
	st := rule(oe.games[1], oe.chief, `{"kind":"penalty","penalty":"expulsion","side":"red","note":"struck the opponent"}`).Want(t, http.StatusOK).JSON()
	if st["status"] == "over" {
		t.Fatalf("a proposed expulsion ended the game (获得批准方可执行): %v", st["reason"])
	}
	if got := status(expelled); got != "active" {
		t.Fatalf("after the proposal the player is %q, want still active", got)
	}
	wantError(t, rule(oe.games[1], oe.chief, `{"kind":"penalty","penalty":"expulsion","side":"red","note":"again"}`), http.StatusUnprocessableEntity, "expulsion_pending", "O-2")

	// Only the organiser decides, and says whether.
	expel(expelled, oe.chief, `{"approve":true,"note":"approved"}`).Want(t, http.StatusForbidden)
	wantError(t, s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + oe.ev.ID + "/players/" + expelled + "/expulsion", Token: oe.ev.Token,
		Body: `{"note":"approved"}`, Invalid: true}), http.StatusBadRequest, "invalid_field", "O-2")
	wantError(t, expel(spared, oe.ev.Token, `{"approve":true,"note":"approved"}`), http.StatusUnprocessableEntity, "no_expulsion_proposed", "O-2")
	out := expel(expelled, oe.ev.Token, `{"approve":true,"note":"the committee read the report and approves"}`).Want(t, http.StatusOK).JSON()
	if e := out["expulsion"].(map[string]any); e["status"] != "approved" || e["note"] != "struck the opponent" || e["gameId"] != oe.games[1] {
		t.Errorf("the decided expulsion reads %v", e)
	}
	if got := status(expelled); got != "withdrawn" {
		t.Fatalf("after approval the player is %q, want withdrawn (S-6)", got)
	}

	// A proposal the organiser rejects leaves the player in the event.
	rule(oe.games[2], oe.chief, `{"kind":"penalty","penalty":"expulsion","side":"black","note":"argued with the scribe"}`).Want(t, http.StatusOK)
	expel(spared, oe.ev.Token, `{"approve":false,"note":"a warning is enough"}`).Want(t, http.StatusOK)
	if got := status(spared); got != "active" {
		t.Fatalf("after a rejection the player is %q, want active", got)
	}

	// Round 1 ends; round 2 pairs everyone but the expelled player.
	for _, gid := range oe.games {
		if st := s.Get("/games/"+gid).Want(t, http.StatusOK).JSON(); st["status"] != "over" {
			s.Post("/games/"+gid+"/result", oe.arb, `{"result":"1/2-1/2"}`).Want(t, http.StatusOK)
		}
	}
	var r2 roundJSON
	s.Post("/tournaments/"+oe.ev.ID+"/rounds", oe.ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &r2)
	seen := 0
	for _, p := range r2.Pairings {
		if p.Red == expelled || p.Black == expelled {
			t.Errorf("the expelled player is paired at table %d of round 2", p.Table)
		}
		if p.Red == spared || p.Black == spared {
			seen++
		}
	}
	if r2.Bye != nil && *r2.Bye == expelled {
		t.Errorf("the expelled player has round 2's bye")
	}
	if seen == 0 && (r2.Bye == nil || *r2.Bye != spared) {
		t.Errorf("the player whose expulsion was rejected is not in round 2")
	}
}

// TestExpulsion_O2_OrganiserAsChiefDecidesAtOnce over HTTP: the organiser,
// acting as chief arbiter (000 ch.3 裁判长 7, and ch.1: the organising body
// 审核), proposes and approves in one ruling: the game is lost and the
// player has left the event.
func TestExpulsion_O2_OrganiserAsChiefDecidesAtOnce(t *testing.T) {
	s := apitest.New(t)
	oe := newOfficialsEvent(t, s, `{"name":"Small Club Night","rounds":3}`)
	var black string
	for _, p := range oe.round.Pairings {
		if p.Table == 1 {
			black = p.Black
		}
	}
	st := s.Post("/games/"+oe.games[1]+"/rulings", oe.ev.Token, `{"kind":"penalty","penalty":"expulsion","side":"black","note":"used an engine"}`).Want(t, http.StatusOK).JSON()
	wantOver(t, st, "1-0", "penalty")
	var out struct{ Players []struct{ ID, Status string } }
	s.Get("/tournaments/"+oe.ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &out)
	for _, p := range out.Players {
		if p.ID == black && p.Status != "withdrawn" {
			t.Errorf("the expelled player is %q, want withdrawn", p.Status)
		}
	}
	s.Post("/tournaments/"+oe.ev.ID+"/players/"+black+"/expulsion", oe.ev.Token, `{"approve":true,"note":"x"}`).Want(t, http.StatusUnprocessableEntity)
}

// TestDiscipline_O2_RecordReadable over HTTP, 000 ch.3 裁判长 7: "无论给予哪种
// 纪律处分，都应及时向竞赛组织机构提交详细的书面报告". Every foul, warning,
// penalty and dropped piece is listed in the game view with who gave it,
// when, against which side and why, and the event's report lists them all
// with the game, the player and the official's name, and the expulsions.
func TestDiscipline_O2_RecordReadable(t *testing.T) {
	s := apitest.New(t)
	oe := newOfficialsEvent(t, s, `{"name":"Report Open","rounds":3}`)
	g1, g2 := oe.games[1], oe.games[2]
	rule := func(gid, token, body string) {
		t.Helper()
		s.Post("/games/"+gid+"/rulings", token, body).Want(t, http.StatusOK)
	}
	rule(g1, oe.scribe1, `{"kind":"foul","side":"red","note":"moved two pieces"}`)
	rule(g1, oe.arb, `{"kind":"penalty","penalty":"warning","side":"black","note":"talking"}`)
	rule(g1, oe.scribe1, `{"kind":"droppedPiece","side":"red"}`)
	rule(g2, oe.chief, `{"kind":"penalty","penalty":"expulsion","side":"red","note":"struck the opponent"}`)
	rule(g2, oe.chief, `{"kind":"penalty","penalty":"loss","side":"red","note":"struck the opponent"}`)
	rule(g2, oe.arb, `{"kind":"result","result":"1/2-1/2","note":"appeal upheld"}`) // a correction, not discipline

	var view struct {
		Discipline []struct{ At, By, ByID, Kind, Penalty, Side, Note string }
	}
	s.Get("/games/"+g1).Want(t, http.StatusOK).Decode(t, &view)
	want := []string{"scribe foul  red moved two pieces", "arbiter penalty warning black talking", "scribe droppedPiece  red "}
	if len(view.Discipline) != len(want) {
		t.Fatalf("game view discipline: %+v, want %d entries", view.Discipline, len(want))
	}
	for i, d := range view.Discipline {
		if got := d.By + " " + d.Kind + " " + d.Penalty + " " + d.Side + " " + d.Note; got != want[i] || d.At == "" || d.ByID == "" {
			t.Errorf("entry %d: %q (at %q by %q), want %q", i, got, d.At, d.ByID, want[i])
		}
	}

	var report struct {
		Entries []struct {
			Round, Table                         int
			GameID                               string `json:"gameId"`
			Player, PlayerName, By, ByName, Kind string
			Penalty, Note                        string
		}
		Expulsions []struct{ Player, Status, Note, GameID string }
		Total      int
	}
	s.Get("/tournaments/"+oe.ev.ID+"/discipline").Want(t, http.StatusOK).Decode(t, &report)
	if len(report.Entries) != 5 || report.Total != 2 {
		t.Fatalf("report: %d entries over %d games, want 5 over 2: %+v", len(report.Entries), report.Total, report.Entries)
	}
	first, last := report.Entries[0], report.Entries[4]
	if first.Table != 1 || first.ByName != "Li" || first.Kind != "foul" || first.PlayerName == "" {
		t.Errorf("first entry %+v, want table 1's foul by Li", first)
	}
	if last.Table != 2 || last.ByName != "Chief" || last.Penalty != "loss" {
		t.Errorf("last entry %+v, want table 2's loss by Chief", last)
	}
	if len(report.Expulsions) != 1 || report.Expulsions[0].Status != "proposed" || report.Expulsions[0].GameID != g2 {
		t.Errorf("expulsions %+v, want one proposed at table 2", report.Expulsions)
	}
	s.Get("/tournaments/"+oe.ev.ID+"/discipline?round=2").Want(t, http.StatusNotFound)
}
