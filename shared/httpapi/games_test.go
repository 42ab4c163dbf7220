package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

var recordFormats = []string{"pgn", "fen", "iccs", "wxf", "chinese", "yz3", "yz4"}

// wantRecords fetches the game's record in every format and checks each
// carries the moves (or the final position) and the result.
func wantRecords(t *testing.T, s *apitest.Server, gid, result string, contains map[string]string) {
	t.Helper()
	for _, f := range recordFormats {
		r := s.Get("/games/"+gid+"/record?format="+f).Want(t, http.StatusOK)
		body := string(r.Body)
		if f != "fen" && !strings.Contains(body, result) {
			t.Errorf("%s record lacks the result %s:\n%s", f, result, body)
		}
		if want := contains[f]; want != "" && !strings.Contains(body, want) {
			t.Errorf("%s record lacks %q:\n%s", f, want, body)
		}
	}
	if r := s.Do(apitest.Req{Method: "GET", Path: "/games/" + gid + "/record?format=png", Invalid: true}); r.Status != http.StatusBadRequest {
		t.Errorf("unknown format: %d", r.Status)
	}
}

// G-1: a five-ply mate, each move in another notation (N-4), pressed in the same request.
func TestGameToCheckmate_G1(t *testing.T) {
	s := apitest.New(t)
	tb := &table{t: t, s: s, g: createGame(t, s, `{"timeControl":"rapid-10/40+5/30"}`)}
	for _, m := range []struct{ side, move string }{
		{"red", "b2c2"}, {"black", "A6+5"}, {"red", "炮七進四"}, {"black", "炮233"}, {"red", "砲77x70"},
	} {
		s.Clock.Advance(3 * time.Second)
		tb.move(m.side, m.move, true)
	}
	st := tb.state()
	wantOver(t, st, "1-0", "checkmate")
	if len(st["legalMoves"].([]any)) != 0 {
		t.Fatalf("legal moves after mate: %v", st["legalMoves"])
	}
	r := tb.post("black", "moves", map[string]any{"move": "h9g7", "ply": 5}).Want(t, http.StatusUnprocessableEntity)
	if r.ErrorCode() != "game_over" {
		t.Fatalf("move after mate: %s", r.Body)
	}
	wantRecords(t, s, tb.g.ID, "1-0", map[string]string{"pgn": `[Game "Chinese Chess"]`, "iccs": "b2c2", "wxf": "C8=7", "chinese": "炮八平七"})
}

// C-3: a two-period control; red makes its third move in time but does not
// press before the deadline, and loses on time when anyone next looks.
func TestGameLostOnTimeMovedNotPressed_C3(t *testing.T) {
	s := apitest.New(t)
	tb := &table{t: t, s: s, g: createGame(t, s, `{"timeControl":{"periods":[{"moves":2,"ms":60000},{"moves":1,"ms":30000}]}}`)}
	s.Clock.Advance(20 * time.Second)
	tb.move("red", "h2e2", true)
	s.Clock.Advance(5 * time.Second)
	tb.move("black", "h9g7", true)
	s.Clock.Advance(30 * time.Second)
	tb.move("red", "h0g2", false)
	s.Clock.Advance(3 * time.Second)
	tb.post("red", "clock", nil).Want(t, http.StatusOK)
	s.Clock.Advance(2 * time.Second)
	tb.move("black", "i9h9", true)
	st := tb.state()
	if f := st["clocks"].(map[string]any)["red"].(map[string]any); f["period"] != 1.0 || f["movesDue"] != 1.0 || f["remainingMs"] != 37000.0 {
		t.Fatalf("red's face before its third move: %v", f)
	}
	s.Clock.Advance(30 * time.Second) // t0+90 s: the move is on the board in time
	tb.move("red", "i0h0", false)
	s.Clock.Advance(6 * time.Second) // t0+96 s: still red's own time
	if st := tb.state(); st["status"] != "playing" {
		t.Fatalf("flag fell early: %v", st["result"])
	}
	s.Clock.Advance(2 * time.Second) // past the deadline at t0+97 s
	r := tb.post("red", "clock", nil).Want(t, http.StatusUnprocessableEntity)
	if r.ErrorCode() != "game_over" {
		t.Fatalf("late press: %s", r.Body)
	}
	wantOver(t, tb.state(), "0-1", "time")
	wantRecords(t, s, tb.g.ID, "0-1", map[string]string{"pgn": "time"})
}

