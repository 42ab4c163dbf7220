// Command checkpairings simulates many Swiss events (random results from a
// seeded PRNG, 7…200 players, 5…11 rounds, withdrawals, pauses, late
// entries, unfinished games, forbidden pairs and club avoidance) and runs
// the pairing checker after every round. It exits 1 on any violation.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

func main() {
	count := flag.Int("count", 300, "number of events")
	seed := flag.Uint64("seed", 1, "first seed; event i uses seed+i")
	maxPlayers := flag.Int("players", 200, "largest field")
	verbose := flag.Bool("v", false, "print every event")
	flag.Parse()

	var events, rounds, stopped, violations, three, plus3, over1, float3, alone3 int
	for i := 0; i < *count; i++ {
		s := *seed + uint64(i)
		ev := checker.Event{
			Players:   7 + int(s*7919%uint64(*maxPlayers-6)),
			Rounds:    5 + int(s*31%7),
			Seed:      s,
			First:     swiss.FirstRound(s % 3),
			Churn:     s%3 != 0,
			Forbidden: int(s % 5),
			Check:     true,
		}
		if s%4 == 0 {
			ev.Clubs = 2 + int(s%9)
		}
		rep, err := checker.Simulate(ev)
		if err != nil {
			fmt.Fprintf(os.Stderr, "seed %d: %v\n", s, err)
			os.Exit(1)
		}
		events++
		rounds += rep.RoundsPaired
		three += rep.ThreeInRow
		plus3 += rep.PlusThree
		over1 += rep.FinalOver1
		float3 += rep.ThirdFloats
		alone3 += rep.ThirdFloatsAlone
		if rep.Stopped {
			stopped++
		}
		for _, v := range rep.Violations {
			violations++
			fmt.Printf("seed %d (%d players, %d rounds, churn %v, clubs %d): %v\n", s, ev.Players, ev.Rounds, ev.Churn, ev.Clubs, v)
		}
		if *verbose {
			fmt.Printf("seed %d: %d players, %d rounds paired, stopped %v, %d violations\n", s, ev.Players, rep.RoundsPaired, rep.Stopped, len(rep.Violations))
		}
	}
	fmt.Printf("%d events, %d rounds paired and checked, %d stopped with no complete pairing (confirmed), %d violations\n", events, rounds, stopped, violations)
	fmt.Printf("colour: %d pairs gave three in a row, %d gave +3 (unavoidable or last round); %d players ended more than one apart in odd-round events\n", three, plus3, over1)
	fmt.Printf("floats: %d times a player floated the same way a third time, %d of them alone in the score group (P-6)\n", float3, alone3)
	if violations > 0 {
		os.Exit(1)
	}
}
