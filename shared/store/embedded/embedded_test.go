package embedded_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// The partition index answers the store's Queries exactly as minidyn does:
// after a random mix of puts, transactions (split documents included),
// deletes and batch imports, every partition and prefix reads the same
// through the index (no Limit) as through minidyn (a Limit sends it there).
func TestIndex_QueriesMatchMinidyn(t *testing.T) {
	st, _, _ := storetest.Start(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	pks := []string{"T#a", "T#b", "G#x", "S#G#x"}
	sks := []string{"META", "P#1", "P#2", "R#0001", "R#0002", "X#0001#0001", "C#k", "GAME"}
	live := map[store.Key]*store.Record{}
	for i := range 300 {
		k := store.Key{PK: pks[rng.IntN(len(pks))], SK: sks[rng.IntN(len(sks))]}
		switch op := rng.IntN(4); {
		case op == 0 && live[k] != nil:
			if err := st.Delete(ctx, k.PK, k.SK); err != nil {
				t.Fatal(err)
			}
			delete(live, k)
		case op == 1:
			r := &store.Record{PK: k.PK, SK: k.SK, Kind: "x", Version: 7, Doc: []byte(fmt.Sprint(i))}
			if err := st.Import(ctx, []*store.Record{r}); err != nil {
				t.Fatal(err)
			}
			live[k] = r
		default:
			r := live[k]
			if r == nil {
				r = &store.Record{PK: k.PK, SK: k.SK, Kind: "x"}
			}
			size := 10
			if rng.IntN(10) == 0 {
				size = store.MaxPart + 1000 // a split document
			}
			r.Doc = []byte(strings.Repeat(fmt.Sprint(i%10), size))
			if err := st.Transact(ctx, []*store.Record{r}); err != nil {
				t.Fatal(err)
			}
			live[k] = r
		}
	}
	for _, pk := range pks {
		for _, prefix := range []string{"", "P#", "R#", "X#0001", "C#", "Z"} {
			fast, err := st.Query(ctx, pk, prefix, 0)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := st.Query(ctx, pk, prefix, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if len(fast) != len(slow) {
				t.Fatalf("%s %q: index %d items, minidyn %d", pk, prefix, len(fast), len(slow))
			}
			for i := range fast {
				f, s := fast[i], slow[i]
				if f.SK != s.SK || f.Version != s.Version || f.Kind != s.Kind || string(f.Doc) != string(s.Doc) {
					t.Fatalf("%s %q item %d: index %s v%d, minidyn %s v%d", pk, prefix, i, f.SK, f.Version, s.SK, s.Version)
				}
			}
		}
	}
}

// The change feed reports every successful write with the item as written
// (nil when removed), in order, and nothing for a write that failed.
func TestFeed_ReportsSuccessfulWrites(t *testing.T) {
	st, cfg, db := storetest.Start(t)
	ctx := context.Background()
	var mu sync.Mutex
	var got []string
	db.Feed(func(table string, cs []store.Change) {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range cs {
			s := table + " " + c.Key.PK + "/" + c.Key.SK
			if c.New != nil {
				s += fmt.Sprintf(" %s v%d %s", c.New.Kind, c.New.Version, c.New.Doc)
			} else {
				s += " removed"
			}
			got = append(got, s)
		}
	})
	a := &store.Record{PK: "G#1", SK: "GAME", Kind: "game", Doc: []byte("a")}
	if err := st.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	stale := &store.Record{PK: "G#1", SK: "GAME", Kind: "game", Doc: []byte("lost")}
	if err := st.Put(ctx, stale); err == nil {
		t.Fatal("a stale put succeeded")
	}
	a.Doc = []byte("b")
	x := &store.Record{PK: "T#1", SK: "X#0001#0001", Kind: "result", Doc: []byte("1-0")}
	if err := st.Transact(ctx, []*store.Record{a, x}); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, "T#1", "X#0001#0001"); err != nil {
		t.Fatal(err)
	}
	if err := st.Import(ctx, []*store.Record{{PK: "T#1", SK: "P#p", Kind: "player", Version: 3, Doc: []byte("p")}}); err != nil {
		t.Fatal(err)
	}
	tb := cfg.Table
	want := []string{
		tb + " G#1/GAME game v1 a",
		tb + " G#1/GAME game v2 b",
		tb + " T#1/X#0001#0001 result v1 1-0",
		tb + " T#1/X#0001#0001 removed",
		tb + " T#1/P#p player v3 p",
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, want) {
		t.Errorf("feed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
