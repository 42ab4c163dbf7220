package httpapi

import (
	"net/http"
	"time"

	"github.com/xqtour/xqtour/shared/pricing"
)

// Usage per event: each request's DynamoDB units (store.Meter), its
// handler's milliseconds and the request itself (pricing.Invocation) are
// counted for the event it concerns (observe.go) in the usage book
// (shared/service/usage), which writes them at most every UsageFlushEvery.

// UsageFlushEvery is how long a process gathers an event's usage before
// writing it (WithUsageFlush changes it).
const UsageFlushEvery = 30 * time.Second

// defaultMemoryMB is the functions' memory size in template.yaml (Globals),
// used where the environment does not say (the local stack).
const defaultMemoryMB = 256

// WithUsageFlush sets how long usage is gathered in memory before it is
// written (0: after every request, as tests want).
func WithUsageFlush(every time.Duration) Option { return func(a *API) { a.usageEvery = every } }

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

// Flush writes every event's pending usage now (the local stack calls it
// when it stops).
func (a *API) Flush() { a.usage.Flush(a.now()) }

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
	u, err := a.usage.Of(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	cost := pricing.OnDemand.Cost(u.Usage()).Rounded()
	return http.StatusOK, usageOut{
		Tournament: tid, Requests: u.Requests, LambdaMs: u.LambdaMs, LambdaGBSeconds: pricing.GBSeconds(u.LambdaMBMs),
		ReadUnits: u.ReadUnits, WriteUnits: u.WriteUnits, DynamoDBRequests: u.DynamoDBRequests,
		Cost:   costOut{Currency: "USD", APIGateway: cost.APIGateway, Lambda: cost.Lambda, DynamoDB: cost.DynamoDB, Total: cost.Total},
		Prices: pricing.Source,
	}, nil
}
