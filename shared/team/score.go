package team

import "github.com/xqtour/xqtour/shared/result"

// Scoring is an event's points per game (K-1, 001 §13.1 and §13.3), in
// integer units. Draws are split by colour because one option gives red and
// black different draw scores.
type Scoring struct {
	Win, Loss          int
	DrawRed, DrawBlack int
}

// The scorings of K-1.
var (
	// Scoring210 is the default, 001 §13.1: win 2, draw 1, loss 0.
	Scoring210 = Scoring{Win: 2, Loss: 0, DrawRed: 1, DrawBlack: 1}
	// Scoring310 is 001 §13.3's first option: win 3, draw 1, loss 0.
	Scoring310 = Scoring{Win: 3, Loss: 0, DrawRed: 1, DrawBlack: 1}
	// Scoring30RedBlack is 001 §13.3's second option: win 3, loss 0, a draw
	// 1 to red (先手方) and 2 to black (后手方).
	Scoring30RedBlack = Scoring{Win: 3, Loss: 0, DrawRed: 1, DrawBlack: 2}
)

// BoardPoints returns the points red and black score for one game (K-1).
// A forfeit scores as a win and a loss; a double forfeit (C-6: both late)
// scores a loss for both.
func BoardPoints(res result.Result, sc Scoring) (red, black int, err error) {
	switch res {
	case result.RedWins, result.RedByForfeit:
		return sc.Win, sc.Loss, nil
	case result.BlackWins, result.BlackByForfeit:
		return sc.Loss, sc.Win, nil
	case result.Draw:
		return sc.DrawRed, sc.DrawBlack, nil
	case result.DoubleForfeit:
		return sc.Loss, sc.Loss, nil
	}
	return 0, 0, ruleErr(CodeUnknownResult, "K-1", "a board game without a result (Result(%d)) scores nothing", int(res))
}

// Match points (T-7, 001 §13.2): 场分 2 for the team with more board points,
// 1 each when equal, 0 for fewer.
const (
	MatchWin  = 2
	MatchDraw = 1
	MatchLoss = 0
)

// MatchPoints returns the match points of two teams with the given board
// points (T-7).
func MatchPoints(homeBoard, awayBoard int) (home, away int) {
	switch {
	case homeBoard > awayBoard:
		return MatchWin, MatchLoss
	case homeBoard < awayBoard:
		return MatchLoss, MatchWin
	}
	return MatchDraw, MatchDraw
}

// Side is one team's share of a match: what team standings (R-5…R-8) add up.
type Side struct {
	// BoardPoints is 局分, the sum of the team's points over its games.
	BoardPoints int
	// MatchPoints is 场分 (T-7).
	MatchPoints int
	// Wins, Draws and Losses count the team's games; forfeits count as wins
	// and losses, a double forfeit as a loss.
	Wins, Draws, Losses int
	// ForfeitLosses counts the games the team lost by forfeit, double
	// forfeits included, so standings can mark them (S-6).
	ForfeitLosses int
}

// MatchScore is the outcome of a team match.
type MatchScore struct {
	Home, Away Side
	// DoubleForfeit reports a match in which every game was a double
	// forfeit: nobody played. T-7 still scores it as equal board points, 1
	// match point each; the flag lets an arbiter see it and rule otherwise.
	DoubleForfeit bool
}

// ScoreMatch scores a match from its board games (Boards or a flattened
// AllPlayAllRounds) and results[i], the result of games[i] (T-7): each game
// gives board points by sc, and the board point totals decide the match
// points.
func ScoreMatch(games []BoardGame, results []result.Result, sc Scoring) (MatchScore, error) {
	if len(results) != len(games) {
		return MatchScore{}, ruleErr(CodeResultCount, "T-7", "%d board games, %d results", len(games), len(results))
	}
	var m MatchScore
	doubles := 0
	for i, g := range games {
		red, black, err := BoardPoints(results[i], sc)
		if err != nil {
			return MatchScore{}, err
		}
		redSide, blackSide := &m.Away, &m.Home
		if g.HomeRed {
			redSide, blackSide = &m.Home, &m.Away
		}
		redSide.BoardPoints += red
		blackSide.BoardPoints += black
		switch results[i] {
		case result.RedWins, result.RedByForfeit:
			redSide.Wins++
			blackSide.Losses++
			if results[i] == result.RedByForfeit {
				blackSide.ForfeitLosses++
			}
		case result.BlackWins, result.BlackByForfeit:
			blackSide.Wins++
			redSide.Losses++
			if results[i] == result.BlackByForfeit {
				redSide.ForfeitLosses++
			}
		case result.Draw:
			redSide.Draws++
			blackSide.Draws++
		case result.DoubleForfeit:
			doubles++
			for _, s := range []*Side{redSide, blackSide} {
				s.Losses++
				s.ForfeitLosses++
			}
		}
	}
	m.DoubleForfeit = len(games) > 0 && doubles == len(games)
	m.Home.MatchPoints, m.Away.MatchPoints = MatchPoints(m.Home.BoardPoints, m.Away.BoardPoints)
	return m, nil
}

// ByeBoards says what board points a team bye carries; 001 §14.4 only says
// the bye "按胜场计分" (scores as a match won).
type ByeBoards int

const (
	// ByeAllBoardsWon scores the bye's board points as if every board were
	// won, as each board would score for a player's bye (001 §14.4: 轮空者
	// 的成绩按胜局计分): Boards×Win. The default, and what shared/standings
	// adds up for a team bye.
	ByeAllBoardsWon ByeBoards = iota
	// ByeNoBoardPoints gives the match win only, for events that read "a
	// bye is no game" (S-7) as "it earns no board points".
	ByeNoBoardPoints
)

// Bye returns the Side of a team with a bye in a team Swiss (S-7, 001
// §14.4): a match win, 2 match points, with board points as opt says for a
// match of boards games under sc. It is no game, so Wins, Draws and Losses
// stay zero. In a round robin a bye is a rest and scores nothing (S-7): do
// not call Bye there.
func Bye(boards int, sc Scoring, opt ByeBoards) Side {
	s := Side{MatchPoints: MatchWin}
	if opt == ByeAllBoardsWon {
		s.BoardPoints = boards * sc.Win
	}
	return s
}
