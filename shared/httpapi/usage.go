package httpapi

import (
	"context"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/store"
)

// Usage per event: each request's DynamoDB units (store.Meter), its
// handler's milliseconds and the request itself are added to this process's
// pending totals for the event, and the totals reach the event's usage item
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

// eventUsage is counted usage; its field names are the usage item's attributes.
type eventUsage struct {
	requests, lambdaMs, lambdaMBMs, readUnits, writeUnits, dynamodbRequests float64
}

func (u *eventUsage) add(v eventUsage) {
	u.requests += v.requests
	u.lambdaMs += v.lambdaMs
	u.lambdaMBMs += v.lambdaMBMs
	u.readUnits += v.readUnits
	u.writeUnits += v.writeUnits
	u.dynamodbRequests += v.dynamodbRequests
}

func (u eventUsage) counters() map[string]float64 {
	c := map[string]float64{
		"requests": u.requests, "lambdaMs": u.lambdaMs, "lambdaMBMs": u.lambdaMBMs,
		"readUnits": u.readUnits, "writeUnits": u.writeUnits, "dynamodbRequests": u.dynamodbRequests,
	}
	for k, v := range c {
		if v == 0 {
			delete(c, k)
		}
	}
	return c
}

func usageFromCounters(c map[string]float64) eventUsage {
	return eventUsage{requests: c["requests"], lambdaMs: c["lambdaMs"], lambdaMBMs: c["lambdaMBMs"],
		readUnits: c["readUnits"], writeUnits: c["writeUnits"], dynamodbRequests: c["dynamodbRequests"]}
}

// usageOf is one request's usage: Lambda bills each invocation's duration
// rounded up to the millisecond, at the function's memory size.
func usageOf(m *store.Meter, ms float64, memoryMB int) eventUsage {
	billed := math.Ceil(ms)
	return eventUsage{requests: 1, lambdaMs: billed, lambdaMBMs: billed * float64(memoryMB),
		readUnits: m.ReadUnits(), writeUnits: m.WriteUnits(), dynamodbRequests: float64(m.Requests())}
}

// usageBook is this process's usage not yet written, per event.
type usageBook struct {
	mu      sync.Mutex
	every   time.Duration
	pending map[string]*eventUsage
	since   map[string]time.Time // when the event's gathering began
}

func newUsageBook() *usageBook {
	return &usageBook{every: UsageFlushEvery, pending: map[string]*eventUsage{}, since: map[string]time.Time{}}
}

// record adds a request's usage to the event's pending totals and, when the
// interval has passed, writes them.
func (b *usageBook) record(a *API, tid string, u eventUsage, now time.Time) {
	b.mu.Lock()
	p := b.pending[tid]
	if p == nil {
		p = &eventUsage{}
		b.pending[tid] = p
	}
	p.add(u)
	if _, ok := b.since[tid]; !ok {
		b.since[tid] = now
	}
	due := now.Sub(b.since[tid]) >= b.every
	var take eventUsage
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
func (b *usageBook) flush(a *API, tid string, u eventUsage, now time.Time) {
	m := &store.Meter{}
	err := a.store.AddCounters(store.WithMeter(context.Background(), m), store.UsagePK(tid), store.UsageSK, store.KindUsage, u.counters(), now)
	cost := eventUsage{readUnits: m.ReadUnits(), writeUnits: m.WriteUnits(), dynamodbRequests: float64(m.Requests())}
	if err != nil {
		a.log.Warn("usage not written; kept for the next flush", "tournament_id", tid, "error", err.Error())
		cost.add(u)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pending[tid]
	if p == nil {
		p = &eventUsage{}
		b.pending[tid] = p
	}
	p.add(cost)
}

// Flush writes every event's pending usage now (the local stack calls it
// when it stops).
func (a *API) Flush() {
	b := a.usage
	b.mu.Lock()
	pending := b.pending
	b.pending = map[string]*eventUsage{}
	b.since = map[string]time.Time{}
	b.mu.Unlock()
	for tid, u := range pending {
		b.flush(a, tid, *u, a.now())
	}
}

func (b *usageBook) pendingOf(tid string) eventUsage {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p := b.pending[tid]; p != nil {
		return *p
	}
	return eventUsage{}
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
	u := usageFromCounters(stored)
	u.add(a.usage.pendingOf(tid))
	cost := pricing.OnDemand.Cost(pricing.Usage{HTTPRequests: u.requests, LambdaMBMs: u.lambdaMBMs, ReadUnits: u.readUnits, WriteUnits: u.writeUnits})
	return http.StatusOK, usageOut{
		Tournament: tid, Requests: u.requests, LambdaMs: u.lambdaMs, LambdaGBSeconds: pricing.GBSeconds(u.lambdaMBMs),
		ReadUnits: u.readUnits, WriteUnits: u.writeUnits, DynamoDBRequests: u.dynamodbRequests,
		Cost: costOut{Currency: "USD", APIGateway: pricing.Round6(cost.APIGateway), Lambda: pricing.Round6(cost.Lambda),
			DynamoDB: pricing.Round6(cost.DynamoDB), Total: pricing.Round6(cost.Total)},
		Prices: pricing.Source,
	}, nil
}
