// Package matching finds maximum matchings in general (non-bipartite) graphs
// with Edmonds' blossom algorithm. It knows only vertices, adjacency and
// integer weights; the pairing systems turn their rule books into graphs.
//
// Matcher keeps a maximum cardinality matching of a graph given by an
// adjacency test, and lets a caller commit edges one at a time while the
// matching stays maximum. That is the oracle a positional (hand) pairing
// method needs to never block a complete pairing (P-8): a proposed pair
// is accepted only when some maximum matching still contains it.
// MaxWeight solves the weighted problem for the rare cases where the
// cardinality oracle is not enough.
package matching

// Graph is an undirected simple graph on the vertices 0…Len()-1.
// Adjacent must be symmetric and false for u == v. Pairing graphs are dense
// (nearly everyone may meet nearly everyone), so an adjacency test is
// cheaper than adjacency lists.
type Graph interface {
	Len() int
	Adjacent(u, v int) bool
}

// Matcher maintains a maximum matching of the active vertices of a graph.
// All vertices start active; Remove and RemovePair deactivate them.
type Matcher struct {
	g      Graph
	n      int
	mate   []int
	active []bool
	size   int
	live   int // number of active vertices

	// Scratch space for one augmenting-path search.
	base    []int
	parent  []int
	even    []bool
	blossom []bool
	mark    []bool
	queue   []int
	saved   []int
}

// New returns a Matcher holding a maximum matching of g: a greedy matching
// in vertex order, then one augmenting-path search from every vertex left
// free (a vertex with no augmenting path never gains one later, so one
// search each is enough).
func New(g Graph) *Matcher {
	n := g.Len()
	m := &Matcher{
		g: g, n: n,
		mate:    make([]int, n),
		active:  make([]bool, n),
		base:    make([]int, n),
		parent:  make([]int, n),
		even:    make([]bool, n),
		blossom: make([]bool, n),
		mark:    make([]bool, n),
	}
	for i := range m.mate {
		m.mate[i] = -1
		m.active[i] = true
	}
	m.live = n
	for v := 0; v < n; v++ {
		if m.mate[v] != -1 {
			continue
		}
		for u := v + 1; u < n; u++ {
			if m.mate[u] == -1 && g.Adjacent(v, u) {
				m.mate[v], m.mate[u] = u, v
				m.size++
				break
			}
		}
	}
	for v := 0; v < n; v++ {
		if m.mate[v] == -1 && m.augment(v) {
			m.size++
		}
	}
	return m
}

// Clone returns an independent copy (sharing the graph).
func (m *Matcher) Clone() *Matcher {
	c := *m
	c.mate = append([]int(nil), m.mate...)
	c.active = append([]bool(nil), m.active...)
	c.base = make([]int, m.n)
	c.parent = make([]int, m.n)
	c.even = make([]bool, m.n)
	c.blossom = make([]bool, m.n)
	c.mark = make([]bool, m.n)
	c.queue, c.saved = nil, nil
	return &c
}

// Size is the number of edges in the current maximum matching.
func (m *Matcher) Size() int { return m.size }

// Mate returns v's partner, or -1 when v is unmatched or inactive.
func (m *Matcher) Mate(v int) int { return m.mate[v] }

// Active reports whether v is still part of the graph.
func (m *Matcher) Active(v int) bool { return m.active[v] }

// Perfect reports whether every active vertex is matched.
func (m *Matcher) Perfect() bool {
	for v := 0; v < m.n; v++ {
		if m.active[v] && m.mate[v] == -1 {
			return false
		}
	}
	return true
}

// Remove deactivates v and repairs the matching so that it is again maximum
// for the remaining graph. It reports whether the size stayed the same.
// After deleting a matched v only v's old partner can start an augmenting
// path (any other path would have augmented the old matching), so one
// search repairs it.
func (m *Matcher) Remove(v int) bool {
	if !m.active[v] {
		return true
	}
	m.active[v] = false
	m.live--
	w := m.mate[v]
	if w == -1 {
		return true
	}
	m.mate[v], m.mate[w] = -1, -1
	m.size--
	if m.shortPath(w, -1) || m.augment(w) {
		m.size++
		return true
	}
	return false
}

// shortPath looks for an augmenting path of length 1 or 3 from the free
// vertex a to the free vertex b (to any free vertex when b is -1) and
// applies it. On the dense graphs of pairing this almost always succeeds
// in O(n) and spares the full blossom search.
func (m *Matcher) shortPath(a, b int) bool {
	if m.live-2*m.size < 2 {
		return false
	}
	var ends [4]int
	free := ends[:0]
	if b >= 0 {
		free = append(free, b)
	} else {
		for v := 0; v < m.n; v++ {
			if v != a && m.active[v] && m.mate[v] == -1 {
				if len(free) == len(ends) {
					return false
				}
				free = append(free, v)
			}
		}
	}
	for _, f := range free {
		if m.g.Adjacent(a, f) {
			m.mate[a], m.mate[f] = f, a
			return true
		}
	}
	for x := 0; x < m.n; x++ {
		y := m.mate[x]
		if y == -1 || !m.active[x] || !m.g.Adjacent(a, x) {
			continue
		}
		for _, f := range free {
			if m.g.Adjacent(y, f) {
				m.mate[a], m.mate[x] = x, a
				m.mate[y], m.mate[f] = f, y
				return true
			}
		}
	}
	return false
}

