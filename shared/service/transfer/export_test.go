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
