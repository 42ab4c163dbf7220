package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// The event reads finished once its last round's results are all in: a
// Swiss after its last round, a knockout once the bracket is decided. The
// status is stored when a pairing is then refused, and later entries are
// refused as for a finished event.
func TestFinishedStatus(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Short","system":"swiss","rounds":2}`, 4)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, nil)
	if got := status(t, s, f.ev.ID); got != "running" {
		t.Fatalf("after round 1 of 2: %v", got)
	}
	r2 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r2, map[int]bool{2: true})
	if got := status(t, s, f.ev.ID); got != "running" {
		t.Fatalf("last round with a game open: %v", got)
	}
	p := r2.Pairings[1]
	finish(t, s, f.ev.ID, 2, p.Table, p.GameID, p.Red, p.Black, "1-0")
	if got := status(t, s, f.ev.ID); got != "finished" {
		t.Fatalf("every result in: %v", got)
	}
	if r := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "event_complete" {
		t.Fatalf("round 3 of 2: %s", r.Body)
	}
	if r := s.Post("/tournaments/"+f.ev.ID+"/players", f.ev.Token, map[string]any{"name": "Late"}).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "event_finished" {
		t.Fatalf("entry after the end: %s", r.Body)
	}

	// S-3: a four-player knockout is finished when its final is decided.
	k := newField(t, s, `{"name":"Cup","system":"knockout"}`, 4)
	for n := 1; n <= 2; n++ {
		r := k.pair(t, s, nil, http.StatusCreated)
		if got := status(t, s, k.ev.ID); got != "running" {
			t.Fatalf("knockout round %d open: %v", n, got)
		}
		for _, p := range r.Pairings {
			finish(t, s, k.ev.ID, n, p.Table, p.GameID, p.Red, p.Black, "1-0")
		}
	}
	if got := status(t, s, k.ev.ID); got != "finished" {
		t.Fatalf("knockout after its final: %v", got)
	}
}

// S-1: a three-player round robin (a rest each round) is finished after
// its third round's game.
func TestFinishedStatus_RoundRobin(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Trio","system":"roundRobin"}`, 3)
	for n := 1; n <= 3; n++ {
		r := f.pair(t, s, nil, http.StatusCreated)
		if got := status(t, s, f.ev.ID); got != "running" {
			t.Fatalf("round %d open: %v", n, got)
		}
		f.finishRound(t, s, r, nil)
	}
	if got := status(t, s, f.ev.ID); got != "finished" {
		t.Fatalf("after the table: %v", got)
	}
}

// S-1, S-6: a player who withdrew before round 1 is not in the table, so a
// five-entry round robin with one such withdrawal is a four-player table of
// three rounds, finished after the third.
func TestFinishedStatus_RoundRobinWithdrawnBeforeRound1(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Quintet","system":"roundRobin"}`, 5)
	s.Post("/tournaments/"+f.ev.ID+"/players/"+f.players[4].ID+"/withdraw", f.ev.Token, nil).Want(t, http.StatusOK)
	for n := 1; n <= 3; n++ {
		r := f.pair(t, s, nil, http.StatusCreated)
		if got := status(t, s, f.ev.ID); got != "running" {
			t.Fatalf("round %d open: %v", n, got)
		}
		f.finishRound(t, s, r, nil)
	}
	if got := status(t, s, f.ev.ID); got != "finished" {
		t.Fatalf("after the four-player table: %v", got)
	}
}

// S-1, T-6: a team round robin's table is over its teams — three teams play
// three rounds (one rests each round) — so it reads finished after the
// third round's boards, however many players the teams field.
func TestFinishedStatus_TeamRoundRobin(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Trio League","system":"roundRobin","teams":true,"boards":2}`, 3, 2, 0)
	for n := 1; n <= 3; n++ {
		r := te.pair(t, s, nil, http.StatusCreated)
		if got := status(t, s, te.ev.ID); got != "running" {
			t.Fatalf("round %d open: %v", n, got)
		}
		for _, p := range r.Pairings {
			te.result(t, s, p.GameID, "1-0")
		}
	}
	if got := status(t, s, te.ev.ID); got != "finished" {
		t.Fatalf("after the three teams' table: %v", got)
	}
}

// A team round robin whose last round waits for its lineups (T-3) has no
// board games yet: nothing is unfinished, but the event is not finished
// either (the page read 已结束 while the captains were still choosing).
func TestFinishedStatus_TeamRoundAwaitingLineups(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Pair League","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 2, 2, 0)
	r := te.pair(t, s, nil, http.StatusCreated)
	if len(r.Pairings) != 0 {
		t.Fatalf("lineups per match: the round has %d board games before any lineup", len(r.Pairings))
	}
	if got := status(t, s, te.ev.ID); got != "running" {
		t.Fatalf("the only round awaits its lineups: status %v", got)
	}
}
