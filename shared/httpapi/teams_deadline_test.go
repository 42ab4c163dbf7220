package httpapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// T-3 at the deadline, with two runs of the due work at once (overlapping
// invocations of the schedule's function) and readers beside them: the
// readers write nothing, and each run tries the same draw. Each write
// carries the round item's version and creates the lineup items only if
// absent, so the round is written once by the draw (version 2 after the
// pairing's 1) and once more when its board games are known to exist
// (GamesReady, version 3), each lineup once, one set of board games exists,
// and the round's due item is gone.
func TestTeamLineupDeadline_T3_ConcurrentRunsSetOnce(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Rush","system":"roundRobin","teams":true,"boards":4,"teamFormat":"lineupPerMatch"}`, 2, 4, 0)
	te.pair(t, s, map[string]any{"startsAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}, http.StatusCreated)
	if n := len(dueItems(t, s)); n != 1 {
		t.Fatalf("the pairing indexed %d due items, want the round's deadline", n)
	}
	s.Clock.Advance(time.Hour)
	const readers, runs = 4, 2
	found := make([]int, runs)
	var wg sync.WaitGroup
	for i := range readers + runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i >= readers {
				found[i-readers] = s.RunDue().Found
				return
			}
			if r := s.Get(fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)); r.Status != http.StatusOK {
				t.Errorf("reader %d: %d %s", i, r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
	if found[0] != 1 || found[1] != 1 {
		t.Errorf("the runs found %v due items, want the round's one each", found)
	}
	var r teamRoundJSON
	s.Get(fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)).Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) != 4 || !r.Matches[0].Set {
		t.Fatalf("after the runs: %+v", r)
	}
	stored, version := storedRound(t, s, te.ev.ID, 1)
	if version != 3 || len(stored.Pairings) != 4 || !stored.GamesReady || !slices.Equal(gameIDs(r), pairingIDs(stored)) {
		t.Fatalf("round item at version %d with %d board games, ready %v; want version 3 with 4, ready", version, len(stored.Pairings), stored.GamesReady)
	}
	if ls := storedLineups(t, s, te.ev.ID, 1); len(ls) != 2 || !ls[0].Drawn || !ls[1].Drawn {
		t.Fatalf("lineups: %+v", ls)
	}
	for _, p := range stored.Pairings {
		wantGame(t, s, p.GameID, p.Red, p.Black)
	}
	if n := len(dueItems(t, s)); n != 0 {
		t.Fatalf("%d due items left after the work was done", n)
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
