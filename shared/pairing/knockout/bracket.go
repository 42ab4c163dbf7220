package knockout

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Errors of bracket construction and advancement.
var (
	ErrEntrants = errors.New("knockout: a bracket needs at least 2 distinct entrants")
	ErrResults  = errors.New("knockout: results do not match the round")
	ErrFinished = errors.New("knockout: the bracket is finished")
	ErrRunning  = errors.New("knockout: the bracket is not finished")
)

// BracketSize is the smallest power of two holding n entrants.
func BracketSize(n int) int {
	s := 1
	for s < n {
		s *= 2
	}
	return s
}

// SeedOrder returns the seeds in bracket-slot order for a bracket of size
// (a power of two): adjacent slots meet in round 1, e.g. for 16
// 1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11 — 1 v 16, 8 v 9, …; seeds 1 and 2
// can meet only in the final, 1–4 only from the semi-finals. With fewer
// entrants than slots the missing seeds are the largest, so the byes fall
// to the top seeds (S-3).
func SeedOrder(size int) []int {
	order := []int{1}
	for n := 2; n <= size; n *= 2 {
		next := make([]int, 0, n)
		for _, s := range order {
			next = append(next, s, n+1-s)
		}
		order = next
	}
	return order
}

// Match is one match the organiser must create. A is the upper slot of the
// bracket, B the lower; colours are drawn per match (DrawFirstRed).
type Match struct {
	ID    string
	Round int
	A, B  string
}

// Result reports the winner of a match of the round just played.
type Result struct {
	Match  string
	Winner string
}

// Place is a final placing; players knocked out in the same round share it
// unless a placing match separated them.
type Place struct {
	Player string
	Place  int
}

type sourceKind int8

const (
	fromEntrant sourceKind = iota
	fromWinner
	fromLoser
)

type source struct {
	kind    sourceKind
	entrant string // fromEntrant; "" is a bye
	node    int
}

type node struct {
	id    string
	round int
	in    [2]source
	// places fixed by this match (winner, loser); 0 = by knockout round.
	winPlace, losePlace int
	// onlyIfBWins: a grand-final reset, played only when B won the input.
	onlyIfBWins bool

	a, b            string
	ready, resolved bool
	skipped, bye    bool
	winner, loser   string
}

// Bracket is an elimination event advanced round by round from results. It
// is deterministic: a stateless service rebuilds it by constructing it
// again and replaying NextRound with each stored round's results in order.
type Bracket struct {
	nodes    []node
	seeds    map[string]int
	round    int
	current  []int // nodes played this round
	finished bool
}

// newBracket checks the slots and ranks players by seeds (best first), the
// order ties in Places are listed in.
func newBracket(slots, seeds []string) (*Bracket, error) {
	rank := map[string]int{}
	for i, e := range seeds {
		rank[e] = i + 1
	}
	seen := map[string]bool{}
	n := 0
	for _, e := range slots {
		if e == "" {
			continue
		}
		if seen[e] {
			return nil, fmt.Errorf("entrant %q twice: %w", e, ErrEntrants)
		}
		seen[e] = true
		n++
	}
	if n < 2 {
		return nil, fmt.Errorf("%d entrants: %w", n, ErrEntrants)
	}
	return &Bracket{seeds: rank}, nil
}

func (b *Bracket) add(nd node) int {
	b.nodes = append(b.nodes, nd)
	return len(b.nodes) - 1
}

func seeded(entrants []string) []string {
	size := BracketSize(len(entrants))
	slots := make([]string, size)
	for i, s := range SeedOrder(size) {
		if s <= len(entrants) {
			slots[i] = entrants[s-1]
		}
	}
	return slots
}

// NewSingle builds a single-elimination bracket (S-3) for entrants listed
// best seed first; byes go to the top seeds. With thirdPlace the semi-final
// losers meet for places 3 and 4 (S-4 top four: 1v4, 2v3, final and third
// place).
func NewSingle(entrants []string, thirdPlace bool) (*Bracket, error) {
	return newSingle(seeded(entrants), entrants, lowestPlace(thirdPlace))
}

