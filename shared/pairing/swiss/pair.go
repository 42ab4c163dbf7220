package swiss

import (
	"errors"
	"fmt"
	"sort"

	"github.com/xqtour/xqtour/shared/pairing/matching"
)

// Errors returned by Pair; they are wrapped with context.
var (
	// ErrInput marks an inconsistent Input (duplicate numbers, history
	// length not Round-1, unknown opponents).
	ErrInput = errors.New("swiss: invalid input")
	// ErrNoPairing means no complete pairing of the round exists at all:
	// every choice of bye (S-7) leaves players who have all met.
	ErrNoPairing = errors.New("swiss: no complete pairing exists")
)

// exactLimit bounds the players of a weighted (O(n³)) matching — about
// 0.2 s at 300 (BenchmarkMaxWeight300): a score group plus everyone below
// it when the walk needs help choosing floaters (bigger stages merge with
// the next group, never needed in simulations), and the whole field for
// the optimum of a round the walk does not pair at the lower bound. A
// bigger field mends a window of score levels around the trouble
// (optimalWindow); when none proves optimal the walk's round stands,
// complete but not proven optimal.
const exactLimit = 300

// wholeFieldLimit is the largest field paired by one weighted matching over
// everyone; bigger fields mend a window (optimalWindow). Tests lower it to
// check the window against the whole-field optimum.
var wholeFieldLimit = exactLimit

// entrant is an active player with the facts the rules look at.
type entrant struct {
	num    int
	score  int // pairing score: finished points plus pending games as draws (P-12)
	club   int // interned club, -1 for none
	diff   int // reds minus blacks
	last   Side
	streak int // length of the run of `last` at the end of the history
	downs  int
	ups    int
	lone   bool // alone in its score group this round: its float is not counted (markLone)
	hadBye bool
	opp    []int
	prio   int // position in the P-9 order of its stage, set per stage
}

// need is the colour the player is due (P-7): red for fewer reds or equal
// counts with black last; black for the reverse; Absent when neither.
func (e *entrant) need() Side {
	switch {
	case e.diff < 0, e.diff == 0 && e.last == Black:
		return Red
	case e.diff > 0, e.diff == 0 && e.last == Red:
		return Black
	}
	return Absent
}

// run is the length of the player's run of one colour (连先/连后) for the
// P-9 order; a single game of the last colour is no run.
func (e *entrant) run() int {
	if e.streak < 2 {
		return 0
	}
	return e.streak
}

// field is one round's pairing problem.
type field struct {
	round, rounds int
	ents          []*entrant
	forbidden     map[[2]int]bool
	avoidClub     bool
}

func (f *field) compat(a, b *entrant) bool {
	if a == b {
		return false
	}
	for _, o := range a.opp {
		if o == b.num {
			return false
		}
	}
	if f.avoidClub && a.club >= 0 && a.club == b.club {
		return false
	}
	if len(f.forbidden) > 0 {
		k := [2]int{a.num, b.num}
		if k[0] > k[1] {
			k[0], k[1] = k[1], k[0]
		}
		if f.forbidden[k] {
			return false
		}
	}
	return true
}

// graph is the compatibility graph of a list of entrants (P-5).
type graph struct {
	f  *field
	ps []*entrant
}

func (g graph) Len() int               { return len(g.ps) }
func (g graph) Adjacent(u, v int) bool { return g.f.compat(g.ps[u], g.ps[v]) }

// made is a pair before tables are numbered.
type made struct {
	red, black *entrant
	why        Explanation
	seq        int
}

// Pair pairs round in.Round. It is deterministic: the same input gives the
// same round. Players other than Active are not paired (S-6).
func Pair(in Input) (Round, error) {
	f, err := newField(in)
	if err != nil {
		return Round{}, fmt.Errorf("pair round %d: %w", in.Round, err)
	}
	out := Round{Round: in.Round}
	ents := f.ents
	if len(ents) == 0 {
		return out, nil
	}
	var pairs []made
	if in.Round == 1 {
		pairs, out.Bye, out.ByeWhy, err = f.firstRound(in.First)
	} else {
		pairs, out.Bye, out.ByeWhy, err = f.laterRound()
	}
	if err != nil {
		return Round{}, fmt.Errorf("pair round %d: %w", in.Round, err)
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		a, b := pairs[i], pairs[j]
		ah, al := hiLo(a.red.score, a.black.score)
		bh, bl := hiLo(b.red.score, b.black.score)
		if ah != bh {
			return ah > bh
		}
		if al != bl {
			return al > bl
		}
		return a.seq < b.seq
	})
	for i, p := range pairs {
		pr := Board{Table: i + 1, Red: p.red.num, Black: p.black.num, Why: p.why}
		switch {
		case p.red.score > p.black.score:
			pr.RedFloat, pr.BlackFloat = Down, Up
		case p.red.score < p.black.score:
			pr.RedFloat, pr.BlackFloat = Up, Down
		}
		out.Boards = append(out.Boards, pr)
	}
	return out, nil
}

