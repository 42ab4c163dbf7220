package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// metered runs f under a fresh Meter and returns it.
func metered(t *testing.T, f func(ctx context.Context)) *store.Meter {
	t.Helper()
	m := &store.Meter{}
	f(store.WithMeter(context.Background(), m))
	return m
}

func wantUnits(t *testing.T, what string, m *store.Meter, read, write float64, requests int) {
	t.Helper()
	if m.ReadUnits() != read || m.WriteUnits() != write || m.Requests() != requests {
		t.Errorf("%s: read %v, write %v, requests %d; want %v, %v, %d", what, m.ReadUnits(), m.WriteUnits(), m.Requests(), read, write, requests)
	}
}

// recordOfSize is a record whose item DynamoDB sizes at exactly size bytes.
func recordOfSize(pk, sk string, size int) *store.Record {
	r := &store.Record{PK: pk, SK: sk, Kind: "game"}
	r.Doc = make([]byte, size-(&store.Record{PK: pk, SK: sk, Kind: "game", Version: 1}).Size())
	return r
}

// The embedded server (minidyn) reports no consumed capacity, so every
// call's units are computed from item sizes as DynamoDB rounds them.
func TestMeter_ComputesUnitsTheWayDynamoDBRounds(t *testing.T) {
	st, _ := storetest.New(t)
	big := recordOfSize("G#1", "GAME", 5000) // 5 write quanta, 2 read quanta
	m := metered(t, func(ctx context.Context) {
		if err := st.Put(ctx, big); err != nil {
			t.Fatal(err)
		}
	})
	wantUnits(t, "put 5000 B", m, 0, 5, 1)
	if m.Estimated() != m.Requests() {
		t.Errorf("the embedded server reported capacity for %d of %d calls; the computed path went untested", m.Requests()-m.Estimated(), m.Requests())
	}
	m = metered(t, func(ctx context.Context) {
		if _, err := st.Get(ctx, "G#1", "GAME"); err != nil {
			t.Fatal(err)
		}
	})
	wantUnits(t, "strongly consistent get of 5000 B", m, 2, 0, 1)
	m = metered(t, func(ctx context.Context) {
		if _, err := st.Get(ctx, "G#1", "NOPE"); !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
	})
	wantUnits(t, "get of a missing item (the minimum)", m, 1, 0, 1)

	// Three 1500-byte items: a Query sums them (4500 B, 2 units) where
	// GetMany rounds each (3 units).
	for i := range 3 {
		if err := st.Put(context.Background(), recordOfSize("T#1", "P#"+strconv.Itoa(i), 1500)); err != nil {
			t.Fatal(err)
		}
	}
	m = metered(t, func(ctx context.Context) {
		if _, err := st.Query(ctx, "T#1", "P#", 0); err != nil {
			t.Fatal(err)
		}
	})
	wantUnits(t, "query of 3 × 1500 B", m, 2, 0, 1)
	m = metered(t, func(ctx context.Context) {
		got, err := st.GetMany(ctx, store.Key{PK: "T#1", SK: "P#0"}, store.Key{PK: "T#1", SK: "P#1"}, store.Key{PK: "T#1", SK: "P#2"}, store.Key{PK: "T#1", SK: "P#9"})
		if err != nil || len(got) != 3 {
			t.Fatal(len(got), err)
		}
	})
	wantUnits(t, "batch get of 3 × 1500 B and a missing key", m, 4, 0, 1)
	m = metered(t, func(ctx context.Context) {
		if _, err := st.Query(ctx, "T#1", "P#", 1); err != nil {
			t.Fatal(err)
		}
	})
	if m.Requests() < 3 || m.ReadUnits() != float64(m.Requests()) {
		t.Errorf("query one item a page: %d pages, %v units; want at least 3 pages at one unit each", m.Requests(), m.ReadUnits())
	}

	// A transaction doubles: two items of 1 and 2 quanta cost (1+2)×2.
	m = metered(t, func(ctx context.Context) {
		if err := st.Transact(ctx, []*store.Record{recordOfSize("T#2", "META", 900), recordOfSize("T#2", "R#0001", 2000)}); err != nil {
			t.Fatal(err)
		}
	})
	wantUnits(t, "transaction of 900 B and 2000 B", m, 0, 6, 1)

	// A write refused by its condition is billed all the same.
	m = metered(t, func(ctx context.Context) {
		if err := st.Put(ctx, recordOfSize("G#1", "GAME", 100)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("got %v, want ErrConflict", err)
		}
	})
	wantUnits(t, "conditional put refused", m, 0, 1, 1)
	if m.Conflicts() != 1 || m.Throttles() != 0 {
		t.Errorf("conditional put refused: %d conflicts, %d throttles; want 1, 0", m.Conflicts(), m.Throttles())
	}
	m = metered(t, func(ctx context.Context) {
		if err := st.Delete(ctx, "T#1", "P#0"); err != nil {
			t.Fatal(err)
		}
	})
	wantUnits(t, "delete", m, 0, 1, 1)
}

