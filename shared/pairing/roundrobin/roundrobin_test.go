package roundrobin_test

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/roundrobin"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// formatTable prints an order table the way the rule book lays it out; for an
// odd field the pair with the rest slot n+1 is printed and the rest named.
func formatTable(n int, table [][]roundrobin.Pair) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Berger order table, %d players; first listed is red (S-1)", n)
	if n%2 == 1 {
		fmt.Fprintf(&b, "; %d is the rest slot (S-7)", n+1)
	}
	b.WriteString("\n")
	for r, row := range table {
		fmt.Fprintf(&b, "R%d:", r+1)
		rest := 0
		for _, p := range row {
			fmt.Fprintf(&b, " %d-%d", p.First, p.Second)
			if p.First > n || p.Second > n {
				rest = min(p.First, p.Second)
			}
		}
		if rest != 0 {
			fmt.Fprintf(&b, "  rest %d", rest)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestBerger_S1_GoldenTables(t *testing.T) {
	for n := 3; n <= 10; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			table, err := roundrobin.Berger(n)
			if err != nil {
				t.Fatal(err)
			}
			got := formatTable(n, table)
			path := filepath.Join("testdata", fmt.Sprintf("berger_%02d.golden", n))
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("table for %d:\ngot\n%s\nwant\n%s", n, got, want)
			}
		})
	}
}

// The 8-player table as the issue and the FIDE Berger tables print it; the
// issue gives R1–R3 verbatim, R4–R7 are the FIDE (C.05 Annex 1) rows.
func TestBerger_S1_EightPlayersExact(t *testing.T) {
	want := []string{
		"1-8 2-7 3-6 4-5",
		"8-5 6-4 7-3 1-2",
		"2-8 3-1 4-7 5-6",
		"8-6 7-5 1-4 2-3",
		"3-8 4-2 5-1 6-7",
		"8-7 1-6 2-5 3-4",
		"4-8 5-3 6-2 7-1",
	}
	table, err := roundrobin.Berger(8)
	if err != nil {
		t.Fatal(err)
	}
	if len(table) != len(want) {
		t.Fatalf("got %d rounds, want %d", len(table), len(want))
	}
	for r, row := range table {
		var parts []string
		for _, p := range row {
			parts = append(parts, fmt.Sprintf("%d-%d", p.First, p.Second))
		}
		if got := strings.Join(parts, " "); got != want[r] {
			t.Errorf("R%d: got %s, want %s", r+1, got, want[r])
		}
	}
}

// Every pair meets exactly once, every number plays once a round, and red
// counts are as even as a Berger table allows (within one of half).
func TestBerger_S1_Properties(t *testing.T) {
	for n := 2; n <= 40; n++ {
		table, err := roundrobin.Berger(n)
		if err != nil {
			t.Fatal(err)
		}
		m := n + n%2
		if len(table) != m-1 {
			t.Fatalf("n=%d: %d rounds, want %d", n, len(table), m-1)
		}
		met := map[[2]int]int{}
		red := make([]int, m+1)
		for r, row := range table {
			seen := map[int]bool{}
			for _, p := range row {
				if seen[p.First] || seen[p.Second] || p.First == p.Second {
					t.Fatalf("n=%d R%d: %v repeats a number", n, r+1, row)
				}
				seen[p.First], seen[p.Second] = true, true
				met[[2]int{min(p.First, p.Second), max(p.First, p.Second)}]++
				red[p.First]++
			}
			if len(seen) != m {
				t.Fatalf("n=%d R%d: %d numbers, want %d", n, r+1, len(seen), m)
			}
		}
		if len(met) != m*(m-1)/2 {
			t.Fatalf("n=%d: %d distinct pairs, want %d", n, len(met), m*(m-1)/2)
		}
		for i := 1; i <= m; i++ {
			if d := 2*red[i] - (m - 1); d < -1 || d > 1 {
				t.Errorf("n=%d: number %d has %d reds in %d games", n, i, red[i], m-1)
			}
		}
	}
}

func TestBerger_S1_TooFew(t *testing.T) {
	for _, n := range []int{-1, 0, 1} {
		if _, err := roundrobin.Berger(n); !errors.Is(err, roundrobin.ErrPlayers) {
			t.Errorf("Berger(%d): got %v, want ErrPlayers", n, err)
		}
	}
}

