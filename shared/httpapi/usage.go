package httpapi

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/store"
)

// Usage per event: each request's DynamoDB units (store.Meter), its
// handler's milliseconds and the request itself (pricing.Invocation, which
// also counts and prices them) are added to this process's pending totals
// for the event, and the totals reach the event's usage item
// (usagePK) with one atomic ADD at most every UsageFlushEvery per event and
// process, made by the first request after that interval: no request pays
// an extra write, and the flush's own units count in the next flush.

// UsageFlushEvery is how long a process gathers an event's usage before
// writing it (WithUsageFlush changes it).
const UsageFlushEvery = 30 * time.Second

// defaultMemoryMB is the functions' memory size in template.yaml (Globals),
// used where the environment does not say (the local stack).
const defaultMemoryMB = 256

// WithUsageFlush sets how long usage is gathered in memory before it is
// written (0: after every request, as tests want).
func WithUsageFlush(every time.Duration) Option { return func(a *API) { a.usage.every = every } }

// WithMemoryMB sets the memory size (MB) the handlers' milliseconds are
// priced at; by default the function's own (AWS_LAMBDA_FUNCTION_MEMORY_SIZE)
// in Lambda, else 256 MB, the template's global size.
func WithMemoryMB(mb int) Option {
	return func(a *API) {
		if mb > 0 {
			a.memoryMB = mb
		}
	}
}

// usageBook is this process's usage not yet written, per event.
type usageBook struct {
	mu      sync.Mutex
	every   time.Duration
	pending map[string]*pricing.Counted
	since   map[string]time.Time // when the event's gathering began
}

func newUsageBook() *usageBook {
	return &usageBook{every: UsageFlushEvery, pending: map[string]*pricing.Counted{}, since: map[string]time.Time{}}
}

// record adds a request's usage to the event's pending totals and, when the
// interval has passed, writes them.
func (b *usageBook) record(a *API, tid string, u pricing.Counted, now time.Time) {
	b.mu.Lock()
	p := b.pending[tid]
	if p == nil {
		p = &pricing.Counted{}
		b.pending[tid] = p
	}
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
		b.flush(a, tid, take, now)
	}
}

// flush writes usage to the event's item; on failure it goes back to the
// pending totals for the next flush. The write's own units are pending then.
func (b *usageBook) flush(a *API, tid string, u pricing.Counted, now time.Time) {
	m := &store.Meter{}
	err := a.store.AddCounters(store.WithMeter(context.Background(), m), store.UsagePK(tid), store.UsageSK, store.KindUsage, u.Counters(), now)
	cost := pricing.Counted{ReadUnits: m.ReadUnits(), WriteUnits: m.WriteUnits(), DynamoDBRequests: float64(m.Requests())}
	if err != nil {
		a.log.Warn("usage not written; kept for the next flush", "tournament_id", tid, "error", err.Error())
		cost.Add(u)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pending[tid]
	if p == nil {
		p = &pricing.Counted{}
		b.pending[tid] = p
	}
	p.Add(cost)
}

// Flush writes every event's pending usage now (the local stack calls it
// when it stops).
func (a *API) Flush() {
	b := a.usage
	b.mu.Lock()
	pending := b.pending
	b.pending = map[string]*pricing.Counted{}
	b.since = map[string]time.Time{}
	b.mu.Unlock()
	for tid, u := range pending {
		b.flush(a, tid, *u, a.now())
	}
}

func (b *usageBook) pendingOf(tid string) pricing.Counted {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p := b.pending[tid]; p != nil {
		return *p
	}
	return pricing.Counted{}
}

// usageOut is GET /tournaments/{tid}/usage's body.
type usageOut struct {
	Tournament       string  `json:"tournament"`
	Requests         float64 `json:"requests"`
	LambdaMs         float64 `json:"lambdaMs"`
	LambdaGBSeconds  float64 `json:"lambdaGbSeconds"`
	ReadUnits        float64 `json:"readUnits"`
	WriteUnits       float64 `json:"writeUnits"`
	DynamoDBRequests float64 `json:"dynamodbRequests"`
	Cost             costOut `json:"cost"`
	Prices           string  `json:"prices"`
}

type costOut struct {
	Currency   string  `json:"currency"`
	APIGateway float64 `json:"apiGateway"`
	Lambda     float64 `json:"lambda"`
	DynamoDB   float64 `json:"dynamodb"`
	Total      float64 `json:"total"`
}

// GET /tournaments/{tid}/usage — organiser: what the event has used so far
// (written totals plus what this process has not written yet) and its cost.
func (a *API) getUsage(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if _, _, err := a.organiserEvent(c, tid); err != nil {
		return 0, nil, err
	}
	stored, err := a.store.Counters(c.ctx(), store.UsagePK(tid), store.UsageSK)
	if err != nil {
		return 0, nil, err
	}
	u := pricing.CountedFrom(stored)
	u.Add(a.usage.pendingOf(tid))
	cost := pricing.OnDemand.Cost(u.Usage()).Rounded()
	return http.StatusOK, usageOut{
		Tournament: tid, Requests: u.Requests, LambdaMs: u.LambdaMs, LambdaGBSeconds: pricing.GBSeconds(u.LambdaMBMs),
		ReadUnits: u.ReadUnits, WriteUnits: u.WriteUnits, DynamoDBRequests: u.DynamoDBRequests,
		Cost:   costOut{Currency: "USD", APIGateway: cost.APIGateway, Lambda: cost.Lambda, DynamoDB: cost.DynamoDB, Total: cost.Total},
		Prices: pricing.Source,
	}, nil
}
