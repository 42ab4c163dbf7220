package knockout_test

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/knockout"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func entrants(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "p" + strconv.Itoa(i+1)
	}
	return out
}

func seedOf(p string) int { n, _ := strconv.Atoi(p[1:]); return n }

// winner picks a match winner: the better seed, or by a seeded coin.
type winner func(m knockout.Match) string

func betterSeed(m knockout.Match) string {
	if seedOf(m.A) < seedOf(m.B) {
		return m.A
	}
	return m.B
}

func coin(seed uint64) winner {
	r := rand.New(rand.NewPCG(seed, 3))
	return func(m knockout.Match) string {
		if r.IntN(2) == 0 {
			return m.A
		}
		return m.B
	}
}

// run plays a bracket to the end, checking per round that nobody plays
// twice, and returns a transcript and all matches.
func run(t *testing.T, b *knockout.Bracket, pick winner) (string, []knockout.Match) {
	t.Helper()
	var sb strings.Builder
	var all []knockout.Match
	var res []knockout.Result
	for guard := 0; guard < 100; guard++ {
		ms, err := b.NextRound(res)
		if err != nil {
			t.Fatal(err)
		}
		if b.Finished() {
			if len(ms) != 0 {
				t.Fatalf("finished bracket returned %v", ms)
			}
			places, err := b.Places()
			if err != nil {
				t.Fatal(err)
			}
			sb.WriteString("places:")
			for _, p := range places {
				fmt.Fprintf(&sb, " %d=%s", p.Place, p.Player)
			}
			sb.WriteString("\n")
			if _, err := b.NextRound(nil); !errors.Is(err, knockout.ErrFinished) {
				t.Fatalf("NextRound after the end: got %v, want ErrFinished", err)
			}
			return sb.String(), all
		}
		fmt.Fprintf(&sb, "round %d:", b.Round())
		busy := map[string]bool{}
		res = nil
		for _, m := range ms {
			if busy[m.A] || busy[m.B] || m.A == "" || m.B == "" || m.Round != b.Round() {
				t.Fatalf("round %d: bad match %+v", b.Round(), m)
			}
			busy[m.A], busy[m.B] = true, true
			w := pick(m)
			fmt.Fprintf(&sb, " %s %s-%s>%s", m.ID, m.A, m.B, w)
			res = append(res, knockout.Result{Match: m.ID, Winner: w})
		}
		all = append(all, ms...)
		if byes := b.Byes(); len(byes) > 0 {
			fmt.Fprintf(&sb, " byes %s", strings.Join(byes, " "))
		}
		sb.WriteString("\n")
	}
	t.Fatal("bracket did not finish")
	return "", nil
}

func TestSeedOrder_S3_StandardBracket(t *testing.T) {
	tests := []struct {
		size int
		want []int
	}{
		{2, []int{1, 2}},
		{4, []int{1, 4, 2, 3}},
		{8, []int{1, 8, 4, 5, 2, 7, 3, 6}},
		{16, []int{1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11}},
	}
	for _, tc := range tests {
		if got := knockout.SeedOrder(tc.size); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SeedOrder(%d): got %v, want %v", tc.size, got, tc.want)
		}
	}
	for n, want := range map[int]int{2: 2, 3: 4, 5: 8, 8: 8, 9: 16, 100: 128} {
		if got := knockout.BracketSize(n); got != want {
			t.Errorf("BracketSize(%d): got %d, want %d", n, got, want)
		}
	}
}

func TestSingle_S3_ByesToTopSeeds(t *testing.T) {
	b, err := knockout.NewSingle(entrants(6), false)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := b.NextRound(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []knockout.Match{{ID: "R1-2", Round: 1, A: "p4", B: "p5"}, {ID: "R1-4", Round: 1, A: "p3", B: "p6"}}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("round 1: got %+v, want %+v", ms, want)
	}
	if got := b.Byes(); !reflect.DeepEqual(got, []string{"p1", "p2"}) {
		t.Errorf("byes: got %v, want [p1 p2]", got)
	}
}

