package checker_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// TestSimulatedEvents_P8 pairs whole random events and checks every round
// (P-1…P-12, S-6, S-7).
func TestSimulatedEvents_P8(t *testing.T) {
	count := 60
	if testing.Short() {
		count = 15
	}
	for i := 0; i < count; i++ {
		seed := uint64(1000 + i)
		ev := checker.Event{
			Players:   7 + int(seed*7919%194),
			Rounds:    5 + int(seed%7),
			Seed:      seed,
			First:     swiss.FirstRound(i % 3),
			Churn:     i%2 == 0,
			Forbidden: i % 4,
			Check:     true,
		}
		if i%5 == 4 {
			ev.Clubs = 3 + i%7
		}
		if ev.Rounds > ev.Players-1 {
			ev.Rounds = ev.Players - 1
		}
		rep, err := checker.Simulate(ev)
		if err != nil {
			t.Fatalf("event %+v: %v", ev, err)
		}
		for _, v := range rep.Violations {
			t.Errorf("event seed %d (%d players, %d rounds): %v", seed, ev.Players, ev.Rounds, v)
		}
	}
}