func hiLo(a, b int) (int, int) {
	if a > b {
		return a, b
	}
	return b, a
}

func newField(in Input) (*field, error) {
	if in.Round < 1 {
		return nil, fmt.Errorf("%w: round %d", ErrInput, in.Round)
	}
	f := &field{round: in.Round, rounds: in.Rounds, avoidClub: in.AvoidSameClub}
	seen := map[int]bool{}
	clubs := map[string]int{}
	for _, p := range in.Players {
		if p.Number <= 0 || seen[p.Number] {
			return nil, fmt.Errorf("%w: pairing number %d missing or repeated", ErrInput, p.Number)
		}
		seen[p.Number] = true
		if len(p.History) != in.Round-1 {
			return nil, fmt.Errorf("%w: player %d has %d rounds of history, want %d", ErrInput, p.Number, len(p.History), in.Round-1)
		}
		if p.Status != Active {
			continue
		}
		e := &entrant{num: p.Number, score: p.Score, club: -1}
		if p.Club != "" {
			id, ok := clubs[p.Club]
			if !ok {
				id = len(clubs)
				clubs[p.Club] = id
			}
			e.club = id
		}
		for _, r := range p.History {
			switch r.Side {
			case Red:
				e.diff++
			case Black:
				e.diff--
			case Bye:
				e.hadBye = true
			}
			if r.Side == Red || r.Side == Black {
				if r.Side == e.last {
					e.streak++
				} else {
					e.last, e.streak = r.Side, 1
				}
			}
			if r.Opponent != 0 {
				e.opp = append(e.opp, r.Opponent)
			}
			if r.Pending {
				e.score += in.DrawPoints
			}
			switch r.Float {
			case Down:
				e.downs++
			case Up:
				e.ups++
			}
		}
		f.ents = append(f.ents, e)
	}
	for _, p := range in.Players {
		for _, r := range p.History {
			if r.Opponent != 0 && !seen[r.Opponent] {
				return nil, fmt.Errorf("%w: player %d met unknown player %d", ErrInput, p.Number, r.Opponent)
			}
		}
	}
	if len(in.Forbidden) > 0 {
		f.forbidden = map[[2]int]bool{}
		for _, fp := range in.Forbidden {
			a, b := fp[0], fp[1]
			if a > b {
				a, b = b, a
			}
			f.forbidden[[2]int{a, b}] = true
		}
	}
	sort.Slice(f.ents, func(i, j int) bool { return f.ents[i].num < f.ents[j].num })
	return f, nil
}

// chooseBye gives the bye (S-7, P-1) to the first player in order who has
// not had one and whose absence leaves a complete pairing of everyone
// else. It returns nil when the field is even; an error when no complete
// pairing exists.
func (f *field) chooseBye(order []*entrant) (*entrant, string, error) {
	// The matcher sees the order reversed: its greedy start then leaves
	// the first candidates free, and taking a free vertex out is free.
	n := len(order)
	rev := make([]*entrant, n)
	for i, e := range order {
		rev[n-1-i] = e
	}
	m := matching.New(graph{f, rev})
	if m.Size() < n/2 {
		return nil, "", fmt.Errorf("%w: at most %d of %d boards can be paired", ErrNoPairing, m.Size(), n/2)
	}
	if n%2 == 0 {
		return nil, "", nil
	}
	hadBye, blocked := 0, 0
	for i, e := range order {
		if e.hadBye {
			hadBye++
			continue
		}
		if m.RemoveIfKeeps(n - 1 - i) {
			why := fmt.Sprintf("S-7: lowest score group (score %d), no bye before", e.score)
			if hadBye+blocked > 0 {
				why += fmt.Sprintf("; passed over %d who had a bye and %d whose bye would block a complete pairing", hadBye, blocked)
			}
			return e, why, nil
		}
		blocked++
	}
	return nil, "", fmt.Errorf("%w: every player who could take the bye has had one or would block the pairing", ErrNoPairing)
}

