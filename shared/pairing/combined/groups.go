package combined

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/pairing/knockout"
)

// SnakeGroups splits players, highest rating first, into n round-robin
// groups by snake seeding (S-5, 001 §10.1): 1→A, 2→B, …, n→last, then n+1
// back into the last group, …, so every group gets a fair share of the
// seeds. Group sizes differ by at most one.
func SnakeGroups(byRating []string, n int) ([][]string, error) {
	if n < 1 || len(byRating) < 2*n {
		return nil, fmt.Errorf("%d players in %d groups: %w", len(byRating), n, ErrField)
	}
	groups := make([][]string, n)
	for i, p := range byRating {
		g := i % n
		if (i/n)%2 == 1 {
			g = n - 1 - g
		}
		groups[g] = append(groups[g], p)
	}
	return groups, nil
}

// FinalGroup is a final of players with the same group place; they decide
// places FirstPlace, FirstPlace+1, … among themselves (a single match for
// two groups, else a round robin).
type FinalGroup struct {
	FirstPlace int
	Players    []string
}

// SamePlaceFinals takes each group's standings (best first) and puts the
// k-th placed of every group, k = 1…perGroup, into final k (同名次决赛,
// S-5): 1st v 1st for places 1…n, 2nd v 2nd for the next n, ….
func SamePlaceFinals(groupRanked [][]string, perGroup int) ([]FinalGroup, error) {
	if len(groupRanked) < 2 || perGroup < 1 {
		return nil, fmt.Errorf("same-place finals of %d groups, %d each: %w", len(groupRanked), perGroup, ErrField)
	}
	for i, g := range groupRanked {
		if len(g) < perGroup {
			return nil, fmt.Errorf("group %d has %d players, %d qualify: %w", i+1, len(g), perGroup, ErrField)
		}
	}
	out := make([]FinalGroup, perGroup)
	for k := range perGroup {
		out[k].FirstPlace = k*len(groupRanked) + 1
		for _, g := range groupRanked {
			out[k].Players = append(out[k].Players, g[k])
		}
	}
	return out, nil
}

// SamePlacePlayoff is SamePlaceFinals for two groups as placing matches:
// A1-B1 for places 1–2, A2-B2 for 3–4, ….
func SamePlacePlayoff(a, b []string, perGroup int) (*knockout.Bracket, error) {
	finals, err := SamePlaceFinals([][]string{a, b}, perGroup)
	if err != nil {
		return nil, err
	}
	pairs := make([][2]string, len(finals))
	for i, f := range finals {
		pairs[i] = [2]string{f.Players[0], f.Players[1]}
	}
	return knockout.NewPlacings(pairs)
}

// CrossFinals builds the cross finals of two groups (交叉决赛, S-5): with
// two qualifiers each A1-B2 and B1-A2, the winners play the final (and the
// losers for third place when thirdPlace); with 2q a power of two, A_i
// meets B_(q+1-i) and each group's leaders stay apart until the final;
// otherwise the interleaved seeds A1 B1 A2 B2 … fill a bracket whose byes go
// to the top seeds. It is CrossElimination of two groups.
func CrossFinals(a, b []string, perGroup int, thirdPlace bool) (*knockout.Bracket, error) {
	if perGroup < 1 || len(a) < perGroup || len(b) < perGroup {
		return nil, fmt.Errorf("cross finals of %d and %d players, %d each: %w", len(a), len(b), perGroup, ErrField)
	}
	return CrossElimination([][]string{a, b}, perGroup, thirdPlace)
}
