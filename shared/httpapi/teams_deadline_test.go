package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// T-3 at the deadline, read by many at once: every reader tries the same
// draw, each write carries the round item's version and creates the lineup
// items only if absent, so the round is written once by the draw (version 2
// after the pairing's 1) and once more when its board games are known to
// exist (GamesReady, version 3), each lineup once, and one set of board games
// exists.
func TestTeamLineupDeadline_T3_ConcurrentReadersSetOnce(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Rush","system":"roundRobin","teams":true,"boards":4,"teamFormat":"lineupPerMatch"}`, 2, 4, 0)
	te.pair(t, s, map[string]any{"startsAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}, http.StatusCreated)
	s.Clock.Advance(time.Hour)
	const readers = 6
	rounds := make([]teamRoundJSON, readers)
	var wg sync.WaitGroup
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.Get(fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID))
			if r.Status != http.StatusOK {
				t.Errorf("reader %d: %d %s", i, r.Status, r.Body)
				return
			}
			_ = json.Unmarshal(r.Body, &rounds[i])
		}()
	}
	wg.Wait()
	for i, r := range rounds {
		if len(r.Pairings) != 4 || !r.Matches[0].Set {
			t.Errorf("reader %d saw %+v", i, r)
		}
		if i > 0 && !slices.Equal(gameIDs(r), gameIDs(rounds[0])) {
			t.Errorf("reader %d saw games %v, reader 0 %v", i, gameIDs(r), gameIDs(rounds[0]))
		}
	}
	stored, version := storedRound(t, s, te.ev.ID, 1)
	if version != 3 || len(stored.Pairings) != 4 || !stored.GamesReady {
		t.Fatalf("round item at version %d with %d board games, ready %v; want version 3 with 4, ready", version, len(stored.Pairings), stored.GamesReady)
	}
	if ls := storedLineups(t, s, te.ev.ID, 1); len(ls) != 2 || !ls[0].Drawn || !ls[1].Drawn {
		t.Fatalf("lineups: %+v", ls)
	}
	for _, p := range stored.Pairings {
		wantGame(t, s, p.GameID, p.Red, p.Black)
	}
}

func gameIDs(r teamRoundJSON) []string {
	var ids []string
	for _, p := range r.Pairings {
		ids = append(ids, p.GameID)
	}
	return ids
}

// T-3: the draw also happens when the first request after the deadline is a
// captain's (refused) lineup or the organiser pairing the next round — the
// pairing then sees the matches set (here counted as draws while unfinished,
// P-12).
func TestTeamLineupDeadline_T3_DrawnOnLineupAndOnPairing(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 4, 2, 0)
	in := func() map[string]any {
		return map[string]any{"unfinishedAsDraws": true, "startsAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}
	}
	r1 := te.pair(t, s, in(), http.StatusCreated)
	s.Clock.Advance(2 * time.Hour)
	late := te.byID[r1.Matches[0].Home]
	wantError(t, te.lineup(s, 1, late.Token, map[string]any{"lineup": late.roster()}), http.StatusUnprocessableEntity, "lineup_deadline_passed", "T-3")
	if r, _ := storedRound(t, s, te.ev.ID, 1); len(r.Pairings) != 4 {
		t.Fatalf("a late lineup draws the whole round's missing lineups first: %+v", r.Pairings)
	}
	if ls := storedLineups(t, s, te.ev.ID, 1); len(ls) != 4 {
		t.Fatalf("round 1 lineups: %+v", ls)
	}

	te.pair(t, s, in(), http.StatusCreated) // round 2, nobody sets a lineup
	if r, _ := storedRound(t, s, te.ev.ID, 2); len(r.Pairings) != 0 {
		t.Fatalf("round 2 set before its deadline: %+v", r.Pairings)
	}
	s.Clock.Advance(2 * time.Hour)
	te.pair(t, s, in(), http.StatusCreated) // round 3: round 2 is drawn first
	r2, _ := storedRound(t, s, te.ev.ID, 2)
	if len(r2.Pairings) != 4 {
		t.Fatalf("pairing round 3 draws round 2's lineups first: %+v", r2.Pairings)
	}
	for _, p := range r2.Pairings {
		wantGame(t, s, p.GameID, p.Red, p.Black)
	}
	if ls := storedLineups(t, s, te.ev.ID, 2); len(ls) != 4 {
		t.Fatalf("round 2 lineups: %+v", ls)
	}
}
