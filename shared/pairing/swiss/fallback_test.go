package swiss_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// bigTrap builds a round-2 field too big for the weighted fallback where
// the natural floater of the top group cannot be paired below: players
// 1, 2, 3 won round 1 (1 and 2 may not meet); player 4 may meet nobody
// below except 2, so 2 must float down and 3 must pair with 1 (P-7, P-8).
func bigTrap(n int) swiss.Input {
	in := swiss.Input{Rounds: 9, Round: 2, DrawPoints: 1}
	in.Forbidden = append(in.Forbidden, [2]int{1, 2})
	for num := 1; num <= n; num++ {
		p := swiss.Player{Number: num}
		switch {
		case num <= 3:
			p.Score = 2
			p.History = []swiss.RoundRecord{{Side: swiss.Red, Opponent: num + 3}}
		case num <= 6:
			p.History = []swiss.RoundRecord{{Side: swiss.Black, Opponent: num - 3}}
		default:
			p.History = []swiss.RoundRecord{{Side: swiss.Absent}}
		}
		if num != 4 && num != 2 {
			in.Forbidden = append(in.Forbidden, [2]int{4, num})
		}
		in.Players = append(in.Players, p)
	}
	return in
}

// TestFallback_P8_FloaterChoice: when neither the hand walk's floater nor
// the preferred one lets the rest be paired, another single floater is
// searched for, so the top group still makes its one board.
func TestFallback_P8_FloaterChoice(t *testing.T) {
	for _, n := range []int{40, 400} {
		in := bigTrap(n)
		out, err := swiss.Pair(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range checker.Check(in, out) {
			t.Errorf("%d players: %v", n, v)
		}
		inside := 0
		for _, b := range out.Boards {
			if b.Red <= 3 && b.Black <= 3 {
				inside++
			}
		}
		if inside != 1 {
			t.Errorf("%d players: %d boards inside the top group, want 1", n, inside)
		}
	}
}
