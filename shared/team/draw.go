package team

import "slices"

// DrawLineup is the lineup the server uses when the captain has set none
// before the deadline (T-3). It is a pure function of the roster and seed,
// so the caller can store the seed and anyone can redo the draw:
//   - T-1: the roster itself (the boards are fixed);
//   - T-2: the members in roster order, substitutes left out (the choice of
//     substitutes belongs to the captain; the order is fixed by T-2);
//   - T-3 and T-4: the members' board numbers drawn by lot (抽签, 001 §11.3)
//     with Shuffle(members, seed).
//
// The caller picks the seed, for example a hash of event, round and team.
func (r Roster) DrawLineup(seed uint64) Lineup {
	members := r.Members()
	switch r.Settings.Format {
	case LineupPerMatch, AllPlayAll:
		return Shuffle(members, seed)
	}
	return members
}

// Shuffle returns a copy of ids in an order drawn by lot from seed, so that
// any implementation can reproduce it: a SplitMix64 stream started at seed
// (Steele, Lea, Flood 2014; the first outputs for seed 0 are
// 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f) feeds a
// Fisher–Yates shuffle from the back: for i = n-1 down to 1, j = Below(i+1),
// swap ids[i] and ids[j].
func Shuffle(ids []string, seed uint64) []string {
	out := slices.Clone(ids)
	g := SplitMix64{State: seed}
	for i := len(out) - 1; i > 0; i-- {
		j := g.Below(uint64(i + 1))
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// SplitMix64 is the SplitMix64 generator, fixed here rather than taken from
// math/rand so that a stored seed always redraws the same lineup.
type SplitMix64 struct {
	State uint64
}

// Next returns the next 64-bit output.
func (g *SplitMix64) Next() uint64 {
	g.State += 0x9e3779b97f4a7c15
	z := g.State
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Below returns a uniform value in 0…n-1 (n > 0): outputs below 2^64 mod n
// are rejected so that every remainder is equally likely, then the output
// is taken mod n.
func (g *SplitMix64) Below(n uint64) uint64 {
	threshold := -n % n // 2^64 mod n
	for {
		x := g.Next()
		if x >= threshold {
			return x % n
		}
	}
}
