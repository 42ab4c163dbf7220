package embedded_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// fill writes n items of other events (1,000 per partition) through the SDK,
// eight batches at a time.
func fill(b *testing.B, st *store.Store, n int) {
	b.Helper()
	doc := bytes.Repeat([]byte("x"), 300)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var recs []*store.Record
			for i := w; i < n; i += 8 {
				recs = append(recs, &store.Record{PK: fmt.Sprintf("T#fill%05d", i/1000), SK: fmt.Sprintf("P#%06d", i), Kind: "player", Version: 1, Doc: doc})
			}
			errs <- st.Import(context.Background(), recs)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
}

// Restart with 200,000 items: load the snapshot and replay the log.
func BenchmarkRestart(b *testing.B) {
	dir := b.TempDir()
	srv, st := open(b, dir)
	fill(b, st, 200_000)
	if err := srv.Close(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		srv, err := embedded.Open("127.0.0.1:0", dir)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		srv.Close()
		b.StartTimer()
	}
}

var runs atomic.Int64

// The cost of one durable conditional write, a transaction and a partition
// Query must not depend on how many items the table holds.
func BenchmarkWriteByTableSize(b *testing.B) {
	for _, size := range []int{1_000, 200_000} {
		b.Run(fmt.Sprintf("items=%d", size), func(b *testing.B) {
			srv, st := open(b, b.TempDir())
			defer srv.Close()
			fill(b, st, size)
			// Fold the fill into the snapshot first, as a restart would: a
			// compaction running during the measurement is not the cost of a write.
			if err := srv.Compact(); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			ctx := context.Background()
			doc := bytes.Repeat([]byte("g"), 600)
			b.Run("put", func(b *testing.B) {
				run := runs.Add(1) // -count runs this again on the same table
				for i := 0; b.Loop(); i++ {
					if err := st.Put(ctx, &store.Record{PK: fmt.Sprintf("G#%d-%d", run, i), SK: "GAME", Kind: "game", Doc: doc}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("transact", func(b *testing.B) {
				pk := fmt.Sprintf("T#bench%d", runs.Add(1))
				meta := &store.Record{PK: pk, SK: "META", Kind: "tournament", Doc: doc}
				for i := 0; b.Loop(); i++ {
					p := &store.Record{PK: pk, SK: fmt.Sprintf("P#%06d", i), Kind: "player", Doc: doc}
					if err := st.Transact(ctx, []*store.Record{meta, p}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("query", func(b *testing.B) {
				for b.Loop() {
					if _, err := st.Query(ctx, "T#fill00000", "P#", 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
