package service_test

import (
	"context"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// dueIndex reads the work due straight from the store.
func dueIndex(t *testing.T, st *store.Store) []*store.Record {
	t.Helper()
	recs, err := st.Query(t.Context(), store.DuePK, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// drawnFinal pairs a two-player knockout's final and draws its one game
// through the game layer's write loop, as the result route does, with the
// event's work due stored with the result (Ending) but — as when the
// request stops right after the game's write — not done (no Ended).
func drawnFinal(t *testing.T) (testEvent, string) {
	t.Helper()
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Cup", System: tournament.Knockout})
	for _, name := range []string{"A", "B"} {
		if _, err := e.svc.Exec(t.Context(), e.tid, e.organiser, service.RegisterPlayer{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.svc.Exec(t.Context(), e.tid, e.organiser, service.PairRound{})
	if err != nil {
		t.Fatal(err)
	}
	p := res.(service.Paired)
	if err := e.svc.EnsureGamesAfterCommit(t.Context(), p.Event.T, p.Round, p.Event.H, p.Stored, e.now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	e.svc.Games.Ending = e.svc.EndingItems
	gid := p.Round.Pairings[0].GameID
	organiser := func(*games.Item) (game.Actor, error) { return game.Actor{Role: game.Organiser}, nil }
	now := e.now().UnixMilli()
	if _, err := e.svc.Games.Mutate(t.Context(), gid, now, organiser, e.svc.OnGame(t.Context(), now, service.GameResult{Result: "1/2-1/2"})); err != nil {
		t.Fatal(err)
	}
	return e, gid
}

// A game's end stores its follow-up with its result, in the same write: a
// request that stops after it loses nothing. The index holds the work,
// the round is not grown yet, and the due work's run grows it — the rapid
// game made, the round ready — and deletes the item; a run after that
// finds nothing.
func TestDue_EndStoredWithTheResultIsDoneByTheRun(t *testing.T) {
	e, gid := drawnFinal(t)
	recs := dueIndex(t, e.st)
	if len(recs) != 1 {
		t.Fatalf("%d due items after the drawn final, want its follow-up", len(recs))
	}
	var d items.Due
	if err := items.Decode(recs[0], &d); err != nil || d.Tournament != e.tid || d.Round != 1 || d.Why != "ended" {
		t.Fatalf("due item %+v (%v)", d, err)
	}
	ev, err := e.svc.Load(t.Context(), e.tid)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ev.Round(1).Pairings); n != 1 {
		t.Fatalf("the round grew before the follow-up ran: %d games", n)
	}
	run, err := e.svc.RunDue(t.Context(), e.now().UnixMilli(), nil)
	if err != nil || run.Found != 1 || run.Done != 1 {
		t.Fatalf("run: %+v, %v", run, err)
	}
	if ev, err = e.svc.Load(t.Context(), e.tid); err != nil {
		t.Fatal(err)
	}
	r := ev.Round(1)
	if len(r.Pairings) != 2 || !r.GamesReady {
		t.Fatalf("after the run: %d games, ready %v", len(r.Pairings), r.GamesReady)
	}
	if _, err := e.svc.Games.Load(t.Context(), r.Pairings[1].GameID); err != nil {
		t.Fatalf("the rapid game after %s: %v", gid, err)
	}
	if n := len(dueIndex(t, e.st)); n != 0 {
		t.Fatalf("%d due items after the run", n)
	}
	if run, err := e.svc.RunDue(t.Context(), e.now().UnixMilli(), nil); err != nil || run.Found != 0 {
		t.Fatalf("a second run: %+v, %v", run, err)
	}
}

// An event this stack holds read-only (a mirror's copy, written on its
// source) owes this stack nothing: its items are deleted undone, and the
// round is left as it is.
func TestDue_ReadOnlyEventIsLeftToItsSource(t *testing.T) {
	e, _ := drawnFinal(t)
	readOnly := func(_ context.Context, id string) error {
		if id == e.tid {
			return &command.Error{Kind: command.Conflict, Code: "mirror_read_only", Message: "written elsewhere"}
		}
		return nil
	}
	run, err := e.svc.RunDue(t.Context(), e.now().UnixMilli(), readOnly)
	if err != nil || run.Found != 1 || run.Done != 1 {
		t.Fatalf("run: %+v, %v", run, err)
	}
	ev, err := e.svc.Load(t.Context(), e.tid)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ev.Round(1).Pairings); n != 1 {
		t.Fatalf("a read-only event's round grew: %d games", n)
	}
	if n := len(dueIndex(t, e.st)); n != 0 {
		t.Fatalf("%d due items left", n)
	}
}

// Work due on an event that is gone (expired, or never stored: an item
// of another table's past) is owed to nobody: the run deletes it.
func TestDue_GoneEventOwesNothing(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Cup", System: tournament.Knockout})
	at := e.now().UnixMilli() - 1
	rec := items.Encode(&store.Record{PK: store.DuePK, SK: store.DueSK(at, "tgone", 3, ""), Kind: store.KindDue},
		items.Due{Tournament: "tgone", Round: 3, At: at, Why: "deadline"})
	if err := e.st.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	later := items.Encode(&store.Record{PK: store.DuePK, SK: store.DueSK(at+2, "tgone", 4, ""), Kind: store.KindDue},
		items.Due{Tournament: "tgone", Round: 4, At: at + 2, Why: "deadline"})
	if err := e.st.Put(t.Context(), later); err != nil {
		t.Fatal(err)
	}
	run, err := e.svc.RunDue(t.Context(), e.now().UnixMilli(), nil)
	if err != nil || run.Found != 1 || run.Done != 1 {
		t.Fatalf("run: %+v, %v (the item due a millisecond later is not due yet)", run, err)
	}
	if left := dueIndex(t, e.st); len(left) != 1 || left[0].SK != later.SK {
		t.Fatalf("left: %v, want the later item alone", left)
	}
}
