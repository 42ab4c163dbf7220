package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// C-1: a round paired without a start time runs no clock, however long the
// wait (a 15 s control, 18 s after pairing, is not lost on time); players'
// actions get round_not_started until the organiser or an arbiter starts the
// round; the start is refused for a round not yet paired and, once done, is
// not done again.
func TestRoundStart_C1_ClocksWaitForTheStart(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Blitz","rounds":3,"timeControl":{"periods":[{"moves":0,"ms":15000}]}}`)
	game := "/games/" + pg.gid
	s.Clock.Advance(18 * time.Second)
	st := s.Get(game).Want(t, http.StatusOK).JSON()
	clocks := st["clocks"].(map[string]any)
	if len(st["legalMoves"].([]any)) != 0 {
		t.Fatalf("legal moves before the start: %v", st["legalMoves"])
	}
	if st["status"] != "playing" || st["started"] != false || clocks["running"] != nil || st["roundStartsAt"] != nil || clocks["redMs"] != 15000.0 {
		t.Fatalf("before the start: status %v started %v running %v roundStartsAt %v redMs %v", st["status"], st["started"], clocks["running"], st["roundStartsAt"], clocks["redMs"])
	}
	for _, tc := range []struct{ what, token, body string }{
		{"moves", pg.red.Token, `{"move":"h2e2","ply":0,"press":true}`},
		{"clock", pg.red.Token, `{}`},
		{"draw", pg.black.Token, `{"action":"offer"}`},
		{"resign", pg.black.Token, `{}`},
		{"claims", pg.black.Token, `{"kind":"time"}`},
	} {
		r := s.Post(game+"/"+tc.what, tc.token, tc.body).Want(t, http.StatusUnprocessableEntity)
		if e := r.JSON()["error"].(map[string]any); e["code"] != "round_not_started" || e["rule"] != "C-1" {
			t.Errorf("%s before the start: %s", tc.what, r.Body)
		}
	}
	start := "/tournaments/" + pg.ev.ID + "/rounds/"
	s.Post(start+"1/start", pg.red.Token, nil).Want(t, http.StatusForbidden)
	if r := s.Post(start+"2/start", pg.ev.Token, nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "round_not_paired" {
		t.Fatalf("starting an unpaired round: %s", r.Body)
	}
	startedAt := s.Clock.Now()
	r := s.Post(start+"1/start", pg.ev.Token, nil).Want(t, http.StatusOK).JSON()
	if r["started"] != true || r["startsAt"] != startedAt.Format(time.RFC3339Nano) {
		t.Fatalf("started round: started %v startsAt %v, want true %s", r["started"], r["startsAt"], startedAt.Format(time.RFC3339Nano))
	}
	s.Clock.Advance(time.Second)
	again := s.Post(start+"1/start", pg.arb, nil).Want(t, http.StatusConflict)
	if again.ErrorCode() != "round_already_started" || again.JSON()["current"].(map[string]any)["startsAt"] != r["startsAt"] {
		t.Fatalf("second start: %s", again.Body)
	}
	st = s.Get(game).Want(t, http.StatusOK).JSON()
	if st["started"] != true || st["clocks"].(map[string]any)["running"] != "red" || st["roundStartsAt"] != r["startsAt"] || len(st["legalMoves"].([]any)) != 44 {
		t.Fatalf("after the start: started %v running %v roundStartsAt %v", st["started"], st["clocks"].(map[string]any)["running"], st["roundStartsAt"])
	}
	s.Clock.Advance(9 * time.Second) // 10 s of red's 15 since the start
	st = s.Post(game+"/moves", pg.red.Token, `{"move":"h2e2","ply":0,"press":true}`).Want(t, http.StatusOK).JSON()
	if red := st["clocks"].(map[string]any)["red"].(map[string]any); red["remainingMs"] != 5000.0 {
		t.Fatalf("red's clock after 10 s from the start: %v, want 5000", red["remainingMs"])
	}
	if g := s.Get(start+"1").Want(t, http.StatusOK).JSON(); g["started"] != true {
		t.Fatalf("round view after the start: %v", g["started"])
	}
}

// C-6: late arrival counts from the actual start. An hour between pairing
// and start forfeits nobody; from the start, red arrives within the limit,
// black does not, and the game is red's by forfeit at start + limit.
func TestRoundStart_C6_LateArrivalCountsFromTheStart(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Arrivals","rounds":3,"timeControl":{"periods":[{"moves":0,"ms":3600000}]},"rules":{"recordArrivals":true,"lateForfeitMs":600000}}`)
	game := "/games/" + pg.gid
	s.Clock.Advance(time.Hour)
	if st := s.Get(game).JSON(); st["status"] != "playing" {
		t.Fatalf("forfeit before the round started: %v %v", st["result"], st["reason"])
	}
	s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.arb, nil).Want(t, http.StatusOK)
	s.Clock.Advance(9 * time.Minute)
	s.Post(game+"/arrive", pg.red.Token, nil).Want(t, http.StatusOK)
	s.Clock.Advance(time.Minute - time.Second)
	if st := s.Get(game).JSON(); st["status"] != "playing" {
		t.Fatalf("forfeit before start + limit: %v %v", st["result"], st["reason"])
	}
	s.Clock.Advance(time.Second)
	if st := s.Get(game).JSON(); st["result"] != "+-" || st["reason"] != "forfeit" {
		t.Fatalf("at start + limit: %v %v, want +- forfeit", st["result"], st["reason"])
	}
}

