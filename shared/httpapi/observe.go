package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/service/telemetry"
	"github.com/xqtour/xqtour/shared/store"
)

// warm is set by the first request a process serves: that one is the cold start.
var warm atomic.Bool

// WithMetrics writes one CloudWatch Embedded Metric Format line per request
// to w (a Lambda function's standard output, which CloudWatch Logs turns into
// metrics: telemetry.Metrics); nil writes none.
func WithMetrics(w io.Writer) Option {
	return func(a *API) {
		if w == nil {
			a.metrics = nil
			return
		}
		a.metrics = telemetry.NewMetrics(w)
	}
}

// requestNote is what a request learns about itself while it is served: the
// event it concerns once the handler has found it (a game route learns it
// from the game item).
type requestNote struct {
	mu          sync.Mutex
	event, game string
	found       bool
}

type noteKey struct{}

// noteEvent records that the request concerns event tid (and game gid, if
// any), which exists: its usage is counted for that event.
func noteEvent(ctx context.Context, tid, gid string) {
	n, _ := ctx.Value(noteKey{}).(*requestNote)
	if n == nil || tid == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.event, n.found = tid, true
	if gid != "" {
		n.game = gid
	}
}

// eventOf is the event a finished request's usage is counted for: the one
// the handler found, else the path's event when the answer shows the event
// exists (a success, or a refusal by the rules). A request refused before
// its event was read (bad input, credentials, unknown id) counts for none,
// so made-up ids create no usage items.
func (n *requestNote) eventOf(status int) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.found || status < 400 || status == http.StatusConflict || status == http.StatusUnprocessableEntity {
		return n.event
	}
	return ""
}

// requestID is API Gateway's id for the request, or a fresh one on the local stack.
func requestID(r *http.Request) string {
	if gw, ok := core.GetAPIGatewayV2ContextFromContext(r.Context()); ok && gw.RequestID != "" {
		return gw.RequestID
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// observe writes the request's log line and metrics and counts its usage.
func (a *API) observe(r *http.Request, route string, status int, elapsed time.Duration, cold bool, m *store.Meter, n *requestNote) {
	ms := float64(elapsed.Microseconds()) / 1000
	n.mu.Lock()
	tid, gid := n.event, n.game
	n.mu.Unlock()
	conflict := status == http.StatusConflict || m.Conflicts() > 0
	throttled := status == http.StatusTooManyRequests || m.Throttles() > 0
	attrs := []any{
		"request_id", requestID(r), "cold_start", cold, "method", r.Method, "route", route, "path", r.URL.Path,
		"status", status, "latency_ms", ms, "conflict", conflict, "throttled", throttled,
		"read_units", m.ReadUnits(), "write_units", m.WriteUnits(), "dynamodb_requests", m.Requests(),
	}
	if tid != "" {
		attrs = append(attrs, "tournament_id", tid)
	}
	if gid != "" {
		attrs = append(attrs, "game_id", gid)
	}
	a.log.Info("request", append(attrs, telemetry.InvocationAttrs(r.Context())...)...)
	if a.metrics != nil {
		a.metrics.Request(a.now(), route, status, ms, cold)
	}
	if ev := n.eventOf(status); ev != "" {
		a.usage.Record(ev, pricing.Invocation(ms, a.memoryMB, m.ReadUnits(), m.WriteUnits(), m.Requests()), a.now())
	}
}
