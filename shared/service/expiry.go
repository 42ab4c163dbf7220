package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// EventTTL is the store's "ttl" (Unix seconds) for the items of an event
// still in registration: its expiry, or 0 once a round is paired.
func EventTTL(t *tournament.Tournament) int64 {
	if t.Round > 0 || t.ExpiresAt == 0 {
		return 0
	}
	return t.ExpiresAt / 1000
}

// EventExpiry is when a new event expires unless it is paired: the
// retention after its creation, or after its start when that is later.
func (s *Service) EventExpiry(t *tournament.Tournament) int64 {
	if s.opts.Retention <= 0 {
		return 0
	}
	from := max(t.CreatedAt, t.Settings.StartsAt)
	return from + s.opts.Retention.Milliseconds()
}

// KeepEvent clears the expiry of an event's registration items (players,
// officials, teams, whatever else was written with it) when its first round is paired; the caller then writes
// the event item without one. It runs before the pairing is stored, so a
// failure leaves the event unpaired (to expire whole) rather than paired
// with items that would expire. Each item is rewritten under its version:
// a concurrent change makes the pairing retry.
func (s *Service) KeepEvent(ctx context.Context, tid string) error {
	// An unpaired event's partition is its registration, bounded by the caps.
	got, err := s.store.Query(ctx, store.TournamentPK(tid), "", 0)
	if err != nil {
		return err
	}
	var recs []*store.Record
	for _, rec := range got {
		if rec.Expires != 0 && rec.SK != store.MetaSK {
			rec.Expires = 0
			recs = append(recs, rec)
		}
	}
	return InParallel(len(recs), func(i int) error { return s.store.Put(ctx, recs[i]) })
}
