package xiangqi_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// perftBudget bounds the node count of the rows run by default; set
// XQ_PERFT_ALL=1 to run every row (make perft).
const perftBudget = 2_000_000

// TestPerft checks move generation against testdata/perft.tsv, the
// repository's one perft table (package notation's round trip reads its
// positions too); each row's source column says where its count comes from
// (chessprogramming.org, Fairy-Stockfish, GGchess, folium).
func TestPerft(t *testing.T) {
	all := os.Getenv("XQ_PERFT_ALL") == "1"
	f, err := os.Open("testdata/perft.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	rows := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 {
			t.Fatalf("bad row %q", sc.Text())
		}
		depth, err1 := strconv.Atoi(cols[1])
		want, err2 := strconv.ParseUint(cols[2], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %q", sc.Text())
		}
		if want > perftBudget && !all {
			continue
		}
		rows++
		fen := cols[0]
		t.Run(fen+"/"+cols[1], func(t *testing.T) {
			p, err := xiangqi.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Perft(depth); got != want {
				t.Errorf("perft(%d) = %d, want %d", depth, got, want)
			}
		})
	}
	if rows == 0 {
		t.Fatal("no perft rows ran")
	}
}
