package matching

// Edge is an undirected weighted edge for MaxWeight.
type Edge struct {
	U, V   int
	Weight int64
}

// MaxWeight returns a maximum-weight matching of the graph on vertices
// 0…n-1 with the given edges, as mate[v] (the partner, or -1). With
// maxCardinality it returns the heaviest among the maximum-cardinality
// matchings. It is Edmonds' weighted blossom algorithm with the primal-dual
// bookkeeping of Galil (1986), following the well-known public-domain
// implementation by J. van Rantwijk; O(n³). Weights are doubled internally
// so that all dual variables stay integers.
func MaxWeight(n int, edges []Edge, maxCardinality bool) []int {
	if n == 0 {
		return nil
	}
	w := newWeighted(n, edges, maxCardinality)
	w.solve()
	mate := make([]int, n)
	for v := 0; v < n; v++ {
		if w.mate[v] >= 0 {
			mate[v] = w.endpoint[w.mate[v]]
		} else {
			mate[v] = -1
		}
	}
	return mate
}

type weighted struct {
	n              int
	edges          []Edge
	maxCardinality bool

	endpoint         []int
	neighbend        [][]int
	mate             []int
	label            []int
	labelend         []int
	inblossom        []int
	blossomparent    []int
	blossomchilds    [][]int
	blossombase      []int
	blossomendps     [][]int
	bestedge         []int
	blossombestedges [][]int
	unusedblossoms   []int
	dualvar          []int64
	allowedge        []bool
	queue            []int
}

func newWeighted(n int, edges []Edge, maxCardinality bool) *weighted {
	w := &weighted{n: n, maxCardinality: maxCardinality}
	w.edges = make([]Edge, len(edges))
	var maxw int64
	for k, e := range edges {
		w.edges[k] = Edge{e.U, e.V, 2 * e.Weight}
		if 2*e.Weight > maxw {
			maxw = 2 * e.Weight
		}
	}
	w.endpoint = make([]int, 2*len(edges))
	w.neighbend = make([][]int, n)
	for k, e := range w.edges {
		w.endpoint[2*k] = e.U
		w.endpoint[2*k+1] = e.V
		w.neighbend[e.U] = append(w.neighbend[e.U], 2*k+1)
		w.neighbend[e.V] = append(w.neighbend[e.V], 2*k)
	}
	w.mate = filled(n, -1)
	w.label = make([]int, 2*n)
	w.labelend = filled(2*n, -1)
	w.inblossom = make([]int, n)
	for i := range w.inblossom {
		w.inblossom[i] = i
	}
	w.blossomparent = filled(2*n, -1)
	w.blossomchilds = make([][]int, 2*n)
	w.blossombase = filled(2*n, -1)
	for i := 0; i < n; i++ {
		w.blossombase[i] = i
	}
	w.blossomendps = make([][]int, 2*n)
	w.bestedge = filled(2*n, -1)
	w.blossombestedges = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		w.unusedblossoms = append(w.unusedblossoms, b)
	}
	w.dualvar = make([]int64, 2*n)
	for i := 0; i < n; i++ {
		w.dualvar[i] = maxw
	}
	w.allowedge = make([]bool, len(edges))
	return w
}

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func (w *weighted) slack(k int) int64 {
	e := w.edges[k]
	return w.dualvar[e.U] + w.dualvar[e.V] - 2*e.Weight
}

func (w *weighted) leaves(b int, out []int) []int {
	if b < w.n {
		return append(out, b)
	}
	for _, t := range w.blossomchilds[b] {
		out = w.leaves(t, out)
	}
	return out
}

func (w *weighted) assignLabel(v, t, p int) {
	b := w.inblossom[v]
	w.label[v], w.label[b] = t, t
	w.labelend[v], w.labelend[b] = p, p
	w.bestedge[v], w.bestedge[b] = -1, -1
	if t == 1 {
		w.queue = w.leaves(b, w.queue)
	} else if t == 2 {
		base := w.blossombase[b]
		w.assignLabel(w.endpoint[w.mate[base]], 1, w.mate[base]^1)
	}
}