// NewSingleWithPlacings builds a single elimination whose matches decide
// every place down to lowest (附加赛, 001 §10.3: 适当安排预选赛、附加赛): the
// semi-final losers meet for 3–4, and the losers of each earlier round m
// play a bracket of their own for places m+1 … 2m (the quarter-final losers
// for 5–8: two matches, then 5–6 and 7–8), each of those brackets split
// again the same way, as far as its first place is no lower than lowest.
// The losers of a round whose places lie below lowest share them, as in
// NewSingle. Placing matches are played alongside the main rounds; their ids
// read "P5-8:1" (a first match of the bracket for 5–8) and "P5-6" (the match
// for 5th and 6th). lowest below 5 is NewSingle with the third-place match.
func NewSingleWithPlacings(entrants []string, lowest int) (*Bracket, error) {
	return newSingle(seeded(entrants), entrants, max(lowest, 4))
}

// lowestPlace is the lowest place a plain single elimination's matches
// decide: 4 with the third-place match, else 2.
func lowestPlace(thirdPlace bool) int {
	if thirdPlace {
		return 4
	}
	return 2
}

// NewSingleFromSlots builds a single-elimination bracket whose first round
// is fixed by the caller: slots (length a power of two) in bracket order,
// slots 2i and 2i+1 meeting, "" marking a bye. Cross finals (S-5: A1-B2,
// B1-A2) use it.
// Ties in Places are listed in slot order.
func NewSingleFromSlots(slots []string, thirdPlace bool) (*Bracket, error) {
	return newSingle(slots, slots, lowestPlace(thirdPlace))
}

// newSingle builds the single elimination of slots whose matches decide the
// places down to lowest (2: the final only; 4: and the third-place match).
func newSingle(slots, seeds []string, lowest int) (*Bracket, error) {
	if len(slots) < 2 || BracketSize(len(slots)) != len(slots) {
		return nil, fmt.Errorf("%d slots is not a power of two ≥ 2: %w", len(slots), ErrEntrants)
	}
	b, err := newBracket(slots, seeds)
	if err != nil {
		return nil, err
	}
	prev := make([]int, 0, len(slots)/2)
	rounds := 0
	for s := len(slots); s > 1; s /= 2 {
		rounds++
	}
	for i := 0; i < len(slots); i += 2 {
		id := "R1-" + strconv.Itoa(i/2+1)
		prev = append(prev, b.add(node{id: id, round: 1, in: [2]source{{entrant: slots[i]}, {entrant: slots[i+1]}}}))
	}
	var semis []int
	byRound := [][]int{nil, prev} // the main bracket's matches, by round
	for r := 2; r <= rounds; r++ {
		if r == rounds {
			semis = prev
		}
		next := make([]int, 0, len(prev)/2)
		for i := 0; i < len(prev); i += 2 {
			id := "R" + strconv.Itoa(r) + "-" + strconv.Itoa(i/2+1)
			next = append(next, b.add(node{id: id, round: r, in: [2]source{{kind: fromWinner, node: prev[i]}, {kind: fromWinner, node: prev[i+1]}}}))
		}
		prev = next
		byRound = append(byRound, next)
	}
	if rounds == 1 {
		semis = nil
	}
	final := &b.nodes[prev[0]]
	final.id, final.winPlace, final.losePlace = "F", 1, 2
	if lowest >= 4 && len(semis) == 2 {
		b.add(node{id: "3P", round: rounds, winPlace: 3, losePlace: 4,
			in: [2]source{{kind: fromLoser, node: semis[0]}, {kind: fromLoser, node: semis[1]}}})
	}
	// 附加赛: the losers of main round r (m of them) play for places m+1 … 2m
	// from round r+1, when those places reach up to lowest.
	for r := 1; r < rounds-1; r++ {
		m := len(byRound[r])
		if m+1 > lowest {
			continue
		}
		losers := make([]source, m)
		for i, n := range byRound[r] {
			losers[i] = source{kind: fromLoser, node: n}
		}
		b.placings(losers, m+1, r+1, lowest)
	}
	return b, nil
}

