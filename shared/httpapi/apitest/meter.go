package apitest

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
)

// Meter adds up the DynamoDB capacity the API's requests consume, as each
// request's log line reports it (read_units, write_units: the store's Meter,
// units as DynamoDB bills them, computed from item sizes on the embedded
// server).
type Meter struct {
	mu          sync.Mutex
	read, write float64
	requests    int
	calls       int
}

// Units returns the read and write units consumed since the last Reset.
func (m *Meter) Units() (read, write float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read, m.write
}

// Requests is how many requests were counted since the last Reset.
func (m *Meter) Requests() int { m.mu.Lock(); defer m.mu.Unlock(); return m.requests }

// Calls is how many DynamoDB calls those requests made.
func (m *Meter) Calls() int { m.mu.Lock(); defer m.mu.Unlock(); return m.calls }

// Reset starts counting afresh.
func (m *Meter) Reset() {
	m.mu.Lock()
	m.read, m.write, m.requests, m.calls = 0, 0, 0, 0
	m.mu.Unlock()
}

// NewMetered is New with what every request consumes counted by the
// returned Meter (the request log is read, then discarded).
func NewMetered(t testing.TB, opts ...httpapi.Option) (*Server, *Meter) {
	t.Helper()
	m := &Meter{}
	return New(t, append([]httpapi.Option{httpapi.WithLogger(slog.New(meterHandler{m}))}, opts...)...), m
}

// meterHandler is a slog.Handler that counts the request lines' units.
type meterHandler struct{ m *Meter }

func (h meterHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h meterHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h meterHandler) WithGroup(string) slog.Handler            { return h }

func (h meterHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "request" {
		return nil
	}
	var read, write float64
	var calls int64
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "dynamodb_requests":
			calls = a.Value.Int64()
		case "read_units":
			read = a.Value.Float64()
		case "write_units":
			write = a.Value.Float64()
		}
		return true
	})
	h.m.mu.Lock()
	h.m.read += read
	h.m.write += write
	h.m.requests++
	h.m.calls += int(calls)
	h.m.mu.Unlock()
	return nil
}
