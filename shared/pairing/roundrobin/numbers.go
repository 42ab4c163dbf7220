package roundrobin

import (
	"errors"
	"fmt"
)

// ErrPermutation reports a permutation that is not a rearrangement of 0…n-1.
var ErrPermutation = errors.New("roundrobin: not a permutation of the players")

// Numbering maps schedule numbers to players: Numbering[i] holds number i+1.
type Numbering []string

// Player returns the player holding number (1-based), "" when out of range.
func (nb Numbering) Player(number int) string {
	if number < 1 || number > len(nb) {
		return ""
	}
	return nb[number-1]
}

// Number returns the number held by player, 0 when absent.
func (nb Numbering) Number(player string) int {
	for i, p := range nb {
		if p == player {
			return i + 1
		}
	}
	return 0
}

// BySeeding numbers players in the order given (best seed first gets 1).
// 001 §10.1 places seeds by the latest rating or results.
func BySeeding(ranked []string) Numbering {
	return append(Numbering(nil), ranked...)
}

// ByPermutation numbers players by a drawn permutation: number i+1 goes to
// players[perm[i]]. The draw itself happens outside (in the hall, or by the
// caller's seeded generator) so the schedule is reproducible.
func ByPermutation(players []string, perm []int) (Numbering, error) {
	if len(perm) != len(players) {
		return nil, fmt.Errorf("number %d players with %d-element permutation: %w", len(players), len(perm), ErrPermutation)
	}
	seen := make([]bool, len(players))
	out := make(Numbering, len(players))
	for i, j := range perm {
		if j < 0 || j >= len(players) || seen[j] {
			return nil, fmt.Errorf("number %d players: index %d at position %d: %w", len(players), j, i, ErrPermutation)
		}
		seen[j] = true
		out[i] = players[j]
	}
	return out, nil
}

// Shuffler is the part of a seeded generator a draw needs; *rand.Rand from
// math/rand/v2 satisfies it. Callers seed it so a draw can be replayed.
type Shuffler interface {
	Shuffle(n int, swap func(i, j int))
}

// ByDraw numbers players by lot using the caller's seeded generator.
func ByDraw(players []string, lot Shuffler) Numbering {
	out := append(Numbering(nil), players...)
	lot.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