// RemoveIfKeeps deactivates v only when the remaining graph still has a
// matching of the current size; otherwise it changes nothing and returns
// false. It answers "may v be left out of a maximum matching?".
func (m *Matcher) RemoveIfKeeps(v int) bool {
	if !m.active[v] {
		return true
	}
	if m.mate[v] == -1 {
		m.active[v] = false
		m.live--
		return true
	}
	m.save()
	if m.Remove(v) {
		return true
	}
	m.restore()
	m.active[v] = true
	m.live++
	return false
}

// RemovePair commits the edge u–v: it deactivates both when some maximum
// matching contains u–v (the remaining graph keeps a matching one edge
// smaller) and returns true; otherwise it changes nothing and returns false.
// The caller must only propose adjacent active vertices.
func (m *Matcher) RemovePair(u, v int) bool {
	if m.mate[u] == v {
		m.active[u], m.active[v] = false, false
		m.live -= 2
		m.mate[u], m.mate[v] = -1, -1
		m.size--
		return true
	}
	pu, pv := m.mate[u], m.mate[v]
	// Cheap common case: the two old partners can simply meet.
	if pu != -1 && pv != -1 && m.g.Adjacent(pu, pv) {
		m.active[u], m.active[v] = false, false
		m.live -= 2
		m.mate[u], m.mate[v] = -1, -1
		m.mate[pu], m.mate[pv] = pv, pu
		m.size--
		return true
	}
	want := m.size - 1
	m.save()
	size := m.size
	m.active[u], m.active[v] = false, false
	m.live -= 2
	for _, x := range [2]int{u, v} {
		w := m.mate[x]
		if w == -1 {
			continue
		}
		m.mate[x], m.mate[w] = -1, -1
		size--
	}
	m.size = size
	if size == want {
		// Already one edge smaller, and G-u-v never has a matching as big
		// as G's (else adding u–v would beat a maximum matching).
		return true
	}
	if pu != -1 && pv != -1 && m.shortPath(pu, pv) {
		m.size++
	} else {
		for _, w := range [2]int{pu, pv} {
			if w != -1 && m.active[w] && m.mate[w] == -1 && (m.shortPath(w, -1) || m.augment(w)) {
				m.size++
			}
		}
	}
	if m.size == want {
		return true
	}
	m.restore()
	m.active[u], m.active[v] = true, true
	m.live += 2
	return false
}

func (m *Matcher) save() {
	m.saved = append(m.saved[:0], m.mate...)
	m.saved = append(m.saved, m.size)
}

func (m *Matcher) restore() {
	copy(m.mate, m.saved[:m.n])
	m.size = m.saved[m.n]
}

// augment searches for an augmenting path from the free vertex root and
// applies it (Edmonds: grow an alternating tree, shrink odd cycles into
// blossoms). Neighbours are found by scanning all active vertices, which is
// O(n) per tree vertex on a dense graph.
func (m *Matcher) augment(root int) bool {
	// A path needs a second free vertex; without one the search would
	// scan the whole graph for nothing (the common odd-group case).
	if m.live-2*m.size < 2 {
		return false
	}
	n := m.n
	for i := 0; i < n; i++ {
		m.even[i] = false
		m.parent[i] = -1
		m.base[i] = i
	}
	m.even[root] = true
	q := append(m.queue[:0], root)
	defer func() { m.queue = q[:0] }()
	for h := 0; h < len(q); h++ {
		v := q[h]
		for to := 0; to < n; to++ {
			if !m.active[to] || m.base[v] == m.base[to] || m.mate[v] == to || !m.g.Adjacent(v, to) {
				continue
			}
			if to == root || (m.mate[to] != -1 && m.parent[m.mate[to]] != -1) {
				cur := m.lca(v, to)
				for i := range m.blossom {
					m.blossom[i] = false
				}
				m.markPath(v, cur, to)
				m.markPath(to, cur, v)
				for i := 0; i < n; i++ {
					if m.active[i] && m.blossom[m.base[i]] {
						m.base[i] = cur
						if !m.even[i] {
							m.even[i] = true
							q = append(q, i)
						}
					}
				}
			} else if m.parent[to] == -1 {
				m.parent[to] = v
				if m.mate[to] == -1 {
					for u := to; u != -1; {
						pv := m.parent[u]
						next := m.mate[pv]
						m.mate[u], m.mate[pv] = pv, u
						u = next
					}
					return true
				}
				m.even[m.mate[to]] = true
				q = append(q, m.mate[to])
			}
		}
	}
	return false
}

func (m *Matcher) lca(a, b int) int {
	for i := range m.mark {
		m.mark[i] = false
	}
	for {
		a = m.base[a]
		m.mark[a] = true
		if m.mate[a] == -1 {
			break
		}
		a = m.parent[m.mate[a]]
	}
	for {
		b = m.base[b]
		if m.mark[b] {
			return b
		}
		b = m.parent[m.mate[b]]
	}
}

func (m *Matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.blossom[m.base[v]] = true
		m.blossom[m.base[m.mate[v]]] = true
		m.parent[v] = child
		child = m.mate[v]
		v = m.parent[m.mate[v]]
	}
}
