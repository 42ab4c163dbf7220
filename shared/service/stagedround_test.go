package service_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A round staged in more parts than one transaction holds items (parts of
// 64 bytes: the round of 40 players is over a hundred of them) is paired
// by two requests at once: one publishes it, the other answers the
// published round, and only the published build's parts are left. The
// round reads back whole through Load; starting it writes its head alone
// (the same build), and the round read back has its start.
func TestPairRound_StagedPastOneTransaction(t *testing.T) {
	oldPart, oldRate := store.StagedPart, store.StageRate
	store.StagedPart, store.StageRate = 64, 1e9
	t.Cleanup(func() { store.StagedPart, store.StageRate = oldPart, oldRate })
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Staged Open", Rounds: 5})
	svc, st, tid, organiser, now := e.svc, e.st, e.tid, e.organiser, e.now
	for i := range 40 {
		if _, err := svc.Exec(t.Context(), tid, organiser, service.RegisterPlayer{Name: fmt.Sprintf("P%d", i), Rating: 2400 - i}); err != nil {
			t.Fatal(err)
		}
	}
	one := 1
	var wg sync.WaitGroup
	answers := make([]service.Paired, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := svc.Exec(t.Context(), tid, organiser, service.PairRound{Round: &one})
			if err != nil {
				t.Errorf("pairing %d: %v", i, err)
				return
			}
			answers[i] = res.(service.Paired)
		}()
	}
	wg.Wait()
	if answers[0].Created == answers[1].Created {
		t.Fatalf("created: %v and %v, want one pairing", answers[0].Created, answers[1].Created)
	}
	loaded, err := svc.Load(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	rec := loaded.Rounds[1]
	if rec.Build == "" || rec.Parts <= store.MaxTransactItems {
		t.Fatalf("round 1 stored as build %q in %d parts", rec.Build, rec.Parts)
	}
	got := loaded.Round(1)
	for _, a := range answers {
		if len(got.Pairings) != 20 || len(a.Round.Pairings) != 20 || got.Pairings[19] != a.Round.Pairings[19] {
			t.Fatalf("read back %d tables, answered %d", len(got.Pairings), len(a.Round.Pairings))
		}
	}
	items, err := st.Items(t.Context(), store.TournamentPK(tid))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := st.Query(t.Context(), store.TournamentPK(tid), store.RoundSK(1), 0)
	if err != nil || len(raw) != 1 {
		t.Fatalf("round 1's key range reads as %d documents: %v", len(raw), err)
	}
	parts := 0
	for _, it := range items {
		if it.IsPart() {
			parts++
			if !strings.Contains(it.SK, rec.Build) {
				t.Errorf("a part of another build: %s", it.SK)
			}
		}
	}
	if parts != rec.Parts {
		t.Fatalf("%d parts stored, the head counts %d", parts, rec.Parts)
	}
	if _, err := svc.Exec(t.Context(), tid, organiser, service.StartRound{N: 1}); err != nil {
		t.Fatal(err)
	}
	started, err := svc.Load(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	if r := started.Round(1); r.StartsAt != now().UnixMilli() || started.Rounds[1].Build != rec.Build || len(r.Pairings) != 20 {
		t.Fatalf("started: at %d, build %s (was %s), %d tables", r.StartsAt, started.Rounds[1].Build, rec.Build, len(r.Pairings))
	}
}

// A big event's round paired as a job (RunPairJob) is staged as any
// pairing is: the round of 40 players in parts of 64 bytes, more than a
// transaction holds, is published whole with the job done, its games made
// and marked in the head, and only the published build's parts are kept.
func TestRunPairJob_StagedRound(t *testing.T) {
	oldPart, oldRate := store.StagedPart, store.StageRate
	store.StagedPart, store.StageRate = 64, 1e9
	t.Cleanup(func() { store.StagedPart, store.StageRate = oldPart, oldRate })
	svc, tid, organiser := jobService(t, 10, 40)
	res, err := svc.Exec(t.Context(), tid, organiser, service.PairRoundOrJob{})
	if q, ok := res.(service.PairJobQueued); err != nil || !ok || !q.Start {
		t.Fatalf("pair: %+v %v, want the job queued", res, err)
	}
	job, err := svc.RunPairJob(t.Context(), tid, 1)
	if err != nil || job.State != service.JobDone || job.Tables != 20 {
		t.Fatalf("run: %+v %v", job, err)
	}
	ev, err := svc.Load(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	rec := ev.Rounds[1]
	if rec.Build == "" || rec.Parts <= store.MaxTransactItems {
		t.Fatalf("round 1 stored as build %q in %d parts", rec.Build, rec.Parts)
	}
	r := ev.Round(1)
	if len(r.Pairings) != 20 || !r.GamesReady {
		t.Fatalf("read back %d tables, games ready %v", len(r.Pairings), r.GamesReady)
	}
	for _, p := range r.Pairings {
		if _, err := svc.Games.Load(t.Context(), p.GameID); err != nil {
			t.Fatalf("table %d's game %q: %v", p.Table, p.GameID, err)
		}
	}
	items, err := svc.Games.Store.Items(t.Context(), store.TournamentPK(tid))
	if err != nil {
		t.Fatal(err)
	}
	parts := 0
	for _, it := range items {
		if it.IsPart() {
			parts++
			if !strings.Contains(it.SK, rec.Build) {
				t.Errorf("a part of another build: %s", it.SK)
			}
		}
	}
	if parts != rec.Parts {
		t.Fatalf("%d parts stored, the head counts %d", parts, rec.Parts)
	}
}