// D-1…D-3: red offers after its move and black declines; black offers after
// its move and red accepts.
func TestGameDrawnByAgreementAfterDecline_D3(t *testing.T) {
	s := apitest.New(t)
	tb := &table{t: t, s: s, g: createGame(t, s, `{"timeControl":"60/30+10/10"}`)}
	s.Clock.Advance(10 * time.Second)
	tb.move("red", "炮二平五", false)
	if r := tb.post("black", "draw", map[string]any{"action": "offer"}); r.Status != http.StatusUnprocessableEntity || r.JSON()["error"].(map[string]any)["rule"] == nil {
		t.Fatalf("offer by the side not having moved (D-1): %d %s", r.Status, r.Body)
	}
	tb.post("red", "draw", map[string]any{"action": "offer"}).Want(t, http.StatusOK)
	tb.post("red", "clock", nil).Want(t, http.StatusOK)
	st := tb.post("black", "draw", map[string]any{"action": "decline"}).Want(t, http.StatusOK).JSON()
	if st["drawOffer"].(map[string]any)["pending"] != false {
		t.Fatalf("declined offer still pending: %v", st["drawOffer"])
	}
	tb.move("black", "馬8進7", false)
	tb.post("black", "draw", map[string]any{"action": "offer"}).Want(t, http.StatusOK)
	tb.post("black", "clock", nil).Want(t, http.StatusOK)
	st = tb.post("red", "draw", map[string]any{"action": "accept"}).Want(t, http.StatusOK).JSON()
	wantOver(t, st, "1/2-1/2", "agreement")
	if d := st["drawOffer"].(map[string]any); d["made"] != 2.0 || d["left"] != 1.0 {
		t.Fatalf("draw offers: %v", d)
	}
	wantRecords(t, s, tb.g.ID, "1/2-1/2", map[string]string{"chinese": "炮二平五"})
}

// G-3: the no-capture count from a FEN's halfmove field reaches 60 rounds.
func TestGameDrawnByNoCaptureRule_G3(t *testing.T) {
	s := apitest.New(t)
	tb := &table{t: t, s: s, g: createGame(t, s, `{"fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 118 60"}`)}
	tb.move("red", "h2e2", true)
	r := tb.post("black", "claims", map[string]any{"kind": "noCapture"}).Want(t, http.StatusUnprocessableEntity)
	if r.ErrorCode() != "claim_refused" || r.JSON()["error"].(map[string]any)["rule"] != "G-3" {
		t.Fatalf("early claim: %s", r.Body)
	}
	tb.move("black", "h9g7", true)
	st := tb.post("black", "claims", map[string]any{"kind": "noCapture"}).Want(t, http.StatusOK).JSON()
	wantOver(t, st, "1/2-1/2", "noCapture")
	wantRecords(t, s, tb.g.ID, "1/2-1/2", map[string]string{"pgn": "[FEN "})
}

