package swiss

import "github.com/xqtour/xqtour/shared/pairing/matching"

// positional pairs the active players of a stage by the hand method of
// appendix 3 §2–3. m holds a maximum matching of them; every proposed pair
// is committed only when a maximum matching of the others one edge smaller
// survives (RemovePair), which is exactly the 拆对 the hand method does by
// trial and error, so the walk never loses a board (P-8). A picker no
// maximum matching covers is left over and floats down (下调); it returns
// those players.
func (f *field) positional(pool []*entrant, m *matching.Matcher, groupScore, seq int) ([]made, []*entrant) {
	// pool is already in P-9 order (prioritize).
	var lists [2][]int // 0: red-due (要先), 1: black-due (要后)
	list := make([]int, len(pool))
	var neutral []int
	for v, e := range pool {
		if !m.Active(v) {
			continue
		}
		switch e.need() {
		case Red:
			lists[0] = append(lists[0], v)
			list[v] = 0
		case Black:
			lists[1] = append(lists[1], v)
			list[v] = 1
		default:
			neutral = append(neutral, v)
		}
	}
	// Players with no colour yet (byes only) join the shorter list, so
	// that the two lists face each other as evenly as possible.
	for _, v := range neutral {
		l := 0
		if len(lists[1]) < len(lists[0]) {
			l = 1
		}
		lists[l] = append(lists[l], v)
		list[v] = l
	}
	done := make([]bool, len(pool))
	for v := range pool {
		done[v] = !m.Active(v)
	}
	type cand struct {
		v, rank int
		reason  Reason
	}
	var head [2]int
	var out []made
	var left []*entrant
	for p := range pool {
		if done[p] {
			continue
		}
		picker := pool[p]
		own, opp := list[p], 1-list[p]
		for _, l := range [2]int{own, opp} {
			for head[l] < len(lists[l]) && done[lists[l][head[l]]] {
				head[l]++
			}
		}
		// Try candidates in the positional order — the opposite list from
		// its head (同位, then 错位), then the own list (通行) — first
		// those who float no one a third time and whose colours by §4
		// avoid +3 and three in a row (the three priorities of §3: 少先
		// with 多先, 连先 with 连后, 上先 with 上后); then those where only
		// swapping §4's colours avoids them; then, the float limit being a
		// hard rule (P-6, appendix 3 §1.9 最多不超过两次) and the colours
		// only a wish (§1.11(3) 应尽可能避免), those with a colour fault
		// before those with a third float.
		met, blocked, avoided := 0, 0, 0
		var c cand
		found := false
		var red, black *entrant
		var ccase ColourCase
		for tier := 0; tier < 8 && !found; tier++ {
			// avoided counts, in this tier's scan, the partners passed
			// over for a colour fault or a third float this tier avoids.
			avoided = 0
			for seg, l := range [2]int{opp, own} {
				if found {
					break
				}
				rank := 0
				for _, v := range lists[l][head[l]:] {
					if done[v] || v == p {
						continue
					}
					r := rank
					rank++
					o := pool[v]
					if !f.compat(picker, o) {
						if tier == 0 {
							met++
						}
						continue
					}
					rc, bc, cc := f.colours(picker, o)
					t := 0
					if cc == ColourAvoidThree {
						t++ // §4 itself would give +3 or three in a row
					}
					if f.colourViolation(rc, bc) {
						t += 2
					}
					if floatViolation(picker, o) {
						t += 4
					}
					if t != tier {
						if t > tier {
							avoided++
						}
						continue
					}
					if !m.RemovePair(p, v) {
						blocked++
						continue
					}
					reason := SameList
					if seg == 0 {
						reason = Offset
						if r == 0 {
							reason = SameRank
						}
					}
					c = cand{v, r, reason}
					found, red, black, ccase = true, rc, bc, cc
					break
				}
			}
		}
		if !found {
			done[p] = true
			left = append(left, picker)
			continue
		}
		o := pool[c.v]
		done[p], done[c.v] = true, true
		reason := c.reason
		if blocked > 0 {
			reason = Undo
		}
		if picker.score > groupScore || o.score > groupScore {
			reason = FloatDown
		}
		out = append(out, made{red: red, black: black, seq: seq + len(out), why: Explanation{
			Group: groupScore, Picker: picker.num, PickedBy: f.pickReason(pool, done, p, groupScore, c.v),
			Reason: reason, Rank: c.rank, Met: met, Blocked: blocked, Avoided: avoided, Colour: ccase,
		}})
	}
	return out, left
}

