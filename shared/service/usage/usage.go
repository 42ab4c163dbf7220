// Package usage keeps each event's usage counters: what the requests that
// concern an event used (pricing.Counted: requests, billed Lambda time,
// DynamoDB units) is added to this process's pending totals for the event,
// and the totals reach the event's usage item (store.UsagePK) with one
// atomic ADD at most every flush interval per event and process, made by
// the first request after that interval: no request pays an extra write,
// and the flush's own units count in the next flush. Which event a request
// concerns is learnt while it is served, on its Note (note.go).
package usage

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/store"
)

// Book is this process's usage not yet written, per event.
type Book struct {
	st    *store.Store
	log   *slog.Logger
	every time.Duration

	mu      sync.Mutex
	pending map[string]*pricing.Counted
	since   map[string]time.Time // when the event's gathering began
}

// New is the book over st, writing an event's usage at most every every
// (0: after every request, as tests want); log tells a write that failed.
func New(st *store.Store, log *slog.Logger, every time.Duration) *Book {
	return &Book{st: st, log: log, every: every, pending: map[string]*pricing.Counted{}, since: map[string]time.Time{}}
}

// Record adds a request's usage to event tid's pending totals and, when
// the interval has passed, writes them.
func (b *Book) Record(tid string, u pricing.Counted, now time.Time) {
	b.mu.Lock()
	p := b.pendingLocked(tid)
	p.Add(u)
	if _, ok := b.since[tid]; !ok {
		b.since[tid] = now
	}
	due := now.Sub(b.since[tid]) >= b.every
	var take pricing.Counted
	if due {
		take = *p
		delete(b.pending, tid)
		b.since[tid] = now
	}
	b.mu.Unlock()
	if due {
		b.flush(tid, take, now)
	}
}

// Flush writes every event's pending usage now (the local stack calls it
// when it stops).
func (b *Book) Flush(now time.Time) {
	b.mu.Lock()
	pending := b.pending
	b.pending = map[string]*pricing.Counted{}
	b.since = map[string]time.Time{}
	b.mu.Unlock()
	for tid, u := range pending {
		b.flush(tid, *u, now)
	}
}

// Of is event tid's usage so far: its written totals plus what this
// process has not written yet.
func (b *Book) Of(ctx context.Context, tid string) (pricing.Counted, error) {
	stored, err := b.st.Counters(ctx, store.UsagePK(tid), store.UsageSK)
	if err != nil {
		return pricing.Counted{}, err
	}
	u := pricing.CountedFrom(stored)
	b.mu.Lock()
	defer b.mu.Unlock()
	if p := b.pending[tid]; p != nil {
		u.Add(*p)
	}
	return u, nil
}

// flush writes u to the event's item; on failure it goes back to the
// pending totals for the next flush. The write's own units are pending then.
func (b *Book) flush(tid string, u pricing.Counted, now time.Time) {
	m := &store.Meter{}
	err := b.st.AddCounters(store.WithMeter(context.Background(), m), store.UsagePK(tid), store.UsageSK, store.KindUsage, u.Counters(), now)
	cost := pricing.Counted{ReadUnits: m.ReadUnits(), WriteUnits: m.WriteUnits(), DynamoDBRequests: float64(m.Requests())}
	if err != nil {
		b.log.Warn("usage not written; kept for the next flush", "tournament_id", tid, "error", err.Error())
		cost.Add(u)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pendingLocked(tid).Add(cost)
}

// pendingLocked is tid's pending totals, made when missing; b.mu is held.
func (b *Book) pendingLocked(tid string) *pricing.Counted {
	p := b.pending[tid]
	if p == nil {
		p = &pricing.Counted{}
		b.pending[tid] = p
	}
	return p
}
