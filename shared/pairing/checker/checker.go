// Package checker verifies Swiss rounds produced by package swiss against
// the rules (P-1…P-12, S-6, S-7) independently of how they were made,
// and simulates whole events to run the check after every round.
//
// Small sets are checked by brute force (bit-mask search); only sets too
// big for that fall back on package matching, which its own tests compare
// with brute force.
package checker

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/xqtour/xqtour/shared/pairing/matching"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// BruteLimit is the largest field (active players) whose round is
// compared with the brute-force optimum over every complete pairing.
const BruteLimit = 14

// Violation is one broken rule in a round.
type Violation struct {
	Rule string // rule id (shared/RULES.md), e.g. "P-5"
	Msg  string
	// Off names the part of the optimum measure a round misses when it is
	// off the brute-force optimum: OffCrossings, OffThirdFloats or
	// OffColourFaults; empty for every other violation.
	Off string
}

// The parts of the optimum measure, most significant first (Violation.Off).
const (
	OffCrossings    = "crossings"
	OffThirdFloats  = "thirdFloats"
	OffColourFaults = "colourFaults"
)

// Error formats the violation.
func (v Violation) Error() string { return v.Rule + ": " + v.Msg }

type player struct {
	num, score     int
	club           string
	diff           int
	last           swiss.Side
	streak         int
	downs, ups     int
	lone           bool // alone in its score group this round (§1.9)
	hadBye         bool
	met            map[int]bool
	placed         int // times seen in the output
	opponentNumber int
}

type checker struct {
	in        swiss.Input
	out       swiss.Round
	ps        map[int]*player
	active    []*player
	forbidden map[[2]int]bool
	vs        []Violation
}

func (c *checker) fail(rule, format string, args ...any) {
	c.vs = append(c.vs, Violation{Rule: rule, Msg: fmt.Sprintf(format, args...)})
}

func newChecker(in swiss.Input) *checker {
	c := &checker{in: in, ps: map[int]*player{}, forbidden: map[[2]int]bool{}}
	for _, fp := range in.Forbidden {
		c.forbidden[key(fp[0], fp[1])] = true
	}
	for _, p := range in.Players {
		q := &player{num: p.Number, score: p.Score, club: p.Club, met: map[int]bool{}}
		for _, r := range p.History {
			if r.Pending {
				q.score += in.DrawPoints
			}
			if r.Opponent != 0 {
				q.met[r.Opponent] = true
			}
			switch r.Side {
			case swiss.Red, swiss.Black:
				if r.Side == swiss.Red {
					q.diff++
				} else {
					q.diff--
				}
				if r.Side == q.last {
					q.streak++
				} else {
					q.last, q.streak = r.Side, 1
				}
			case swiss.Bye:
				q.hadBye = true
			}
			switch r.Float {
			case swiss.Down:
				q.downs++
			case swiss.Up:
				q.ups++
			}
		}
		c.ps[p.Number] = q
		if p.Status == swiss.Active {
			c.active = append(c.active, q)
		}
	}
	sort.Slice(c.active, func(i, j int) bool { return c.active[i].num < c.active[j].num })
	return c
}

// floatOf is the float of a player with score a meeting score b (P-6).
func floatOf(a, b int) swiss.Float {
	switch {
	case a > b:
		return swiss.Down
	case a < b:
		return swiss.Up
	}
	return swiss.NoFloat
}