// pickReason names the P-9 criterion that put the picker ahead of the
// next player in the order.
func (f *field) pickReason(pool []*entrant, done []bool, p, groupScore, partner int) PickReason {
	a := pool[p]
	if a.score > groupScore {
		return PickFloater
	}
	next := partner
	for v := p + 1; v < len(pool); v++ {
		if !done[v] {
			next = v
			break
		}
	}
	b := pool[next]
	if abs(a.diff) != abs(b.diff) {
		return PickImbalance
	}
	if a.diff == b.diff && a.run() != b.run() {
		return PickStreak
	}
	return PickNumber
}

// floatViolation reports whether pairing a with b makes someone float the
// same way a third time (P-6; the float of a player alone in its score
// group is not counted, §1.9).
func floatViolation(a, b *entrant) bool { return pairThirds(a, b) > 0 }

// threeViolation reports whether red playing red and black playing black
// gives either +3 of one colour or three in a row (appendix 3 §1.11(3)).
func threeViolation(red, black *entrant) bool {
	return red.diff+1 >= 3 || red.last == Red && red.streak >= 2 ||
		black.diff-1 <= -3 || black.last == Black && black.streak >= 2
}

// colourViolation is the colour outcome the walk avoids where it can
// (appendix 3 §1.11(3)): +3 or three in a row. In the last round §4(10)
// accepts both rather than change partners (均不拆开重排), so nothing is a
// violation there; colours inside a pair may still swap to avoid +3.
func (f *field) colourViolation(red, black *entrant) bool {
	if f.lastRound() {
		return false
	}
	return threeViolation(red, black)
}

// colours decides who is red (P-11, appendix 3 §4), swapping the rule's
// answer when the swap gives fewer players +3 or three in a row (P-8); in
// the last round only +3 is avoided this way (§4(10), §1.11(4)).
func (f *field) colours(a, b *entrant) (red, black *entrant, why ColourCase) {
	red, black, why = f.colourRule(a, b)
	if f.colourFaultCount(black, red) < f.colourFaultCount(red, black) {
		return black, red, ColourAvoidThree
	}
	return red, black, why
}

// colourFaultCount counts the players the colours give a fault the swap
// looks at: +3 or three in a row, in the last round +3 only.
func (f *field) colourFaultCount(red, black *entrant) int {
	if f.lastRound() {
		n := 0
		if red.diff+1 >= 3 {
			n++
		}
		if black.diff-1 <= -3 {
			n++
		}
		return n
	}
	return colourFaults(red, black)
}

func (f *field) colourRule(a, b *entrant) (red, black *entrant, why ColourCase) {
	// §4(9): from the third-last round, when scores differ, the higher
	// score's colour need wins ("低分服从高分").
	if f.rounds > 0 && f.round >= f.rounds-2 && a.score != b.score {
		hi, lo := a, b
		if lo.score > hi.score {
			hi, lo = lo, hi
		}
		switch hi.need() {
		case Red:
			return hi, lo, ColourHigherScore
		case Black:
			return lo, hi, ColourHigherScore
		}
	}
	// §4(1): fewer reds gets red.
	if a.diff != b.diff {
		if a.diff < b.diff {
			return a, b, ColourFewerReds
		}
		return b, a, ColourFewerReds
	}
	// §4(2)(7): equal counts — the one who had black last gets red; a
	// player with no game yet takes the colour the other does not need.
	if a.last != b.last {
		switch {
		case a.last == Black, b.last == Red:
			return a, b, ColourAlternate
		default:
			return b, a, ColourAlternate
		}
	}
	// §4(3)(5): both black last — the longer black run gets red.
	if a.last == Black && a.streak != b.streak {
		if a.streak > b.streak {
			return a, b, ColourLongerBlacks
		}
		return b, a, ColourLongerBlacks
	}
	// §4(4)(6): both red last — the shorter red run gets red.
	if a.last == Red && a.streak != b.streak {
		if a.streak < b.streak {
			return a, b, ColourShorterReds
		}
		return b, a, ColourShorterReds
	}
	// §4(8): all equal — odd sum of numbers: smaller number red; even:
	// larger number red.
	small, large := a, b
	if small.num > large.num {
		small, large = large, small
	}
	if (a.num+b.num)%2 == 1 {
		return small, large, ColourNumberSum
	}
	return large, small, ColourNumberSum
}
