package store_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

func TestPutGetRoundTrip(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	r := &store.Record{PK: "T#1", SK: "META", Kind: "tournament", Doc: []byte(`{"name":"Open"}`), Expires: 1900000000}
	if err := st.Put(ctx, r); err != nil {
		t.Fatal(err)
	}
	if r.Version != 1 {
		t.Fatalf("version after create = %d, want 1", r.Version)
	}
	got, err := st.Get(ctx, "T#1", "META")
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != r.Kind || string(got.Doc) != string(r.Doc) || got.Version != 1 || got.Expires != r.Expires {
		t.Fatalf("got %+v, want %+v", got, r)
	}
	if _, err := st.Get(ctx, "T#1", "NOPE"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing item: got %v, want ErrNotFound", err)
	}
}

func TestPutConflicts(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	a := &store.Record{PK: "G#1", SK: "GAME", Kind: "game", Doc: []byte("a")}
	if err := st.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	dup := &store.Record{PK: "G#1", SK: "GAME", Kind: "game", Doc: []byte("dup")}
	if err := st.Put(ctx, dup); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second create: got %v, want ErrConflict", err)
	}
	stale := *a
	a.Doc = []byte("b")
	if err := st.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	stale.Doc = []byte("stale")
	if err := st.Put(ctx, &stale); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale update: got %v, want ErrConflict", err)
	}
	got, _ := st.Get(ctx, "G#1", "GAME")
	if string(got.Doc) != "b" || got.Version != 2 {
		t.Fatalf("after conflicts got %q v%d, want \"b\" v2", got.Doc, got.Version)
	}
}

// Sixteen writers increment one counter with read-modify-conditional-write and
// retry on conflict: no increment may be lost.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	if err := st.Put(ctx, &store.Record{PK: "T#c", SK: "META", Kind: "counter", Doc: []byte("0")}); err != nil {
		t.Fatal(err)
	}
	const workers, each = 16, 5
	var wg sync.WaitGroup
	var conflicts sync.Map
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				for {
					r, err := st.Get(ctx, "T#c", "META")
					if err != nil {
						t.Error(err)
						return
					}
					n, _ := strconv.Atoi(string(r.Doc))
					r.Doc = []byte(strconv.Itoa(n + 1))
					err = st.Put(ctx, r)
					if errors.Is(err, store.ErrConflict) {
						conflicts.Store(w, true)
						continue
					}
					if err != nil {
						t.Error(err)
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	r, err := st.Get(ctx, "T#c", "META")
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Doc) != strconv.Itoa(workers*each) || r.Version != workers*each+1 {
		t.Fatalf("counter = %s at version %d, want %d at %d", r.Doc, r.Version, workers*each, workers*each+1)
	}
}

