package checker_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
)

// TestSmallEvents_P4_P10_Optimum pairs a few hundred whole small events
// (4…12 players, withdrawals, pauses, unfinished games) and holds every
// round to the brute-force optimum over all complete pairings: score
// boundaries crossed from the top as few as possible (P-4, P-10 拆对),
// then third floats (P-6, the limit of appendix 3 §1.9), then colour
// faults (P-8, the wish of §1.11(3)). `make checkpairings` runs the same
// sweep over 20,000 events.
func TestSmallEvents_P4_P10_Optimum(t *testing.T) {
	count := 300
	if testing.Short() {
		count = 60
	}
	rounds := 0
	// Seeds the sweep once caught off the optimum (odd fields whose bye
	// candidates sit above players who had byes: the weights' digit for a
	// boundary below them was one short); seeds where the engine, putting
	// colour faults first, chose a third float the order of §1.9 forbids
	// (272, 447, 484, 4462, 4721); then 1…count.
	seeds := []uint64{3411, 3710, 14200, 16437, 16624, 272, 447, 484, 4462, 4721}
	for s := uint64(1); s <= uint64(count); s++ {
		seeds = append(seeds, s)
	}
	for _, seed := range seeds {
		ev := checker.SmallEvent(seed)
		rep, err := checker.Simulate(ev)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		rounds += rep.RoundsPaired
		for _, v := range rep.Violations {
			t.Errorf("seed %d (%d players, %d rounds): %v", seed, ev.Players, ev.Rounds, v)
		}
	}
	if rounds < count {
		t.Fatalf("only %d rounds paired in %d events", rounds, count)
	}
}
