package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The catch-up a round owes is the writer side's: a knockout's next games
// are made by the game command that ended a game, before it answers; a
// team round's lineups are drawn at their deadline by the due work's
// runner (RunDue); a read of a round writes nothing.

// dueItems reads the index of the work due straight from the store.
func dueItems(t *testing.T, s *apitest.Server) []items.Due {
	t.Helper()
	recs, err := s.Store.Query(t.Context(), store.DuePK, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]items.Due, len(recs))
	for i, rec := range recs {
		if err := items.Decode(rec, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// pairingIDs are a stored round's game ids in table order.
func pairingIDs(r tournament.Round) []string {
	var ids []string
	for _, p := range r.Pairings {
		ids = append(ids, p.GameID)
	}
	return ids
}

// storedGame reports whether game gid's item exists, read straight from
// the store (no GET of it, which may settle a flag).
func storedGame(t *testing.T, s *apitest.Server, gid string) bool {
	t.Helper()
	_, err := s.Store.Get(t.Context(), store.GamePK(gid), store.GameSK)
	return err == nil
}

// S-3: every way a game ends runs the knockout's follow-up in the game
// command itself, after the game's write: with two games a match, the
// match's second game exists the moment the first one's end is answered,
// with no read of the round between, and the work it made due is done and
// gone. A corrected result that levels a decided final adds its rapid game
// the same way.
func TestKnockout_S3_NextGameMadeByTheEndingCommand(t *testing.T) {
	const settings = `{"name":"Cup","system":"knockout","gamesPerMatch":2,"timeControl":{"periods":[{"moves":0,"ms":60000}]}}`
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, s *apitest.Server, f field, gid string)
	}{
		{"arbiter result", func(t *testing.T, s *apitest.Server, f field, gid string) {
			decide(t, s, f.ev.Token, gid, "1-0")
		}},
		{"ruling", func(t *testing.T, s *apitest.Server, f field, gid string) {
			s.Post("/games/"+gid+"/rulings", f.ev.Token, map[string]any{"kind": "result", "result": "0-1", "note": "a forfeit"}).Want(t, http.StatusOK)
		}},
		{"resignation", func(t *testing.T, s *apitest.Server, f field, gid string) {
			var g struct{ Tournament struct{ Red string } }
			s.Get("/games/"+gid).Want(t, http.StatusOK).Decode(t, &g)
			s.Post("/games/"+gid+"/resign", f.byID[g.Tournament.Red].Token, `{}`).Want(t, http.StatusOK)
		}},
		{"flag claimed", func(t *testing.T, s *apitest.Server, f field, gid string) {
			var g struct{ Tournament struct{ Black string } }
			s.Get("/games/"+gid).Want(t, http.StatusOK).Decode(t, &g)
			s.Clock.Advance(2 * time.Minute) // red, to move, has let a minute's clock run out
			r := s.Post("/games/"+gid+"/claims", f.byID[g.Tournament.Black].Token, map[string]string{"kind": "time"})
			if r.Status != http.StatusOK && r.Status != http.StatusConflict && r.Status != http.StatusUnprocessableEntity {
				t.Fatalf("time claim: %d %s", r.Status, r.Body)
			}
			if st := storedResult(t, s, f.ev.ID, 1, 1); st == "" {
				t.Fatal("the claim ended no game")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := apitest.New(t)
			f := newField(t, s, settings, 2)
			r1 := f.pair(t, s, nil, http.StatusCreated)
			s.Post("/tournaments/"+f.ev.ID+"/rounds/1/start", f.ev.Token, `{}`).Want(t, http.StatusOK)
			if len(r1.Pairings) != 1 {
				t.Fatalf("the final's first round: %+v", r1.Pairings)
			}
			tc.end(t, s, f, r1.Pairings[0].GameID)
			st, _ := storedRound(t, s, f.ev.ID, 1)
			if len(st.Pairings) != 2 || !storedGame(t, s, st.Pairings[1].GameID) || !st.GamesReady {
				t.Fatalf("right after the end's answer: %d games, the second stored %v, ready %v", len(st.Pairings), len(st.Pairings) == 2 && storedGame(t, s, st.Pairings[1].GameID), st.GamesReady)
			}
			if p := st.Pairings[1]; p.Red != r1.Pairings[0].Black || p.Black != r1.Pairings[0].Red {
				t.Errorf("game 2 is %s-%s, want the colours of game 1 swapped", p.Red, p.Black)
			}
			if due := dueItems(t, s); len(due) != 0 {
				t.Errorf("the follow-up done, yet due: %+v", due)
			}
		})
	}

	t.Run("correction", func(t *testing.T) {
		s := apitest.New(t)
		f := newField(t, s, `{"name":"Cup","system":"knockout"}`, 2)
		r1 := f.pair(t, s, nil, http.StatusCreated)
		gid := r1.Pairings[0].GameID
		decide(t, s, f.ev.Token, gid, "1-0")
		if st, _ := storedRound(t, s, f.ev.ID, 1); len(st.Pairings) != 1 {
			t.Fatalf("a decided final grew: %+v", st.Pairings)
		}
		s.Post("/games/"+gid+"/result", f.ev.Token, map[string]any{"result": "1/2-1/2", "correction": true, "note": "the scoresheet says drawn"}).Want(t, http.StatusOK)
		st, _ := storedRound(t, s, f.ev.ID, 1)
		if len(st.Pairings) != 2 || !storedGame(t, s, st.Pairings[1].GameID) {
			t.Fatalf("the levelled final has no rapid game right after the correction: %+v", st.Pairings)
		}
		if due := dueItems(t, s); len(due) != 0 {
			t.Errorf("the follow-up done, yet due: %+v", due)
		}
	})
}

// storedResult is the result of round n's table, read straight from its
// result item ("" when there is none).
func storedResult(t *testing.T, s *apitest.Server, tid string, n, table int) string {
	t.Helper()
	rec, err := s.Store.Get(t.Context(), store.TournamentPK(tid), store.ResultSK(n, table))
	if err != nil {
		return ""
	}
	var x struct{ Result string }
	if err := json.Unmarshal(rec.Doc, &x); err != nil {
		t.Fatal(err)
	}
	return x.Result
}

// A GET of a round writes nothing to the event, its games or the work due
// — even of a knockout whose result (written here straight to the store,
// as no game command would) calls for a game, or a team round past its
// deadline with its lineups missing: what they owe is the writer side's.
func TestGetRound_WritesNothing(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cup","system":"knockout"}`, 2)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	p := r1.Pairings[0]
	finish(t, s, f.ev.ID, 1, p.Table, p.GameID, p.Red, p.Black, "1/2-1/2")
	var got roundJSON
	if w := eventWrites(s, func() { s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &got) }); len(w) != 0 {
		t.Errorf("a GET of a knockout round wrote %v", w)
	}
	if len(got.Pairings) != 1 {
		t.Errorf("a GET grew the knockout round: %+v", got.Pairings)
	}

	te := newTeamEvent(t, s, `{"name":"Rush","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 2, 2, 0)
	te.pair(t, s, map[string]any{"startsAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}, http.StatusCreated)
	s.Clock.Advance(2 * time.Hour)
	path := fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)
	var tr teamRoundJSON
	if w := eventWrites(s, func() {
		s.Get(path).Want(t, http.StatusOK).Decode(t, &tr)
		s.Get(path+"?explain=true").Want(t, http.StatusOK)
	}); len(w) != 0 {
		t.Errorf("GETs of a team round past its deadline wrote %v", w)
	}
	if len(tr.Pairings) != 0 || tr.Matches[0].Set {
		t.Errorf("a GET drew the lineups: %+v", tr)
	}
	if ls := storedLineups(t, s, te.ev.ID, 1); len(ls) != 0 {
		t.Errorf("a GET stored lineups: %+v", ls)
	}
}

// T-3: a round started before its scheduled deadline has its lineups drawn
// by the start itself, and the deadline's work is neither left due at the
// old time nor at the new one.
func TestTeamRoundStart_T3_DrawsAndLeavesNothingDue(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Rush","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 2, 2, 0)
	at := s.Clock.Now().Add(time.Hour)
	te.pair(t, s, map[string]any{"startsAt": at.Format(time.RFC3339)}, http.StatusCreated)
	if due := dueItems(t, s); len(due) != 1 || due[0].At != at.UnixMilli() || due[0].Round != 1 || due[0].Tournament != te.ev.ID {
		t.Fatalf("due after the pairing: %+v, want round 1 at its deadline", due)
	}
	s.Clock.Advance(10 * time.Minute)
	var r teamRoundJSON
	s.Post(fmt.Sprintf("/tournaments/%s/rounds/1/start", te.ev.ID), te.ev.Token, `{}`).Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) != 2 || !r.Matches[0].Set {
		t.Fatalf("the start's answer: %+v, want the lineups drawn and the match set", r)
	}
	if due := dueItems(t, s); len(due) != 0 {
		t.Fatalf("due after the start: %+v", due)
	}
}

// S-3: a follow-up that fails leaves the game's answer as it was and its
// work due; the due work's runner retries it, puts it off while it fails,
// and once the cause is gone does it and deletes the item. The failure
// here is a real one: an item that is not the pairing's holds the id the
// final's rapid game is keyed to (game_id_taken), until the operator
// removes it.
func TestDueWork_FailedFollowUpIsDoneLater(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cup","system":"knockout"}`, 2)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	rec, err := s.Store.Get(t.Context(), store.TournamentPK(f.ev.ID), store.MetaSK)
	if err != nil {
		t.Fatal(err)
	}
	var ev tournament.Tournament
	if err := json.Unmarshal(rec.Doc, &ev); err != nil {
		t.Fatal(err)
	}
	rapid := service.GameID(service.GameKey(&ev), f.ev.ID, 1, 2, 2) // table 2, the match's game 2
	foreign, err := s.Store.Get(t.Context(), store.GamePK(createGame(t, s, `{}`).ID), store.GameSK)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.Put(t.Context(), &store.Record{PK: store.GamePK(rapid), SK: store.GameSK, Kind: store.KindGame, Doc: foreign.Doc}); err != nil {
		t.Fatal(err)
	}

	decide(t, s, f.ev.Token, r1.Pairings[0].GameID, "1/2-1/2") // answered 200 all the same
	if got := storedResult(t, s, f.ev.ID, 1, 1); got != "1/2-1/2" {
		t.Fatalf("the result stored is %q", got)
	}
	due := dueItems(t, s)
	if len(due) != 1 || due[0].Tournament != f.ev.ID || due[0].Round != 1 || due[0].Attempts != 0 {
		t.Fatalf("due after the failed follow-up: %+v, want round 1's", due)
	}
	if run := s.RunDue(); run.Found != 1 || run.Failed != 1 {
		t.Fatalf("a run while it still fails: %+v", run)
	}
	due = dueItems(t, s)
	if len(due) != 1 || due[0].Attempts != 1 || !strings.Contains(due[0].Error, "game_id_taken") && !strings.Contains(due[0].Error, "not this pairing's") ||
		due[0].At != s.Clock.Now().Add(time.Minute).UnixMilli() {
		t.Fatalf("the failed run's item: %+v, want it put off a minute with its error", due)
	}

	if err := s.Store.Delete(t.Context(), store.GamePK(rapid), store.GameSK); err != nil { // the operator's fix
		t.Fatal(err)
	}
	if run := s.RunDue(); run.Found != 0 {
		t.Fatalf("a run before the item is due again: %+v", run)
	}
	s.Clock.Advance(time.Minute)
	if run := s.RunDue(); run.Found != 1 || run.Done != 1 {
		t.Fatalf("the run once it can succeed: %+v", run)
	}
	st, _ := storedRound(t, s, f.ev.ID, 1)
	if len(st.Pairings) != 2 || st.Pairings[1].GameID != rapid || !st.GamesReady {
		t.Fatalf("the round after the due work: %+v, ready %v", st.Pairings, st.GamesReady)
	}
	wantGame(t, s, rapid, st.Pairings[1].Red, st.Pairings[1].Black)
	if due := dueItems(t, s); len(due) != 0 {
		t.Fatalf("due after the work was done: %+v", due)
	}
}