// firstRound pairs round 1 by number (P-3). The greedy takes each
// method's preferred partner unless that would block a complete pairing
// (forbidden pairs, P-5), so it always finds one when one exists.
func (f *field) firstRound(method FirstRound) ([]made, int, string, error) {
	order := append([]*entrant(nil), f.ents...)
	// The bye goes to the largest number that can take it.
	rev := make([]*entrant, len(order))
	for i, e := range order {
		rev[len(order)-1-i] = e
	}
	bye, byeWhy, err := f.chooseBye(rev)
	if err != nil {
		return nil, 0, "", err
	}
	byeNum := 0
	if bye != nil {
		byeNum = bye.num
		kept := order[:0]
		for _, e := range order {
			if e != bye {
				kept = append(kept, e)
			}
		}
		order = kept
	}
	n := len(order)
	m := matching.New(graph{f, order})
	done := make([]bool, n)
	var pairs []made
	table := 0
	hi := n - 1 // largest number not yet paired, for TopBottom
	for i := 0; i < n; i++ {
		if done[i] {
			continue
		}
		for hi > i && done[hi] {
			hi--
		}
		// cand yields the method's k-th preferred partner index, or -1.
		cand := func(k int) int {
			var j int
			switch method {
			case TopBottom:
				j = hi - k
			case Halves:
				// i+n/2 … n-1 first, then i+1 … i+n/2-1.
				first := max(0, n-i-n/2)
				if k < first {
					j = i + n/2 + k
				} else if j = i + 1 + k - first; j >= i+n/2 {
					return -1
				}
			default:
				j = i + 1 + k
			}
			if j <= i || j >= n {
				return -1
			}
			return j
		}
		met, blocked, rank := 0, 0, -1
		for k := 0; ; k++ {
			j := cand(k)
			if j < 0 {
				break
			}
			if done[j] {
				continue
			}
			rank++
			if !f.compat(order[i], order[j]) {
				met++
				continue
			}
			if !m.RemovePair(i, j) {
				blocked++
				continue
			}
			done[i], done[j] = true, true
			table++
			a, b := order[i], order[j] // a has the smaller number
			red, black := a, b
			if table%2 == 0 {
				red, black = b, a
			}
			reason := FirstRoundPair
			if blocked > 0 {
				reason = Undo
			}
			pairs = append(pairs, made{red: red, black: black, seq: table, why: Explanation{
				Picker: a.num, PickedBy: PickFirstRound, Reason: reason,
				Rank: rank, Met: met, Blocked: blocked, Colour: ColourFirstRound,
			}})
			break
		}
		if !done[i] {
			return nil, 0, "", fmt.Errorf("%w: player %d has no partner", ErrNoPairing, order[i].num)
		}
	}
	return pairs, byeNum, byeWhy, nil
}

// laterRound pairs rounds 2… score group by score group from the top (P-4).
func (f *field) laterRound() ([]made, int, string, error) {
	// Order for the bye: lowest score first, then the largest number.
	byeOrder := append([]*entrant(nil), f.ents...)
	sort.SliceStable(byeOrder, func(i, j int) bool {
		a, b := byeOrder[i], byeOrder[j]
		if a.score != b.score {
			return a.score < b.score
		}
		return a.num > b.num
	})
	bye, byeWhy, err := f.chooseBye(byeOrder)
	if err != nil {
		return nil, 0, "", err
	}
	sorted := make([]*entrant, 0, len(f.ents))
	byeNum := 0
	for _, e := range f.ents {
		if e == bye {
			byeNum = e.num
			continue
		}
		sorted = append(sorted, e)
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].score > sorted[j].score })
	markLone(sorted, bye)

	var pairs []made
	var carry []*entrant
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j].score == sorted[i].score {
			j++
		}
		groupScore := sorted[i].score
		pool := append(append([]*entrant(nil), carry...), sorted[i:j]...)
		rest := sorted[j:]
		i = j
		f.prioritize(pool)
		made, floaters, ok := f.stage(pool, rest, groupScore, len(pairs))
		if !ok {
			// Too big for the exact check: treat this group and the
			// next as one (appendix 3 §5(2)).
			carry = pool
			continue
		}
		pairs = append(pairs, made...)
		carry = floaters
	}
	// The walk above is optimal whenever it reaches the lower bound; if
	// not, an exact weighted matching finds the optimum (拆对 as far up as
	// it takes, P-10) and the walk is redone around its floaters.
	lv := levelsOf(sorted)
	got := f.measure(pairs, lv)
	if !got.less(lowerBound(sorted, lv)) && !lowerBound(sorted, lv).less(got) {
		return pairs, byeNum, byeWhy, nil
	}
	var cands []*entrant
	if bye != nil {
		for _, e := range f.ents {
			if e.score == bye.score && !e.hadBye {
				cands = append(cands, e)
			}
		}
	}
	mate, ok := f.optimum(f.ents, cands, false)
	if len(f.ents) > wholeFieldLimit {
		ok = false
	}
	if !ok {
		// Too big for one weighted matching: settle the window of score
		// levels the trouble lies in exactly, when the walk is optimal outside it.
		if mended, wb := f.optimalWindow(sorted, pairs, got, lowerBound(sorted, lv), lv, bye, cands); mended != nil {
			if wb != bye {
				byeNum = wb.num
				byeWhy = fmt.Sprintf("S-7: lowest score group (score %d), no bye before; this bye lets the others pair with the fewest floats (P-4)", wb.score)
			}
			return mended, byeNum, byeWhy, nil
		}
		return pairs, byeNum, byeWhy, nil
	}
	optBye := bye
	var opt []*entrant
	for _, e := range sorted {
		if mate[e] == nil {
			optBye = e
		}
	}
	for _, e := range f.ents {
		if e != optBye {
			opt = append(opt, e)
		}
	}
	sort.SliceStable(opt, func(i, j int) bool { return opt[i].score > opt[j].score })
	rebuilt := f.rebuild(opt, mate)
	if !f.measure(rebuilt, lv).less(got) {
		return pairs, byeNum, byeWhy, nil
	}
	if optBye != bye {
		byeNum = optBye.num
		byeWhy = fmt.Sprintf("S-7: lowest score group (score %d), no bye before; this bye lets the others pair with the fewest floats (P-4)", optBye.score)
	}
	return rebuilt, byeNum, byeWhy, nil
}

