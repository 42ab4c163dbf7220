package matching_test

import (
	"math/rand/v2"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/matching"
)

type matrix [][]bool

func (m matrix) Len() int               { return len(m) }
func (m matrix) Adjacent(u, v int) bool { return m[u][v] }

func randomGraph(r *rand.Rand, n int, p float64) matrix {
	m := make(matrix, n)
	for i := range m {
		m[i] = make([]bool, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if r.Float64() < p {
				m[i][j], m[j][i] = true, true
			}
		}
	}
	return m
}

// bruteMax returns the maximum matching size among the vertices in mask.
func bruteMax(g matrix, mask uint32, memo map[uint32]int) int {
	if mask == 0 {
		return 0
	}
	if v, ok := memo[mask]; ok {
		return v
	}
	v := 0
	for mask&(1<<v) == 0 {
		v++
	}
	rest := mask &^ (1 << v)
	best := bruteMax(g, rest, memo)
	for u := v + 1; u < len(g); u++ {
		if rest&(1<<u) != 0 && g[v][u] {
			if s := 1 + bruteMax(g, rest&^(1<<u), memo); s > best {
				best = s
			}
		}
	}
	memo[mask] = best
	return best
}

func checkMatching(t *testing.T, g matrix, m *matching.Matcher) {
	t.Helper()
	size := 0
	for v := 0; v < g.Len(); v++ {
		w := m.Mate(v)
		if w == -1 {
			continue
		}
		if !m.Active(v) || !m.Active(w) || m.Mate(w) != v || !g[v][w] {
			t.Fatalf("vertex %d: bad mate %d", v, w)
		}
		size++
	}
	if size != 2*m.Size() {
		t.Fatalf("size %d, want %d matched vertices", m.Size(), size)
	}
}

func TestMatcherMaximum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 400; iter++ {
		n := 1 + r.IntN(14)
		g := randomGraph(r, n, []float64{0.15, 0.3, 0.6, 0.9}[iter%4])
		m := matching.New(g)
		checkMatching(t, g, m)
		full := uint32(1)<<n - 1
		if want := bruteMax(g, full, map[uint32]int{}); m.Size() != want {
			t.Fatalf("iter %d: size %d, want %d", iter, m.Size(), want)
		}
		// Commit pairs while they keep the matching maximum, and check
		// the oracle against brute force every time.
		mask := full
		for step := 0; step < n; step++ {
			u, v := r.IntN(n), r.IntN(n)
			if u == v || mask&(1<<u) == 0 || mask&(1<<v) == 0 || !g[u][v] {
				continue
			}
			before := bruteMax(g, mask, map[uint32]int{})
			after := bruteMax(g, mask&^(1<<u|1<<v), map[uint32]int{})
			ok := m.RemovePair(u, v)
			if ok != (after == before-1) {
				t.Fatalf("iter %d: RemovePair(%d,%d)=%v, brute before %d after %d", iter, u, v, ok, before, after)
			}
			if ok {
				mask &^= 1<<u | 1<<v
			}
			checkMatching(t, g, m)
			if m.Size() != bruteMax(g, mask, map[uint32]int{}) {
				t.Fatalf("iter %d: not maximum after RemovePair", iter)
			}
		}
		// RemoveIfKeeps answers "may v be left out of a maximum matching".
		for v := 0; v < n; v++ {
			if mask&(1<<v) == 0 {
				continue
			}
			before := bruteMax(g, mask, map[uint32]int{})
			after := bruteMax(g, mask&^(1<<v), map[uint32]int{})
			if got := m.RemoveIfKeeps(v); got != (after == before) {
				t.Fatalf("iter %d: RemoveIfKeeps(%d)=%v, brute %d→%d", iter, v, got, before, after)
			} else if got {
				mask &^= 1 << v
			}
			checkMatching(t, g, m)
		}
	}
}

// bruteWeight returns the best (cardinality, weight) pair over matchings of
// the vertices in mask, comparing cardinality first when card is set.
func bruteWeight(w [][]int64, mask uint32, card bool, memo map[uint32][2]int64) [2]int64 {
	if mask == 0 {
		return [2]int64{}
	}
	if v, ok := memo[mask]; ok {
		return v
	}
	v := 0
	for mask&(1<<v) == 0 {
		v++
	}
	rest := mask &^ (1 << v)
	best := bruteWeight(w, rest, card, memo)
	for u := v + 1; u < len(w); u++ {
		if rest&(1<<u) != 0 && w[v][u] >= 0 {
			s := bruteWeight(w, rest&^(1<<u), card, memo)
			s = [2]int64{s[0] + 1, s[1] + w[v][u]}
			if card && (s[0] > best[0] || s[0] == best[0] && s[1] > best[1]) || !card && s[1] > best[1] {
				best = s
			}
		}
	}
	memo[mask] = best
	return best
}

func TestMaxWeight(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 600; iter++ {
		n := 1 + r.IntN(12)
		w := make([][]int64, n)
		for i := range w {
			w[i] = make([]int64, n)
			for j := range w[i] {
				w[i][j] = -1
			}
		}
		var edges []matching.Edge
		p := []float64{0.2, 0.5, 0.9}[iter%3]
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.Float64() < p {
					x := int64(r.IntN(20))
					w[i][j], w[j][i] = x, x
					edges = append(edges, matching.Edge{U: i, V: j, Weight: x})
				}
			}
		}
		card := iter%2 == 0
		mate := matching.MaxWeight(n, edges, card)
		var got [2]int64
		for v, u := range mate {
			if u == -1 {
				continue
			}
			if mate[u] != v || w[v][u] < 0 {
				t.Fatalf("iter %d: bad mate %d-%d", iter, v, u)
			}
			if v < u {
				got[0]++
				got[1] += w[v][u]
			}
		}
		want := bruteWeight(w, uint32(1)<<n-1, card, map[uint32][2]int64{})
		if card && got != want || !card && got[1] != want[1] {
			t.Fatalf("iter %d (card %v): got %v, want %v", iter, card, got, want)
		}
	}
}

func benchMaxWeight(b *testing.B, n int) {
	r := rand.New(rand.NewPCG(5, 6))
	var edges []matching.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if r.Float64() < 0.95 {
				edges = append(edges, matching.Edge{U: i, V: j, Weight: int64(1000 + r.IntN(n))})
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		matching.MaxWeight(n, edges, true)
	}
}

// BenchmarkMaxWeight300/600 size the weighted fallback of package swiss
// (a stage plus everyone below it, at most 300 players).
func BenchmarkMaxWeight300(b *testing.B) { benchMaxWeight(b, 300) }
func BenchmarkMaxWeight600(b *testing.B) { benchMaxWeight(b, 600) }
