package swiss

import (
	"math/bits"
	"sort"

	"github.com/xqtour/xqtour/shared/pairing/matching"
)

// What a round minimises (P-4, P-10 拆对, P-6, P-8), compared in this order:
//
//  1. the pairs crossing each score boundary, boundary by boundary from the
//     top (a pair of a 5 and a 3 crosses the boundaries 5|4 and 4|3): the
//     upper groups pair inside first, and the pair above is undone (拆对)
//     before anyone is sent further down;
//  2. third floats — players floating the same way a third time (P-6).
//     Appendix 3 §1.9 makes this a limit (同一运动员下调或上调的次数最多不超过
//     两次) and leaves out the float of a player alone in its score group
//     (不含本积分段只有一人必然下调或上调), so such a float is no third float;
//  3. colour faults — players given +3 of one colour or three in a row;
//     §1.11(3) only asks to avoid them as far as possible (应尽可能避免), so
//     they give way to the float limit. Not counted in the last round, where
//     §4(10) accepts them rather than change partners.
//
// Among the pairings that are optimal by this measure, the hand method
// (同位, 错位, 通行 in P-9 order) decides.

// objective is the measure of one pairing: cross[i] counts the pairs
// across the boundary below the i-th score level (levels from the top).
type objective struct {
	cross          []int
	thirds, faults int
}

// less compares two objectives of the same round lexicographically.
func (a objective) less(b objective) bool {
	for i := range a.cross {
		if a.cross[i] != b.cross[i] {
			return a.cross[i] < b.cross[i]
		}
	}
	if a.thirds != b.thirds {
		return a.thirds < b.thirds
	}
	return a.faults < b.faults
}

// levels are the distinct pairing scores of the players being paired,
// highest first.
type levels []int

func levelsOf(ps []*entrant) levels {
	seen := map[int]bool{}
	var l levels
	for _, e := range ps {
		if !seen[e.score] {
			seen[e.score] = true
			l = append(l, e.score)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(l)))
	return l
}

// index is the position of a score among the levels (0 = top).
func (l levels) index(score int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] <= score })
}

// lastRound reports whether the round being paired is the event's last.
func (f *field) lastRound() bool { return f.rounds > 0 && f.round >= f.rounds }

// colourFaults counts the players that red and black would give +3 of
// one colour or three in a row (appendix 3 §1.11(3)).
func colourFaults(red, black *entrant) int {
	n := 0
	if red.diff+1 >= 3 || red.last == Red && red.streak >= 2 {
		n++
	}
	if black.diff-1 <= -3 || black.last == Black && black.streak >= 2 {
		n++
	}
	return n
}

// pairFaults is the colour-fault count of a pair with the better of its
// two colourings; zero in the last round (§4(10)).
func (f *field) pairFaults(a, b *entrant) int {
	if f.lastRound() {
		return 0
	}
	return min(colourFaults(a, b), colourFaults(b, a))
}

// pairThirds counts the players of a pair who would float the same way a
// third time (P-6); a player alone in its score group floats by necessity,
// and §1.9 does not count that float (markLone).
func pairThirds(a, b *entrant) int {
	if a.score == b.score {
		return 0
	}
	hi, lo := a, b
	if lo.score > hi.score {
		hi, lo = lo, hi
	}
	n := 0
	if hi.downs >= 2 && !hi.lone {
		n++
	}
	if lo.ups >= 2 && !lo.lone {
		n++
	}
	return n
}

// markLone marks the players alone in their score group among those paired
// this round (the bye, if any, left out), whose float §1.9 does not count.
// Every bye candidate optimum weighs has the bye's score, so who is alone
// does not depend on which of them takes it: the bye is marked as it would
// be were another candidate given the bye instead.
func markLone(paired []*entrant, bye *entrant) {
	size := map[int]int{}
	for _, e := range paired {
		size[e.score]++
	}
	for _, e := range paired {
		e.lone = size[e.score] == 1
	}
	if bye != nil {
		bye.lone = size[bye.score] == 1
	}
}

// atDownLimit reports whether floating the player down would be a third
// down-float (P-6).
func atDownLimit(e *entrant) bool { return e.downs >= 2 && !e.lone }

// measure computes the objective of a set of pairs over the given levels.
func (f *field) measure(pairs []made, lv levels) objective {
	o := objective{cross: make([]int, max(len(lv)-1, 0))}
	for _, p := range pairs {
		i, j := lv.index(p.red.score), lv.index(p.black.score)
		if i > j {
			i, j = j, i
		}
		for k := i; k < j; k++ {
			o.cross[k]++
		}
		if !f.lastRound() {
			o.faults += colourFaults(p.red, p.black)
		}
		o.thirds += pairThirds(p.red, p.black)
	}
	return o
}

