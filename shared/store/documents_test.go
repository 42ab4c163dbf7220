package store_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// Documents joins imported items into the documents they hold — a split
// document's parts after its head, whatever the order they came in — and
// refuses a part without its head, a head without all its parts, and an
// attribute the table does not use.
func TestDocumentsJoinsAndRefuses(t *testing.T) {
	s, _, _ := storetest.Start(t)
	big := bytes.Repeat([]byte("0123456789"), store.MaxPart/10*2+7) // a head and two parts
	if err := s.Put(t.Context(), &store.Record{PK: "T#t1", SK: "R#0001", Kind: store.KindRound, Doc: big}); err != nil {
		t.Fatal(err)
	}
	items, err := s.Items(t.Context(), "T#t1")
	if err != nil || len(items) != 3 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	var lines [][]byte
	for _, it := range items {
		l, _ := it.MarshalJSON()
		lines = append(lines, l)
	}
	parse := func(ls ...[]byte) []*store.Item {
		var out []*store.Item
		for _, l := range ls {
			it, err := store.ParseItem(l)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, it)
		}
		return out
	}
	recs, err := store.Documents(parse(lines[2], lines[0], lines[1]))
	if err != nil || len(recs) != 1 || !bytes.Equal(recs[0].Doc, big) {
		t.Fatalf("joined %d documents, %v", len(recs), err)
	}
	for name, c := range map[string]struct {
		items []*store.Item
		want  string
	}{
		"a part alone":      {parse(lines[1]), "a part without its head"},
		"a part missing":    {parse(lines[0], lines[2]), "its parts are not all there"},
		"another attribute": {parse([]byte(`{"PK":{"S":"T#t1"},"SK":{"S":"META"},"kind":{"S":"tournament"},"ver":{"N":"1"},"GSI1":{"S":"x"}}`)), `attribute "GSI1"`},
		"a number as text":  {parse([]byte(`{"PK":{"S":"T#t1"},"SK":{"S":"META"},"kind":{"S":"tournament"},"ver":{"N":"1"},"doc":{"S":"x"}}`)), "must be of type B"},
		"a fraction":        {parse([]byte(`{"PK":{"S":"T#t1"},"SK":{"S":"META"},"kind":{"S":"tournament"},"ver":{"N":"1.5"}}`)), "ver"},
	} {
		if _, err := store.Documents(c.items); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}