// placings adds the bracket in which the players of in (a power of two of
// them) play for places first … first+len(in)-1 from round on: winners go on
// for the upper half of the places, losers for the lower half while its
// first place is no lower than lowest.
func (b *Bracket) placings(in []source, first, round, lowest int) {
	m := len(in)
	if m == 2 {
		b.add(node{id: "P" + strconv.Itoa(first) + "-" + strconv.Itoa(first+1), round: round, winPlace: first, losePlace: first + 1,
			in: [2]source{in[0], in[1]}})
		return
	}
	win, lose := make([]source, 0, m/2), make([]source, 0, m/2)
	for i := 0; i < m; i += 2 {
		id := "P" + strconv.Itoa(first) + "-" + strconv.Itoa(first+m-1) + ":" + strconv.Itoa(i/2+1)
		n := b.add(node{id: id, round: round, in: [2]source{in[i], in[i+1]}})
		win, lose = append(win, source{kind: fromWinner, node: n}), append(lose, source{kind: fromLoser, node: n})
	}
	b.placings(win, first, round+1, lowest)
	if first+m/2 <= lowest {
		b.placings(lose, first+m/2, round+1, lowest)
	}
}

// DropOrder returns, for the d-th drop-in round of a losers' bracket (d = 1
// for the losers of winners' round 2) with m matches, which winners'-bracket
// match drops into losers' match i. Odd d reverse the order, even d swap the
// halves: each dropped player then meets a losers'-bracket survivor from the
// other part of the draw, so a rematch of a winners'-bracket game waits as
// long as the bracket allows (S-3).
func DropOrder(d, m int) []int {
	out := make([]int, m)
	for i := range m {
		if d%2 == 1 {
			out[i] = m - 1 - i
		} else {
			out[i] = (i + m/2) % m
		}
	}
	return out
}

// NewDouble builds a double-elimination bracket (S-3) for entrants listed
// best seed first. Winners' round j is played in round j, losers' round r in
// round r+1; the grand final pits the winners' champion (A) against the
// losers' champion (B); with reset, a second grand final is played when B
// wins the first, since only then has A lost once; A stays the upper slot.
func NewDouble(entrants []string, reset bool) (*Bracket, error) {
	slots := seeded(entrants)
	b, err := newBracket(slots, entrants)
	if err != nil {
		return nil, err
	}
	size := len(slots)
	k := 0
	for s := size; s > 1; s /= 2 {
		k++
	}
	wb := make([][]int, k+1)
	for i := 0; i < size; i += 2 {
		wb[1] = append(wb[1], b.add(node{id: "W1-" + strconv.Itoa(i/2+1), round: 1,
			in: [2]source{{entrant: slots[i]}, {entrant: slots[i+1]}}}))
	}
	for j := 2; j <= k; j++ {
		for i := 0; i < len(wb[j-1]); i += 2 {
			wb[j] = append(wb[j], b.add(node{id: "W" + strconv.Itoa(j) + "-" + strconv.Itoa(i/2+1), round: j,
				in: [2]source{{kind: fromWinner, node: wb[j-1][i]}, {kind: fromWinner, node: wb[j-1][i+1]}}}))
		}
	}
	lbChampion := source{kind: fromLoser, node: wb[k][0]}
	var prev []int
	for r := 1; r <= 2*(k-1); r++ {
		var cur []int
		lid := func(i int) string { return "L" + strconv.Itoa(r) + "-" + strconv.Itoa(i+1) }
		switch {
		case r == 1:
			for i := 0; i < len(wb[1]); i += 2 {
				cur = append(cur, b.add(node{id: lid(i / 2), round: 2,
					in: [2]source{{kind: fromLoser, node: wb[1][i]}, {kind: fromLoser, node: wb[1][i+1]}}}))
			}
		case r%2 == 0:
			d := r / 2
			order := DropOrder(d, len(prev))
			for i := range prev {
				cur = append(cur, b.add(node{id: lid(i), round: r + 1,
					in: [2]source{{kind: fromLoser, node: wb[d+1][order[i]]}, {kind: fromWinner, node: prev[i]}}}))
			}
		default:
			for i := 0; i < len(prev); i += 2 {
				cur = append(cur, b.add(node{id: lid(i / 2), round: r + 1,
					in: [2]source{{kind: fromWinner, node: prev[i]}, {kind: fromWinner, node: prev[i+1]}}}))
			}
		}
		prev = cur
	}
	if prev != nil {
		lbChampion = source{kind: fromWinner, node: prev[0]}
	}
	gf := b.add(node{id: "GF", round: 2 * k, winPlace: 1, losePlace: 2,
		in: [2]source{{kind: fromWinner, node: wb[k][0]}, lbChampion}})
	if reset {
		b.add(node{id: "GF2", round: 2*k + 1, winPlace: 1, losePlace: 2, onlyIfBWins: true,
			in: [2]source{{kind: fromLoser, node: gf}, {kind: fromWinner, node: gf}}})
	}
	return b, nil
}