// T-3: a team round paired with its start already past has its lineups
// drawn by the pairing request itself: its answer shows every match set,
// and nothing is left due.
func TestTeamRoundPairedPastItsDeadline_T3_DrawnAtOnce(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Late","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 2, 2, 0)
	r := te.pair(t, s, map[string]any{"startsAt": s.Clock.Now().Add(-time.Minute).Format(time.RFC3339)}, http.StatusCreated)
	if len(r.Pairings) != 2 || !r.Matches[0].Set {
		t.Fatalf("the pairing's answer: %+v, want the lineups drawn", r)
	}
	if ls := storedLineups(t, s, te.ev.ID, 1); len(ls) != 2 {
		t.Fatalf("lineups: %+v", ls)
	}
	if due := dueItems(t, s); len(due) != 0 {
		t.Fatalf("due after the pairing: %+v", due)
	}
}

// An event moved to another stack brings no index of the work due (W#due
// is the stack's, not the event's): the import indexes what its rounds
// owe, so a team round's lineups are drawn at its deadline on the new
// stack, by its due work, as they would have been on the old one.
func TestDueWork_ImportedEventKeepsItsDeadline_T3(t *testing.T) {
	src, dst := apitest.New(t), apitest.New(t)
	te := newTeamEvent(t, src, `{"name":"Moving","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 2, 2, 0)
	at := src.Clock.Now().Add(time.Hour)
	te.pair(t, src, map[string]any{"startsAt": at.Format(time.RFC3339)}, http.StatusCreated)
	importEvent(dst, export(t, src, te.ev.ID, te.ev.Token)).Want(t, http.StatusCreated)
	due := dueItems(t, dst)
	if len(due) != 1 || due[0].Tournament != te.ev.ID || due[0].Round != 1 || due[0].At != at.UnixMilli() {
		t.Fatalf("due on the new stack: %+v, want round 1 at its deadline", due)
	}
	dst.Clock.Advance(time.Hour)
	if run := dst.RunDue(); run.Done != 1 {
		t.Fatalf("the new stack's run at the deadline: %+v", run)
	}
	var r teamRoundJSON
	dst.Get(fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)).Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) != 2 || !r.Matches[0].Set {
		t.Fatalf("the imported round after its deadline: %+v", r)
	}
}
