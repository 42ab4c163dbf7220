package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// A write applied by DynamoDB whose answer was lost (a 500 or a closed
// connection; the SDK retries and its retry fails the condition the first
// attempt satisfied) succeeds: the store recognises its own write. Every
// write of the store's conditional kinds, with every write ambiguous.
func TestAmbiguousWrites_RecognisedAsOwn(t *testing.T) {
	st, _, srv := storetest.Start(t)
	ctx := context.Background()
	srv.SetFaults(embedded.Faults{Ambiguous: 1})
	r := &store.Record{PK: "T#a", SK: store.MetaSK, Kind: "tournament", Doc: []byte(`{"v":1}`)}
	if err := st.Put(ctx, r); err != nil {
		t.Fatalf("create: %v", err)
	}
	r.Doc = []byte(`{"v":2}`)
	if err := st.Put(ctx, r); err != nil {
		t.Fatalf("update: %v", err)
	}
	p := &store.Record{PK: "T#a", SK: "P#1", Kind: "player", Doc: []byte(`{"p":1}`)}
	r.Doc = []byte(`{"v":3}`)
	if err := st.Transact(ctx, []*store.Record{r, p}); err != nil {
		t.Fatalf("transact: %v", err)
	}
	r.Doc = []byte(`{"v":4}`)
	if err := st.TransactDelete(ctx, []*store.Record{p}, r); err != nil {
		t.Fatalf("transact delete: %v", err)
	}
	scope := "scope-a"
	if prev, err := st.Reserve(ctx, scope, "h", time.Now()); err != nil || prev != nil {
		t.Fatalf("reserve: %v %v", prev, err)
	}
	srv.SetFaults(embedded.Faults{})
	// Exactly one version per write, and the last document.
	got, err := st.Get(ctx, "T#a", store.MetaSK)
	if err != nil || got.Version != 4 || string(got.Doc) != `{"v":4}` || r.Version != 4 {
		t.Fatalf("after four writes: %+v (record at %d), %v", got, r.Version, err)
	}
	if _, err := st.Get(ctx, "T#a", "P#1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted player: %v", err)
	}
	// The reservation is this call's: the same key reserved again is in use.
	if _, err := st.Reserve(ctx, scope, "h", time.Now()); !errors.Is(err, store.ErrKeyInUse) {
		t.Fatalf("second reserve: %v, want ErrKeyInUse", err)
	}
	if n := srv.Injected().Ambiguous; n < 5 {
		t.Errorf("%d ambiguous writes injected, want at least 5", n)
	}
}

// A real lost race is never taken for this call's own write when answers
// are lost: the item holds another writer's version, so the write fails
// (a conflict, or unavailable when every answer was lost) and the other
// writer's document stays.
func TestAmbiguousWrite_RealConflictStays(t *testing.T) {
	st, _, srv := storetest.Start(t)
	ctx := context.Background()
	r := &store.Record{PK: "T#b", SK: store.MetaSK, Kind: "tournament", Doc: []byte(`{"v":1}`)}
	if err := st.Put(ctx, r); err != nil {
		t.Fatal(err)
	}
	other := *r
	other.Doc = []byte(`{"other":true}`)
	if err := st.Put(ctx, &other); err != nil {
		t.Fatal(err)
	}
	srv.SetFaults(embedded.Faults{Ambiguous: 1})
	r.Doc = []byte(`{"v":2}`)
	if err := st.Put(ctx, r); !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("stale put: %v, want ErrConflict or ErrUnavailable", err)
	}
	if err := st.Transact(ctx, []*store.Record{r}); !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("stale transact: %v, want ErrConflict or ErrUnavailable", err)
	}
	srv.SetFaults(embedded.Faults{})
	if got, err := st.Get(ctx, r.PK, r.SK); err != nil || got.Version != 2 || string(got.Doc) != `{"other":true}` {
		t.Fatalf("the other writer's item: %+v %v", got, err)
	}
	// With only the first answer lost, the SDK's retry sees the conflict itself.
	first := true
	srv.Intercept(func(op string, body []byte) embedded.Fault {
		if op == "PutItem" && first {
			first = false
			srv.SetFaults(embedded.Faults{Ambiguous: 1})
			return embedded.Serve
		}
		srv.SetFaults(embedded.Faults{})
		return embedded.Serve
	})
	defer srv.Intercept(nil)
	if err := st.Put(ctx, r); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale put, first answer lost: %v, want ErrConflict", err)
	}
}

// Each other fault reaches the caller as the store's sentinel, after the
// SDK's retries, and changes nothing.
func TestFaults_Sentinels(t *testing.T) {
	for _, tc := range []struct {
		faults embedded.Faults
		want   error
	}{
		{embedded.Faults{Conflict: 1}, store.ErrConflict},
		{embedded.Faults{Throttle: 1}, store.ErrThrottled},
		{embedded.Faults{Internal: 1}, store.ErrUnavailable},
	} {
		t.Run(fmt.Sprint(tc.want), func(t *testing.T) {
			t.Parallel()
			sentinel(t, tc.faults, tc.want)
		})
	}
}

// sentinel makes every write fail with faults (reads are served, so the
// store's read-back finds the write not applied) and wants err for each.
func sentinel(t *testing.T, faults embedded.Faults, want error) {
	st, _, srv := storetest.Start(t)
	ctx := context.Background()
	srv.Intercept(func(op string, _ []byte) embedded.Fault {
		if op == "PutItem" || op == "TransactWriteItems" {
			srv.SetFaults(faults)
		} else {
			srv.SetFaults(embedded.Faults{})
		}
		return embedded.Serve
	})
	defer srv.Intercept(nil)
	for i, write := range []func(r *store.Record) error{
		func(r *store.Record) error { return st.Put(ctx, r) },
		func(r *store.Record) error { return st.Transact(ctx, []*store.Record{r}) },
	} {
		r := &store.Record{PK: fmt.Sprintf("T#%d", i), SK: store.MetaSK, Kind: "t", Doc: []byte("{}")}
		if err := write(r); !errors.Is(err, want) {
			t.Errorf("%+v, write %d: %v, want %v", faults, i, err, want)
		}
		if _, err := st.Get(ctx, r.PK, r.SK); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%+v, write %d: the refused write is stored (%v)", faults, i, err)
		}
	}
}