func TestMeter_UnitHelpers(t *testing.T) {
	tests := []struct {
		size       int
		consistent bool
		read       float64
		write      float64
	}{
		{0, true, 1, 1},
		{1024, true, 1, 1},
		{1025, false, 0.5, 2},
		{4096, true, 1, 4},
		{4097, true, 2, 5},
		{8193, false, 1.5, 9},
	}
	for _, tt := range tests {
		if got := store.ReadUnits(tt.size, tt.consistent); got != tt.read {
			t.Errorf("ReadUnits(%d, %v) = %v, want %v", tt.size, tt.consistent, got, tt.read)
		}
		if got := store.WriteUnits(tt.size); got != tt.write {
			t.Errorf("WriteUnits(%d) = %v, want %v", tt.size, got, tt.write)
		}
	}
}

// Calls without a Meter in their context still work and count nowhere; calls
// from many goroutines under one Meter all count.
func TestMeter_ConcurrentCalls(t *testing.T) {
	st, _ := storetest.New(t)
	if err := st.Put(context.Background(), &store.Record{PK: "G#1", SK: "GAME", Kind: "game", Doc: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	m := &store.Meter{}
	ctx := store.WithMeter(context.Background(), m)
	if store.MeterFrom(ctx) != m || store.MeterFrom(context.Background()) != nil {
		t.Fatal("MeterFrom does not return the context's meter")
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if _, err := st.Get(ctx, "G#1", "GAME"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	wantUnits(t, "20 concurrent gets", m, 20, 0, 20)
}

// capacityProxy stands in front of the embedded server and adds to every
// successful answer the ConsumedCapacity DynamoDB would send: units per
// table entry as given, so the test can tell reported units from computed ones.
func capacityProxy(t *testing.T, target string, units float64) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.StatusCode != http.StatusOK {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		var doc map[string]any
		if err := json.Unmarshal(body, &doc); err == nil {
			op := resp.Request.Header.Get("X-Amz-Target")
			c := map[string]any{"TableName": "t", "CapacityUnits": units}
			switch {
			case strings.HasSuffix(op, "Table"):
			case strings.Contains(op, "Batch") || strings.Contains(op, "Transact"):
				doc["ConsumedCapacity"] = []any{c}
			default:
				doc["ConsumedCapacity"] = c
			}
			body, _ = json.Marshal(doc)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL
}

// A call DynamoDB throttles (after the SDK's retries) costs nothing and is
// counted as throttled.
func TestMeter_Throttled(t *testing.T) {
	st, _, srv := storetest.Start(t)
	srv.Throttle(true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	m := &store.Meter{}
	if _, err := st.Get(store.WithMeter(ctx, m), "G#1", "GAME"); !errors.Is(err, store.ErrThrottled) {
		t.Fatalf("got %v, want ErrThrottled", err)
	}
	srv.Throttle(false)
	wantUnits(t, "throttled get", m, 0, 0, 1)
	if m.Throttles() != 1 || m.Conflicts() != 0 {
		t.Errorf("throttled get: %d throttles, %d conflicts; want 1, 0", m.Throttles(), m.Conflicts())
	}
}

// AddCounters adds atomically (concurrent additions all count) and its own
// write is metered; Counters reads the sums back.
func TestCounters_AddAtomically(t *testing.T) {
	st, _ := storetest.New(t)
	now := time.Unix(1_800_000_000, 0)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if err := st.AddCounters(context.Background(), "U#1", "USAGE", "usage", map[string]float64{"requests": 2, "readUnits": 0.5}, now); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	m := metered(t, func(ctx context.Context) {
		if err := st.AddCounters(ctx, "U#1", "USAGE", "usage", map[string]float64{"requests": 1}, now); err != nil {
			t.Fatal(err)
		}
	})
	wantUnits(t, "one counters update", m, 0, 1, 1)
	got, err := st.Counters(context.Background(), "U#1", "USAGE")
	if err != nil {
		t.Fatal(err)
	}
	if got["requests"] != 21 || got["readUnits"] != 5 || len(got) != 2 {
		t.Errorf("counters %v, want requests 21, readUnits 5", got)
	}
	if got, err := st.Counters(context.Background(), "U#2", "USAGE"); err != nil || len(got) != 0 {
		t.Errorf("missing counters item: %v, %v; want none, no error", got, err)
	}
}

// When DynamoDB reports consumed capacity, the Meter takes its figures, not
// its own estimate.
func TestMeter_TakesReportedCapacity(t *testing.T) {
	srv, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	cfg := store.Config{Table: "metered", Region: "us-east-1", Endpoint: capacityProxy(t, srv.URL, 7.5)}
	st, err := store.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := metered(t, func(ctx context.Context) {
		if err := st.Put(ctx, &store.Record{PK: "G#1", SK: "GAME", Kind: "game", Doc: []byte("x")}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(ctx, "G#1", "GAME"); err != nil {
			t.Fatal(err)
		}
		if err := st.Transact(ctx, []*store.Record{{PK: "G#2", SK: "GAME", Kind: "game"}}); err != nil {
			t.Fatal(err)
		}
	})
	wantUnits(t, "reported put, get, transaction", m, 7.5, 15, 3)
	if m.Estimated() != 0 {
		t.Errorf("%d calls estimated although every answer reported its capacity", m.Estimated())
	}
}

// A Meter put in a context that carries one already (a tool's meter around a
// request, the request's own inside) counts with it: both see every call.
func TestMeter_NestedMetersBothCount(t *testing.T) {
	st, _ := storetest.New(t)
	outer, inner := &store.Meter{}, &store.Meter{}
	ctx := store.WithMeter(context.Background(), outer)
	if err := st.Put(ctx, &store.Record{PK: "G#1", SK: "GAME", Kind: "game", Doc: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	ictx := store.WithMeter(ctx, inner)
	if store.MeterFrom(ictx) != inner || store.MeterFrom(ctx) != outer || store.WithMeter(ictx, outer) != ictx {
		t.Fatal("MeterFrom must give the innermost meter, and a meter already in the chain is not added twice")
	}
	if _, err := st.Get(ictx, "G#1", "GAME"); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ictx, &store.Record{PK: "G#1", SK: "GAME", Kind: "game"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("got %v, want ErrConflict", err)
	}
	wantUnits(t, "inner", inner, 1, 1, 2)
	wantUnits(t, "outer", outer, 1, 2, 3)
	if inner.Conflicts() != 1 || outer.Conflicts() != 1 {
		t.Errorf("conflicts: inner %d, outer %d; want 1 each", inner.Conflicts(), outer.Conflicts())
	}
}
