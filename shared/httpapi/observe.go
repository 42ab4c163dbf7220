package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"github.com/xqtour/xqtour/shared/httpapi/telemetry"
	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/service/usage"
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

// noteEvent records that the request concerns event tid (and game gid, if
// any), which exists: its usage is counted for that event (usage.Found).
func noteEvent(ctx context.Context, tid, gid string) { usage.Found(ctx, tid, gid) }

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
func (a *API) observe(r *http.Request, route string, status int, elapsed time.Duration, cold bool, m *store.Meter, n *usage.Note) {
	ms := float64(elapsed.Microseconds()) / 1000
	tid, gid := n.Names()
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
	// The answer shows the event exists when it is a success or a refusal by the rules.
	if ev := n.Counted(status < 400 || status == http.StatusConflict || status == http.StatusUnprocessableEntity); ev != "" {
		a.usage.Record(ev, pricing.Invocation(ms, a.memoryMB, m.ReadUnits(), m.WriteUnits(), m.Requests()), a.now())
	}
}
