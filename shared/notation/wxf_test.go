package notation_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// readTSV returns the rows of a tab-separated table without its header.
func readTSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
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

// TestWXF_N4_FairyStockfish checks every row of testdata/wxf.tsv (FEN, a
// legal move in ICCS, the move in WXF as Fairy-Stockfish writes it): Format must write the WXF column exactly and
// Parse must read it back to the ICCS move.
func TestWXF_N4_FairyStockfish(t *testing.T) {
	rows := readTSV(t, "testdata/wxf.tsv")
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

// wide writes s in full-width forms, as a Chinese input method types it.
func wide(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '!' && r <= '~' {
			return r - '!' + '！'
		}
		return r
	}, s)
}

// TestWXF_N4_RealSpellings reads the two spellings real records use beside
// Fairy-Stockfish's: full-width characters (Ｃ２＝５) for every row of
// wxf.tsv, and the sign before the letter for tandem pieces (+C-2 for C+-2,
// -P+1 for P-+1). Both must read as the same move; Format keeps writing the
// canonical form.
func TestWXF_N4_RealSpellings(t *testing.T) {
	var wxf notation.WXF
	signFirst := 0
	for _, row := range readTSV(t, "testdata/wxf.tsv") {
		p := mustFEN(t, row[0])
		spellings := []string{wide(row[2]), strings.ToLower(wide(row[2]))}
		if w := row[2]; (w[1] == '+' || w[1] == '-') && w[0] >= 'A' && w[0] <= 'Z' {
			spellings = append(spellings, w[1:2]+w[0:1]+w[2:], wide(w[1:2]+w[0:1]+w[2:]))
			signFirst++
		}
		for _, s := range spellings {
			m, err := wxf.Parse(p, s)
			if err != nil {
				t.Errorf("%s: Parse(%q): %v", row[0], s, err)
				continue
			}
			if m.String() != row[1] {
				t.Errorf("%s: Parse(%q) = %v, want %s", row[0], s, m, row[1])
			}
		}
	}
	if signFirst < 50 {
		t.Errorf("only %d tandem rows tried in the sign-first spelling", signFirst)
	}
}
