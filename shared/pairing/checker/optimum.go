package checker

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
)

// The optimum a round is held to (P-4, P-10 拆对, P-6, P-8), compared in
// this order: the pairs crossing each score boundary, boundary by boundary
// from the top; then players floating the same way a third time (P-6,
// appendix 3 §1.9: a limit, 最多不超过两次, not counting the float of a
// player alone in its score group, 不含本积分段只有一人必然下调或上调);
// then colour faults (players given +3 of one colour or three in a row,
// §1.11(3): a wish, 应尽可能避免; not counted in the last round, §4(10)).
//
// The checker finds it by brute force, independently of the engine: a
// dynamic programme over every subset of the field (each complete pairing
// of a subset is its lowest player's pair plus a complete pairing of the
// rest), with the measure packed into one integer whose fields never carry.

// field widths of the packed measure: 4 bits each, most significant first:
// one per boundary, then third floats, then colour faults.
const fieldBits = 4

// measure packs the objective of one pairing.
type measure uint64

const noPairing = measure(math.MaxUint64)

// scorer computes the packed cost of a pair.
type scorer struct {
	levels []int // distinct scores of the paired players, highest first
	last   bool
}

func (s scorer) level(score int) int {
	return sort.Search(len(s.levels), func(i int) bool { return s.levels[i] <= score })
}

func (s scorer) boundaries() int { return max(len(s.levels)-1, 0) }

// shift of boundary i's field.
func (s scorer) shift(i int) uint { return uint(2*fieldBits + fieldBits*(s.boundaries()-1-i)) }

// thirds counts the players of a pair floating the same way a third time;
// a player alone in its score group this round floats by necessity, and
// §1.9 does not count that float.
func thirds(a, b *player) int {
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

// cost is the packed measure of red playing black.
func (s scorer) cost(red, black *player) measure {
	var m measure
	i, j := s.level(red.score), s.level(black.score)
	if i > j {
		i, j = j, i
	}
	for k := i; k < j; k++ {
		m += 1 << s.shift(k)
	}
	m += measure(thirds(red, black)) << fieldBits
	if !s.last {
		m += measure(faultsOf(red, black, false))
	}
	return m
}

// best is the cost of a pair with its better colouring.
func (s scorer) best(a, b *player) measure {
	return min(s.cost(a, b), s.cost(b, a))
}

// describe names the first field where got exceeds want: its rule, its
// part of the measure (Violation.Off) and what it found.
func (s scorer) describe(got, want measure) (rule, off, msg string) {
	field := func(m measure, sh uint) int { return int(m>>sh) & (1<<fieldBits - 1) }
	for i := 0; i < s.boundaries(); i++ {
		g, w := field(got, s.shift(i)), field(want, s.shift(i))
		if g != w {
			return "P-4", OffCrossings, fmt.Sprintf("score boundary %d|%d crossed by %d pairs, %d possible (拆对 from the top, P-10)", s.levels[i], s.levels[i+1], g, w)
		}
	}
	if g, w := field(got, fieldBits), field(want, fieldBits); g != w {
		return "P-6", OffThirdFloats, fmt.Sprintf("%d third floats, %d possible", g, w)
	}
	return "P-8", OffColourFaults, fmt.Sprintf("%d colour faults (+3 or three in a row), %d possible", field(got, 0), field(want, 0))
}

// checkOptimum compares the round with the brute-force optimum over every
// complete pairing of the field (with every allowed bye) when the field is
// at most BruteLimit players.
func (c *checker) checkOptimum() {
	if len(c.active) > BruteLimit {
		return
	}
	var paired []*player
	for _, p := range c.active {
		if p.num != c.out.Bye {
			paired = append(paired, p)
		}
	}
	sc := scorer{last: c.in.Rounds > 0 && c.in.Round >= c.in.Rounds}
	// Every bye candidate has the bye's score, so who is alone in a score
	// group once the bye is given does not depend on which one takes it.
	size := map[int]int{}
	for _, p := range paired {
		if size[p.score] == 0 {
			sc.levels = append(sc.levels, p.score)
		}
		size[p.score]++
	}
	for _, p := range c.active {
		p.lone = size[p.score] == 1
	}
	sort.Sort(sort.Reverse(sort.IntSlice(sc.levels)))
	if sc.boundaries()*fieldBits+2*fieldBits > 64 {
		return
	}
	var got measure
	for _, b := range c.out.Boards {
		got += sc.cost(c.ps[b.Red], c.ps[b.Black])
	}
	want := c.bruteOptimum(sc)
	switch {
	case want == noPairing:
		c.fail("P-8", "the checker finds no complete pairing, but the round has one")
	case got > want:
		rule, off, msg := sc.describe(got, want)
		c.fail(rule, "%s", msg)
		c.vs[len(c.vs)-1].Off = off
	case got < want:
		c.fail("P-4", "the round beats the brute-force optimum: the checker is wrong")
	}
}

// bruteOptimum returns the least measure over every complete pairing of
// the active players, the bye (if the field is odd) going to any player
// without one at the round's bye score (S-7).
func (c *checker) bruteOptimum(sc scorer) measure {
	ps := c.active
	n := len(ps)
	best := make([]measure, 1<<n)
	best[0] = 0
	for mask := uint32(1); mask < 1<<n; mask++ {
		best[mask] = noPairing
		if bits.OnesCount32(mask)%2 == 1 {
			continue
		}
		v := bits.TrailingZeros32(mask)
		rest := mask &^ (1 << v)
		for r := rest; r != 0; r &= r - 1 {
			u := bits.TrailingZeros32(r)
			sub := best[rest&^(1<<u)]
			if sub == noPairing || !c.compat(ps[v], ps[u]) {
				continue
			}
			if m := sub + sc.best(ps[v], ps[u]); m < best[mask] {
				best[mask] = m
			}
		}
	}
	full := uint32(1)<<n - 1
	if n%2 == 0 {
		return best[full]
	}
	byeScore := c.ps[c.out.Bye].score
	want := noPairing
	for i, p := range ps {
		if p.hadBye || p.score != byeScore {
			continue
		}
		want = min(want, best[full&^(1<<i)])
	}
	return want
}
