package standings_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
)

// randomSwiss is a small Swiss with byes, forfeits, unfinished games, fouls
// and withdrawals part-way, for the properties below.
func randomSwiss(seed uint64) standings.Event {
	rng := rand.New(rand.NewPCG(seed, 7))
	n := 5 + rng.IntN(12)
	rounds := 2 + rng.IntN(6)
	ev := standings.Event{System: standings.SystemSwiss, Rounds: rounds}
	for i := range n {
		ev.Players = append(ev.Players, standings.Player{ID: fmt.Sprintf("p%d", i), Number: i + 1})
	}
	gone := map[int]bool{}
	for w := 0; w < 2; w++ {
		if rng.IntN(2) == 0 {
			p := rng.IntN(n)
			if !gone[p] {
				gone[p] = true
				ev.Withdrawals = append(ev.Withdrawals, standings.Withdrawal{Player: ev.Players[p].ID, AfterRound: rng.IntN(rounds)})
			}
		}
	}
	results := []result.Result{result.RedWins, result.BlackWins, result.Draw, result.RedWins, result.RedByForfeit, result.BlackByForfeit, result.DoubleForfeit, result.None}
	for r := 1; r <= rounds; r++ {
		perm := rng.Perm(n)
		for k := 0; k+1 < n; k += 2 {
			g := standings.Game{Round: r, Red: ev.Players[perm[k]].ID, Black: ev.Players[perm[k+1]].ID, Result: results[rng.IntN(len(results))]}
			if rng.IntN(5) == 0 {
				g.BlackFouls = 1
			}
			ev.Games = append(ev.Games, g)
		}
		if n%2 == 1 {
			ev.Byes = append(ev.Byes, standings.Bye{Round: r, Player: ev.Players[perm[n-1]].ID})
		}
	}
	return ev
}

// TestStandings_PreviousRoundIsTheTableAfterIt: R-4a's previousRound value
// in the table after round n is each player's place in the table after
// round n-1 as Standings computes it on its own; places are consistent
// a shared place repeats, the next place skips), and the title
// play-off flag is set exactly on a shared first place.
func TestStandings_PreviousRoundIsTheTableAfterIt(t *testing.T) {
	for seed := range uint64(200) {
		ev := randomSwiss(seed)
		for n := 1; n <= ev.Rounds; n++ {
			cur, err := standings.Standings(ev, n)
			if err != nil {
				t.Fatal(err)
			}
			prev, err := standings.Standings(ev, n-1)
			if err != nil {
				t.Fatal(err)
			}
			place := map[string]int{}
			for _, r := range prev.Rows {
				place[r.PlayerID] = r.Rank
			}
			for i, r := range cur.Rows {
				tb := r.Tiebreaks[len(r.Tiebreaks)-1]
				want := place[r.PlayerID]
				if n == 1 {
					want = 1
				}
				if tb.Name != standings.PreviousRound || tb.Num != want {
					t.Fatalf("seed %d round %d %s: previousRound %+v, want %d", seed, n, r.PlayerID, tb, want)
				}
				switch {
				case i == 0 && r.Rank != 1:
					t.Fatalf("seed %d round %d: first row has place %d", seed, n, r.Rank)
				case i > 0 && r.Rank != cur.Rows[i-1].Rank && r.Rank != i+1:
					t.Fatalf("seed %d round %d: row %d has place %d", seed, n, i+1, r.Rank)
				case i > 0 && r.Rank == cur.Rows[i-1].Rank && !(r.Shared && cur.Rows[i-1].Shared):
					t.Fatalf("seed %d round %d: equal places not marked shared", seed, n)
				}
				if r.Playoff != (r.Shared && r.Rank == 1) {
					t.Fatalf("seed %d round %d %s: playoff %v shared %v place %d", seed, n, r.PlayerID, r.Playoff, r.Shared, r.Rank)
				}
				if r.Games != r.Wins+r.Draws+r.Losses {
					t.Fatalf("seed %d: games %d ≠ %d+%d+%d", seed, r.Games, r.Wins, r.Draws, r.Losses)
				}
			}
		}
	}
}