func (b *Bracket) value(s source) (string, bool) {
	if s.kind == fromEntrant {
		return s.entrant, true
	}
	n := &b.nodes[s.node]
	if !n.resolved {
		return "", false
	}
	if s.kind == fromWinner {
		return n.winner, true
	}
	return n.loser, true
}

// settle fills every node whose inputs are known, passes byes through and
// skips resets that are not needed.
func (b *Bracket) settle() {
	for changed := true; changed; {
		changed = false
		for i := range b.nodes {
			n := &b.nodes[i]
			if n.resolved || n.ready {
				continue
			}
			va, oka := b.value(n.in[0])
			vb, okb := b.value(n.in[1])
			if !oka || !okb {
				continue
			}
			changed = true
			n.a, n.b = va, vb
			if n.onlyIfBWins {
				in := &b.nodes[n.in[0].node]
				if in.winner == in.a || in.b == "" {
					n.resolved, n.skipped, n.winner = true, true, in.winner
					continue
				}
				// the loser of the first grand final is not out yet
			}
			switch {
			case va == "" || vb == "":
				n.resolved, n.bye, n.winner = true, true, va+vb
			default:
				n.ready = true
			}
		}
	}
}

// NextRound records the winners of the round just played (none before the
// first round) and returns the matches of the next round that has any. It
// returns no matches once the bracket is finished. Byes (players passed to
// the next round without a game) of the returned round are in Byes.
func (b *Bracket) NextRound(results []Result) ([]Match, error) {
	if b.finished {
		return nil, ErrFinished
	}
	if len(results) != len(b.current) {
		return nil, fmt.Errorf("round %d: %d results for %d matches: %w", b.round, len(results), len(b.current), ErrResults)
	}
	won := map[string]string{}
	for _, r := range results {
		if _, dup := won[r.Match]; dup {
			return nil, fmt.Errorf("round %d: match %s reported twice: %w", b.round, r.Match, ErrResults)
		}
		won[r.Match] = r.Winner
	}
	for _, i := range b.current {
		n := &b.nodes[i]
		w, ok := won[n.id]
		if !ok || (w != n.a && w != n.b) {
			return nil, fmt.Errorf("round %d: match %s (%s v %s) winner %q: %w", b.round, n.id, n.a, n.b, w, ErrResults)
		}
	}
	for _, i := range b.current {
		n := &b.nodes[i]
		n.winner = won[n.id]
		n.loser = n.a
		if n.winner == n.a {
			n.loser = n.b
		}
		n.resolved, n.ready = true, false
	}
	b.current = b.current[:0]
	for {
		b.round++
		b.settle()
		var out []Match
		left := false
		for i := range b.nodes {
			n := &b.nodes[i]
			if !n.resolved {
				left = true
			}
			if n.ready && n.round == b.round {
				b.current = append(b.current, i)
				out = append(out, Match{ID: n.id, Round: n.round, A: n.a, B: n.b})
			}
		}
		if len(out) > 0 {
			return out, nil
		}
		if !left {
			b.finished = true
			b.round--
			return nil, nil
		}
	}
}