func key(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

func (c *checker) compat(a, b *player) bool {
	return a != b && !a.met[b.num] && !c.forbidden[key(a.num, b.num)] &&
		!(c.in.AvoidSameClub && a.club != "" && a.club == b.club)
}

// Check verifies a produced round. It returns nil when every rule holds.
func Check(in swiss.Input, out swiss.Round) []Violation {
	c := newChecker(in)
	c.out = out
	if !c.checkCover() {
		return c.vs
	}
	c.checkBye()
	c.checkColours()
	if in.Round > 1 {
		c.checkOptimum()
	}
	return c.vs
}

// CheckImpossible verifies a swiss.ErrNoPairing answer: no choice of bye
// (to a player without one) leaves a complete pairing (P-8, S-7).
func CheckImpossible(in swiss.Input) []Violation {
	c := newChecker(in)
	n := len(c.active)
	if n%2 == 0 {
		if c.perfect(c.active) {
			c.fail("P-8", "a complete pairing of all %d players exists", n)
		}
		return c.vs
	}
	for i, p := range c.active {
		if p.hadBye {
			continue
		}
		rest := append(append([]*player(nil), c.active[:i]...), c.active[i+1:]...)
		if c.perfect(rest) {
			c.fail("P-8", "bye to %d leaves a complete pairing", p.num)
			break
		}
	}
	return c.vs
}

// checkCover: every active player is paired once or has the bye, nobody
// else appears, no rematch or forbidden pair (P-5, S-6).
func (c *checker) checkCover() bool {
	ok := true
	see := func(num int) *player {
		p := c.ps[num]
		if p == nil {
			c.fail("S-6", "unknown player %d", num)
			ok = false
			return nil
		}
		p.placed++
		return p
	}
	for i, b := range c.out.Boards {
		if b.Table != i+1 {
			c.fail("P-4", "board %d has table %d", i+1, b.Table)
		}
		r, k := see(b.Red), see(b.Black)
		if r == nil || k == nil {
			continue
		}
		if want := floatOf(r.score, k.score); b.RedFloat != want || b.BlackFloat != floatOf(k.score, r.score) {
			c.fail("P-6", "table %d: floats %d/%d do not match scores %d/%d", b.Table, b.RedFloat, b.BlackFloat, r.score, k.score)
		}
		r.opponentNumber, k.opponentNumber = k.num, r.num
		if r == k {
			c.fail("P-5", "player %d paired with self", r.num)
			ok = false
		} else if !c.compat(r, k) {
			c.fail("P-5", "%d-%d have met, are forbidden or club mates", r.num, k.num)
		}
	}
	if c.out.Bye != 0 {
		see(c.out.Bye)
	}
	act := map[int]bool{}
	for _, p := range c.active {
		act[p.num] = true
		if p.placed != 1 {
			c.fail("S-6", "active player %d appears %d times", p.num, p.placed)
			ok = false
		}
	}
	for num, p := range c.ps {
		if !act[num] && p.placed > 0 {
			c.fail("S-6", "inactive player %d is paired", num)
			ok = false
		}
	}
	if (len(c.active)%2 == 1) != (c.out.Bye != 0) {
		c.fail("P-1", "%d active players but bye %d", len(c.active), c.out.Bye)
		ok = false
	}
	return ok
}

// checkBye: the bye goes to someone without one, in the lowest score
// group that can give it without blocking a complete pairing (S-7).
func (c *checker) checkBye() {
	if c.out.Bye == 0 {
		return
	}
	b := c.ps[c.out.Bye]
	if b.hadBye {
		c.fail("S-7", "player %d gets a second bye", b.num)
	}
	for i, p := range c.active {
		if p.hadBye || p.score >= b.score {
			continue
		}
		rest := append(append([]*player(nil), c.active[:i]...), c.active[i+1:]...)
		if c.perfect(rest) {
			c.fail("S-7", "bye to %d (score %d) but %d (score %d) could take it", b.num, b.score, p.num, p.score)
			return
		}
	}
}

// faultsOf counts the players red and black are given +3 of one colour or
// three in a row (appendix 3 §1.11(3)); in the last round only +3, the
// one fault a colour swap still avoids there (§4(10), §1.11(4)).
func faultsOf(red, black *player, last bool) int {
	n := 0
	if red.diff+1 >= 3 || !last && red.last == swiss.Red && red.streak >= 2 {
		n++
	}
	if black.diff-1 <= -3 || !last && black.last == swiss.Black && black.streak >= 2 {
		n++
	}
	return n
}

// checkColours: no colours a swap would improve (+3 or three in a row,
// P-8) and, where no such swap or the third-last-round rule applies, the
// fewer-reds rule §4(1) (P-11). In round 1, odd tables give red to the
// smaller number (P-3).
func (c *checker) checkColours() {
	last := c.in.Rounds > 0 && c.in.Round >= c.in.Rounds
	late := c.in.Rounds > 0 && c.in.Round >= c.in.Rounds-2
	for _, b := range c.out.Boards {
		r, k := c.ps[b.Red], c.ps[b.Black]
		if c.in.Round == 1 {
			smallerRed := r.num < k.num
			if b.Why.Colour == swiss.ColourFirstRound && smallerRed != (b.Table%2 == 1) {
				c.fail("P-3", "table %d: %d red, %d black", b.Table, r.num, k.num)
			}
			continue
		}
		bad, swapBad := faultsOf(r, k, last), faultsOf(k, r, last)
		if swapBad < bad {
			c.fail("P-8", "table %d: %d-%d gives %d players +3 or three in a row; swapping gives %d", b.Table, r.num, k.num, bad, swapBad)
		}
		if swapBad > bad {
			continue // colours chosen to avoid +3 / three in a row
		}
		if late && r.score != k.score {
			continue // §4(9): the higher score's need decides
		}
		if r.diff > k.diff {
			c.fail("P-11", "table %d: %d (diff %+d) red against %d (diff %+d)", b.Table, r.num, r.diff, k.num, k.diff)
		}
		if r.diff == k.diff && r.last == swiss.Red && k.last == swiss.Black {
			c.fail("P-11", "table %d: equal counts, %d had red last but gets red over %d", b.Table, r.num, k.num)
		}
	}
}

// perfect reports whether the players can all be paired: brute force up
// to 20 players, the blossom matcher beyond.
func (c *checker) perfect(set []*player) bool {
	if len(set)%2 == 1 {
		return false
	}
	if len(set) <= 20 {
		memo := map[uint32]bool{}
		var rec func(mask uint32) bool
		rec = func(mask uint32) bool {
			if mask == 0 {
				return true
			}
			if v, ok := memo[mask]; ok {
				return v
			}
			v := bits.TrailingZeros32(mask)
			rest := mask &^ (1 << v)
			res := false
			for r := rest; r != 0 && !res; r &= r - 1 {
				u := bits.TrailingZeros32(r)
				if c.compat(set[v], set[u]) {
					res = rec(rest &^ (1 << u))
				}
			}
			memo[mask] = res
			return res
		}
		return rec(uint32(1)<<len(set) - 1)
	}
	m := matching.New(playerGraph{c, set})
	return 2*m.Size() == len(set)
}

type playerGraph struct {
	c   *checker
	set []*player
}

func (g playerGraph) Len() int               { return len(g.set) }
func (g playerGraph) Adjacent(u, v int) bool { return g.c.compat(g.set[u], g.set[v]) }
