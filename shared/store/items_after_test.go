package store_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// lineSize counts an item as its export line.
func lineSize(it *store.Item) int {
	b, _ := it.MarshalJSON()
	return len(b) + 1
}

// pagesAfter reads partition pk page by page with ItemsAfter, each page
// within bytes (and items, when positive), and returns the pages.
func pagesAfter(t *testing.T, st *store.Store, pk string, bytes, items int) [][]*store.Item {
	t.Helper()
	var pages [][]*store.Item
	after := ""
	for {
		page, more, err := st.ItemsAfter(t.Context(), pk, after, store.PageLimit{Bytes: bytes, Items: items, Size: lineSize})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			t.Fatalf("page %d after %q is empty (more %v)", len(pages)+1, after, more)
		}
		pages = append(pages, page)
		if !more {
			return pages
		}
		after = page[len(page)-1].SK
		if len(pages) > 1000 {
			t.Fatal("no end to the pages")
		}
	}
}

func lines(t *testing.T, items []*store.Item) []string {
	t.Helper()
	out := make([]string, len(items))
	for i, it := range items {
		b, err := it.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// Read page by page, a partition is exactly what Items reads of it whole,
// in order, another build's parts left out; a page stays within its
// bytes and items, ends only before a head or plain item when the split
// document at its end fits a page, and cuts a document between its parts
// only when it is larger than a page, the next page going on with its
// own parts.
func TestItemsAfterPagesAsItemsReads(t *testing.T) {
	fastStaging(t, 200)
	st, _ := storetest.New(t)
	ctx := t.Context()
	pk := "T#paged"
	for i := range 12 {
		if err := st.Put(ctx, &store.Record{PK: pk, SK: fmt.Sprintf("P#%02d", i), Kind: "player", Doc: []byte(strings.Repeat("p", 40))}); err != nil {
			t.Fatal(err)
		}
	}
	small := &store.Record{PK: pk, SK: "R#0001", Kind: "round", Doc: []byte(`{"n":1}`), Body: bytes.Repeat([]byte("r"), 700)} // 4 parts
	big := &store.Record{PK: pk, SK: "R#0002", Kind: "round", Doc: []byte(`{"n":2}`), Body: bytes.Repeat([]byte("s"), 4000)}  // 20 parts
	for _, r := range []*store.Record{small, big} {
		if err := st.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// A new body of round 1: its replaced build's parts are swept, but a
	// write that lost its race leaves parts of no head's build for a while.
	small.Body = bytes.Repeat([]byte("R"), 700)
	if err := st.Put(ctx, small); err != nil {
		t.Fatal(err)
	}
	orphan := &store.Record{PK: pk, SK: "R#0001" + "#~part.zzzz.001", Kind: store.KindPart, Doc: []byte("lost")}
	if err := st.Put(ctx, orphan); err != nil {
		t.Fatal(err)
	}
	whole, err := st.Items(ctx, pk)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(whole, func(it *store.Item) bool { return it.SK == orphan.SK }) {
		t.Fatal("Items kept another build's part")
	}
	want := lines(t, whole)
	isPart := func(it *store.Item) bool { return it.Kind == store.KindPart }
	sizeOf := func(items []*store.Item) (n int) {
		for _, it := range items {
			n += lineSize(it)
		}
		return n
	}
	pageBytes := 2 * sizeOf(whole[12:17]) // round 1 whole fits a page, round 2 does not
	if sizeOf(whole[17:]) <= pageBytes {
		t.Fatalf("round 2 (%d bytes) fits a page of %d: the test cuts nothing", sizeOf(whole[17:]), pageBytes)
	}
	for _, limit := range []int{0, 5} {
		pages := pagesAfter(t, st, pk, pageBytes, limit)
		var got []string
		cuts := 0
		for i, page := range pages {
			got = append(got, lines(t, page)...)
			if sizeOf(page) > pageBytes || limit > 0 && len(page) > limit {
				t.Errorf("limit %d: page %d holds %d items, %d bytes, over %d", limit, i+1, len(page), sizeOf(page), pageBytes)
			}
			if i+1 < len(pages) && isPart(pages[i+1][0]) {
				cuts++
				if !strings.HasPrefix(pages[i+1][0].SK, big.SK) {
					t.Errorf("limit %d: page %d begins inside %s, which fits a page", limit, i+2, pages[i+1][0].SK)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("limit %d: %d pages of %d items, not Items' %d in order", limit, len(pages), len(got), len(want))
		}
		if cuts == 0 {
			t.Errorf("limit %d: round 2, larger than a page, was never cut", limit)
		}
	}
	// From the last item there is nothing more; a page begun elsewhere
	// takes nothing past its limits.
	if page, more, err := st.ItemsAfter(ctx, pk, whole[len(whole)-1].SK, store.PageLimit{Bytes: 1 << 20, Size: lineSize}); err != nil || len(page) != 0 || more {
		t.Errorf("after the last item: %d items, more %v, %v", len(page), more, err)
	}
	if page, more, err := st.ItemsAfter(ctx, pk, "", store.PageLimit{Bytes: 1, Size: lineSize, Started: true}); err != nil || len(page) != 0 || !more {
		t.Errorf("a started page with no room: %d items, more %v, %v", len(page), more, err)
	}
}