func TestQueryPaginates(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	for i := range 57 {
		if err := st.Put(ctx, &store.Record{PK: "T#q", SK: fmt.Sprintf("P#%04d", i), Kind: "player", Doc: []byte("x")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Put(ctx, &store.Record{PK: "T#q", SK: "META", Kind: "tournament"}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Query(ctx, "T#q", "P#", 10) // six pages
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 57 {
		t.Fatalf("query returned %d items, want 57", len(got))
	}
	for i, r := range got {
		if want := fmt.Sprintf("P#%04d", i); r.SK != want {
			t.Fatalf("item %d is %s, want %s (SK order)", i, r.SK, want)
		}
	}
	all, err := st.Query(ctx, "T#q", "", 0)
	if err != nil || len(all) != 58 {
		t.Fatalf("whole partition: %d items, %v; want 58", len(all), err)
	}
}

func TestTransactIsAtomic(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	meta := &store.Record{PK: "T#x", SK: "META", Kind: "tournament", Doc: []byte("1")}
	if err := st.Put(ctx, meta); err != nil {
		t.Fatal(err)
	}
	stale := *meta
	round := &store.Record{PK: "T#x", SK: "R#0001", Kind: "round"}
	game := &store.Record{PK: "G#x1", SK: "GAME", Kind: "game"}
	if err := st.Transact(ctx, []*store.Record{meta, round, game}); err != nil {
		t.Fatal(err)
	}
	again := &store.Record{PK: "T#x", SK: "R#0002", Kind: "round"}
	if err := st.Transact(ctx, []*store.Record{&stale, again}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale transaction: got %v, want ErrConflict", err)
	}
	if _, err := st.Get(ctx, "T#x", "R#0002"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a failed transaction wrote round 2: %v", err)
	}
	got, err := st.GetMany(ctx, store.Key{PK: "T#x", SK: "META"}, store.Key{PK: "G#x1", SK: "GAME"}, store.Key{PK: "G#none", SK: "GAME"})
	if err != nil || len(got) != 2 {
		t.Fatalf("GetMany: %d items, %v; want 2", len(got), err)
	}
}

func TestIdempotencyReserveCompleteReplay(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if resp, err := st.Reserve(ctx, "k1", "h1", now); err != nil || resp != nil {
		t.Fatalf("first reserve: %v, %v; want nil, nil", resp, err)
	}
	if _, err := st.Reserve(ctx, "k1", "h1", now); !errors.Is(err, store.ErrKeyInUse) {
		t.Fatalf("reserve while in flight: %v, want ErrKeyInUse", err)
	}
	if err := st.Complete(ctx, "k1", store.Response{RequestHash: "h1", Status: 201, Body: []byte(`{"id":"x"}`)}, now); err != nil {
		t.Fatal(err)
	}
	resp, err := st.Reserve(ctx, "k1", "h1", now)
	if err != nil || resp == nil || resp.Status != 201 || string(resp.Body) != `{"id":"x"}` {
		t.Fatalf("replay: %+v, %v", resp, err)
	}
	other, err := st.Reserve(ctx, "k1", "h2", now)
	if err != nil || other == nil || other.RequestHash != "h1" {
		t.Fatalf("reuse with another body must show the first request's hash: %+v, %v", other, err)
	}
	// Once expired, the key serves a new request.
	if resp, err := st.Reserve(ctx, "k1", "h2", now.Add(store.IdempotencyTTL+time.Minute)); err != nil || resp != nil {
		t.Fatalf("expired key: %+v, %v; want a fresh reservation", resp, err)
	}
	if err := st.Release(ctx, "k1"); err != nil {
		t.Fatal(err)
	}
	if resp, err := st.Reserve(ctx, "k1", "h3", now); err != nil || resp != nil {
		t.Fatalf("after release: %+v, %v", resp, err)
	}
}

// A document larger than one item continues in part items, written and read
// with its head; shrinking it removes the parts it no longer needs.
func TestLargeDocumentsSplitAcrossItems(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	big := make([]byte, 2*store.MaxPart+1234)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	r := &store.Record{PK: "T#big", SK: "R#0001", Kind: "round", Doc: big}
	if err := st.Put(ctx, r); err != nil {
		t.Fatal(err)
	}
	if r.Parts != 2 || r.Version != 1 {
		t.Fatalf("after put: %d parts, version %d; want 2, 1", r.Parts, r.Version)
	}
	if err := st.Put(ctx, &store.Record{PK: "T#big", SK: "R#0002", Kind: "round", Doc: []byte("small")}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(ctx, "T#big", "R#0001")
	if err != nil || string(got.Doc) != string(big) {
		t.Fatalf("get: %d bytes, %v; want %d bytes back", len(got.Doc), err, len(big))
	}
	all, err := st.Query(ctx, "T#big", "R#", 3)
	if err != nil || len(all) != 2 || string(all[0].Doc) != string(big) || string(all[1].Doc) != "small" {
		t.Fatalf("query: %d records, %v", len(all), err)
	}
	many, err := st.GetMany(ctx, store.Key{PK: "T#big", SK: "R#0001"})
	if err != nil || string(many[store.Key{PK: "T#big", SK: "R#0001"}].Doc) != string(big) {
		t.Fatalf("get many: %v", err)
	}
	stale := *got
	got.Doc = []byte("shrunk")
	if err := st.Put(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, &stale); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale write of a split document: %v, want ErrConflict", err)
	}
	raw, _ := st.Export(ctx)
	if len(raw) != 2 {
		t.Fatalf("after shrinking, %d items remain, want 2 (the parts deleted)", len(raw))
	}
	if again, _ := st.Get(ctx, "T#big", "R#0001"); string(again.Doc) != "shrunk" || again.Parts != 0 {
		t.Fatalf("after shrinking: %q, %d parts", again.Doc, again.Parts)
	}
}

// TransactDelete deletes only the version read, with its writes, atomically.
func TestTransactDeleteIsConditional(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	meta := &store.Record{PK: "T#d", SK: "META", Kind: "tournament", Doc: []byte("1")}
	player := &store.Record{PK: "T#d", SK: "P#p1", Kind: "player", Doc: []byte("a")}
	if err := st.Transact(ctx, []*store.Record{meta, player}); err != nil {
		t.Fatal(err)
	}
	stale := *player
	player.Doc = []byte("b")
	if err := st.Put(ctx, player); err != nil {
		t.Fatal(err)
	}
	if err := st.TransactDelete(ctx, []*store.Record{&stale}, meta); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("deleting a stale version: got %v, want ErrConflict", err)
	}
	if got, err := st.Get(ctx, "T#d", "META"); err != nil || got.Version != 1 {
		t.Fatalf("a failed deletion wrote its companion: %+v %v", got, err)
	}
	if err := st.TransactDelete(ctx, []*store.Record{player}, meta); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, "T#d", "P#p1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after deletion: %v", err)
	}
	if got, err := st.Get(ctx, "T#d", "META"); err != nil || got.Version != 2 {
		t.Fatalf("the companion write: %+v %v", got, err)
	}
}
