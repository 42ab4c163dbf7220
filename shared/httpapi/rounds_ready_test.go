package httpapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// gameReads counts the reads of game items (G#…) the store serves while fn
// runs, by operation.
func gameReads(s *apitest.Server, fn func()) map[string]int {
	var mu sync.Mutex
	n := map[string]int{}
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		if (op == "BatchGetItem" || op == "GetItem") && bytes.Contains(body, []byte(`"G#`)) {
			mu.Lock()
			n[op]++
			mu.Unlock()
		}
		return embedded.Serve
	})
	defer s.DB.Intercept(nil)
	fn()
	return n
}

// GET rounds/{n} is public and polled: once a paired round's games are
// known to exist it reads none of them, and the results still show (from
// the result items).
func TestGetRoundReadsNoGamesOnceReady(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cheap","system":"swiss","rounds":3}`, 10)
	r := f.pair(t, s, nil, http.StatusCreated)
	if st, _ := storedRound(t, s, f.ev.ID, 1); !st.GamesReady {
		t.Fatal("POST rounds created the games but left GamesReady unset")
	}
	finish(t, s, f.ev.ID, 1, 2, r.Pairings[1].GameID, r.Pairings[1].Red, r.Pairings[1].Black, "0-1")
	var got roundJSON
	reads := gameReads(s, func() {
		for range 3 {
			s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &got)
		}
	})
	if len(reads) != 0 {
		t.Fatalf("three views of a ready round read games: %v", reads)
	}
	if len(got.Pairings) != 5 || got.Pairings[1].Result == nil || *got.Pairings[1].Result != "0-1" || got.Pairings[0].Result != nil {
		t.Fatalf("view of the ready round: %+v", got.Pairings)
	}
}

// eventWrites counts the writes to an event's items or games (T#…, G#…)
// or to the work due (W#…) the store serves while fn runs, by operation: a
// materialised view (V#…) is a cache of the read, not the event's.
func eventWrites(s *apitest.Server, fn func()) map[string]int {
	var mu sync.Mutex
	n := map[string]int{}
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		switch op {
		case "PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem":
			if bytes.Contains(body, []byte(`"T#`)) || bytes.Contains(body, []byte(`"G#`)) || bytes.Contains(body, []byte(`"W#`)) {
				mu.Lock()
				n[op]++
				mu.Unlock()
			}
		}
		return embedded.Serve
	})
	defer s.DB.Intercept(nil)
	fn()
	return n
}

// A round whose games were lost before it was marked ready is not
// repaired by a public read, which writes nothing (a GET never writes):
// the writer side repairs it — the organiser's pairing asked again for the
// round — and marks it in the round's head; the views after read no games.
func TestGetRoundWritesNothingThePairingRetryRepairs(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Mend","system":"swiss","rounds":3}`, 6)
	r := f.pair(t, s, nil, http.StatusCreated)
	for _, p := range r.Pairings {
		if err := s.Store.Delete(t.Context(), "G#"+p.GameID, "GAME"); err != nil {
			t.Fatal(err)
		}
	}
	clearGamesReady(t, s, f.ev.ID, 1)
	path := "/tournaments/" + f.ev.ID + "/rounds/1"
	var got roundJSON
	if writes := eventWrites(s, func() {
		for range 3 {
			s.Get(path).Want(t, http.StatusOK).Decode(t, &got)
			s.Get(path+"?explain=true").Want(t, http.StatusOK)
		}
	}); len(writes) != 0 {
		t.Fatalf("reads of an unready round wrote: %v", writes)
	}
	if len(got.Pairings) != 3 {
		t.Fatalf("the read round: %+v", got.Pairings)
	}
	f.pair(t, s, map[string]any{"round": 1}, http.StatusOK)
	for _, p := range r.Pairings {
		wantGame(t, s, p.GameID, p.Red, p.Black)
	}
	if st, _ := storedRound(t, s, f.ev.ID, 1); !st.GamesReady {
		t.Fatal("the repairing pairing left GamesReady unset")
	}
	if reads := gameReads(s, func() { s.Get(path).Want(t, http.StatusOK) }); len(reads) != 0 {
		t.Fatalf("the view after the repair read games: %v", reads)
	}
}

