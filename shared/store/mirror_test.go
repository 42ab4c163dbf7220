package store_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// A split document read on one table (ItemsOf: head and parts, exactly as
// stored) and applied on another (ApplyItems) reads back the same there, at
// the source's version; shrunk on the source and applied again, the copy
// drops the parts it no longer has; removed, it goes with its parts. The
// copy's state advances under its version, and a stale one is refused.
func TestMirrorItemsRoundTrip(t *testing.T) {
	ctx := context.Background()
	src, _ := storetest.New(t)
	dst, _ := storetest.New(t)
	rec := &store.Record{PK: "T#t1", SK: "R#0001", Kind: store.KindRound, Doc: filled('a', 2*store.MaxPart+10)}
	if err := src.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	state := &store.Record{PK: store.MirrorPK("t1"), SK: store.MirrorInSK, Kind: store.KindMirrorIn, Doc: []byte(`{}`)}
	key := store.Key{PK: rec.PK, SK: rec.SK}
	apply := func() {
		t.Helper()
		got, err := src.ItemsOf(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if err := dst.ApplyItems(ctx, got[key], nil, nil, state); err != nil {
			t.Fatal(err)
		}
	}
	check := func(want *store.Record) {
		t.Helper()
		got, err := dst.Get(ctx, key.PK, key.SK)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Doc, want.Doc) || got.Version != want.Version {
			t.Fatalf("copy at version %d with %d bytes, want version %d with %d", got.Version, len(got.Doc), want.Version, len(want.Doc))
		}
		parts, err := dst.Items(ctx, key.PK)
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != 1+(len(want.Doc)-1)/store.MaxPart {
			t.Fatalf("copy has %d items for a document of %d bytes", len(parts), len(want.Doc))
		}
	}
	apply()
	check(rec)
	rec.Doc = filled('b', 100) // shrunk: no parts now
	if err := src.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	apply()
	check(rec)
	if got, _ := src.ItemsOf(ctx, store.Key{PK: "T#t1", SK: "R#0009"}); len(got) != 0 {
		t.Fatalf("an absent item read as %v", got)
	}
	if err := dst.ApplyItems(ctx, nil, []store.Key{key}, nil, state); err != nil {
		t.Fatal(err)
	}
	if items, _ := dst.Items(ctx, key.PK); len(items) != 0 {
		t.Fatalf("removed, the copy keeps %d items", len(items))
	}
	stale := *state
	stale.Version--
	if err := dst.ApplyItems(ctx, nil, nil, nil, &stale); err == nil {
		t.Fatal("a state at a version already passed was written")
	}
}
