// Package telemetry is what xqtour's functions write about themselves, in
// the shapes AWS Lambda Powertools writes them, so the log queries and
// dashboards written for Powertools work on xqtour's: the logger (one JSON
// object a line: level, message, timestamp, service, function_name,
// function_memory_size), the invocation's ids a log line carries inside
// Lambda, and one CloudWatch Embedded Metric Format line a request. The
// HTTP layer (shared/httpapi's observe.go) says what a request's line and
// metrics hold; here is how they are written.
package telemetry

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"
)

// Service is the service name in every log line and metric (Powertools'
// POWERTOOLS_SERVICE_NAME overrides it).
const Service = "xqtour"

// MetricsNamespace is the CloudWatch namespace of the request metrics.
const MetricsNamespace = "xqtour"

// ServiceName is the service every line names: POWERTOOLS_SERVICE_NAME,
// else Service.
func ServiceName() string {
	if s := os.Getenv("POWERTOOLS_SERVICE_NAME"); s != "" {
		return s
	}
	return Service
}

// NewLogger is the functions' logger: one JSON object per line with the
// field names AWS Lambda Powertools uses (level, message, timestamp,
// service, function_name, function_memory_size), so log queries written
// for Powertools work on xqtour's logs.
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
	attrs := []any{"service", ServiceName()}
	if fn := os.Getenv("AWS_LAMBDA_FUNCTION_NAME"); fn != "" {
		attrs = append(attrs, "function_name", fn)
		if mb, err := strconv.Atoi(os.Getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE")); err == nil {
			attrs = append(attrs, "function_memory_size", mb)
		}
	}
	return slog.New(h).With(attrs...)
}

// InvocationAttrs are the log attributes of the Lambda invocation ctx
// serves, as Powertools logs them: function_request_id and function_arn
// (from the Lambda context, when there is one) and xray_trace_id (the
// root of the trace in _X_AMZN_TRACE_ID, when set); none outside Lambda.
func InvocationAttrs(ctx context.Context) []any {
	var attrs []any
	if lc, ok := lambdacontext.FromContext(ctx); ok {
		attrs = append(attrs, "function_request_id", lc.AwsRequestID, "function_arn", lc.InvokedFunctionArn)
	}
	if trace := TraceRoot(os.Getenv("_X_AMZN_TRACE_ID")); trace != "" {
		attrs = append(attrs, "xray_trace_id", trace)
	}
	return attrs
}

// TraceRoot is the trace id of an X-Ray trace header ("Root=1-…;Parent=…;
// Sampled=1" → "1-…"), as Powertools logs it; "" when there is none.
func TraceRoot(header string) string {
	for part := range strings.SplitSeq(header, ";") {
		if root, ok := strings.CutPrefix(part, "Root="); ok {
			return root
		}
	}
	return ""
}

// Metrics writes one Embedded Metric Format line per request to a writer
// (a Lambda function's standard output, which CloudWatch Logs turns into
// metrics), whole lines under a lock, so concurrent requests' lines never
// interleave.
type Metrics struct {
	mu sync.Mutex
	w  io.Writer
}

// NewMetrics writes the metric lines to w.
func NewMetrics(w io.Writer) *Metrics { return &Metrics{w: w} }

// Request writes the metrics of one request of route answered with status
// after ms milliseconds, at now; cold says it was the process's first.
func (m *Metrics) Request(now time.Time, route string, status int, ms float64, cold bool) {
	line := append(requestLine(now, route, status, ms, cold), '\n')
	m.mu.Lock()
	defer m.mu.Unlock()
	_, _ = m.w.Write(line)
}

// requestLine is one request's metrics in CloudWatch Embedded Metric
// Format, in the shape Powertools' Metrics writes: namespace xqtour,
// dimensions service and route; Latency (ms), Count, and counts of 4xx,
// 409, 429 and 5xx answers.
func requestLine(now time.Time, route string, status int, ms float64, cold bool) []byte {
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
		"service":    ServiceName(),
		"route":      route,
		"Latency":    ms,
		"Count":      1,
		"4xx":        count(status >= 400 && status < 500),
		"409":        count(status == 409),
		"429":        count(status == 429),
		"5xx":        count(status >= 500),
		"cold_start": cold,
	}
	b, _ := json.Marshal(doc)
	return b
}
