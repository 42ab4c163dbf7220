package store_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// stampBySK advances "all" for every write under a T# partition, and a
// counter named after the sort key's prefix.
func stampBySK(pk, sk string, created bool) (string, []string) {
	tid, ok := store.TournamentOf(pk)
	if !ok {
		return "", nil
	}
	names := []string{"all", strings.ToLower(store.SKPrefix(sk)[:1])}
	if created {
		names = append(names, "created")
	}
	return store.ViewPK(tid), names
}

// Writes advance only a stamp a reader created; after that every write
// (Put, Transact, Delete) advances the counters its StampFunc names, once
// per write however many items a transaction holds, and concurrent writes
// all count. GetWithStamp reads the stamp with other items in one call.
func TestStamps_AdvanceAfterWritesOnceCreated(t *testing.T) {
	st, _ := storetest.New(t)
	st.StampWrites(stampBySK)
	ctx := context.Background()
	pk := store.TournamentPK("t1")
	if err := st.Put(ctx, &store.Record{PK: pk, SK: store.MetaSK, Kind: store.KindTournament, Doc: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got, err := st.ReadStamp(ctx, store.ViewPK("t1")); err != nil || got.Epoch != "" || len(got.Counters) != 0 {
		t.Fatalf("a write made a stamp nobody asked for: %+v, %v", got, err)
	}
	created, err := st.CreateStamp(ctx, store.ViewPK("t1"))
	if err != nil || created.Epoch == "" {
		t.Fatalf("CreateStamp: %+v, %v", created, err)
	}
	if again, err := st.CreateStamp(ctx, store.ViewPK("t1")); err != nil || again.Epoch != created.Epoch {
		t.Fatalf("a second CreateStamp changed the epoch: %+v, %v", again, err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &store.Record{PK: pk, SK: store.ResultSK(1, i+1), Kind: store.KindResult, Doc: []byte(`{}`)}
			if err := st.Put(ctx, r); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	two := []*store.Record{
		{PK: pk, SK: store.PlayerSK("p1"), Kind: store.KindPlayer, Doc: []byte(`{}`)},
		{PK: pk, SK: store.PlayerSK("p2"), Kind: store.KindPlayer, Doc: []byte(`{}`)},
	}
	if err := st.Transact(ctx, two); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, pk, store.ResultSK(1, 1)); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, &store.Record{PK: store.GamePK("g1"), SK: store.GameSK, Kind: store.KindGame, Doc: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	recs, got, err := st.GetWithStamp(ctx, store.ViewPK("t1"), store.Key{PK: pk, SK: store.MetaSK}, store.Key{PK: pk, SK: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[store.Key{PK: pk, SK: store.MetaSK}] == nil {
		t.Fatalf("GetWithStamp items: %v", recs)
	}
	want := map[string]int64{"all": 10, "x": 9, "p": 1, "created": 9}
	if got.Epoch != created.Epoch || len(got.Counters) != len(want) {
		t.Fatalf("stamp %+v, want epoch %s and %v", got, created.Epoch, want)
	}
	for name, n := range want {
		if got.Get(name) != n {
			t.Errorf("counter %s = %d, want %d", name, got.Get(name), n)
		}
	}
}
