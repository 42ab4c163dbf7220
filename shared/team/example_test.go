package team_test

import (
	"errors"
	"fmt"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/team"
)

// Example walks one round of a T-2 event: two teams enter, one captain
// submits a lineup in time, the other misses the deadline and the server
// uses DrawLineup; the match gets T-6 colours and is scored by T-7.
func Example() {
	s := team.Settings{Format: team.BoardsWithSubstitutes, Boards: 4, Substitutes: 2}
	red, _ := team.NewRoster("Red Dragons", s,
		[]team.Player{{ID: "r1", Rating: 2500}, {ID: "r2", Rating: 2400}, {ID: "r3", Rating: 2300}, {ID: "r4", Rating: 2200}},
		[]team.Player{{ID: "r5", Rating: 2100}})
	blue, _ := team.NewRoster("Blue Tigers", s,
		[]team.Player{{ID: "b1"}, {ID: "b2"}, {ID: "b3"}, {ID: "b4"}}, nil)

	const deadline, now = 1_000, 999
	home := team.Lineup{"r1", "r2", "r4", "r5"} // r3 rests; order kept
	if err := red.SubmitLineup(home, deadline, now); err != nil {
		panic(err)
	}
	err := red.SubmitLineup(team.Lineup{"r2", "r1", "r3", "r4"}, deadline, now)
	var re *team.RuleError
	if errors.As(err, &re) {
		fmt.Println("refused:", re.Code, re.Rule)
	}
	away := blue.DrawLineup(42) // no lineup by the deadline: members in roster order

	games := team.Boards(home, away)
	for _, g := range games {
		fmt.Printf("board %d: %s (red) - %s (black)\n", g.Board, g.Red, g.Black)
	}
	// b1 1-0: r1 wins, 2-0. b2 draw, 1-1. b3 0-1: b3 (black) wins, 0-2.
	// b4 -+: r5 (black) wins by forfeit, 2-0. Board points 5-3, match 2-0.
	m, _ := team.ScoreMatch(games, []result.Result{result.RedWins, result.Draw, result.BlackWins, result.BlackByForfeit}, team.Scoring210)
	fmt.Printf("board points %d-%d, match points %d-%d\n",
		m.Home.BoardPoints, m.Away.BoardPoints, m.Home.MatchPoints, m.Away.MatchPoints)
	// Output:
	// refused: lineup_out_of_order T-2
	// board 1: r1 (red) - b1 (black)
	// board 2: b2 (red) - r2 (black)
	// board 3: r4 (red) - b3 (black)
	// board 4: b4 (red) - r5 (black)
	// board points 5-3, match points 2-0
}
