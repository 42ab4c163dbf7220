package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// A split document read while a writer replaces it: the reader gets the
// head of one write, and then — the writer commits in between — the parts
// of the next. These tests make the writer commit at exactly that point
// (the embedded server's Intercept runs the write before serving the
// reader's request) and check that the reader sees one write whole.

func filled(c byte, n int) []byte { return bytes.Repeat([]byte{c}, n) }

// tearOn makes the server commit a new version of rec (doc next, then
// next's successors from more) before serving each request matched by
// when, up to times times; it returns how many requests it tore.
func tearOn(t *testing.T, srv *embedded.Server, st *store.Store, rec *store.Record, times int, when func(op string, body []byte) bool) *atomic.Int32 {
	t.Helper()
	var torn atomic.Int32
	srv.Intercept(func(op string, body []byte) embedded.Fault {
		if !when(op, body) || int(torn.Load()) >= times {
			return embedded.Serve
		}
		n := torn.Add(1)
		rec.Doc = filled(byte('b'+n-1), 3*store.MaxPart+int(n))
		if err := st.Put(context.Background(), rec); err != nil {
			t.Errorf("writer: %v", err)
		}
		return embedded.Serve
	})
	t.Cleanup(func() { srv.Intercept(nil) })
	return &torn
}

// partsQuery matches the Query that reads a head's parts.
func partsQuery(op string, body []byte) bool {
	return op == "Query" && bytes.Contains(body, []byte("#~part"))
}

// laterPage matches the Query for a partition's second page onwards.
func laterPage(op string, body []byte) bool {
	return op == "Query" && bytes.Contains(body, []byte("ExclusiveStartKey"))
}

// wantWhole fails unless doc is one write's document: a single repeated byte
// of that write's length.
func wantWhole(t *testing.T, doc []byte, want byte, n int) {
	t.Helper()
	if len(doc) != n || bytes.Count(doc, []byte{want}) != n {
		t.Fatalf("read %d bytes (%d of %q), want the whole write: %d × %q", len(doc), bytes.Count(doc, []byte{want}), want, n, want)
	}
}

func TestTornRead_AHeadJoinedWithAnotherWritesPartsIsReadAgain(t *testing.T) {
	reads := map[string]struct {
		when func(op string, body []byte) bool
		read func(st *store.Store) ([]byte, error)
	}{
		"Get": {partsQuery, func(st *store.Store) ([]byte, error) {
			r, err := st.Get(context.Background(), "T#1", "R#0001")
			if err != nil {
				return nil, err
			}
			return r.Doc, nil
		}},
		"GetMany": {partsQuery, func(st *store.Store) ([]byte, error) {
			got, err := st.GetMany(context.Background(), store.Key{PK: "T#1", SK: "R#0001"})
			if err != nil {
				return nil, err
			}
			return got[store.Key{PK: "T#1", SK: "R#0001"}].Doc, nil
		}},
		// The partition's 1 MB pages end after the head and its first
		// part (of three): the writer commits before the second page.
		"Query": {laterPage, func(st *store.Store) ([]byte, error) {
			recs, err := st.Query(context.Background(), "T#1", "", 0)
			if err != nil {
				return nil, err
			}
			if len(recs) != 2 || recs[1].SK != "R#0001" {
				t.Fatalf("query returned %d records", len(recs))
			}
			return recs[1].Doc, nil
		}},
	}
	for name, c := range reads {
		t.Run(name, func(t *testing.T) {
			st, _, srv := storetest.Start(t)
			ctx := context.Background()
			if err := st.Put(ctx, &store.Record{PK: "T#1", SK: "META", Kind: "tournament", Doc: []byte("{}")}); err != nil {
				t.Fatal(err)
			}
			rec := &store.Record{PK: "T#1", SK: "R#0001", Kind: "round", Doc: filled('a', 4*store.MaxPart-1000)}
			if err := st.Put(ctx, rec); err != nil {
				t.Fatal(err)
			}
			torn := tearOn(t, srv, st, rec, 1, c.when)
			doc, err := c.read(st)
			if err != nil {
				t.Fatal(err)
			}
			if torn.Load() != 1 {
				t.Fatalf("the writer committed %d times mid-read, want 1", torn.Load())
			}
			wantWhole(t, doc, 'b', 3*store.MaxPart+1) // the write that landed, read again whole
		})
	}
}