func TestSingle_S4_TopFourWithThirdPlace(t *testing.T) {
	b, err := knockout.NewSingle(entrants(4), true)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := run(t, b, betterSeed)
	want := "round 1: R1-1 p1-p4>p1 R1-2 p2-p3>p2\nround 2: F p1-p2>p1 3P p4-p3>p3\nplaces: 1=p1 2=p2 3=p3 4=p4\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBracket_S3_Errors(t *testing.T) {
	if _, err := knockout.NewSingle([]string{"a"}, false); !errors.Is(err, knockout.ErrEntrants) {
		t.Errorf("one entrant: got %v", err)
	}
	if _, err := knockout.NewDouble([]string{"a", "b", "a"}, false); !errors.Is(err, knockout.ErrEntrants) {
		t.Errorf("duplicate: got %v", err)
	}
	if _, err := knockout.NewSingleFromSlots([]string{"a", "b", "c"}, false); !errors.Is(err, knockout.ErrEntrants) {
		t.Errorf("3 slots: got %v", err)
	}
	b, _ := knockout.NewSingle(entrants(4), false)
	if _, err := b.NextRound([]knockout.Result{{Match: "R1-1", Winner: "p1"}}); !errors.Is(err, knockout.ErrResults) {
		t.Errorf("results before round 1: got %v", err)
	}
	b.NextRound(nil)
	for _, bad := range [][]knockout.Result{
		{{Match: "R1-1", Winner: "p1"}},
		{{Match: "R1-1", Winner: "p1"}, {Match: "R1-2", Winner: "p1"}},
		{{Match: "R1-1", Winner: "p1"}, {Match: "R1-1", Winner: "p4"}},
		{{Match: "R1-1", Winner: "p1"}, {Match: "R1-9", Winner: "p2"}},
	} {
		if _, err := b.NextRound(bad); !errors.Is(err, knockout.ErrResults) {
			t.Errorf("results %v: got %v, want ErrResults", bad, err)
		}
	}
	if _, err := b.Places(); !errors.Is(err, knockout.ErrRunning) {
		t.Errorf("places while running: got %v", err)
	}
}

