// Command checkpairings simulates many Swiss events and runs the pairing
// checker after every round. First -small events of 4…12 players
// (checker.SmallEvent), each round held to the brute-force optimum over
// every complete pairing (P-4, P-10, then P-6's float limit, then P-8's
// colour faults); then -count larger events
// (random results from a seeded PRNG, 7…200 players, 5…11 rounds,
// withdrawals, pauses, late entries, unfinished games, forbidden pairs and
// club avoidance), checked for every rule but the optimum. For both it
// prints how often colours gave three in a row or +3 and how often a
// player floated the same way a third time. It exits 1 on any violation.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

func main() {
	small := flag.Int("small", 20000, "number of small events held to the brute-force optimum")
	count := flag.Int("count", 300, "number of larger events")
	seed := flag.Uint64("seed", 1, "first seed; event i uses seed+i")
	maxPlayers := flag.Int("players", 200, "largest field")
	verbose := flag.Bool("v", false, "print every event")
	flag.Parse()

	start := time.Now()
	var smallRounds, smallViolations int
	off := map[string]int{} // rounds off the optimum, by the part of the measure missed
	var sc counts
	for i := 0; i < *small; i++ {
		s := *seed + uint64(i)
		ev := checker.SmallEvent(s)
		rep, err := checker.Simulate(ev)
		if err != nil {
			fmt.Fprintf(os.Stderr, "small seed %d: %v\n", s, err)
			os.Exit(1)
		}
		smallRounds += rep.RoundsPaired
		sc.add(rep)
		for _, v := range rep.Violations {
			smallViolations++
			if v.Off != "" {
				off[v.Off]++
			}
			fmt.Printf("small seed %d (%d players, %d rounds): %v\n", s, ev.Players, ev.Rounds, v)
		}
	}
	fmt.Printf("%d small events (4…12 players), %d rounds compared with the brute-force optimum, %d off the optimum or breaking a rule (%.1fs)\n",
		*small, smallRounds, smallViolations, time.Since(start).Seconds())
	fmt.Printf("rounds where a pairing of the same score profile exists with fewer third floats (P-6): %d; at the same crossings and third floats with fewer colour faults (P-8): %d; with fewer crossings (P-4, P-10): %d\n",
		off[checker.OffThirdFloats], off[checker.OffColourFaults], off[checker.OffCrossings])
	sc.print()
	start = time.Now()
	var events, rounds, stopped, violations int
	var lc counts
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
		lc.add(rep)
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
	lc.print()
	fmt.Printf("larger events: %.1fs\n", time.Since(start).Seconds())
	if violations > 0 || smallViolations > 0 {
		os.Exit(1)
	}
}

// counts sums what the simulated events' reports count: the colour and
// float outcomes the optimum trades against each other (P-6 before P-8).
type counts struct{ three, plus3, over1, float3, alone3 int }

func (c *counts) add(rep checker.Report) {
	c.three += rep.ThreeInRow
	c.plus3 += rep.PlusThree
	c.over1 += rep.FinalOver1
	c.float3 += rep.ThirdFloats
	c.alone3 += rep.ThirdFloatsAlone
}

func (c counts) print() {
	fmt.Printf("colour: %d pairs gave three in a row, %d gave +3 (unavoidable or last round); %d players ended more than one apart in odd-round events\n", c.three, c.plus3, c.over1)
	fmt.Printf("floats: %d times a player floated the same way a third time, %d of them alone in the score group (P-6)\n", c.float3, c.alone3)
}
