// Package storetest gives tests a real store: the SDK client over HTTP against
// an embedded DynamoDB-compatible server, never a hand-written fake.
package storetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

var tables atomic.Int64

// New starts an embedded server for the test, creates a fresh table and returns
// a store on it; both go away when the test ends.
func New(t testing.TB) (*store.Store, store.Config) {
	t.Helper()
	st, cfg, _ := Start(t)
	return st, cfg
}

// Start is New that also returns the server, for tests that make it misbehave.
func Start(t testing.TB) (*store.Store, store.Config, *embedded.Server) {
	t.Helper()
	srv, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	cfg := store.Config{Table: fmt.Sprintf("test%d", tables.Add(1)), Region: "us-east-1", Endpoint: srv.URL}
	st, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st, cfg, srv
}
