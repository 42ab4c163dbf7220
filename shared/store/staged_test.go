package store_test

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// fastStaging lets a test stage many parts without waiting out the pace.
func fastStaging(t *testing.T, part int) {
	t.Helper()
	oldPart, oldRate := store.StagedPart, store.StageRate
	store.StagedPart, store.StageRate = part, 1e9
	t.Cleanup(func() { store.StagedPart, store.StageRate = oldPart, oldRate })
}

// A body larger than one transaction holds (5 MB against 4 MB) is staged
// in parts outside the transaction, published by the head's write with
// another item, and read back whole by Get, Query and GetMany; an
// unchanged body is not staged again when the head changes; a changed one
// is, and the replaced build's parts are deleted.
func TestStagedBodyLargerThanATransaction(t *testing.T) {
	fastStaging(t, store.MaxPart)
	st, _ := storetest.New(t)
	ctx := t.Context()
	body := bytes.Repeat([]byte("0123456789abcdef"), 5<<20/16)
	round := &store.Record{PK: "T#big", SK: "R#0001", Kind: "round", Doc: []byte(`{"s":1}`), Body: body}
	meta := &store.Record{PK: "T#big", SK: "META", Kind: "tournament", Doc: []byte(`{"Round":1}`)}
	if err := st.Transact(ctx, []*store.Record{round, meta}); err != nil {
		t.Fatal(err)
	}
	if round.Build == "" || round.Parts != 15 { // 5 MB in parts of 350 KB
		t.Fatalf("staged as build %q in %d parts", round.Build, round.Parts)
	}
	check := func(what string, got *store.Record) {
		t.Helper()
		if !bytes.Equal(got.Body, body) || string(got.Doc) != `{"s":1}` || got.Build != round.Build {
			t.Fatalf("%s: head %q, body %d bytes of %d, build %q", what, got.Doc, len(got.Body), len(body), got.Build)
		}
	}
	got, err := st.Get(ctx, "T#big", "R#0001")
	if err != nil {
		t.Fatal(err)
	}
	check("Get", got)
	all, err := st.Query(ctx, "T#big", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 {
		t.Fatalf("Query: %d records", len(all))
	}
	check("Query", all[1])
	many, err := st.GetMany(ctx, store.Key{PK: "T#big", SK: "R#0001"})
	if err != nil {
		t.Fatal(err)
	}
	check("GetMany", many[store.Key{PK: "T#big", SK: "R#0001"}])

	// The head alone: the same build, the same parts.
	build := got.Build
	got.Doc = []byte(`{"s":2}`)
	if err := st.Put(ctx, got); err != nil {
		t.Fatal(err)
	}
	if got.Build != build {
		t.Fatalf("an unchanged body was staged again: build %s, was %s", got.Build, build)
	}
	// A new body: a new build, and only its parts stay.
	got.Body = []byte("a small body now")
	if err := st.Put(ctx, got); err != nil {
		t.Fatal(err)
	}
	if got.Build == build || got.Parts != 1 {
		t.Fatalf("a changed body: build %s (was %s), %d parts", got.Build, build, got.Parts)
	}
	again, err := st.Get(ctx, "T#big", "R#0001")
	if err != nil || string(again.Body) != "a small body now" || string(again.Doc) != `{"s":2}` {
		t.Fatalf("after the new body: %v %q %q", err, again.Doc, again.Body)
	}
	items, err := st.Items(ctx, "T#big")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 { // META, the head, its one part
		t.Fatalf("%d items after the body was replaced: the old build's parts stayed", len(items))
	}
}

// Two writers publish the same new document at once: one wins, the other
// loses its race (ErrConflict) and deletes what it staged, so no build but
// the winner's is left, and a reader never sees the loser's body.
func TestStagedBodyLostRaceLeavesNoParts(t *testing.T) {
	fastStaging(t, 1000)
	st, _ := storetest.New(t)
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &store.Record{PK: "T#race", SK: "R#0001", Kind: "round", Doc: []byte(`{}`), Body: bytes.Repeat([]byte{byte('a' + i)}, 20_000)}
			errs[i] = st.Put(ctx, r)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrConflict):
			t.Fatal(err)
		}
	}
	if won != 1 {
		t.Fatalf("%d writers won: %v", won, errs)
	}
	got, err := st.Get(ctx, "T#race", "R#0001")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Body) != 20_000 || bytes.Count(got.Body, got.Body[:1]) != 20_000 {
		t.Fatalf("the body read mixes two writes")
	}
	raw, err := st.Query(ctx, "T#race", "R#0001#", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != 0 {
		t.Fatalf("parts read as documents: %d", len(raw))
	}
	items, err := st.Items(ctx, "T#race")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.IsPart() && !strings.Contains(it.SK, got.Build) {
			t.Fatalf("a part of another build stayed: %s", it.SK)
		}
	}
	if len(items) != 1+got.Parts {
		t.Fatalf("%d items, want the head and its %d parts", len(items), got.Parts)
	}
}

