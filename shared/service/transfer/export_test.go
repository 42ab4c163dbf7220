package transfer

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// A line's size is counted as aws-lambda-go escapes the body into its JSON
// answer: exactly the length json.Marshal gives the line as a string, less
// its quotes, for every character an export line can hold.
func TestEscapedLenIsLambdasEncoding(t *testing.T) {
	for _, line := range []string{
		`{"PK":{"S":"T#t1"}}`,
		`{"doc":{"B":"a\\b"}}`,
		"名字 \u2028 and \u2029",
		`"quoted" \ back`,
	} {
		enc, _ := json.Marshal(line) // Go escapes U+2028/9 as Lambda does; it also escapes <>&, which export lines do not hold here
		if got, want := escapedLen([]byte(line)), len(enc)-2; got != want {
			t.Errorf("escapedLen(%q) = %d, want %d", line, got, want)
		}
	}
}

// A page holds as many lines as fit its budget, at least one however large,
// and never more than its limit; the pages cut one after another cover every
// line once.
func TestPageEndCutsWithinBudget(t *testing.T) {
	lines := make([][]byte, 10)
	for i := range lines {
		lines[i] = []byte(strings.Repeat("x", 98)) // 100 bytes a line with its escaped newline
	}
	lines[4] = []byte(strings.Repeat("y", 1000)) // over the budget alone
	var ends []int
	for start := 0; start < len(lines); start = ends[len(ends)-1] {
		ends = append(ends, PageEnd(lines, start, 0, 350))
	}
	if want := []int{3, 4, 5, 8, 10}; !slices.Equal(ends, want) {
		t.Errorf("pages end at %v, want %v", ends, want)
	}
	if got := PageEnd(lines, 5, 2, 1<<20); got != 7 {
		t.Errorf("a limit of 2 from line 5 ends at %d, want 7", got)
	}
}

// A cursor carries the next page's offset and the export's snapshot; a
// cursor made of anything else is not one.
func TestCursorRoundTrip(t *testing.T) {
	snap := Snapshot([][]byte{[]byte("a"), []byte("b")})
	off, got, ok := parseCursor(makeCursor(42, snap))
	if !ok || off != 42 || got != snap {
		t.Fatalf("parseCursor(makeCursor(42, …)) = %d, %q, %v", off, got, ok)
	}
	for _, bad := range []string{"", "!!", makeCursor(3, "short"), "NDI"} {
		if _, _, ok := parseCursor(bad); ok {
			t.Errorf("parseCursor(%q) accepted", bad)
		}
	}
}

// The bodies a mirror imports an event with are its export cut as Export
// cuts it: one body with the unpaged header when it fits, otherwise a first
// page whose header names the whole export (snapshot, items, next import)
// and parts that follow on by offset, their lines together every line once.
func TestImportBodiesPageAsTheExport(t *testing.T) {
	lines := make([][]byte, 7)
	for i := range lines {
		lines[i] = []byte(`{"PK":{"S":"T#t1"},"n":"` + strings.Repeat("x", 90) + `"}`)
	}
	whole := (&Service{}).ImportBodies("t1", lines, 0)
	if len(whole) != 1 {
		t.Fatalf("an event within the default page is %d bodies, want 1", len(whole))
	}
	var head Header
	if err := json.Unmarshal([]byte(strings.SplitN(string(whole[0]), "\n", 2)[0]), &head); err != nil {
		t.Fatal(err)
	}
	if head.Format != Format || head.Items != 7 || head.Snapshot != "" || head.Next != "" || head.ExportedAt != "1970-01-01T00:00:00Z" {
		t.Errorf("one body's header = %+v, want the unpaged header of 7 items", head)
	}

	s := &Service{opts: Options{PageBytes: 1024 + 400}} // three lines of 128 escaped bytes a page, beside the header's room
	bodies := s.ImportBodies("t1", lines, 0)
	if len(bodies) != 3 {
		t.Fatalf("%d bodies, want 3", len(bodies))
	}
	var got [][]byte
	for i, b := range bodies {
		rows := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		for _, r := range rows[1:] {
			got = append(got, []byte(r))
		}
		if i == 0 {
			var h Header
			_ = json.Unmarshal([]byte(rows[0]), &h)
			if h.Format != Format || h.Items != 7 || h.PartItems != 3 || h.Snapshot != Snapshot(lines) || h.Next != "/tournaments/import" {
				t.Errorf("first page's header = %+v", h)
			}
			continue
		}
		var h PartHeader
		_ = json.Unmarshal([]byte(rows[0]), &h)
		if h.Format != PartFormat || h.Offset != 3*i || h.Items != len(rows)-1 || h.Total != 7 || h.Snapshot != Snapshot(lines) || h.Next != "" {
			t.Errorf("part %d's header = %+v", i, h)
		}
	}
	if !slices.EqualFunc(got, lines, func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("the bodies' lines are not the export's, once each in order")
	}
}