func (w *weighted) scanBlossom(v, u int) int {
	var path []int
	base := -1
	for v != -1 || u != -1 {
		b := w.inblossom[v]
		if w.label[b]&4 != 0 {
			base = w.blossombase[b]
			break
		}
		path = append(path, b)
		w.label[b] = 5
		if w.labelend[b] == -1 {
			v = -1
		} else {
			v = w.endpoint[w.labelend[b]]
			b = w.inblossom[v]
			v = w.endpoint[w.labelend[b]]
		}
		if u != -1 {
			v, u = u, v
		}
	}
	for _, b := range path {
		w.label[b] = 1
	}
	return base
}

func (w *weighted) addBlossom(base, k int) {
	e := w.edges[k]
	v, u := e.U, e.V
	bb, bv, bw := w.inblossom[base], w.inblossom[v], w.inblossom[u]
	b := w.unusedblossoms[len(w.unusedblossoms)-1]
	w.unusedblossoms = w.unusedblossoms[:len(w.unusedblossoms)-1]
	w.blossombase[b] = base
	w.blossomparent[b] = -1
	w.blossomparent[bb] = b
	var path, endps []int
	for bv != bb {
		w.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, w.labelend[bv])
		v = w.endpoint[w.labelend[bv]]
		bv = w.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		w.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, w.labelend[bw]^1)
		u = w.endpoint[w.labelend[bw]]
		bw = w.inblossom[u]
	}
	w.blossomchilds[b] = path
	w.blossomendps[b] = endps
	w.label[b] = 1
	w.labelend[b] = w.labelend[bb]
	w.dualvar[b] = 0
	for _, x := range w.leaves(b, nil) {
		if w.label[w.inblossom[x]] == 2 {
			w.queue = append(w.queue, x)
		}
		w.inblossom[x] = b
	}
	bestedgeto := filled(2*w.n, -1)
	for _, sub := range path {
		var lists [][]int
		if w.blossombestedges[sub] == nil {
			for _, x := range w.leaves(sub, nil) {
				l := make([]int, len(w.neighbend[x]))
				for i, p := range w.neighbend[x] {
					l[i] = p / 2
				}
				lists = append(lists, l)
			}
		} else {
			lists = [][]int{w.blossombestedges[sub]}
		}
		for _, l := range lists {
			for _, kk := range l {
				i, j := w.edges[kk].U, w.edges[kk].V
				if w.inblossom[j] == b {
					i, j = j, i
				}
				_ = i
				bj := w.inblossom[j]
				if bj != b && w.label[bj] == 1 && (bestedgeto[bj] == -1 || w.slack(kk) < w.slack(bestedgeto[bj])) {
					bestedgeto[bj] = kk
				}
			}
		}
		w.blossombestedges[sub] = nil
		w.bestedge[sub] = -1
	}
	var best []int
	for _, kk := range bestedgeto {
		if kk != -1 {
			best = append(best, kk)
		}
	}
	if best == nil {
		best = []int{}
	}
	w.blossombestedges[b] = best
	w.bestedge[b] = -1
	for _, kk := range best {
		if w.bestedge[b] == -1 || w.slack(kk) < w.slack(w.bestedge[b]) {
			w.bestedge[b] = kk
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func wrap(j, l int) int { return ((j % l) + l) % l }

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

func (w *weighted) expandBlossom(b int, endstage bool) {
	for _, s := range w.blossomchilds[b] {
		w.blossomparent[s] = -1
		if s < w.n {
			w.inblossom[s] = s
		} else if endstage && w.dualvar[s] == 0 {
			w.expandBlossom(s, endstage)
		} else {
			for _, x := range w.leaves(s, nil) {
				w.inblossom[x] = s
			}
		}
	}
	if !endstage && w.label[b] == 2 {
		childs := w.blossomchilds[b]
		endps := w.blossomendps[b]
		l := len(childs)
		entrychild := w.inblossom[w.endpoint[w.labelend[b]^1]]
		j := indexOf(childs, entrychild)
		var jstep, endptrick int
		if j&1 != 0 {
			j -= l
			jstep, endptrick = 1, 0
		} else {
			jstep, endptrick = -1, 1
		}
		p := w.labelend[b]
		for j != 0 {
			w.label[w.endpoint[p^1]] = 0
			w.label[w.endpoint[endps[wrap(j-endptrick, l)]^endptrick^1]] = 0
			w.assignLabel(w.endpoint[p^1], 2, p)
			w.allowedge[endps[wrap(j-endptrick, l)]/2] = true
			j += jstep
			p = endps[wrap(j-endptrick, l)] ^ endptrick
			w.allowedge[p/2] = true
			j += jstep
		}
		bv := childs[wrap(j, l)]
		w.label[w.endpoint[p^1]], w.label[bv] = 2, 2
		w.labelend[w.endpoint[p^1]], w.labelend[bv] = p, p
		w.bestedge[bv] = -1
		j += jstep
		for childs[wrap(j, l)] != entrychild {
			bv = childs[wrap(j, l)]
			if w.label[bv] == 1 {
				j += jstep
				continue
			}
			v := -1
			for _, x := range w.leaves(bv, nil) {
				if w.label[x] != 0 {
					v = x
					break
				}
			}
			if v != -1 {
				w.label[v] = 0
				w.label[w.endpoint[w.mate[w.blossombase[bv]]]] = 0
				w.assignLabel(v, 2, w.labelend[v])
			}
			j += jstep
		}
	}
	w.label[b], w.labelend[b] = -1, -1
	w.blossomchilds[b], w.blossomendps[b] = nil, nil
	w.blossombase[b] = -1
	w.blossombestedges[b] = nil
	w.bestedge[b] = -1
	w.unusedblossoms = append(w.unusedblossoms, b)
}

func (w *weighted) augmentBlossom(b, v int) {
	t := v
	for w.blossomparent[t] != b {
		t = w.blossomparent[t]
	}
	if t >= w.n {
		w.augmentBlossom(t, v)
	}
	childs := w.blossomchilds[b]
	endps := w.blossomendps[b]
	l := len(childs)
	i := indexOf(childs, t)
	j := i
	var jstep, endptrick int
	if i&1 != 0 {
		j -= l
		jstep, endptrick = 1, 0
	} else {
		jstep, endptrick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = childs[wrap(j, l)]
		p := endps[wrap(j-endptrick, l)] ^ endptrick
		if t >= w.n {
			w.augmentBlossom(t, w.endpoint[p])
		}
		j += jstep
		t = childs[wrap(j, l)]
		if t >= w.n {
			w.augmentBlossom(t, w.endpoint[p^1])
		}
		w.mate[w.endpoint[p]] = p ^ 1
		w.mate[w.endpoint[p^1]] = p
	}
	w.blossomchilds[b] = append(append([]int{}, childs[i:]...), childs[:i]...)
	w.blossomendps[b] = append(append([]int{}, endps[i:]...), endps[:i]...)
	w.blossombase[b] = w.blossombase[w.blossomchilds[b][0]]
}

func (w *weighted) augmentMatching(k int) {
	e := w.edges[k]
	for _, sp := range [2][2]int{{e.U, 2*k + 1}, {e.V, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := w.inblossom[s]
			if bs >= w.n {
				w.augmentBlossom(bs, s)
			}
			w.mate[s] = p
			if w.labelend[bs] == -1 {
				break
			}
			t := w.endpoint[w.labelend[bs]]
			bt := w.inblossom[t]
			s = w.endpoint[w.labelend[bt]]
			j := w.endpoint[w.labelend[bt]^1]
			if bt >= w.n {
				w.augmentBlossom(bt, j)
			}
			w.mate[j] = w.labelend[bt]
			p = w.labelend[bt] ^ 1
		}
	}
}

func (w *weighted) solve() {
	n := w.n
	for stage := 0; stage < n; stage++ {
		for i := range w.label {
			w.label[i] = 0
			w.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			w.blossombestedges[b] = nil
		}
		for i := range w.allowedge {
			w.allowedge[i] = false
		}
		w.queue = w.queue[:0]
		for v := 0; v < n; v++ {
			if w.mate[v] == -1 && w.label[w.inblossom[v]] == 0 {
				w.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(w.queue) > 0 && !augmented {
				v := w.queue[len(w.queue)-1]
				w.queue = w.queue[:len(w.queue)-1]
				for _, p := range w.neighbend[v] {
					k := p / 2
					u := w.endpoint[p]
					if w.inblossom[v] == w.inblossom[u] {
						continue
					}
					var kslack int64
					if !w.allowedge[k] {
						kslack = w.slack(k)
						if kslack <= 0 {
							w.allowedge[k] = true
						}
					}
					if w.allowedge[k] {
						if w.label[w.inblossom[u]] == 0 {
							w.assignLabel(u, 2, p^1)
						} else if w.label[w.inblossom[u]] == 1 {
							base := w.scanBlossom(v, u)
							if base >= 0 {
								w.addBlossom(base, k)
							} else {
								w.augmentMatching(k)
								augmented = true
								break
							}
						} else if w.label[u] == 0 {
							w.label[u] = 2
							w.labelend[u] = p ^ 1
						}
					} else if w.label[w.inblossom[u]] == 1 {
						b := w.inblossom[v]
						if w.bestedge[b] == -1 || kslack < w.slack(w.bestedge[b]) {
							w.bestedge[b] = k
						}
					} else if w.label[u] == 0 {
						if w.bestedge[u] == -1 || kslack < w.slack(w.bestedge[u]) {
							w.bestedge[u] = k
						}
					}
				}
			}
			if augmented {
				break
			}
			deltatype := -1
			var delta int64
			deltaedge, deltablossom := -1, -1
			if !w.maxCardinality {
				deltatype = 1
				delta = w.dualvar[0]
				for v := 1; v < n; v++ {
					if w.dualvar[v] < delta {
						delta = w.dualvar[v]
					}
				}
			}
			for v := 0; v < n; v++ {
				if w.label[w.inblossom[v]] == 0 && w.bestedge[v] != -1 {
					d := w.slack(w.bestedge[v])
					if deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 2, w.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if w.blossomparent[b] == -1 && w.label[b] == 1 && w.bestedge[b] != -1 {
					d := w.slack(w.bestedge[b]) / 2
					if deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 3, w.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if w.blossombase[b] >= 0 && w.blossomparent[b] == -1 && w.label[b] == 2 && (deltatype == -1 || w.dualvar[b] < delta) {
					delta, deltatype, deltablossom = w.dualvar[b], 4, b
				}
			}
			if deltatype == -1 {
				deltatype = 1
				delta = w.dualvar[0]
				for v := 1; v < n; v++ {
					if w.dualvar[v] < delta {
						delta = w.dualvar[v]
					}
				}
				if delta < 0 {
					delta = 0
				}
			}
			for v := 0; v < n; v++ {
				switch w.label[w.inblossom[v]] {
				case 1:
					w.dualvar[v] -= delta
				case 2:
					w.dualvar[v] += delta
				}
			}
			for b := n; b < 2*n; b++ {
				if w.blossombase[b] >= 0 && w.blossomparent[b] == -1 {
					switch w.label[b] {
					case 1:
						w.dualvar[b] += delta
					case 2:
						w.dualvar[b] -= delta
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				w.allowedge[deltaedge] = true
				i, j := w.edges[deltaedge].U, w.edges[deltaedge].V
				if w.label[w.inblossom[i]] == 0 {
					i = j
				}
				w.queue = append(w.queue, i)
			case 3:
				w.allowedge[deltaedge] = true
				w.queue = append(w.queue, w.edges[deltaedge].U)
			case 4:
				w.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if w.blossomparent[b] == -1 && w.blossombase[b] >= 0 && w.label[b] == 1 && w.dualvar[b] == 0 {
				w.expandBlossom(b, true)
			}
		}
	}
}