// prioritize sorts a stage's players into the P-9 order and numbers them:
// higher score (a floater from above) first; then the larger colour
// difference; between equal differences the longer run of one colour; then
// by number — smaller first in odd rounds, larger first in even rounds.
func (f *field) prioritize(pool []*entrant) {
	sort.SliceStable(pool, func(i, j int) bool { return f.before(pool[i], pool[j]) })
	for i, e := range pool {
		e.prio = i
	}
}

func (f *field) before(a, b *entrant) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if abs(a.diff) != abs(b.diff) {
		return abs(a.diff) > abs(b.diff)
	}
	// §2(3): equal counts — "均为少先或多先或平先", so also two players
	// one red short — the one with a run (连先/连后) first, the longer run
	// first; one game of a colour is no run. Between a player one red
	// short and one red over (equal imbalance, §2(2)) the run does not
	// count: the number decides.
	if ra, rb := a.run(), b.run(); a.diff == b.diff && ra != rb {
		return ra > rb
	}
	if f.round%2 == 1 {
		return a.num < b.num
	}
	return a.num > b.num
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// floatOrder lists a stage's players from the most to the least suitable
// to float down when the group cannot pair everyone: group members before
// floaters from above (P-4, cross as few groups as possible), fewer
// earlier down-floats first (P-6: balanced, at most two), then the end of
// the P-9 order (the one the hand method is left with).
func floatOrder(pool []*entrant, groupScore int) []int {
	idx := make([]int, len(pool))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		a, b := pool[idx[x]], pool[idx[y]]
		ac, bc := a.score > groupScore, b.score > groupScore
		if ac != bc {
			return !ac
		}
		if atDownLimit(a) != atDownLimit(b) {
			return !atDownLimit(a)
		}
		if a.downs != b.downs {
			return a.downs < b.downs
		}
		return a.prio > b.prio
	})
	return idx
}

