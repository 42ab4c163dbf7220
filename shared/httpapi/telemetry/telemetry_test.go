package telemetry_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/xqtour/xqtour/shared/httpapi/telemetry"
)

// Inside Lambda a log line names the service, the function and its memory
// under Powertools' field names, its time as UTC ISO 8601 with ms.
func TestNewLogger_PowertoolsFields(t *testing.T) {
	t.Setenv("AWS_LAMBDA_FUNCTION_NAME", "xqtour-Standings")
	t.Setenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024")
	t.Setenv("POWERTOOLS_SERVICE_NAME", "")
	var buf bytes.Buffer
	telemetry.NewLogger(&buf).Info("request", "status", 200)
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("log line %q: %v", buf.String(), err)
	}
	want := map[string]any{"level": "INFO", "message": "request", "service": "xqtour", "function_name": "xqtour-Standings",
		"function_memory_size": 1024.0, "status": 200.0}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v (line %v)", k, line[k], v, line)
		}
	}
	ts, _ := line["timestamp"].(string)
	if _, err := time.Parse("2006-01-02T15:04:05.000Z", ts); err != nil {
		t.Errorf("timestamp %q: %v", ts, err)
	}
	if _, ok := line["time"]; ok {
		t.Errorf("slog's own time key remains: %v", line)
	}
}

// Outside Lambda no function fields; POWERTOOLS_SERVICE_NAME renames the service.
func TestNewLogger_ServiceName(t *testing.T) {
	t.Setenv("AWS_LAMBDA_FUNCTION_NAME", "")
	t.Setenv("POWERTOOLS_SERVICE_NAME", "xqtour-staging")
	var buf bytes.Buffer
	telemetry.NewLogger(&buf).Warn("view not stored")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line["service"] != "xqtour-staging" || line["level"] != "WARN" {
		t.Errorf("line %v", line)
	}
	if _, ok := line["function_name"]; ok {
		t.Errorf("function_name outside Lambda: %v", line)
	}
}

func TestTraceRoot(t *testing.T) {
	for header, want := range map[string]string{
		"Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1": "1-5759e988-bd862e3fe1be46a994272793",
		"Parent=53995c3f42cd8ad8;Root=1-abc":                                         "1-abc",
		"Parent=53995c3f42cd8ad8":                                                    "",
		"":                                                                           "",
	} {
		if got := telemetry.TraceRoot(header); got != want {
			t.Errorf("TraceRoot(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestInvocationAttrs(t *testing.T) {
	t.Setenv("_X_AMZN_TRACE_ID", "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1")
	lc := &lambdacontext.LambdaContext{AwsRequestID: "c6af9ac6", InvokedFunctionArn: "arn:aws:lambda:us-east-1:123456789012:function:xqtour-Tournaments"}
	got := telemetry.InvocationAttrs(lambdacontext.NewContext(context.Background(), lc))
	want := []any{"function_request_id", "c6af9ac6", "function_arn", lc.InvokedFunctionArn, "xray_trace_id", "1-5759e988-bd862e3fe1be46a994272793"}
	if len(got) != len(want) {
		t.Fatalf("attrs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("attr %d = %v, want %v", i, got[i], want[i])
		}
	}
	t.Setenv("_X_AMZN_TRACE_ID", "")
	if got := telemetry.InvocationAttrs(context.Background()); len(got) != 0 {
		t.Errorf("outside Lambda: %v", got)
	}
}

// One EMF line a request: the namespace, the service and route dimensions,
// and each metric defined and valued; the status counts the class it is in.
func TestMetrics_RequestLine(t *testing.T) {
	t.Setenv("POWERTOOLS_SERVICE_NAME", "")
	var buf bytes.Buffer
	m := telemetry.NewMetrics(&buf)
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	m.Request(at, "GET /tournaments/{tid}", 409, 12.5, true)
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), &line); err != nil {
		t.Fatalf("line %q: %v", buf.String(), err)
	}
	aws := line["_aws"].(map[string]any)
	if aws["Timestamp"] != float64(at.UnixMilli()) {
		t.Errorf("Timestamp %v", aws["Timestamp"])
	}
	d := aws["CloudWatchMetrics"].([]any)[0].(map[string]any)
	if d["Namespace"] != "xqtour" {
		t.Errorf("namespace %v", d["Namespace"])
	}
	for _, x := range d["Metrics"].([]any) {
		if n := x.(map[string]any)["Name"].(string); line[n] == nil {
			t.Errorf("metric %s defined without a value", n)
		}
	}
	want := map[string]any{"service": "xqtour", "route": "GET /tournaments/{tid}", "Latency": 12.5, "Count": 1.0,
		"4xx": 1.0, "409": 1.0, "429": 0.0, "5xx": 0.0, "cold_start": true}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v", k, line[k], v)
		}
	}
}

// Lines written by concurrent requests stay whole, one JSON object each.
func TestMetrics_ConcurrentLinesWhole(t *testing.T) {
	var buf bytes.Buffer
	m := telemetry.NewMetrics(&buf)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.Request(time.Now(), "GET /rules", 200+i, float64(i), false)
		}()
	}
	wg.Wait()
	n := 0
	for sc := bufio.NewScanner(strings.NewReader(buf.String())); sc.Scan(); n++ {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("line %d is not one JSON object: %q", n, sc.Text())
		}
	}
	if n != 50 {
		t.Errorf("%d lines, want 50", n)
	}
}
