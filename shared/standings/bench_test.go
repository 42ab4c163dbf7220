package standings_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
)

// swissEvent builds a deterministic Swiss of n players over rounds rounds:
// each round pairs neighbours in score order (a bye for the last of an odd
// field), results drawn from a fixed seed, so that score groups and ties
// look like a real event's.
func swissEvent(n, rounds int) standings.Event {
	rng := rand.New(rand.NewPCG(1, 2))
	ev := standings.Event{System: standings.SystemSwiss, Rounds: rounds}
	for i := range n {
		ev.Players = append(ev.Players, standings.Player{ID: fmt.Sprintf("p%04d", i), Name: fmt.Sprintf("Player %d", i), Number: i + 1})
	}
	pts := make([]int, n)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	results := []result.Result{result.RedWins, result.BlackWins, result.Draw, result.RedWins, result.BlackWins}
	for r := 1; r <= rounds; r++ {
		slices.SortStableFunc(order, func(a, b int) int { return pts[b] - pts[a] })
		for k := 0; k+1 < n; k += 2 {
			red, black := order[k], order[k+1]
			if rng.IntN(2) == 0 {
				red, black = black, red
			}
			res := results[rng.IntN(len(results))]
			g := standings.Game{Round: r, Red: ev.Players[red].ID, Black: ev.Players[black].ID, Result: res}
			if rng.IntN(50) == 0 {
				g.RedFouls = 1
			}
			ev.Games = append(ev.Games, g)
			switch res {
			case result.RedWins:
				pts[red] += 2
			case result.BlackWins:
				pts[black] += 2
			default:
				pts[red]++
				pts[black]++
			}
		}
		if n%2 == 1 {
			p := order[n-1]
			ev.Byes = append(ev.Byes, standings.Bye{Round: r, Player: ev.Players[p].ID})
			pts[p] += 2
		}
	}
	return ev
}

// BenchmarkSwiss1000x11 ranks 1,000 players after 11 rounds with the full
// R-4a chain, previous-round recursion included (target: ≤ 50 ms).
func BenchmarkSwiss1000x11(b *testing.B) {
	ev := swissEvent(1000, 11)
	b.ReportAllocs()
	for b.Loop() {
		tab, err := standings.Standings(ev, 0)
		if err != nil {
			b.Fatal(err)
		}
		if len(tab.Rows) != 1000 {
			b.Fatalf("got %d rows, want 1000", len(tab.Rows))
		}
	}
}

// BenchmarkSwiss1001x11Cumulative is the same field (odd, so with byes)
// ranked by the R-4b chain.
func BenchmarkSwiss1001x11Cumulative(b *testing.B) {
	ev := swissEvent(1001, 11)
	ev.System = standings.SystemSwissCumulative
	for b.Loop() {
		if _, err := standings.Standings(ev, 0); err != nil {
			b.Fatal(err)
		}
	}
}