// lowerBound is an objective no pairing of ps can beat: a boundary with an
// odd number of players above it is crossed at least once.
func lowerBound(ps []*entrant, lv levels) objective {
	o := objective{cross: make([]int, max(len(lv)-1, 0))}
	for _, e := range ps {
		for k := lv.index(e.score); k < len(o.cross); k++ {
			o.cross[k] ^= 1
		}
	}
	return o
}

// weightLimit keeps every weight, doubled and summed by the weighted
// matcher, inside an int64.
const weightLimit = int64(1) << 58

// radixMul multiplies two non-negative weights, reporting overflow past
// weightLimit.
func radixMul(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo >= uint64(weightLimit) {
		return 0, false
	}
	return int64(lo), true
}

// sinkMate is the partner optimum gives a player it sends below the field
// (sinks).
var sinkMate = &entrant{num: -1}

// optimum finds an optimal pairing of ps (the objective above) with one
// maximum-weight perfect matching whose weights encode the objective
// digit by digit: each boundary outweighs everything below it. When
// byes is not empty one of them takes the bye (a dummy vertex joined to
// each). With sinks, ps is the top of a bigger field and every player may
// instead float below it (a sink vertex of its own, crossing the boundary
// under ps and everything above that), a relaxation of what the players
// below could take: a partner of sinkMate marks it. It returns each
// player's partner (nil for the bye) and false when the weights would not
// fit in an int64 or the field is too big.
func (f *field) optimum(ps []*entrant, byes []*entrant, sinks bool) (map[*entrant]*entrant, bool) {
	n := len(ps)
	if n > exactLimit || sinks && 2*n > exactLimit {
		return nil, false
	}
	// Levels of the players who will be paired: every bye candidate has
	// the same score, so removing one leaves the same levels unless it is
	// alone at its level — and then it is the only candidate.
	paired := ps
	if len(byes) == 1 {
		paired = without(ps, byes[0])
		ps, byes = paired, nil
		n = len(ps)
	}
	lv := levelsOf(paired)
	total := n // vertices besides the bye's
	if sinks && len(lv) > 0 {
		lv = append(lv, lv[len(lv)-1]-1) // the sinks' level, below everyone
		total = 2 * n
	}
	nb := max(len(lv)-1, 0)
	// bound[i] caps the crossings of boundary i: min(above, below).
	above := make([]int, nb)
	for _, e := range paired {
		for k := lv.index(e.score); k < nb; k++ {
			above[k]++
		}
	}
	// Digits from the least significant: float balance (P-6, a tie-break),
	// colour faults, third floats, then the boundaries bottom-up.
	tieMax := int64(2 * f.round)
	radix := make([]int64, nb) // radix[i] = weight of one crossing of boundary i
	var rThird, rFault, rTie int64
	build := func(withTie bool) bool {
		var ok bool
		unit := int64(1)
		rTie = 0
		if withTie {
			rTie = 1
			if unit, ok = radixMul(int64(total/2+1), tieMax+1); !ok {
				return false
			}
		}
		rFault = unit
		if unit, ok = radixMul(unit, int64(n+1)); !ok {
			return false
		}
		rThird = unit
		if unit, ok = radixMul(unit, int64(n+1)); !ok {
			return false
		}
		// Two pairings' crossings of a boundary differ by an even number
		// (the parity of the players paired above it is fixed: every bye
		// candidate has the same score), at most min(above, below) of the
		// players paired minus that parity: a digit of half that range
		// suffices.
		for i := nb - 1; i >= 0; i-- {
			radix[i] = unit
			up, down := above[i], total-above[i]
			if len(byes) > 1 {
				if lv.index(byes[0].score) <= i {
					up--
				} else {
					down--
				}
			}
			spread := (min(up, down) - up%2) / 2
			if unit, ok = radixMul(unit, int64(spread+1)); !ok {
				return false
			}
		}
		return true
	}
	if !build(true) && !build(false) {
		return nil, false
	}
	// prefix[l] is the weight of crossing every boundary above level l.
	prefix := make([]int64, len(lv))
	for l := 1; l < len(lv); l++ {
		prefix[l] = prefix[l-1] + radix[l-1]
	}
	costMax := prefix[len(lv)-1] + 2*rFault + 2*rThird + tieMax*rTie
	top := costMax + 1
	var edges []matching.Edge
	for u := 0; u < n; u++ {
		a := ps[u]
		for v := u + 1; v < n; v++ {
			b := ps[v]
			if !f.compat(a, b) {
				continue
			}
			i, j := lv.index(a.score), lv.index(b.score)
			cost := prefix[max(i, j)] - prefix[min(i, j)]
			cost += int64(f.pairFaults(a, b))*rFault + int64(pairThirds(a, b))*rThird
			if rTie > 0 && a.score != b.score {
				hi, lo := a, b
				if lo.score > hi.score {
					hi, lo = lo, hi
				}
				cost += int64(min(hi.downs+lo.ups, int(tieMax))) * rTie
			}
			edges = append(edges, matching.Edge{U: u, V: v, Weight: top - cost})
		}
	}
	if sinks {
		bottom := prefix[len(lv)-1]
		for u, e := range ps {
			cost := bottom - prefix[lv.index(e.score)]
			edges = append(edges, matching.Edge{U: u, V: n + u, Weight: top - cost})
			// Sinks left over pair among themselves at no cost, so that a
			// perfect matching may leave any of them unused.
			for v := u + 1; v < n; v++ {
				edges = append(edges, matching.Edge{U: n + u, V: n + v, Weight: top})
			}
		}
	}
	dummy := -1
	if len(byes) > 0 {
		dummy = n
		cand := map[*entrant]bool{}
		for _, e := range byes {
			cand[e] = true
		}
		for u, e := range ps {
			if cand[e] {
				edges = append(edges, matching.Edge{U: u, V: dummy, Weight: top})
			}
		}
	}
	if dummy >= 0 {
		total++
	}
	mate := matching.MaxWeight(total, edges, true)
	out := make(map[*entrant]*entrant, n)
	for u, e := range ps {
		switch m := mate[u]; {
		case m < 0:
			return nil, false // cannot happen: a complete pairing exists
		case m == dummy:
			out[e] = nil
		case m >= n:
			out[e] = sinkMate
		default:
			out[e] = ps[m]
		}
	}
	return out, true
}