func TestTornRead_AReaderThatKeepsLosingGivesUpUnavailable(t *testing.T) {
	st, _, srv := storetest.Start(t)
	rec := &store.Record{PK: "T#1", SK: "R#0001", Kind: "round", Doc: filled('a', 2*store.MaxPart+1000)}
	if err := st.Put(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	torn := tearOn(t, srv, st, rec, 100, partsQuery)
	r, err := st.Get(context.Background(), "T#1", "R#0001")
	if !errors.Is(err, store.ErrUnavailable) || r != nil {
		t.Fatalf("got a record: %t, %v; want no record and ErrUnavailable", r != nil, err)
	}
	if n := torn.Load(); n != 5 {
		t.Fatalf("read %d times, want 5 (bounded)", n)
	}
}

func TestTornRead_PartsWrittenBeforeVersionsAreStillRead(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	// As stored before parts carried versions: the head at version 3, its
	// parts at version 0.
	item := func(sk, kind string, ver int, parts int, doc []byte) *store.Item {
		attrs := map[string]map[string]any{
			"PK": {"S": "T#1"}, "SK": {"S": sk}, "kind": {"S": kind},
			"ver": {"N": strconv.Itoa(ver)}, "doc": {"B": doc},
		}
		if parts > 0 {
			attrs["parts"] = map[string]any{"N": strconv.Itoa(parts)}
		}
		data, err := json.Marshal(attrs)
		if err != nil {
			t.Fatal(err)
		}
		it, err := store.ParseItem(data)
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	items := []*store.Item{
		item("R#0001#~part001", "part", 0, 0, filled('a', store.MaxPart)),
		item("R#0001#~part002", "part", 0, 0, filled('a', 10)),
		item("R#0001", "round", 3, 2, filled('a', store.MaxPart)),
	}
	if err := st.CreateItems(ctx, items); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(ctx, "T#1", "R#0001")
	if err != nil {
		t.Fatal(err)
	}
	wantWhole(t, got.Doc, 'a', 2*store.MaxPart+10)
	// The next write stamps every part with the head's version.
	got.Doc = filled('c', 2*store.MaxPart+20)
	if err := st.Put(ctx, got); err != nil {
		t.Fatal(err)
	}
	again, err := st.Get(ctx, "T#1", "R#0001")
	if err != nil {
		t.Fatal(err)
	}
	wantWhole(t, again.Doc, 'c', 2*store.MaxPart+20)
}

// ttls returns the ttl attribute of every item of partition pk, by SK.
func ttls(t *testing.T, st *store.Store, pk string) map[string]string {
	t.Helper()
	items, err := st.Items(context.Background(), pk)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range items {
		data, err := it.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var attrs struct {
			TTL struct{ N string } `json:"ttl"`
		}
		if err := json.Unmarshal(data, &attrs); err != nil {
			t.Fatal(err)
		}
		out[it.SK] = attrs.TTL.N
	}
	return out
}

func TestSplitDocumentParts_CarryTheHeadsTTL(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	rec := &store.Record{PK: "T#1", SK: "R#0001", Kind: "round", Doc: filled('a', 2*store.MaxPart+5), Expires: 1900000000}
	if err := st.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	got := ttls(t, st, "T#1")
	if len(got) != 3 {
		t.Fatalf("%d items, want a head and 2 parts: %v", len(got), got)
	}
	for sk, ttl := range got {
		if ttl != "1900000000" {
			t.Errorf("%s: ttl %q, want the head's 1900000000", sk, ttl)
		}
	}
}

func TestIdempotencyRecord_SplitIntoPartsExpiresWhole(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	if resp, err := st.Reserve(ctx, "scope", "h", now); err != nil || resp != nil {
		t.Fatalf("reserve: %v %v", resp, err)
	}
	// A large answer (a 10,000-player round is ~1.7 MB) is kept for replay.
	body := filled('x', 2*store.MaxPart)
	if err := st.Complete(ctx, "scope", store.Response{RequestHash: "h", Status: 201, Body: body}, now); err != nil {
		t.Fatal(err)
	}
	got := ttls(t, st, "I#scope")
	if len(got) < 3 {
		t.Fatalf("%d items, want the record split into a head and parts: %v", len(got), got)
	}
	want := now.Add(store.IdempotencyTTL).Unix()
	for sk, ttl := range got {
		if ttl != strconv.FormatInt(want, 10) {
			t.Errorf("%s: ttl %q, want %d", sk, ttl, want)
		}
	}
	replay, err := st.Reserve(ctx, "scope", "h", now.Add(time.Hour))
	if err != nil || replay == nil || !bytes.Equal(replay.Body, body) {
		t.Fatalf("replay: %v", err)
	}
	// Once expired, a new request under the key takes the record over; the
	// parts it no longer needs go with the takeover instead of staying behind.
	later := now.Add(store.IdempotencyTTL + time.Minute)
	if resp, err := st.Reserve(ctx, "scope", "h2", later); err != nil || resp != nil {
		t.Fatalf("takeover: %v %v", resp, err)
	}
	if got := ttls(t, st, "I#scope"); len(got) != 1 {
		t.Fatalf("after the takeover %d items remain, want the head alone: %v", len(got), got)
	}
}

// CreateItems moves an event's items between tables in transactions; 15
// items of 350 KB (a large round's parts) are over DynamoDB's 4 MB for one
// transaction, so they go in two.
func TestCreateItems_TransactionsStayWithin4MB(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	var items []*store.Item
	for i := range 15 {
		data, err := json.Marshal(map[string]map[string]any{
			"PK": {"S": "T#1"}, "SK": {"S": "X#" + strconv.Itoa(100+i)}, "kind": {"S": "result"},
			"ver": {"N": "1"}, "doc": {"B": filled('r', store.MaxPart)},
		})
		if err != nil {
			t.Fatal(err)
		}
		it, err := store.ParseItem(data)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	if err := st.CreateItems(ctx, items); err != nil {
		t.Fatal(err)
	}
	got, err := st.Items(ctx, "T#1")
	if err != nil || len(got) != len(items) {
		t.Fatalf("%d items stored, want %d: %v", len(got), len(items), err)
	}
}

// An export (Items) read while a split document is rewritten is read again:
// it never carries a head with another write's parts to the table it is
// imported into.
func TestTornRead_AnExportIsReadAgain(t *testing.T) {
	st, _, srv := storetest.Start(t)
	rec := &store.Record{PK: "T#1", SK: "R#0001", Kind: "round", Doc: filled('a', 4*store.MaxPart-1000)}
	if err := st.Put(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	torn := tearOn(t, srv, st, rec, 1, laterPage)
	items, err := st.Items(context.Background(), "T#1")
	if err != nil {
		t.Fatal(err)
	}
	if torn.Load() != 1 {
		t.Fatalf("the writer committed %d times mid-read, want 1", torn.Load())
	}
	vers := map[string]bool{}
	for _, it := range items {
		data, err := it.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var attrs struct{ Ver struct{ N string } }
		if err := json.Unmarshal(data, &attrs); err != nil {
			t.Fatal(err)
		}
		vers[attrs.Ver.N] = true
	}
	if len(items) != 4 || len(vers) != 1 || !vers["2"] {
		t.Fatalf("%d items at versions %v, want the head and 3 parts of version 2", len(items), vers)
	}
}
