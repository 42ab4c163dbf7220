package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/store"
)

// Service is the service name in every log line and metric (Powertools'
// POWERTOOLS_SERVICE_NAME overrides it).
const Service = "xqtour"

// MetricsNamespace is the CloudWatch namespace of the request metrics.
const MetricsNamespace = "xqtour"

// warm is set by the first request a process serves: that one is the cold start.
var warm atomic.Bool

func serviceName() string {
	if s := os.Getenv("POWERTOOLS_SERVICE_NAME"); s != "" {
		return s
	}
	return Service
}

// NewLogger is the request logger: one JSON object per line with the field
// names AWS Lambda Powertools uses (level, message, timestamp, service,
// function_name, function_memory_size), so log queries written for
// Powertools work on xqtour's logs.
func NewLogger(w io.Writer) *slog.Logger {
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) > 0 {
			return a
		}
		switch a.Key {
		case slog.TimeKey:
			return slog.String("timestamp", a.Value.Time().UTC().Format("2006-01-02T15:04:05.000Z"))
		case slog.MessageKey:
			a.Key = "message"
		}
		return a
	}})
	attrs := []any{"service", serviceName()}
	if fn := os.Getenv("AWS_LAMBDA_FUNCTION_NAME"); fn != "" {
		attrs = append(attrs, "function_name", fn)
		if mb, err := strconv.Atoi(os.Getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE")); err == nil {
			attrs = append(attrs, "function_memory_size", mb)
		}
	}
	return slog.New(h).With(attrs...)
}

// WithMetrics writes one CloudWatch Embedded Metric Format line per request
// to w (a Lambda function's standard output, which CloudWatch Logs turns into
// metrics); nil writes none.
func WithMetrics(w io.Writer) Option {
	return func(a *API) {
		if w == nil {
			a.metrics = nil
			return
		}
		a.metrics = &lineWriter{w: w}
	}
}

// lineWriter writes whole lines under a lock, so concurrent requests'
// lines never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) writeLine(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(append(b, '\n'))
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
	if lc, ok := lambdacontext.FromContext(r.Context()); ok {
		attrs = append(attrs, "function_request_id", lc.AwsRequestID, "function_arn", lc.InvokedFunctionArn)
	}
	if trace := traceRoot(os.Getenv("_X_AMZN_TRACE_ID")); trace != "" {
		attrs = append(attrs, "xray_trace_id", trace)
	}
	a.log.Info("request", attrs...)
	if a.metrics != nil {
		a.metrics.writeLine(emfLine(a.now(), route, status, ms, cold))
	}
	if ev := n.eventOf(status); ev != "" {
		a.usage.Record(ev, pricing.Invocation(ms, a.memoryMB, m.ReadUnits(), m.WriteUnits(), m.Requests()), a.now())
	}
}

// traceRoot is the trace id of an X-Ray trace header ("Root=1-…;Parent=…;
// Sampled=1" → "1-…"), as Powertools logs it; "" when there is none.
func traceRoot(header string) string {
	for part := range strings.SplitSeq(header, ";") {
		if root, ok := strings.CutPrefix(part, "Root="); ok {
			return root
		}
	}
	return ""
}

// emfLine is one request's metrics in CloudWatch Embedded Metric Format, in
// the shape Powertools' Metrics writes: namespace xqtour, dimensions service
// and route; Latency (ms), Count, and counts of 4xx, 409, 429 and 5xx answers.
func emfLine(now time.Time, route string, status int, ms float64, cold bool) []byte {
	count := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	metrics := []map[string]string{
		{"Name": "Latency", "Unit": "Milliseconds"},
		{"Name": "Count", "Unit": "Count"},
		{"Name": "4xx", "Unit": "Count"},
		{"Name": "409", "Unit": "Count"},
		{"Name": "429", "Unit": "Count"},
		{"Name": "5xx", "Unit": "Count"},
	}
	doc := map[string]any{
		"_aws": map[string]any{
			"Timestamp": now.UnixMilli(),
			"CloudWatchMetrics": []any{map[string]any{
				"Namespace":  MetricsNamespace,
				"Dimensions": [][]string{{"service", "route"}},
				"Metrics":    metrics,
			}},
		},
		"service":    serviceName(),
		"route":      route,
		"Latency":    ms,
		"Count":      1,
		"4xx":        count(status >= 400 && status < 500),
		"409":        count(status == http.StatusConflict),
		"429":        count(status == http.StatusTooManyRequests),
		"5xx":        count(status >= 500),
		"cold_start": cold,
	}
	b, _ := json.Marshal(doc)
	return b
}
