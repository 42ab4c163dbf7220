package embedded_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

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