// The pairing writes the round once: its body staged, the head published
// with the event item, and the games' mark in the head alone — the body's
// parts are not written again.
func TestPairingWritesTheRoundOnce(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Once","system":"swiss","rounds":3}`, 8)
	var parts int
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		if op == "PutItem" && bytes.Contains(body, []byte(`#~part.`)) {
			parts++
		}
		return embedded.Serve
	})
	f.pair(t, s, nil, http.StatusCreated)
	s.DB.Intercept(nil)
	rec, err := s.Store.Get(t.Context(), "T#"+f.ev.ID, "R#0001")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := storedRound(t, s, f.ev.ID, 1); !st.GamesReady || rec.Build == "" || parts != rec.Parts {
		t.Fatalf("ready %v, build %q of %d parts, %d part writes", st.GamesReady, rec.Build, rec.Parts, parts)
	}
}

// A manual change rewrites games in one transaction with the round: the
// round stays ready, its views read no games, and the games carry the
// changed players.
func TestRoundChangeKeepsGamesReady(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Swap","system":"swiss","rounds":5}`, 5)
	f.pair(t, s, nil, http.StatusCreated)
	var sw roundJSON
	s.Post("/tournaments/"+f.ev.ID+"/rounds/1/changes", f.ev.Token, map[string]any{"action": "swapColours", "table": 1}).Want(t, http.StatusOK).Decode(t, &sw)
	if st, _ := storedRound(t, s, f.ev.ID, 1); !st.GamesReady {
		t.Fatal("a change that rewrote the games cleared GamesReady")
	}
	if reads := gameReads(s, func() { s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK) }); len(reads) != 0 {
		t.Fatalf("view after a change read games: %v", reads)
	}
	wantGame(t, s, sw.Pairings[0].GameID, sw.Pairings[0].Red, sw.Pairings[0].Black)
}

// S-3: a drawn knockout game's result adds the additional rapid game to the
// latest round before it is answered (the game command's follow-up): the
// game exists and the round is ready again at once, with no read between,
// and then its views read no games.
func TestKnockoutExtensionCreatesGamesThenReady_S3(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cup","system":"knockout"}`, 4)
	r := f.pair(t, s, nil, http.StatusCreated)
	if st, _ := storedRound(t, s, f.ev.ID, 1); !st.GamesReady || len(st.Pairings) != 2 {
		t.Fatalf("paired knockout round: ready %v, %d games", st.GamesReady, len(st.Pairings))
	}
	decide(t, s, f.ev.Token, r.Pairings[0].GameID, "1/2-1/2")
	st, _ := storedRound(t, s, f.ev.ID, 1)
	if !st.GamesReady || len(st.Pairings) != 3 {
		t.Fatalf("extended round, before any read: ready %v, %d games", st.GamesReady, len(st.Pairings))
	}
	added := st.Pairings[2]
	wantGame(t, s, added.GameID, added.Red, added.Black)
	path := "/tournaments/" + f.ev.ID + "/rounds/1"
	var got roundJSON
	s.Get(path).Want(t, http.StatusOK).Decode(t, &got)
	if len(got.Pairings) != 3 || got.Pairings[2].GameID != added.GameID {
		t.Fatalf("the extended round as read: %+v", got.Pairings)
	}
	if reads := gameReads(s, func() { s.Get(path).Want(t, http.StatusOK) }); len(reads) != 0 {
		t.Fatalf("view of the extended, ready round read games: %v", reads)
	}
}

// T-3: a team round stays unready while a match awaits its lineups, so the
// lineups that set it create its board games; then the round is ready.
func TestTeamRoundReadyOnceMatchesSet_T3(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Rush","system":"roundRobin","teams":true,"boards":4,"teamFormat":"lineupPerMatch"}`, 2, 4, 0)
	te.pair(t, s, map[string]any{"startsAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}, http.StatusCreated)
	path := fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)
	s.Get(path).Want(t, http.StatusOK)
	if st, _ := storedRound(t, s, te.ev.ID, 1); st.GamesReady {
		t.Fatal("a team round with unset matches is marked ready")
	}
	s.Clock.Advance(time.Hour) // the deadline: the due work draws the lineups (T-3)
	s.RunDue()
	var got teamRoundJSON
	s.Get(path).Want(t, http.StatusOK).Decode(t, &got)
	st, _ := storedRound(t, s, te.ev.ID, 1)
	if len(got.Pairings) != 4 || !st.GamesReady {
		t.Fatalf("after the draw: %d games, ready %v", len(got.Pairings), st.GamesReady)
	}
	for _, p := range st.Pairings {
		wantGame(t, s, p.GameID, p.Red, p.Black)
	}
	if reads := gameReads(s, func() { s.Get(path).Want(t, http.StatusOK) }); len(reads) != 0 {
		t.Fatalf("view of the set, ready team round read games: %v", reads)
	}
}