// A build staged but never published (its writer died before its
// transaction) is nobody's: Get, Query and the export skip it, and the
// document under the head reads as it was.
func TestUnpublishedBuildIsInvisible(t *testing.T) {
	fastStaging(t, 1000)
	st, _ := storetest.New(t)
	ctx := t.Context()
	r := &store.Record{PK: "T#ghost", SK: "R#0001", Kind: "round", Doc: []byte(`{}`), Body: []byte("published")}
	if err := st.Put(ctx, r); err != nil {
		t.Fatal(err)
	}
	// A staging that never committed: parts under another build.
	if err := st.Import(ctx, []*store.Record{
		{PK: "T#ghost", SK: "R#0001#~part.00000000001ffffffff.001", Kind: store.KindPart, Version: 1, Doc: []byte("ghost")},
		{PK: "T#ghost", SK: "R#0001#~part.00000000001ffffffff.002", Kind: store.KindPart, Version: 1, Doc: []byte("ghost")},
	}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Get(ctx, "T#ghost", "R#0001")
	if err != nil || string(got.Body) != "published" {
		t.Fatalf("Get: %v %q", err, got.Body)
	}
	all, err := st.Query(ctx, "T#ghost", "", 0)
	if err != nil || len(all) != 1 || string(all[0].Body) != "published" {
		t.Fatalf("Query: %v %d records", err, len(all))
	}
	items, err := st.Items(ctx, "T#ghost")
	if err != nil || len(items) != 2 {
		t.Fatalf("export: %v, %d items (want the head and its part)", err, len(items))
	}
	docs, err := store.Documents(items)
	if err != nil || len(docs) != 1 || string(docs[0].Body) != "published" {
		t.Fatalf("Documents: %v %+v", err, docs)
	}
	// The next publication sweeps the long-dead build's parts.
	got.Body = []byte("republished")
	if err := st.Put(ctx, got); err != nil {
		t.Fatal(err)
	}
	raw, err := st.ItemsOf(ctx, store.Key{PK: "T#ghost", SK: "R#0001"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(raw[store.Key{PK: "T#ghost", SK: "R#0001"}]); n != 2 {
		t.Fatalf("mirror read: %d items", n)
	}
	left, err := st.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range left {
		if strings.Contains(it.SK, "ffffffff") {
			t.Fatalf("the dead build's part %s was not swept", it.SK)
		}
	}
}

// Staged parts are written one at a time within StageRate units a second:
// four parts of 10 units (10 KB each) at 110 a second take at least the
// three waits of 91 ms between them.
func TestStagingIsPaced(t *testing.T) {
	fastStaging(t, 10_000)
	store.StageRate = 110
	st, _ := storetest.New(t)
	start := time.Now()
	r := &store.Record{PK: "T#paced", SK: "R#0001", Kind: "round", Doc: []byte(`{}`), Body: bytes.Repeat([]byte("x"), 40_000)}
	if err := st.Put(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	if r.Parts != 4 {
		t.Fatalf("%d parts", r.Parts)
	}
	if took := time.Since(start); took < 270*time.Millisecond {
		t.Fatalf("four parts of 10 units at 110 units a second took %v", took)
	}
}

// A part's put that loses to a transaction in flight applied nothing
// (DynamoDB's TransactionConflict, the embedded store's conflict fault):
// the stage puts it again rather than taking the refusal for an earlier
// attempt's success, so a published head always names parts that exist.
// Before, a head published after such a refusal named a missing part, and
// no read of the document could join it again (TestChaos's round that no
// start could read).
func TestStagedPartsUnderConflicts_AlwaysWhole(t *testing.T) {
	fastStaging(t, 64)
	st, _, srv := storetest.Start(t)
	ctx := t.Context()
	srv.SetFaults(embedded.Faults{Conflict: 0.3})
	for i := range 20 {
		body := bytes.Repeat([]byte{byte('a' + i)}, 64*4+10) // five parts
		var err error
		for range 50 { // the head's own transaction loses some too: the caller's retry
			r := &store.Record{PK: "T#conflicts", SK: store.RoundSK(i + 1), Kind: "round", Doc: []byte(`{}`), Body: body}
			if err = st.Transact(ctx, []*store.Record{r}); !errors.Is(err, store.ErrConflict) {
				break
			}
		}
		if err != nil {
			t.Fatalf("round %d: %v", i+1, err)
		}
	}
	srv.SetFaults(embedded.Faults{})
	if srv.Injected().Conflict == 0 {
		t.Fatal("no conflict injected")
	}
	for i := range 20 {
		got, err := st.Get(ctx, "T#conflicts", store.RoundSK(i+1))
		if err != nil {
			t.Fatalf("round %d does not read back: %v", i+1, err)
		}
		if want := bytes.Repeat([]byte{byte('a' + i)}, 64*4+10); !bytes.Equal(got.Body, want) {
			t.Fatalf("round %d: body %q", i+1, got.Body)
		}
	}
}