func without(ps []*entrant, x *entrant) []*entrant {
	out := make([]*entrant, 0, len(ps))
	for _, e := range ps {
		if e != x {
			out = append(out, e)
		}
	}
	return out
}

// goodGraph is the compatibility graph of a stage limited to pairs without
// a third float and without a colour fault where the optimum has none.
type goodGraph struct {
	f                 *field
	ps                []*entrant
	faults, thirdsToo bool
}

func (g goodGraph) Len() int { return len(g.ps) }
func (g goodGraph) Adjacent(u, v int) bool {
	a, b := g.ps[u], g.ps[v]
	if !g.f.compat(a, b) {
		return false
	}
	if !g.faults && g.f.pairFaults(a, b) > 0 {
		return false
	}
	return g.thirdsToo || pairThirds(a, b) == 0
}

// rebuild turns an optimal matching into the round's pairs with the hand
// method as the tie-break: score group by score group from the top, the
// players the optimum sends further down float, and the others are paired
// by the positional walk over the pairs that keep the stage optimal (no
// third float or colour fault where the optimum needs none). sorted lists
// the paired players by score, highest first.
func (f *field) rebuild(sorted []*entrant, mate map[*entrant]*entrant) []made {
	var pairs []made
	var carry []*entrant
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j].score == sorted[i].score {
			j++
		}
		s := sorted[i].score
		pool := append(append([]*entrant(nil), carry...), sorted[i:j]...)
		i = j
		f.prioritize(pool)
		carry = carry[:0:0]
		var faults, thirds int
		var inside []made
		for _, e := range pool {
			o := mate[e]
			if o.score < s {
				carry = append(carry, e)
				continue
			}
			if e.prio < o.prio {
				faults += f.pairFaults(e, o)
				thirds += pairThirds(e, o)
				red, black, cc := f.colours(e, o)
				inside = append(inside, made{red: red, black: black, why: Explanation{
					Group: s, Picker: e.num, PickedBy: f.pickReason(pool, make([]bool, len(pool)), e.prio, s, o.prio),
					Reason: Undo, Colour: cc,
				}})
			}
		}
		m := matching.New(goodGraph{f, pool, faults > 0, thirds > 0})
		for _, e := range carry {
			m.Remove(e.prio)
		}
		walked, left := f.positional(pool, m, s, len(pairs))
		var wf, wt int
		for _, p := range walked {
			wf += f.pairFaults(p.red, p.black)
			wt += pairThirds(p.red, p.black)
		}
		if len(left) > 0 || wt > thirds || wt == thirds && wf > faults {
			// The walk could not keep the stage optimal: the optimum's
			// own pairs stand (拆对).
			for k := range inside {
				inside[k].seq = len(pairs) + k
			}
			walked = inside
		}
		pairs = append(pairs, walked...)
	}
	return pairs
}

