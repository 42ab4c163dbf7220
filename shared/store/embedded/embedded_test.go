package embedded_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// open starts a durable server on dir and a store with its table on it.
func open(t testing.TB, dir string) (*embedded.Server, *store.Store) {
	t.Helper()
	srv, err := embedded.Open("127.0.0.1:0", dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), store.Config{Table: "xqtour", Region: "us-east-1", Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTable(context.Background()); err != nil {
		t.Fatal(err)
	}
	return srv, st
}

// crashCopy copies dir as it is on disk now, while its server still runs: what
// a machine that lost power at this instant would find on restart.
func crashCopy(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func put(t testing.TB, st *store.Store, pk, sk, doc string) *store.Record {
	t.Helper()
	r := &store.Record{PK: pk, SK: sk, Kind: "test", Doc: []byte(doc)}
	if err := st.Put(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return r
}

func wantDoc(t *testing.T, st *store.Store, pk, sk, doc string, version int64) {
	t.Helper()
	got, err := st.Get(context.Background(), pk, sk)
	if err != nil {
		t.Fatalf("%s/%s: %v", pk, sk, err)
	}
	if string(got.Doc) != doc || got.Version != version {
		t.Fatalf("%s/%s = %q v%d, want %q v%d", pk, sk, got.Doc, got.Version, doc, version)
	}
}

// Every answered write is on disk before the answer: a copy of the directory
// taken right after the answers, with no shutdown, has them all.
func TestAcknowledgedWritesSurviveACrash(t *testing.T) {
	dir := t.TempDir()
	srv, st := open(t, dir)
	defer srv.Close()
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				put(t, st, fmt.Sprintf("T#%d", w), fmt.Sprintf("P#%03d", i), "x")
			}
		}()
	}
	wg.Wait()
	a := put(t, st, "G#1", "GAME", "a")
	b := &store.Record{PK: "T#tx", SK: "META", Kind: "test", Doc: []byte("tx")}
	a.Doc = []byte("a2")
	if err := st.Transact(ctx, []*store.Record{a, b}); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, "T#0", "P#000"); err != nil {
		t.Fatal(err)
	}

	srv2, st2 := open(t, crashCopy(t, dir))
	defer srv2.Close()
	for w := range 8 {
		recs, err := st2.Query(ctx, fmt.Sprintf("T#%d", w), "P#", 0)
		if err != nil {
			t.Fatal(err)
		}
		want := 20
		if w == 0 {
			want = 19
		}
		if len(recs) != want {
			t.Fatalf("T#%d has %d players after the crash, want %d", w, len(recs), want)
		}
	}
	wantDoc(t, st2, "G#1", "GAME", "a2", 2)
	wantDoc(t, st2, "T#tx", "META", "tx", 1)
}

// A record cut short by the crash (or damaged) at the end of the log is
// dropped; everything before it is kept, and the log goes on from there.
func TestTornLastRecordIsDropped(t *testing.T) {
	for name, damage := range map[string]func([]byte) []byte{
		"partial header":  func(b []byte) []byte { return append(b, 0x20, 0, 0) },
		"partial payload": func(b []byte) []byte { return append(b, 0x20, 0, 0, 0, 1, 2, 3, 4, 'x') },
		"bad checksum": func(b []byte) []byte {
			b[len(b)-1] ^= 0xff // the last record, whole but wrong
			return b
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			srv, st := open(t, dir)
			put(t, st, "T#1", "P#1", "kept")
			put(t, st, "T#1", "P#2", "last")
			crash := crashCopy(t, dir)
			srv.Close()
			segs, _ := filepath.Glob(filepath.Join(crash, "wal-*.log"))
			if len(segs) != 1 {
				t.Fatalf("segments %v", segs)
			}
			data, _ := os.ReadFile(segs[0])
			if err := os.WriteFile(segs[0], damage(data), 0o644); err != nil {
				t.Fatal(err)
			}
			srv2, st2 := open(t, crash)
			wantDoc(t, st2, "T#1", "P#1", "kept", 1)
			if name == "bad checksum" {
				if _, err := st2.Get(context.Background(), "T#1", "P#2"); !errors.Is(err, store.ErrNotFound) {
					t.Fatalf("the damaged record was applied: %v", err)
				}
			} else {
				wantDoc(t, st2, "T#1", "P#2", "last", 1)
			}
			put(t, st2, "T#1", "P#3", "after")
			again := crashCopy(t, crash)
			srv2.Close()
			srv3, st3 := open(t, again)
			defer srv3.Close()
			wantDoc(t, st3, "T#1", "P#1", "kept", 1)
			wantDoc(t, st3, "T#1", "P#3", "after", 1)
		})
	}
}