// Round is the number of the round last returned by NextRound.
func (b *Bracket) Round() int { return b.round }

// Byes lists the players who advanced without playing in the current round.
func (b *Bracket) Byes() []string {
	var out []string
	for _, n := range b.nodes {
		if n.bye && n.round == b.round && n.winner != "" {
			out = append(out, n.winner)
		}
	}
	return out
}

// Finished reports whether every match has been decided.
func (b *Bracket) Finished() bool { return b.finished }

// Places returns the final placings: fixed by the final, third-place and
// grand-final matches, then everyone else by the round they were knocked
// out in, later rounds first; ties are listed by seed.
func (b *Bracket) Places() ([]Place, error) {
	if !b.finished {
		return nil, ErrRunning
	}
	routed := make([]bool, len(b.nodes)) // the loser of node i plays on
	for _, n := range b.nodes {
		for _, s := range n.in {
			if s.kind == fromLoser && !n.skipped {
				routed[s.node] = true
			}
		}
	}
	var fixed []Place
	out := map[int][]string{} // knockout round → players
	for i, n := range b.nodes {
		if n.skipped {
			continue
		}
		if n.bye {
			if n.winPlace > 0 && n.winner != "" {
				fixed = append(fixed, Place{n.winner, n.winPlace})
			}
			continue
		}
		if n.winPlace > 0 {
			if n.onlyIfBWins || !b.hasPlayedReset(i) {
				fixed = append(fixed, Place{n.winner, n.winPlace}, Place{n.loser, n.losePlace})
			}
			continue
		}
		if !routed[i] {
			out[n.round] = append(out[n.round], n.loser)
		}
	}
	slices.SortFunc(fixed, func(x, y Place) int { return x.Place - y.Place })
	places := fixed
	rounds := make([]int, 0, len(out))
	for r := range out {
		rounds = append(rounds, r)
	}
	slices.Sort(rounds)
	for _, r := range slices.Backward(rounds) {
		players := out[r]
		slices.SortFunc(players, func(x, y string) int { return b.seeds[x] - b.seeds[y] })
		at := len(places) + 1
		for _, p := range players {
			places = append(places, Place{p, at})
		}
	}
	return places, nil
}

// hasPlayedReset reports whether node i fed a grand-final reset that was
// played, in which case the reset, not node i, fixes places 1 and 2.
func (b *Bracket) hasPlayedReset(i int) bool {
	for _, n := range b.nodes {
		if n.onlyIfBWins && n.in[0].node == i && !n.skipped {
			return true
		}
	}
	return false
}

// NewPlacings builds independent placing matches played in one round: the
// winner of pairs[i] takes place 2i+1 and the loser 2i+2. It serves the
// one-round knockout after a Swiss (S-4, 001 §10.4.1.1: 1–2 for the title,
// 3–4 for bronze) and same-place finals of two groups (S-5: A1-B1, A2-B2).
// IDs are "P1-2", "P3-4", ….
func NewPlacings(pairs [][2]string) (*Bracket, error) {
	var slots []string
	for _, p := range pairs {
		if p[0] == "" || p[1] == "" {
			return nil, fmt.Errorf("placing match %d: %q v %q: %w", len(slots)/2+1, p[0], p[1], ErrEntrants)
		}
		slots = append(slots, p[0], p[1])
	}
	b, err := newBracket(slots, slots)
	if err != nil {
		return nil, err
	}
	for i, p := range pairs {
		w := 2*i + 1
		b.add(node{id: "P" + strconv.Itoa(w) + "-" + strconv.Itoa(w+1), round: 1, winPlace: w, losePlace: w + 1,
			in: [2]source{{entrant: p[0]}, {entrant: p[1]}}})
	}
	return b, nil
}
