package apitest

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// Meter adds up the DynamoDB capacity the API's requests consume, with the
// store's own store.Meter (units as DynamoDB bills them, computed from item
// sizes on the embedded server) installed in every request's context.
type Meter struct{ cur atomic.Pointer[store.Meter] }

// Units returns the read and write units consumed since the last Reset.
func (m *Meter) Units() (read, write float64) {
	c := m.cur.Load()
	return c.ReadUnits(), c.WriteUnits()
}

// Requests is how many DynamoDB calls were made since the last Reset.
func (m *Meter) Requests() int { return m.cur.Load().Requests() }

// Reset starts counting afresh.
func (m *Meter) Reset() { m.cur.Store(&store.Meter{}) }

// NewMetered is New with what every request consumes counted by the
// returned Meter.
func NewMetered(t testing.TB, opts ...httpapi.Option) (*Server, *Meter) {
	t.Helper()
	st, _, db := storetest.Start(t)
	m := &Meter{}
	m.Reset()
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(store.WithMeter(r.Context(), m.cur.Load())))
		})
	}
	return newServer(t, st, db, wrap, opts...), m
}