// windowLimit bounds the players optimalWindow settles with one weighted
// matching (each with a sink vertex, so twice as many vertices).
const windowLimit = exactLimit / 2

// optimalWindow makes a field too big for one weighted matching optimal
// when the walk's trouble — boundaries crossed more often than the lower
// bound, colour faults, third floats — lies within a window of score levels
// small enough to solve exactly, as it does in big events (a few players
// at the top who have met, a pair in the middle). The window runs from the
// boundary a above it to the boundary b below it (or the field's top or
// bottom); the walk crosses neither, nobody need (an even number above
// each), and outside the window the walk's pairs are at the bound without
// fault. Then, lexicographically from the top: above the window nothing can
// be better; crossing a could only be worse; and the window is paired
// exactly against a relaxation in which each of its players may instead
// float below b to a partner of its own (a sink). If that optimum uses no
// sink it is the true optimum of the window, crossing b not at all, and the
// walk's pairs outside the window stand. A window that reaches the bottom
// also chooses the bye among the candidates (byes; bye is the walk's). It
// returns nil when no window of at most windowLimit players works, else the
// pairs and the bye.
func (f *field) optimalWindow(sorted []*entrant, pairs []made, got, lb objective, lv levels, bye *entrant, byes []*entrant) ([]made, *entrant) {
	nb := len(got.cross)
	count := make([]int, len(lv))
	for _, e := range sorted {
		count[lv.index(e.score)]++
	}
	// Trouble: the window must hold levels lo…hi (a < lo, hi ≤ b).
	lo, hi := len(lv), -1
	span := func(l, h int) { lo, hi = min(lo, l), max(hi, h) }
	for i := range nb {
		if got.cross[i] != lb.cross[i] {
			span(i, i+1)
		}
	}
	levelOf := func(p made) (int, int) {
		i, j := lv.index(p.red.score), lv.index(p.black.score)
		return min(i, j), max(i, j)
	}
	for _, p := range pairs {
		if f.pairFaults(p.red, p.black) > 0 || pairThirds(p.red, p.black) > 0 {
			span(levelOf(p))
		}
	}
	if hi < 0 {
		return nil, nil // nothing to mend
	}
	// A boundary may close the window when the walk does not cross it and
	// an even number of players is above it.
	closes := func(i int) bool { return got.cross[i] == 0 && lb.cross[i] == 0 }
	type window struct{ a, b, size int }
	var ws []window
	for a := lo - 1; a >= -1; a-- {
		if a >= 0 && !closes(a) {
			continue
		}
		for b := max(hi, a+1); b <= nb; b++ {
			if b < nb && !closes(b) {
				continue
			}
			size := 0
			for l := a + 1; l <= b; l++ {
				size += count[l]
			}
			if size <= windowLimit {
				ws = append(ws, window{a, b, size})
			}
		}
	}
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].size < ws[j].size })
	for _, w := range ws {
		var in []*entrant
		for _, e := range sorted {
			if l := lv.index(e.score); l > w.a && l <= w.b {
				in = append(in, e)
			}
		}
		var cands []*entrant
		if w.b == nb && bye != nil {
			in, cands = append(in, bye), byes
		}
		mate, ok := f.optimum(in, cands, w.b < nb)
		if !ok {
			continue
		}
		newBye := bye
		if len(cands) > 0 {
			var rest []*entrant
			for _, e := range in {
				if mate[e] == nil && len(cands) > 1 {
					newBye = e
				} else if e != bye || len(cands) > 1 {
					rest = append(rest, e)
				}
			}
			sort.SliceStable(rest, func(i, j int) bool { return rest[i].score > rest[j].score })
			in = rest
		}
		sunk := false
		for _, m := range mate {
			sunk = sunk || m == sinkMate
		}
		if sunk {
			continue
		}
		var above, below []made
		for _, p := range pairs {
			switch l, _ := levelOf(p); {
			case l <= w.a:
				above = append(above, p)
			case l > w.b:
				below = append(below, p)
			}
		}
		out := append(above, f.rebuild(in, mate)...)
		out = append(out, below...)
		for k := range out {
			out[k].seq = k
		}
		return out, newBye
	}
	return nil, nil
}
