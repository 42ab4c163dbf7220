package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
)

// units is the DynamoDB capacity one request consumed.
type units struct{ read, write float64 }

// unitsLog is the API's logger: it keeps the DynamoDB units of each
// request's log line (the API meters every request with store.WithMeter:
// DynamoDB's reported capacity, or for the embedded store, which reports
// none, the items sized as DynamoDB bills them), by the API Gateway request
// id the line names, prints the API's errors (a 500 is a finding: its
// cause is the report's), and drops every other line.
type unitsLog struct {
	mu   sync.Mutex
	byID map[string]units
}

func newUnitsLog() *unitsLog { return &unitsLog{byID: map[string]units{}} }

func (l *unitsLog) Enabled(context.Context, slog.Level) bool { return true }

func (l *unitsLog) Handle(_ context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		line := r.Message
		r.Attrs(func(a slog.Attr) bool { line += " " + a.String(); return true })
		fmt.Fprintln(os.Stderr, "API error:", line)
	}
	if r.Message != "request" {
		return nil
	}
	var id string
	var u units
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "request_id":
			id = a.Value.String()
		case "read_units":
			u.read = number(a.Value)
		case "write_units":
			u.write = number(a.Value)
		}
		return true
	})
	l.mu.Lock()
	l.byID[id] = u
	l.mu.Unlock()
	return nil
}

func (l *unitsLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *unitsLog) WithGroup(string) slog.Handler      { return l }

// take returns and forgets the units of request id, and whether its line came.
func (l *unitsLog) take(id string) (units, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	u, ok := l.byID[id]
	delete(l.byID, id)
	return u, ok
}

func number(v slog.Value) float64 {
	switch v.Kind() {
	case slog.KindFloat64:
		return v.Float64()
	case slog.KindInt64:
		return float64(v.Int64())
	case slog.KindUint64:
		return float64(v.Uint64())
	}
	return 0
}