// G-6 in an event game: the cycle repeats; from 5 cycles red asks for a
// ruling, the clocks stop, another event's arbiter is refused, and the event's
// arbiter records three votes 2:1 — red, held mainly responsible, loses; the
// result reaches the event's result record.
func TestGameSettledByRepetitionRuling_G6(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Club Swiss","rounds":5,"timeControl":"90/40+15/10"}`)
	other := newEvent(t, s, `{"name":"Elsewhere","rounds":5}`)
	tokens := map[string]string{}
	for _, name := range []string{"Lü Qin", "Xu Yinchuan"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		tokens[p.ID] = p.Token
	}
	arb := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"Chief"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	otherArb := s.Post("/tournaments/"+other.ID+"/officials", other.Token, `{"role":"arbiter","name":"Guest"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	var round struct {
		Pairings []struct {
			Table      int
			Red, Black string
			GameID     string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
	s.Post("/tournaments/"+ev.ID+"/rounds/1/start", arb, nil).Want(t, http.StatusOK) // C-1: an arbiter may start it
	if len(round.Pairings) != 1 {
		t.Fatalf("pairings: %+v", round.Pairings)
	}
	p := round.Pairings[0]
	tb := &table{t: t, s: s, g: newGame{ID: p.GameID, RedToken: tokens[p.Red], BlackToken: tokens[p.Black]}}
	cycle := []struct{ side, move string }{{"red", "h0g2"}, {"black", "h9g7"}, {"red", "g2h0"}, {"black", "g7h9"}}
	for range 4 {
		for _, m := range cycle {
			tb.move(m.side, m.move, true)
		}
	}
	if r := tb.post("red", "claims", map[string]any{"kind": "ruling"}); r.Status != http.StatusUnprocessableEntity || r.JSON()["error"].(map[string]any)["rule"] != "G-6" {
		t.Fatalf("ruling asked at 4 cycles: %d %s", r.Status, r.Body)
	}
	for _, m := range cycle {
		tb.move(m.side, m.move, true)
	}
	st := tb.state()
	if rep := st["repetition"].(map[string]any); rep["cycles"] != 5.0 || rep["warning"] != true {
		t.Fatalf("after 5 cycles: %v", rep)
	}
	st = tb.post("red", "claims", map[string]any{"kind": "ruling"}).Want(t, http.StatusOK).JSON()
	if st["status"] != "pendingRuling" || st["clocks"].(map[string]any)["running"] != nil {
		t.Fatalf("after the request: status %v, running %v", st["status"], st["clocks"].(map[string]any)["running"])
	}
	if r := tb.post("red", "moves", map[string]any{"move": "h0g2", "ply": tb.ply}); r.ErrorCode() != "pending_ruling" {
		t.Fatalf("move while pending: %s", r.Body)
	}
	votes := map[string]any{"kind": "repetition", "votes": []string{"red", "black", "red"}, "note": "red's horse drove the cycle"}
	if r := s.Post("/games/"+p.GameID+"/rulings", otherArb, votes); r.Status != http.StatusForbidden {
		t.Fatalf("another event's arbiter: %d %s", r.Status, r.Body)
	}
	if r := s.Post("/games/"+p.GameID+"/rulings", tokens[p.Red], votes); r.Status != http.StatusForbidden {
		t.Fatalf("a player ruling: %d %s", r.Status, r.Body)
	}
	st = s.Post("/games/"+p.GameID+"/rulings", arb, votes).Want(t, http.StatusOK).JSON()
	wantOver(t, st, "0-1", "repetitionRuling")
	results, err := s.Store.Query(t.Context(), "T#"+ev.ID, "X#", 0)
	if err != nil || len(results) != 1 || !strings.Contains(string(results[0].Doc), `"Result":"0-1"`) {
		t.Fatalf("result record: %v %v", results, err)
	}
	wantRecords(t, s, p.GameID, "0-1", map[string]string{"pgn": "Lü Qin"})
}

// Two clients move at once: exactly one wins, the other gets 409 with the
// current state; a retry with the same Idempotency-Key gets the first answer.
func TestGameConcurrentMovesAndReplay(t *testing.T) {
	s := apitest.New(t)
	g := createGame(t, s, `{}`)
	const n = 8
	var wg sync.WaitGroup
	statuses := make([]int, n)
	bodies := make([]map[string]any, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			move := []string{"h2e2", "b2e2", "h0g2", "b0c2"}[i%4]
			r := s.Do(apitest.Req{Method: "POST", Path: "/games/" + g.ID + "/moves", Token: g.RedToken, Body: map[string]any{"move": move, "ply": 0, "press": true}})
			statuses[i], bodies[i] = r.Status, r.JSON()
		}()
	}
	wg.Wait()
	won := 0
	for i, st := range statuses {
		switch st {
		case http.StatusOK:
			won++
		case http.StatusConflict:
			cur, ok := bodies[i]["current"].(map[string]any)
			if !ok || cur["ply"] != 1.0 {
				t.Errorf("409 without the current state: %v", bodies[i])
			}
		default:
			t.Errorf("status %d: %v", st, bodies[i])
		}
	}
	if won != 1 {
		t.Fatalf("%d concurrent moves won, want exactly 1 (statuses %v)", won, statuses)
	}
	if st := s.Get("/games/" + g.ID).JSON(); st["ply"] != 1.0 {
		t.Fatalf("ply after the race: %v", st["ply"])
	}
	key := map[string]string{"Idempotency-Key": "7e7e7e7e-0000-4000-8000-000000000001"}
	req := apitest.Req{Method: "POST", Path: "/games/" + g.ID + "/moves", Token: g.BlackToken, Body: map[string]any{"move": "h9g7", "ply": 1, "press": true}, Header: key}
	first := s.Do(req).Want(t, http.StatusOK)
	again := s.Do(req).Want(t, http.StatusOK)
	if string(first.Body) != string(again.Body) {
		t.Fatalf("replay differs")
	}
	if st := s.Get("/games/" + g.ID).JSON(); st["ply"] != 2.0 {
		t.Fatalf("the replay moved again: ply %v", st["ply"])
	}
}

// Tokens: the opponent's, another game's, none — and refusals change nothing.
func TestGameRefusesWrongTokensAndBadInput(t *testing.T) {
	s := apitest.New(t)
	g := createGame(t, s, `{}`)
	other := createGame(t, s, `{}`)
	path := "/games/" + g.ID + "/moves"
	cases := []struct {
		name, token string
		body        any
		status      int
		code        string
	}{
		{"opponent's token", g.BlackToken, map[string]any{"move": "h9g7", "ply": 0}, http.StatusUnprocessableEntity, "not_your_turn"},
		{"another game's token", other.RedToken, map[string]any{"move": "h2e2", "ply": 0}, http.StatusForbidden, "forbidden"},
		{"no token", "", map[string]any{"move": "h2e2", "ply": 0}, http.StatusUnauthorized, "unauthorized"},
		{"forged token", g.ID + ".red.xxxx", map[string]any{"move": "h2e2", "ply": 0}, http.StatusUnauthorized, "unauthorized"},
		{"illegal move", g.RedToken, map[string]any{"move": "h0h5", "ply": 0}, http.StatusUnprocessableEntity, "illegal_move"},
		{"unreadable move", g.RedToken, map[string]any{"move": "xyzzy", "ply": 0}, http.StatusUnprocessableEntity, "unreadable_move"},
		{"stale ply", g.RedToken, map[string]any{"move": "h2e2", "ply": 3}, http.StatusConflict, "conflict"},
		{"missing ply", g.RedToken, map[string]any{"move": "h2e2"}, http.StatusBadRequest, "invalid_field"},
		{"unknown field", g.RedToken, `{"move":"h2e2","ply":0,"promote":true}`, http.StatusBadRequest, "unknown_field"},
		{"malformed", g.RedToken, `{"move":`, http.StatusBadRequest, "malformed_json"},
		{"oversize", g.RedToken, `{"move":"` + strings.Repeat("a", 70<<10) + `","ply":0}`, http.StatusRequestEntityTooLarge, "body_too_large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(apitest.Req{Method: "POST", Path: path, Token: tc.token, Body: tc.body, Invalid: true})
			if r.Status != tc.status || r.ErrorCode() != tc.code {
				t.Fatalf("got %d %s, want %d %s: %s", r.Status, r.ErrorCode(), tc.status, tc.code, r.Body)
			}
		})
	}
	if st := s.Get("/games/" + g.ID).JSON(); st["ply"] != 0.0 || st["version"] != 0.0 {
		t.Fatalf("refusals changed the game: ply %v version %v", st["ply"], st["version"])
	}
	illegal := s.Do(apitest.Req{Method: "POST", Path: path, Token: g.RedToken, Body: map[string]any{"move": "h0h5", "ply": 0}}).JSON()
	if e := illegal["error"].(map[string]any); e["rule"] == nil || e["rule"] == "" {
		t.Fatalf("an illegal move names no rule: %v", e)
	}
	if r := s.Get("/games/gaaaaaaaaaaaaaaaa"); r.Status != http.StatusNotFound {
		t.Fatalf("unknown game: %d", r.Status)
	}
	if r := s.Do(apitest.Req{Method: "GET", Path: "/games/nope", Invalid: true}); r.Status != http.StatusBadRequest || r.ErrorCode() != "bad_id" {
		t.Fatalf("malformed game id: %d %s", r.Status, r.Body)
	}
	if r := s.Do(apitest.Req{Method: "GET", Path: "/games/" + g.ID + "?since=-1", Invalid: true}); r.Status != http.StatusBadRequest {
		t.Fatalf("bad since: %d", r.Status)
	}
	for _, bad := range []string{`{"fen":"9/9/9 w"}`, `{"timeControl":"blitz"}`, `{"rules":{"repetition":"maybe"}}`} {
		if r := s.Do(apitest.Req{Method: "POST", Path: "/games", Body: bad, Invalid: true}); r.Status != http.StatusBadRequest {
			t.Errorf("POST /games %s: %d %s", bad, r.Status, r.Body)
		}
	}
}

func TestGameSincePolling(t *testing.T) {
	s := apitest.New(t)
	tb := &table{t: t, s: s, g: createGame(t, s, `{}`)}
	for _, m := range []struct{ side, move string }{{"red", "h2e2"}, {"black", "h9g7"}, {"red", "h0g2"}} {
		tb.move(m.side, m.move, true)
	}
	st := s.Get("/games/"+tb.g.ID+"?since=2").Want(t, http.StatusOK).JSON()
	if fmt.Sprint(st["moves"]) != "[h0g2]" || st["ply"] != 3.0 || st["since"] != 2.0 {
		t.Fatalf("since=2: moves %v ply %v", st["moves"], st["ply"])
	}
}

// An event game's record names its event, its round and its players as
// their items now say (service.RecordInfo); a standalone game's, Red and Black.
func TestGameRecord_EventGameNamesItsEventAndPlayers(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	var players struct {
		Players []struct{ ID, Name string }
	}
	s.Get("/tournaments/"+f.tid+"/players").Want(t, http.StatusOK).Decode(t, &players)
	red := ""
	for _, p := range players.Players {
		if p.ID == f.pid {
			red = p.Name
		}
	}
	pgn := string(s.Get("/games/"+f.gid+"/record?format=pgn").Want(t, http.StatusOK).Body)
	for _, tag := range []string{`[Event "Matrix Open"]`, `[Round "1"]`, `[Red "` + red + `"]`} {
		if red == "" || !strings.Contains(pgn, tag) {
			t.Errorf("the record lacks %s:\n%s", tag, pgn)
		}
	}
	g := s.Post("/games", "", `{}`).Want(t, http.StatusCreated).JSON()
	pgn = string(s.Get("/games/"+g["id"].(string)+"/record?format=pgn").Want(t, http.StatusOK).Body)
	if !strings.Contains(pgn, `[Red "Red"]`) || !strings.Contains(pgn, `[Black "Black"]`) {
		t.Errorf("a standalone game's record:\n%s", pgn)
	}
}