// A round paired with a start time runs its clocks from it; before it a move
// is round_not_started, and the organiser may start it early.
func TestRoundStart_C1_ScheduledRoundStartsEarly(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Scheduled","rounds":3}`)
	tokens := map[string]string{}
	for _, name := range []string{"A", "B"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		tokens[p.ID] = p.Token
	}
	at := s.Clock.Now().Add(30 * time.Minute)
	var round struct {
		Pairings []struct {
			Red    string
			GameID string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"startsAt": at.Format(time.RFC3339)}).Want(t, http.StatusCreated).Decode(t, &round)
	p := round.Pairings[0]
	st := s.Get("/games/" + p.GameID).JSON()
	if st["started"] != false || !strings.HasPrefix(st["roundStartsAt"].(string), at.Format("2006-01-02T15:04:05")) {
		t.Fatalf("scheduled game: started %v roundStartsAt %v", st["started"], st["roundStartsAt"])
	}
	if r := s.Post("/games/"+p.GameID+"/moves", tokens[p.Red], `{"move":"h2e2","ply":0}`); r.ErrorCode() != "round_not_started" {
		t.Fatalf("move before the start time: %d %s", r.Status, r.Body)
	}
	s.Clock.Advance(10 * time.Minute)
	s.Post("/tournaments/"+ev.ID+"/rounds/1/start", ev.Token, `{}`).Want(t, http.StatusOK)
	s.Post("/games/"+p.GameID+"/moves", tokens[p.Red], `{"move":"h2e2","ply":0}`).Want(t, http.StatusOK)
}

// S-3 with C-1: a knockout game added after its round started (a play-off
// game after a drawn match) starts its clocks when it is made, not at the
// round's start, so it is not lost on time before anyone could move.
func TestRoundStart_C1_GameAddedAfterTheStartRunsFromItsMaking(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cup","system":"knockout","timeControl":{"periods":[{"moves":0,"ms":600000}]}}`, 2)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	s.Post("/tournaments/"+f.ev.ID+"/rounds/1/start", f.ev.Token, nil).Want(t, http.StatusOK)
	s.Clock.Advance(5 * time.Minute)
	// The play-off is made with the drawn result, five minutes after the start.
	s.Post("/games/"+r1.Pairings[0].GameID+"/result", f.ev.Token, `{"result":"1/2-1/2","reason":"agreement"}`).Want(t, http.StatusOK)
	made := s.Clock.Now()
	// Nine minutes on, a clock of ten minutes that ran from the round's
	// start would have fallen; one that runs from the making has not.
	s.Clock.Advance(9 * time.Minute)
	var r roundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) < 2 {
		t.Fatalf("no play-off game after a drawn match: %+v", r.Pairings)
	}
	st := s.Get("/games/"+r.Pairings[1].GameID).Want(t, http.StatusOK).JSON()
	if st["status"] != "playing" || st["started"] != true || st["roundStartsAt"] != made.Format(time.RFC3339Nano) {
		t.Fatalf("play-off game: status %v started %v roundStartsAt %v, want playing from %s", st["status"], st["started"], st["roundStartsAt"], made.Format(time.RFC3339Nano))
	}
}

