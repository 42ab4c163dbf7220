package combined

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/pairing/knockout"
)

// CrossElimination builds the cross elimination after a group stage (交叉淘汰,
// S-3, 001 §10.3; 交叉决赛, S-5, 001 §10.1): the top perGroup of each group
// (each group's standings best first) enter a single-elimination bracket in
// which a group's leaders meet the lower-placed of another group first.
//
// The qualifiers are seeded level by level — every group's 1st in group
// order, then every 2nd, … — into the standard bracket (knockout.SeedOrder),
// whose first round pairs seed s with seed N+1−s. The i-th placed of group j
// therefore meets the (perGroup+1−i)-th placed of group G+1−j: with two
// groups and two qualifiers each, 1 v 4 = A1–B2 and 2 v 3 = B1–A2 (001
// §10.4.1.2 两轮制: 第1名对第4名，第2名对第3名); with four groups, A–D and B–C
// cross. With G a power of two this holds for every field, byes (to the top
// seeds) included, so group mates never meet in the first round played; the
// number of groups must therefore be a power of two. The winners play the
// final and, when thirdPlace, the semi-final losers play for third place.
func CrossElimination(groups [][]string, perGroup int, thirdPlace bool) (*knockout.Bracket, error) {
	g := len(groups)
	if g < 2 || g&(g-1) != 0 {
		return nil, fmt.Errorf("cross elimination of %d groups (want 2, 4, 8, …): %w", g, ErrField)
	}
	if perGroup < 1 {
		return nil, fmt.Errorf("cross elimination with %d qualifiers per group: %w", perGroup, ErrField)
	}
	for i, grp := range groups {
		if len(grp) < perGroup {
			return nil, fmt.Errorf("group %d has %d players, %d qualify: %w", i+1, len(grp), perGroup, ErrField)
		}
	}
	seeds := make([]string, 0, g*perGroup)
	for i := range perGroup {
		for _, grp := range groups {
			seeds = append(seeds, grp[i])
		}
	}
	return knockout.NewSingle(seeds, thirdPlace)
}