// stage pairs one score group together with the players carried down
// into it (P-4) and returns the players it floats down. The group is
// paired as completely as possible (P-7) such that those who float and
// everyone below can still all be paired (P-8). The hand walk (positional)
// decides first; its leftover stands when it is as good as the best
// possible choice of floaters — as few floaters from above floating again
// (P-4) and as few third down-floats (P-6) — and lets the rest complete.
// Otherwise the best floaters are fixed first and the walk pairs the others.
// ok is false only when the exact check would be too big.
func (f *field) stage(pool, rest []*entrant, groupScore, seq int) ([]made, []*entrant, bool) {
	m := matching.New(graph{f, pool})
	if len(rest) == 0 {
		if 2*m.Size() != len(pool) {
			// Cannot happen: chooseBye proved a complete pairing exists
			// and every stage keeps one for everyone below it.
			panic("swiss: last score group cannot be paired")
		}
		made, _ := f.positional(pool, m, groupScore, seq)
		return made, nil, true
	}
	trial := m.Clone()
	made, left := f.positional(pool, trial, groupScore, seq)
	best := f.bestFloaters(pool, m, groupScore)
	if floatCost(left, groupScore) == floatCost(best, groupScore) && f.completes(left, rest) {
		return made, left, true
	}
	if f.completes(best, rest) {
		made, _ = f.positional(pool, m, groupScore, seq)
		return made, best, true
	}
	if len(best) == 1 {
		// One floater: try each player who may be left out, in
		// floatOrder, until the rest can be paired — exact and cheap.
		for _, v := range floatOrder(pool, groupScore) {
			one := matching.New(graph{f, pool})
			if pool[v] == best[0] || !one.RemoveIfKeeps(v) || !f.completes(pool[v:v+1], rest) {
				continue
			}
			made, _ = f.positional(pool, one, groupScore, seq)
			return made, []*entrant{pool[v]}, true
		}
	}
	if len(pool)+len(rest) > exactLimit {
		return nil, nil, false
	}
	m, best = f.splitExact(pool, rest, floatOrder(pool, groupScore), groupScore)
	made, _ = f.positional(pool, m, groupScore, seq)
	return made, best, true
}

// floatCost counts floaters from above and players at their down-float
// limit among those floating down, the two things floatOrder minimises.
func floatCost(fl []*entrant, groupScore int) [2]int {
	var c [2]int
	for _, e := range fl {
		if e.score > groupScore {
			c[0]++
		}
		if atDownLimit(e) {
			c[1]++
		}
	}
	return c
}

// bestFloaters removes from m (a maximum matching of the stage) the best
// set of players to float down in floatOrder and returns them; m is then a
// perfect matching of the others.
func (f *field) bestFloaters(pool []*entrant, m *matching.Matcher, groupScore int) []*entrant {
	want := len(pool) - 2*m.Size()
	var floaters []*entrant
	// Greedy over a matroid: the sets that may be left out of a maximum
	// matching are the independent sets of the dual of the matching
	// matroid, so taking candidates in preference order is optimal.
	for _, v := range floatOrder(pool, groupScore) {
		if len(floaters) == want {
			break
		}
		if m.RemoveIfKeeps(v) {
			floaters = append(floaters, pool[v])
		}
	}
	return floaters
}

// completes reports whether the floaters and everyone below can all be
// paired.
func (f *field) completes(floaters, rest []*entrant) bool {
	all := append(append([]*entrant(nil), floaters...), rest...)
	m := matching.New(graph{f, all})
	return 2*m.Size() == len(all)
}

// splitExact finds the fewest floaters with a weighted matching over the
// stage and everyone below: an edge inside the stage or inside the rest is
// worth 2B, an edge from a stage player down is worth B plus a small bonus
// for players early in floatOrder. A perfect matching of maximum weight
// therefore has the fewest edges leaving the stage, and among those the
// preferred floaters.
func (f *field) splitExact(pool, rest []*entrant, order []int, groupScore int) (*matching.Matcher, []*entrant) {
	np := len(pool)
	all := append(append([]*entrant(nil), pool...), rest...)
	// The bonus ranks floaters lexicographically like floatOrder: group
	// members before floaters from above, then players below the float
	// limit, then the order itself; big exceeds any sum of bonuses.
	n64 := int64(np)
	bonus := make([]int64, np)
	for rank, v := range order {
		e := pool[v]
		if e.score <= groupScore {
			bonus[v] += n64 * n64
		}
		if !atDownLimit(e) {
			bonus[v] += n64
		}
		bonus[v] += n64 - int64(rank)
	}
	big := 3*n64*n64*n64 + 1
	var edges []matching.Edge
	for u := 0; u < len(all); u++ {
		for v := u + 1; v < len(all); v++ {
			if !f.compat(all[u], all[v]) {
				continue
			}
			w := 2 * big
			if u < np && v >= np {
				w = big + bonus[u]
			}
			edges = append(edges, matching.Edge{U: u, V: v, Weight: w})
		}
	}
	mate := matching.MaxWeight(len(all), edges, true)
	var floaters []*entrant
	for u := 0; u < np; u++ {
		if mate[u] >= np {
			floaters = append(floaters, pool[u])
		}
	}
	m := matching.New(graph{f, pool})
	for u := 0; u < np; u++ {
		if mate[u] >= np {
			m.Remove(u)
		}
	}
	return m, floaters
}