// A player's arrival lands between the start's write of the round and its
// write of the game: the game's write loses the race, is read again and
// started, so the game runs from the start and keeps the arrival (C-6).
// Two starts at once: one starts the round, the other is 409.
func TestRoundStart_RacingAnArrivalAndAnotherStart(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Race","rounds":3,"rules":{"recordArrivals":true,"lateForfeitMs":600000}}`)
	game := "/games/" + pg.gid
	var fired atomic.Bool
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		if (op == "PutItem" || op == "TransactWriteItems") && strings.Contains(string(body), "G#"+pg.gid) && fired.CompareAndSwap(false, true) {
			s.Post(game+"/arrive", pg.black.Token, nil).Want(t, http.StatusOK)
		}
		return embedded.Serve
	})
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.ev.Token, nil).Status
		})
	}
	wg.Wait()
	s.DB.Intercept(nil)
	slices.Sort(statuses)
	if statuses[0] != http.StatusOK || statuses[1] != http.StatusConflict {
		t.Fatalf("two starts: %v, want one 200 and one 409", statuses)
	}
	if !fired.Load() {
		t.Fatal("the arrival never raced the start")
	}
	st := s.Get(game).Want(t, http.StatusOK).JSON()
	if st["started"] != true || st["clocks"].(map[string]any)["running"] != "red" {
		t.Fatalf("after the race: started %v running %v", st["started"], st["clocks"].(map[string]any)["running"])
	}
	// Black's arrival stands: at start + limit only red, absent, forfeits.
	s.Clock.Advance(10 * time.Minute)
	if st := s.Get(game).JSON(); st["result"] != "-+" || st["reason"] != "forfeit" {
		t.Fatalf("at the late limit: %v %v, want -+ forfeit", st["result"], st["reason"])
	}
}

// T-3 with C-1: a team round paired without a start time waits for lineups;
// its start is the lineup deadline, so the start draws the missing ones, and
// the board games it makes run from the start.
func TestRoundStart_T3_TeamRoundStartDrawsLineups(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Team Night","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 2, 2, 0)
	te.pair(t, s, nil, http.StatusCreated)
	round1 := "/tournaments/" + te.ev.ID + "/rounds/1"
	var before teamRoundJSON
	s.Get(round1).Want(t, http.StatusOK).Decode(t, &before)
	if len(before.Pairings) != 0 {
		t.Fatalf("boards before any lineup or start: %+v", before.Pairings)
	}
	s.Clock.Advance(time.Hour) // a round without a start time draws nothing, however long
	s.Get(round1).Want(t, http.StatusOK).Decode(t, &before)
	if len(before.Pairings) != 0 {
		t.Fatalf("lineups drawn before the start: %+v", before.Pairings)
	}
	startedAt := s.Clock.Now()
	var started teamRoundJSON
	s.Post(round1+"/start", te.ev.Token, nil).Want(t, http.StatusOK).Decode(t, &started)
	if len(started.Pairings) != 2 || !started.Matches[0].Set {
		t.Fatalf("the start did not set the match: %+v", started)
	}
	for _, p := range started.Pairings {
		st := s.Get("/games/"+p.GameID).Want(t, http.StatusOK).JSON()
		if st["started"] != true || st["roundStartsAt"] != startedAt.Format(time.RFC3339Nano) {
			t.Errorf("board %d: started %v roundStartsAt %v, want from %s", p.Board, st["started"], st["roundStartsAt"], startedAt.Format(time.RFC3339Nano))
		}
	}
}