func TestSchedule_S7_OddFieldRests(t *testing.T) {
	s, err := roundrobin.NewSchedule(5, roundrobin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rests := map[int]int{}
	for _, rd := range s.Rounds {
		if rd.Rest == 0 {
			t.Fatalf("R%d: no rest in a 5-player field", rd.Number)
		}
		rests[rd.Rest]++
		if len(rd.Pairings) != 2 {
			t.Fatalf("R%d: %d pairings, want 2", rd.Number, len(rd.Pairings))
		}
		for _, p := range rd.Pairings {
			if p.Red == rd.Rest || p.Black == rd.Rest || p.Red > 5 || p.Black > 5 {
				t.Fatalf("R%d: pairing %v touches the rest", rd.Number, p)
			}
		}
	}
	for i := 1; i <= 5; i++ {
		if rests[i] != 1 {
			t.Errorf("number %d rests %d times, want 1", i, rests[i])
		}
	}
}

func TestSchedule_S1_DoubleCycleSwapsColours(t *testing.T) {
	s, err := roundrobin.NewSchedule(6, roundrobin.Options{Cycles: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rounds) != 10 {
		t.Fatalf("got %d rounds, want 10", len(s.Rounds))
	}
	for r := range 5 {
		a, b := s.Rounds[r], s.Rounds[r+5]
		if a.Cycle != 1 || b.Cycle != 2 || b.Number != r+6 {
			t.Fatalf("round numbering/cycles wrong: %+v %+v", a, b)
		}
		for i := range a.Pairings {
			pa, pb := a.Pairings[i], b.Pairings[i]
			if pa.Red != pb.Black || pa.Black != pb.Red {
				t.Errorf("R%d table %d: cycle 1 %d-%d, cycle 2 %d-%d, want swapped", r+1, i+1, pa.Red, pa.Black, pb.Red, pb.Black)
			}
		}
	}
}

func TestSchedule_S1_MultiGameColoursAlternate(t *testing.T) {
	s, err := roundrobin.NewSchedule(4, roundrobin.Options{GamesPerPairing: 3})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Rounds[0].Pairings[0] // 1-4
	want := []roundrobin.Game{{Red: 1, Black: 4}, {Red: 4, Black: 1}, {Red: 1, Black: 4}}
	if !reflect.DeepEqual(p.Games, want) {
		t.Errorf("got %v, want %v", p.Games, want)
	}
	if _, err := roundrobin.NewSchedule(4, roundrobin.Options{GamesPerPairing: -1}); !errors.Is(err, roundrobin.ErrOptions) {
		t.Errorf("negative games: got %v, want ErrOptions", err)
	}
}

func TestNumbering_S1_DrawAndSeeding(t *testing.T) {
	players := []string{"a", "b", "c", "d"}
	seeded := roundrobin.BySeeding(players)
	if seeded.Player(1) != "a" || seeded.Number("d") != 4 || seeded.Player(5) != "" || seeded.Number("x") != 0 {
		t.Errorf("by seeding: got %v", seeded)
	}
	perm, err := roundrobin.ByPermutation(players, []int{2, 0, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := (roundrobin.Numbering{"c", "a", "d", "b"}); !reflect.DeepEqual(perm, want) {
		t.Errorf("by permutation: got %v, want %v", perm, want)
	}
	for _, bad := range [][]int{{0, 1, 2}, {0, 0, 1, 2}, {0, 1, 2, 4}} {
		if _, err := roundrobin.ByPermutation(players, bad); !errors.Is(err, roundrobin.ErrPermutation) {
			t.Errorf("permutation %v: got %v, want ErrPermutation", bad, err)
		}
	}
	// The same seed gives the same draw; the draw is a permutation.
	d1 := roundrobin.ByDraw(players, rand.New(rand.NewPCG(7, 11)))
	d2 := roundrobin.ByDraw(players, rand.New(rand.NewPCG(7, 11)))
	if !reflect.DeepEqual(d1, d2) {
		t.Errorf("draws with one seed differ: %v %v", d1, d2)
	}
	for _, p := range players {
		if d1.Number(p) == 0 {
			t.Errorf("draw %v lost %s", d1, p)
		}
	}
	if players[0] != "a" || players[3] != "d" {
		t.Errorf("ByDraw changed its input: %v", players)
	}
}

func BenchmarkNewSchedule100Double(b *testing.B) {
	for b.Loop() {
		if _, err := roundrobin.NewSchedule(100, roundrobin.Options{Cycles: 2}); err != nil {
			b.Fatal(err)
		}
	}
}

// S-1, S-7: Rounds counts the rounds NewSchedule lays out — n-1 per cycle
// for an even field, n for an odd one (a rest each round) — without the table.
func TestRounds_S1_MatchesSchedule(t *testing.T) {
	for n := 0; n <= 21; n++ {
		for cycles := 1; cycles <= 3; cycles++ {
			want := 0
			if s, err := roundrobin.NewSchedule(n, roundrobin.Options{Cycles: cycles}); err == nil {
				want = len(s.Rounds)
			}
			if got := roundrobin.Rounds(n, cycles); got != want {
				t.Errorf("Rounds(%d, %d) = %d, want %d", n, cycles, got, want)
			}
		}
	}
	if got := roundrobin.Rounds(5, 0); got != 5 {
		t.Errorf("Rounds(5, 0) = %d, want 5 (zero cycles mean one)", got)
	}
}