// Worked brackets as transcripts: winners decided by seed or a seeded coin.
func TestBracket_S3_Golden(t *testing.T) {
	tests := []struct {
		name  string
		build func() (*knockout.Bracket, error)
		pick  winner
	}{
		{"single_16_seeds", func() (*knockout.Bracket, error) { return knockout.NewSingle(entrants(16), false) }, betterSeed},
		{"single_12_thirdplace_coin", func() (*knockout.Bracket, error) { return knockout.NewSingle(entrants(12), true) }, coin(1)},
		{"double_8_seeds", func() (*knockout.Bracket, error) { return knockout.NewDouble(entrants(8), true) }, betterSeed},
		{"double_8_reset_coin", func() (*knockout.Bracket, error) { return knockout.NewDouble(entrants(8), true) }, coin(5)},
		{"double_6_byes_coin", func() (*knockout.Bracket, error) { return knockout.NewDouble(entrants(6), false) }, coin(2)},
		{"double_16_coin", func() (*knockout.Bracket, error) { return knockout.NewDouble(entrants(16), true) }, coin(9)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.build()
			if err != nil {
				t.Fatal(err)
			}
			got, _ := run(t, b, tc.pick)
			path := filepath.Join("testdata", tc.name+".golden")
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
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// Double elimination: a player leaves only on a second loss (or on losing
// a grand final without reset), all are placed once, and the match count is
// 2n-2 plus one for a played reset.
func TestDouble_S3_Invariants(t *testing.T) {
	for n := 2; n <= 33; n++ {
		for seed := range 20 {
			for _, reset := range []bool{false, true} {
				b, err := knockout.NewDouble(entrants(n), reset)
				if err != nil {
					t.Fatal(err)
				}
				_, all := runQuiet(t, b, coin(uint64(seed*100+n)))
				places, _ := b.Places()
				if len(places) != n {
					t.Fatalf("n=%d: %d places", n, len(places))
				}
				seen := map[string]bool{}
				for _, p := range places {
					if seen[p.Player] {
						t.Fatalf("n=%d: %s placed twice", n, p.Player)
					}
					seen[p.Player] = true
				}
				if places[0].Place != 1 || places[1].Place != 2 {
					t.Fatalf("n=%d: top places %v", n, places[:2])
				}
				played := len(all)
				if played != 2*n-2 && !(reset && played == 2*n-1) {
					t.Fatalf("n=%d reset=%v: %d matches", n, reset, played)
				}
			}
		}
	}
}

func runQuiet(t *testing.T, b *knockout.Bracket, pick winner) (map[string]int, []knockout.Match) {
	t.Helper()
	losses := map[string]int{}
	var all []knockout.Match
	var res []knockout.Result
	for !b.Finished() {
		ms, err := b.NextRound(res)
		if err != nil {
			t.Fatal(err)
		}
		res = nil
		for _, m := range ms {
			for _, p := range []string{m.A, m.B} {
				if losses[p] >= 2 {
					t.Fatalf("%s plays %s after two losses", p, m.ID)
				}
			}
			w := pick(m)
			l := m.A
			if w == m.A {
				l = m.B
			}
			losses[l]++
			res = append(res, knockout.Result{Match: m.ID, Winner: w})
		}
		all = append(all, ms...)
	}
	return losses, all
}

// S-3 drop order: with the alternating reversed / half-swapped drop-ins no
// losers'-bracket game repeats a winners'-bracket game before losers' round
// log2(size); dropping in plain order allows one already in losers' round 2.
func TestDouble_S3_DropOrderDelaysRematches(t *testing.T) {
	for _, n := range []int{8, 12, 16, 24, 32, 64} {
		k := 0
		for s := knockout.BracketSize(n); s > 1; s /= 2 {
			k++
		}
		earliest := 1 << 30
		for seed := range 400 {
			b, _ := knockout.NewDouble(entrants(n), true)
			_, all := runQuiet(t, b, coin(uint64(seed)))
			met := map[[2]string]bool{}
			for _, m := range all {
				key := [2]string{min(m.A, m.B), max(m.A, m.B)}
				if met[key] && m.ID[0] == 'L' {
					r, _ := strconv.Atoi(m.ID[1:strings.IndexByte(m.ID, '-')])
					earliest = min(earliest, r)
				}
				met[key] = true
			}
		}
		if earliest < k {
			t.Errorf("n=%d: a rematch in losers' round %d, want none before %d", n, earliest, k)
		}
	}
	for d, want := range map[int][]int{1: {3, 2, 1, 0}, 2: {2, 3, 0, 1}, 3: {1, 0}} {
		if got := knockout.DropOrder(d, len(want)); !slices.Equal(got, want) {
			t.Errorf("DropOrder(%d, %d): got %v, want %v", d, len(want), got, want)
		}
	}
}

// Without a reset the winners' champion who loses the grand final is
// second; with one, a second grand final is played only then.
func TestDouble_S3_GrandFinalReset(t *testing.T) {
	lbWins := func(m knockout.Match) string {
		if m.ID == "GF" || m.ID == "GF2" {
			return m.B
		}
		return betterSeed(m)
	}
	for _, reset := range []bool{false, true} {
		b, _ := knockout.NewDouble(entrants(4), reset)
		_, all := runQuiet(t, b, lbWins)
		places, _ := b.Places()
		last := all[len(all)-1]
		if reset && (last.ID != "GF2" || places[0].Player != "p2") {
			t.Errorf("reset: last %+v, places %v", last, places)
		}
		if !reset && (last.ID != "GF" || places[0].Player != "p2" || places[1].Player != "p1") {
			t.Errorf("no reset: last %+v, places %v", last, places)
		}
	}
}

func TestPlacings_S4_FinalAndBronze(t *testing.T) {
	b, err := knockout.NewPlacings([][2]string{{"p1", "p2"}, {"p3", "p4"}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := run(t, b, func(m knockout.Match) string { return m.B })
	want := "round 1: P1-2 p1-p2>p2 P3-4 p3-p4>p4\nplaces: 1=p2 2=p1 3=p4 4=p3\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := knockout.NewPlacings([][2]string{{"p1", ""}}); !errors.Is(err, knockout.ErrEntrants) {
		t.Errorf("empty side: got %v", err)
	}
}

// 附加赛 (001 §10.3): with placings down to 8 every one of 8 or 16 entrants
// down to 8th has a place of its own, decided by matches played alongside
// the main rounds; below 8 the losers share the places as in NewSingle.
// With 12 entrants (byes in round 1) the placings still leave no two
// players on one place from 1 to 8.
func TestSingleWithPlacings_S3_PlacesDownToLowest(t *testing.T) {
	for _, tc := range []struct{ n, lowest, rounds int }{{8, 8, 3}, {16, 8, 4}, {16, 16, 4}, {12, 8, 4}, {16, 6, 4}} {
		b, err := knockout.NewSingleWithPlacings(entrants(tc.n), tc.lowest)
		if err != nil {
			t.Fatal(err)
		}
		_, all := run(t, b, coin(uint64(tc.n*100+tc.lowest)))
		if b.Round() != tc.rounds {
			t.Errorf("%d entrants, places to %d: %d rounds, want %d", tc.n, tc.lowest, b.Round(), tc.rounds)
		}
		places, err := b.Places()
		if err != nil {
			t.Fatal(err)
		}
		if len(places) != tc.n {
			t.Fatalf("%d entrants, places to %d: %d placed: %v", tc.n, tc.lowest, len(places), places)
		}
		count := map[int]int{}
		for _, p := range places {
			count[p.Place]++
		}
		for place := 1; place <= min(tc.lowest, tc.n); place++ {
			if count[place] != 1 {
				t.Errorf("%d entrants, places to %d: place %d held by %d (%v; matches %v)", tc.n, tc.lowest, place, count[place], places, all)
			}
		}
	}
	// 16 entrants, places to 6: the 5–8 bracket's first losers share 7th.
	b, _ := knockout.NewSingleWithPlacings(entrants(16), 6)
	run(t, b, betterSeed)
	places, _ := b.Places()
	if got := fmt.Sprint(places[6:9]); got != "[{p7 7} {p8 7} {p9 9}]" {
		t.Errorf("places 7–9 with placings to 6: %s", got)
	}
}
