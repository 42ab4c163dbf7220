package viewcache_test

import (
	"bytes"
	"testing"

	"github.com/xqtour/xqtour/shared/service/viewcache"
)

// A table's rows are stored ChunkRows a chunk and read back by any window;
// a whole response reads back as it was saved.
func TestViewCache_RowsAndWhole(t *testing.T) {
	_, c, tid := newEvent(t)
	rows := make([]int, 2*viewcache.ChunkRows+3)
	for i := range rows {
		rows[i] = i
	}
	b, err := viewcache.RowsBuild(map[string]int{"round": 2}, rows, viewcache.TableDeps(2), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Chunks) != 3 || b.Rows != len(rows) {
		t.Fatalf("%d rows in %d chunks", b.Rows, len(b.Chunks))
	}
	if err := open(t, c, tid, "crosstable#0002").Save(t.Context(), at, b); err != nil {
		t.Fatal(err)
	}
	v := open(t, c, tid, "crosstable#0002")
	for _, w := range []struct{ offset, limit, first, n int }{
		{0, -1, 0, len(rows)}, {viewcache.ChunkRows - 1, 2, viewcache.ChunkRows - 1, 2}, {2 * viewcache.ChunkRows, 10, 2 * viewcache.ChunkRows, 3}, {len(rows), 5, 0, 0},
	} {
		got, err := viewcache.ReadRows[int](t.Context(), v, w.offset, w.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != w.n || (w.n > 0 && (got[0] != w.first || got[w.n-1] != w.first+w.n-1)) {
			t.Errorf("rows from %d, limit %d: %d rows %v…, want %d from %d", w.offset, w.limit, len(got), got[:min(3, len(got))], w.n, w.first)
		}
	}

	body := bytes.Repeat([]byte("a body of one answer. "), 1000)
	wb, err := viewcache.WholeBuild(map[string]string{"contentType": "text/plain"}, body, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := open(t, c, tid, viewcache.ResponseName("games#", "lang=en")).Save(t.Context(), at, wb); err != nil {
		t.Fatal(err)
	}
	got, err := open(t, c, tid, viewcache.ResponseName("games#", "lang=en")).Whole(t.Context())
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("the whole answer reads back %d bytes (%v), want %d", len(got), err, len(body))
	}
	if viewcache.ResponseName("games#", "lang=en") == viewcache.ResponseName("games#", "lang=zh") {
		t.Error("two queries share one response view")
	}
}

// A players' table query names its view: after a round, live, or the
// default; a malformed query names none.
func TestViewCache_TableName(t *testing.T) {
	for _, q := range []struct{ round, live, want string }{
		{"", "", "standings#last"}, {"3", "", "standings#0003"}, {"03", "true", "standings#0003"}, {"", "true", "standings#live"},
		{"", "false", "standings#last"}, {"0", "", ""}, {"x", "", ""}, {"10000", "", ""}, {"", "yes", ""},
	} {
		name, ok := viewcache.TableName("standings", q.round, q.live)
		if name != q.want || ok != (q.want != "") {
			t.Errorf("round=%q live=%q: %q %v, want %q", q.round, q.live, name, ok, q.want)
		}
	}
}
