package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// TransactChunks keeps each transaction within DynamoDB's 100 actions and
// 4 MB: 250 small records are three transactions; 12 documents of 400 KB
// (each a head and a part, 4.8 MB in all) are two. Each chunk is written
// as one transaction on the embedded server, which refuses what DynamoDB
// refuses.
func TestTransactChunks_StayWithinDynamoDBsLimits(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	var small, large []*store.Record
	for i := range 250 {
		small = append(small, &store.Record{PK: "G#s", SK: fmt.Sprintf("S%03d", i), Kind: "game", Doc: []byte("{}")})
	}
	for i := range 12 {
		large = append(large, &store.Record{PK: "G#l", SK: fmt.Sprintf("L%03d", i), Kind: "game", Doc: filled('g', 400_000)})
	}
	for name, c := range map[string]struct {
		recs   []*store.Record
		chunks int
	}{"small": {small, 3}, "large": {large, 2}} {
		chunks := store.TransactChunks(c.recs)
		if len(chunks) != c.chunks {
			t.Errorf("%s: %d chunks, want %d", name, len(chunks), c.chunks)
		}
		n := 0
		for _, chunk := range chunks {
			if err := st.Transact(ctx, chunk); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			n += len(chunk)
		}
		if n != len(c.recs) {
			t.Errorf("%s: %d records written, want %d", name, n, len(c.recs))
		}
	}
	if err := st.Transact(ctx, small[:101]); err == nil {
		t.Error("a transaction of 101 records went through")
	}
}
