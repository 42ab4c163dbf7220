package tournament

import (
	"math/rand/v2"
	"sort"
)

// NumbersDrawn reports whether the players are known by the numbers drawn
// for round 1 rather than by their entry numbers: in an individual Swiss
// once round 1 is paired. 002 appendix 3 §1.3 (除第一轮需抽签确定每个运动员
// (队)序号) makes round 1's lot set each player's number (序号), the one
// every later rule (P-9, P-11) and every view means. A round robin's table
// numbers (S-1) are its own numbering and change no player's number.
func NumbersDrawn(t *Tournament) bool { return t.Round > 0 && swissNumbered(t.Settings) }

// ShownNumbers returns each player's number as the event shows it — in its
// player list, pairings, standings, crosstable, exports and games: the
// pairing number (PairingNumbers) once NumbersDrawn, else the entry number
// (Player.Number, the order of registration). players must be the whole
// field, since the lot reads all of it; the numbers of an individual Swiss
// are then 1…n, late entrants taking the next free ones as they enter.
func ShownNumbers(t *Tournament, players []*Player) map[string]int {
	if NumbersDrawn(t) {
		return PairingNumbers(t, players)
	}
	out := make(map[string]int, len(players))
	for _, p := range players {
		out[p.ID] = p.Number
	}
	return out
}

// PairingNumbers gives every player of an individual Swiss its pairing
// number (P-3, 002 appendix 3 §2.1) as the event's numbering says; late
// entries follow in registration order in every method. The numbers read
// only what registration fixes when round 1 is paired (ratings, seeds,
// entry numbers and the round each player joined), so they never change
// once drawn.
//
//   - NumberingRating (the default): the first round's field is ordered by
//     rating — seeded players first, then the others, each by rating (an
//     unrated player counts as 0), ties in registration order — and split
//     into an upper and a lower half of equal size. Each half draws lots
//     for its numbers (SwissLot): the upper half takes the odd numbers 1,
//     3, 5 …, the lower half the even numbers, so round 1's neighbours (1-2,
//     4-3 …) set the upper half against the lower. In an odd field the
//     lower half is one larger and its last drawn player takes the last
//     number — the one round 1 leaves for the bye (S-7).
//   - NumberingDraw: one lot over the whole field (一般比赛可采用全体运动员一次性
//     抽签确定序号); seeding is not looked at.
//   - NumberingRegistration (on request, and events stored before the
//     option): seeded players take the odd numbers by rating, the others the
//     even numbers in registration order; whoever is left when one list runs
//     out takes the next numbers. Without seeds these are the registration
//     numbers.
func PairingNumbers(t *Tournament, players []*Player) map[string]int {
	var first, late []*Player
	for _, p := range players {
		if p.JoinedRound > 1 {
			late = append(late, p)
		} else {
			first = append(first, p)
		}
	}
	byNumber := func(s []*Player) {
		sort.Slice(s, func(i, j int) bool { return s[i].Number < s[j].Number })
	}
	byNumber(first)
	byNumber(late)
	out := make(map[string]int, len(players))
	switch t.Settings.NumberingInEffect() {
	case NumberingRating:
		ranked := append([]*Player(nil), first...)
		sort.SliceStable(ranked, func(i, j int) bool {
			a, b := ranked[i], ranked[j]
			if a.Seeded != b.Seeded {
				return a.Seeded
			}
			return a.Rating > b.Rating
		})
		upper := append([]*Player(nil), ranked[:len(ranked)/2]...)
		lower := append([]*Player(nil), ranked[len(ranked)/2:]...)
		byNumber(upper)
		byNumber(lower)
		lot := rand.New(rand.NewPCG(SwissLot(t.ID)))
		lot.Shuffle(len(upper), func(i, j int) { upper[i], upper[j] = upper[j], upper[i] })
		lot.Shuffle(len(lower), func(i, j int) { lower[i], lower[j] = lower[j], lower[i] })
		for i, p := range upper {
			out[p.ID] = 2*i + 1
		}
		for i, p := range lower {
			out[p.ID] = min(2*i+2, len(ranked)) // an odd field's extra lower player: the last number
		}
	case NumberingDraw:
		drawn := append([]*Player(nil), first...)
		lot := rand.New(rand.NewPCG(SwissLot(t.ID)))
		lot.Shuffle(len(drawn), func(i, j int) { drawn[i], drawn[j] = drawn[j], drawn[i] })
		for i, p := range drawn {
			out[p.ID] = i + 1
		}
	default:
		registrationNumbers(first, out)
	}
	next := len(first) + 1
	for _, p := range late {
		out[p.ID] = next
		next++
	}
	return out
}

// registrationNumbers numbers the first round's field by registration,
// seeded players taking the odd numbers by rating (NumberingRegistration).
func registrationNumbers(first []*Player, out map[string]int) {
	var seeds, others []*Player
	for _, p := range first {
		if p.Seeded {
			seeds = append(seeds, p)
		} else {
			others = append(others, p)
		}
	}
	sort.SliceStable(seeds, func(i, j int) bool { return seeds[i].Rating > seeds[j].Rating })
	next := 1
	for len(seeds) > 0 || len(others) > 0 {
		list := &others
		if next%2 == 1 && len(seeds) > 0 || len(others) == 0 {
			list = &seeds
		}
		out[(*list)[0].ID] = next
		*list = (*list)[1:]
		next++
	}
}
