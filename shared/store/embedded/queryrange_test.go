package embedded_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// The engine starts a forward Query at its key condition's lower bound and
// stops past its run: every shape the store asks (begins_with, >=, <, a
// paged read) still answers exactly the items in range, in order, whatever
// lies before and after them and in the next partition.
func TestQueryReadsExactlyItsKeyRange(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := t.Context()
	var recs []*store.Record
	sks := []string{"META", "O#1", "P#a", "P#b", "P#c", "R#0001", "R#0002", "R#00021", "X#0001#0001", "X#0001#0002", "X#0002#0001", "Z"}
	for _, pk := range []string{"T#a", "T#b", "T#ab"} {
		for _, sk := range sks {
			recs = append(recs, &store.Record{PK: pk, SK: sk, Kind: "k", Version: 1, Doc: []byte(pk + sk)})
		}
	}
	if err := st.Import(ctx, recs); err != nil {
		t.Fatal(err)
	}
	keys := func(rs []*store.Record, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			if r.PK != "T#a" {
				t.Errorf("item %s/%s of another partition", r.PK, r.SK)
			}
			out = append(out, r.SK)
		}
		return out
	}
	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"prefix P#", keys(st.Query(ctx, "T#a", "P#", 0)), []string{"P#a", "P#b", "P#c"}},
		{"prefix R#0002", keys(st.Query(ctx, "T#a", "R#0002", 0)), []string{"R#0002", "R#00021"}},
		{"prefix X#0001#", keys(st.Query(ctx, "T#a", "X#0001#", 0)), []string{"X#0001#0001", "X#0001#0002"}},
		{"prefix paged by one", keys(st.Query(ctx, "T#a", "X#", 1)), []string{"X#0001#0001", "X#0001#0002", "X#0002#0001"}},
		{"prefix none", keys(st.Query(ctx, "T#a", "Q#", 0)), nil},
		{"from P#", keys(st.QueryFrom(ctx, "T#a", "P#")), sks[2:]},
		{"below P#", keys(st.QueryBelow(ctx, "T#a", "P#")), sks[:2]},
		{"whole partition", keys(st.Query(ctx, "T#a", "", 0)), sks},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}
