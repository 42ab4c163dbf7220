package standings

import (
	"slices"
	"strconv"
)

// Tiebreak is one criterion's value for one row. The value is Num/Denom:
// Denom is 1, or 2 for criteria that may hold halves (小分, 对手分), which are
// kept doubled so that every value stays an integer.
type Tiebreak struct {
	Name  Criterion
	Num   int
	Denom int
}

// Float64 is the value as a number, for JSON and CSV.
func (t Tiebreak) Float64() float64 { return float64(t.Num) / float64(t.Denom) }

// String is the value in decimal: "7", "7.5".
func (t Tiebreak) String() string { return fraction(t.Num, t.Denom) }

func fraction(num, denom int) string {
	// Only whole numbers and halves occur, both exact in a float64.
	return strconv.FormatFloat(float64(num)/float64(max(denom, 1)), 'f', -1, 64)
}

// critEval is one criterion ready to be applied to the entities of one
// table: either a value per entity (global) or a function of the group of
// entities still tied at that point (local; R-11 direct encounter).
type critEval struct {
	name   Criterion
	lower  bool // lower is better (fouls, places, previous rank)
	denom  int
	global []int
	local  func(group []int, out []int)
}

// ranking is the outcome of applying a chain: entities in table order, each
// with its place and the size of the group it still shares that place with.
type ranking struct {
	order   []int   // entity indices, best first
	rank    []int   // by entity: 1-based place; tied entities share the first
	groupLo []int   // by entity: first position of its still-tied group
	groupHi []int   // by entity: one past the last position
	values  [][]int // [criterion][entity]
}

// rankEntities orders the initial entities (indices below n) by the chain, R-11: each criterion is
// applied only to the entities still tied; each part it splits them into
// continues with the next criterion, never restarting the chain. initial is
// the display order among entities that stay tied (R-10 shared places).
func rankEntities(n int, crits []critEval, initial []int) ranking {
	r := ranking{
		order:   slices.Clone(initial),
		rank:    make([]int, n),
		groupLo: make([]int, n),
		groupHi: make([]int, n),
		values:  make([][]int, len(crits)),
	}
	for k, c := range crits {
		if c.global != nil {
			r.values[k] = c.global
		} else {
			r.values[k] = make([]int, n)
		}
	}
	type segment struct{ lo, hi, k int }
	stack := []segment{{0, len(initial), 0}}
	var buf []int
	for len(stack) > 0 {
		sg := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if sg.hi-sg.lo <= 1 || sg.k == len(crits) {
			for i := sg.lo; i < sg.hi; i++ {
				e := r.order[i]
				r.rank[e] = sg.lo + 1
				r.groupLo[e] = sg.lo
				r.groupHi[e] = sg.hi
			}
			continue
		}
		c := crits[sg.k]
		part := r.order[sg.lo:sg.hi]
		vals := r.values[sg.k]
		if c.local != nil {
			buf = slices.Grow(buf[:0], len(part))[:len(part)]
			c.local(part, buf)
			for i, e := range part {
				vals[e] = buf[i]
			}
		}
		if c.lower {
			slices.SortStableFunc(part, func(a, b int) int { return vals[a] - vals[b] })
		} else {
			slices.SortStableFunc(part, func(a, b int) int { return vals[b] - vals[a] })
		}
		for i := sg.lo; i < sg.hi; {
			j := i + 1
			for j < sg.hi && vals[r.order[j]] == vals[r.order[i]] {
				j++
			}
			stack = append(stack, segment{i, j, sg.k + 1})
			i = j
		}
	}
	return r
}

// NoPlayoff, as Event.PlayoffPlaces, lets every still-tied group share its
// place, the title included (R-10 when the event's rules say so in advance).
const NoPlayoff = -1

// playoffPlaces resolves the R-10 setting: 0 means the rule book's default,
// a play-off for the title only (seed 000 ch.7 §2.3.6: 冠军或不宜并列的名次,
// 应安排加赛).
func playoffPlaces(p int) int {
	switch {
	case p == 0:
		return 1
	case p < 0:
		return 0
	}
	return p
}

// needsPlayoff: a still-tied group needs a play-off when it contends for a
// place the event decides by play-off.
func (r ranking) needsPlayoff(e, places int) bool {
	return r.groupHi[e]-r.groupLo[e] > 1 && r.groupLo[e] < places
}

// shared reports whether entity e still shares its place.
func (r ranking) shared(e int) bool { return r.groupHi[e]-r.groupLo[e] > 1 }
