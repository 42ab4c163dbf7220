package service_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
	"github.com/xqtour/xqtour/shared/tournament"
)

// testEvent is a service over a fresh embedded store (st) at a fixed
// instant (now), with one event tid in registration whose organiser is the
// caller the credential organiser names.
type testEvent struct {
	svc       *service.Service
	st        *store.Store
	tid       string
	organiser service.Credential
	now       func() time.Time
}

// newEvent starts the store and stores the event of settings s, under a
// service with opts.
func newEvent(t *testing.T, opts service.Options, s tournament.Settings) testEvent {
	t.Helper()
	st, _, _ := storetest.Start(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	now := func() time.Time { return time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC) }
	svc := service.New(st, now, opts, nil, log)
	svc.Games = &games.Store{Store: st, Log: log, Own: svc.PairingsGame}
	tid := service.NewID('t')
	ev, err := tournament.New(tid, s, "hash", now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(t.Context(), service.EncodeItem(&store.Record{PK: store.TournamentPK(tid), SK: store.MetaSK, Kind: store.KindTournament}, ev)); err != nil {
		t.Fatal(err)
	}
	organiser := func(context.Context, *tournament.Tournament) (service.Caller, error) {
		return service.Caller{Scope: tid, ID: tid, Role: service.Organiser}, nil
	}
	return testEvent{svc: svc, st: st, tid: tid, organiser: organiser, now: now}
}

// newService is newEvent's service, event and organiser for a five-round
// Swiss with the default options.
func newService(t *testing.T) (*service.Service, string, service.Credential) {
	t.Helper()
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Exec Open", Rounds: 5})
	return e.svc, e.tid, e.organiser
}

// Registrations racing on one event item all land, each with its own
// number, and the event counts every one: Exec sequences a Serial command
// per event and reruns a step that lost its race.
func TestExec_ConcurrentRegistrations(t *testing.T) {
	svc, tid, organiser := newService(t)
	const n = 20
	var wg sync.WaitGroup
	numbers := make(chan int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := svc.Exec(t.Context(), tid, organiser, service.RegisterPlayer{Name: fmt.Sprintf("P%d", i), Rating: 2000})
			if err != nil {
				t.Errorf("registration %d: %v", i, err)
				return
			}
			numbers <- res.(service.Registered).Player.Number
		}()
	}
	wg.Wait()
	close(numbers)
	seen := map[int]bool{}
	for k := range numbers {
		if seen[k] {
			t.Errorf("number %d given twice", k)
		}
		seen[k] = true
	}
	ev, err := svc.Load(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	if ev.T.Players != n || len(ev.H.Players) != n || len(seen) != n {
		t.Errorf("event counts %d, holds %d players, %d numbers; want %d", ev.T.Players, len(ev.H.Players), len(seen), n)
	}
}

// A caller of another event, or of a role the command does not name, is
// refused before the command runs, and nothing is written.
func TestExec_RefusesWrongCaller(t *testing.T) {
	svc, tid, _ := newService(t)
	for _, by := range []service.Caller{{Scope: "tother", ID: "tother", Role: service.Organiser}, {Scope: tid, ID: "parbiter", Role: service.Arbiter}} {
		cred := func(context.Context, *tournament.Tournament) (service.Caller, error) { return by, nil }
		_, err := svc.Exec(t.Context(), tid, cred, service.RegisterPlayer{Name: "X"})
		var ce *command.Error
		if !errors.As(err, &ce) || ce.Kind != command.Forbidden {
			t.Errorf("%+v: %v, want forbidden", by, err)
		}
	}
	if ev, err := svc.Load(t.Context(), tid); err != nil || ev.T.Players != 0 {
		t.Errorf("a refused caller changed the event: %v", err)
	}
}

// Pairing twice with the round named is one round: the second request
// answers the stored round instead of pairing the next (PairRound), and a
// round started is a conflict carrying it (StartRound).
func TestExec_PairAndStart(t *testing.T) {
	svc, tid, organiser := newService(t)
	for i := range 4 {
		if _, err := svc.Exec(t.Context(), tid, organiser, service.RegisterPlayer{Name: fmt.Sprintf("P%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	one := 1
	for want := range []bool{true, false} {
		res, err := svc.Exec(t.Context(), tid, organiser, service.PairRound{Round: &one})
		if err != nil {
			t.Fatal(err)
		}
		if p := res.(service.Paired); p.Created != (want == 0) || p.Round.Number != 1 || len(p.Round.Pairings) != 2 {
			t.Errorf("pairing %d: created %v, round %d with %d pairings", want, p.Created, p.Round.Number, len(p.Round.Pairings))
		}
	}
	if _, err := svc.Exec(t.Context(), tid, organiser, service.StartRound{N: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Exec(t.Context(), tid, organiser, service.StartRound{N: 1})
	var ce *command.Error
	if !errors.As(err, &ce) || ce.Code != "round_already_started" || ce.Kind != command.Conflict {
		t.Fatalf("starting a started round: %v", err)
	}
	if cur, ok := ce.Current.(service.RoundOf); !ok || cur.Round.Number != 1 || cur.Round.StartsAt == 0 {
		t.Errorf("the conflict carries %+v", ce.Current)
	}
}
