package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Event is the event aggregate: a whole event as one paginated Query on its partition returns it:
// the META item, players, rounds and result items (officials and teams are
// skipped). Pairing and standings are computed from it; nothing is scanned.
type Event struct {
	// T is the event item decoded, Meta the item (its version guards a write).
	T    *tournament.Tournament
	Meta *store.Record
	// H is the players, rounds and results as the core reads them.
	H *tournament.History
	// Rounds are the round items by number (their versions guard a write).
	Rounds map[int]*store.Record
	// Other holds the items the cases below skip (teams, lineups,
	// officials); a team event's are read from it.
	Other []*store.Record
	// shown caches Numbers().
	shown map[string]int
}

// Numbers are the players' numbers as the event shows them (P-3: the drawn
// numbers once an individual Swiss has paired round 1), worked out once.
func (ev *Event) Numbers() map[string]int {
	if ev.shown == nil {
		ev.shown = tournament.ShownNumbers(ev.T, ev.H.Players)
	}
	return ev.shown
}

// Load reads event tid whole (Event); a round paired between its reads is
// caught and the event read again.
func (s *Service) Load(ctx context.Context, tid string) (*Event, error) {
	var (
		ev  *Event
		err error
	)
	for range 5 {
		// A round paired between eventItems' two reads leaves the rounds read
		// and the event item's count apart (they are written together): read
		// again.
		if ev, err = s.decodeEvent(ctx, tid); err != nil || len(ev.H.Rounds) == ev.T.Round {
			return ev, err
		}
	}
	return nil, store.ErrConflict
}

func (s *Service) decodeEvent(ctx context.Context, tid string) (*Event, error) {
	recs, err := s.eventItems(ctx, tid)
	if err != nil {
		return nil, err
	}
	ev := &Event{Rounds: map[int]*store.Record{}}
	var (
		players []*tournament.Player
		rounds  []*tournament.Round
		results []tournament.Result
	)
	for _, rec := range recs {
		var err error
		switch {
		case rec.SK == store.MetaSK:
			ev.T, ev.Meta = new(tournament.Tournament), rec
			err = decodeItem(rec, ev.T)
		case strings.HasPrefix(rec.SK, store.PlayerPrefix):
			p := new(tournament.Player)
			err = decodeItem(rec, p)
			players = append(players, p)
		case strings.HasPrefix(rec.SK, store.RoundPrefix):
			r := new(tournament.Round)
			err = decodeItem(rec, r)
			rounds = append(rounds, r)
			ev.Rounds[r.Number] = rec
		case strings.HasPrefix(rec.SK, store.ResultPrefix):
			var x tournament.Result
			err = decodeItem(rec, &x)
			results = append(results, x)
		default:
			ev.Other = append(ev.Other, rec)
		}
		if err != nil {
			return nil, fmt.Errorf("decode %s %s: %w", rec.Kind, rec.SK, err)
		}
	}
	if ev.T == nil {
		return nil, command.NotFoundf("tournament %s", tid)
	}
	ev.H = tournament.NewHistory(players, rounds, results)
	return ev, nil
}

// eventItems reads the items of the event's partition that pairing, rounds
// and standings need. An individual event's are the event item and the
// players, rounds and results (P#, R#, X#): its officials (O#…, sorting
// between the event item and the players) — their tables lists included —
// never add to the cost of a public read. The event item is read first: a
// registration stored between the two reads shows up newer than the event
// item, so a write under its version refuses (409, retried), and a round
// paired meanwhile is caught by Load. A team event's lineups must be
// read in one request with its rounds (a lineup is written with its round
// item), and lineups and teams sort before the event item, so a team event
// is read whole.
func (s *Service) eventItems(ctx context.Context, tid string) ([]*store.Record, error) {
	meta, err := s.store.Get(ctx, store.TournamentPK(tid), store.MetaSK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var t tournament.Tournament
	if err := decodeItem(meta, &t); err != nil || t.Settings.Teams {
		return s.store.Query(ctx, store.TournamentPK(tid), "", 0)
	}
	if t.Players*(t.Round+1) < SplitReadAt {
		from, err := s.store.QueryFrom(ctx, store.TournamentPK(tid), store.PlayerPrefix)
		if err != nil {
			return nil, err
		}
		return append([]*store.Record{meta}, from...), nil
	}
	// A large event is many 1 MB pages, which one Query reads one after the
	// other: its key ranges — the players, and each round and its results —
	// are read at once instead. Rounds paired after the event item was read
	// are not (the event item's count bounds them), results of the rounds
	// it counts are whenever they arrive, as with one Query.
	prefixes := []string{store.PlayerPrefix}
	for n := 1; n <= t.Round; n++ {
		prefixes = append(prefixes, store.RoundSK(n), fmt.Sprintf("%s%04d#", store.ResultPrefix, n))
	}
	parts := make([][]*store.Record, len(prefixes))
	err = InParallel(len(prefixes), func(i int) error {
		var err error
		parts[i], err = s.store.Query(ctx, store.TournamentPK(tid), prefixes[i], 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	return append([]*store.Record{meta}, slices.Concat(parts...)...), nil
}

// SplitReadAt is the size of an individual event, in players times rounds
// paired plus one, from which eventItems reads its key ranges in parallel:
// about a megabyte of players, rounds and results, one Query page. A smaller
// event is one Query of a page or two, cheaper than a request per round.
var SplitReadAt = 4000 // a variable so a test takes a large event's path with a small one

// SetTournament replaces the event item decoded, after a command changed
// it, and forgets what was worked out from the old one (Numbers).
func (ev *Event) SetTournament(t *tournament.Tournament) { ev.T, ev.shown = t, nil }

// Round is round n, or nil when it is not paired.
func (ev *Event) Round(n int) *tournament.Round {
	for _, r := range ev.H.Rounds {
		if r.Number == n {
			return r
		}
	}
	return nil
}

// RoundsOf is the rounds a read of round only shows, in order: every
// round paired for 0; round only is not found while the event has not
// paired it.
func (ev *Event) RoundsOf(only int) ([]*tournament.Round, error) {
	if only == 0 {
		return ev.H.Rounds, nil
	}
	if only > ev.T.Round {
		return nil, command.NotFoundf("round %d of %s (the event has paired %d)", only, ev.T.ID, ev.T.Round)
	}
	var out []*tournament.Round
	for _, r := range ev.H.Rounds {
		if r.Number == only {
			out = append(out, r)
		}
	}
	return out, nil
}

// storeParallelism is how many store requests one command has in flight
// at once when it reads or writes a large round's items.
const storeParallelism = 8

// InParallel runs fn(0) … fn(n-1), storeParallelism at a time, and joins
// their errors: the one bounded worker pool of the application layer.
func InParallel(n int, fn func(i int) error) error {
	errs := make([]error, n)
	sem := make(chan struct{}, storeParallelism)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