// Compaction folds the log into the snapshot and deletes the old segments;
// a graceful close compacts too, and both restore the same items.
func TestCompactionAndGracefulRestart(t *testing.T) {
	dir := t.TempDir()
	srv, st := open(t, dir)
	for i := range 50 {
		put(t, st, "T#1", fmt.Sprintf("P#%02d", i), "before")
	}
	if err := srv.Compact(); err != nil {
		t.Fatal(err)
	}
	put(t, st, "T#1", "P#after", "after")
	segs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	if len(segs) != 1 {
		t.Fatalf("after compaction the log has segments %v, want only the current one", segs)
	}
	crash := crashCopy(t, dir)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{crash, dir} {
		srv2, st2 := open(t, d)
		recs, err := st2.Query(context.Background(), "T#1", "", 0)
		if err != nil || len(recs) != 51 {
			t.Fatalf("%s: %d items, %v", d, len(recs), err)
		}
		wantDoc(t, st2, "T#1", "P#after", "after", 1)
		srv2.Close()
	}
}

// A directory whose log is damaged before its newest segment is refused, not
// half loaded.
func TestDamageBeforeTheNewestSegmentIsAnError(t *testing.T) {
	dir := t.TempDir()
	srv, st := open(t, dir)
	put(t, st, "T#1", "P#1", "x")
	crash := crashCopy(t, dir)
	srv.Close()
	segs, _ := filepath.Glob(filepath.Join(crash, "wal-*.log"))
	data, _ := os.ReadFile(segs[0])
	data[len(data)-1] ^= 0xff
	os.WriteFile(segs[0], data, 0o644)
	os.WriteFile(filepath.Join(crash, "wal-9999999999999999.log"), nil, 0o644)
	if srv, err := embedded.Open("127.0.0.1:0", crash); err == nil || !strings.Contains(err.Error(), "damaged") {
		if srv != nil {
			srv.Close()
		}
		t.Fatalf("got %v, want an error naming the damage", err)
	}
}

// A transaction that fails part-way leaves nothing of itself: the items its
// earlier steps wrote are put back, new ones removed, and the store sees a
// conflict (TransactionCanceledException with ConditionalCheckFailed).
func TestFailedTransactionIsUndone(t *testing.T) {
	dir := t.TempDir()
	srv, st := open(t, dir)
	defer srv.Close()
	ctx := context.Background()
	old := put(t, st, "T#1", "META", "old")
	stale := put(t, st, "T#1", "R#0001", "round")
	if err := st.Put(ctx, &store.Record{PK: stale.PK, SK: stale.SK, Kind: "test", Doc: []byte("moved on"), Version: 1}); err != nil {
		t.Fatal(err)
	}
	old.Doc = []byte("new")
	created := &store.Record{PK: "T#1", SK: "P#new", Kind: "test", Doc: []byte("new")}
	err := st.Transact(ctx, []*store.Record{old, created}, stale)
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("got %v, want ErrConflict", err)
	}
	wantDoc(t, st, "T#1", "META", "old", 1)
	if _, err := st.Get(ctx, "T#1", "P#new"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the created item survived the failed transaction: %v", err)
	}
	// and nothing of it reached the log
	srv2, st2 := open(t, crashCopy(t, dir))
	defer srv2.Close()
	wantDoc(t, st2, "T#1", "META", "old", 1)
	if _, err := st2.Get(ctx, "T#1", "P#new"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the failed transaction reached the log: %v", err)
	}
}
