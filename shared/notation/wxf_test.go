package notation_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// readTSV returns the rows of a tab-separated testdata file without its header.
func readTSV(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func mustFEN(t testing.TB, fen string) *xiangqi.Position {
	t.Helper()
	p, err := xiangqi.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// TestWXF_N4_FairyStockfish checks every row of testdata/wxf.tsv (copied from
// the kit's reference/wxf.tsv: FEN, a legal move in ICCS, the move in WXF as
// Fairy-Stockfish writes it): Format must write the WXF column exactly and
// Parse must read it back to the ICCS move.
func TestWXF_N4_FairyStockfish(t *testing.T) {
	rows := readTSV(t, "wxf.tsv")
	if len(rows) < 3999 {
		t.Fatalf("wxf.tsv has %d rows, want 3999", len(rows))
	}
	var wxf notation.WXF
	var iccs notation.ICCS
	positions := map[string]*xiangqi.Position{}
	for _, row := range rows {
		fen, move, want := row[0], row[1], row[2]
		p := positions[fen]
		if p == nil {
			p = mustFEN(t, fen)
			positions[fen] = p
		}
		m, err := iccs.Parse(p, move)
		if err != nil {
			t.Errorf("%s: ICCS %s: %v", fen, move, err)
			continue
		}
		got, err := wxf.Format(p, m)
		if err != nil || got != want {
			t.Errorf("%s: Format(%s) = %q, %v; want %q", fen, move, got, err, want)
		}
		back, err := wxf.Parse(p, want)
		if err != nil || back != m {
			t.Errorf("%s: Parse(%q) = %v, %v; want %s", fen, want, back, err, move)
		}
	}
}
