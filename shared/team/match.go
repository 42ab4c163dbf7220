package team

// BoardGame is one game of a team match.
type BoardGame struct {
	// Board is the board number, from 1. In an all-play-all it is the
	// number of the first-listed team's player (A1…An).
	Board int
	// Red and Black are player ids; an empty id is a board the team could
	// not fill, to be recorded as a forfeit (C-6).
	Red, Black string
	// HomeRed reports whether the first-listed team's player has red.
	HomeRed bool
}

// Boards returns the board games of a match between home (the team listed
// first in the round's pairing, or the team given 先走 by the Swiss pairing)
// and away. T-6 (001 §12.2, §12.3): home has red on odd boards and black on
// even boards. A board that one lineup does not reach gets an empty id on
// that side.
func Boards(home, away Lineup) []BoardGame {
	n := max(len(home), len(away))
	games := make([]BoardGame, n)
	for i := range games {
		h, a := at(home, i), at(away, i)
		b := i + 1
		if b%2 == 1 {
			games[i] = BoardGame{Board: b, Red: h, Black: a, HomeRed: true}
		} else {
			games[i] = BoardGame{Board: b, Red: a, Black: h}
		}
	}
	return games
}

func at(l Lineup, i int) string {
	if i < len(l) {
		return l[i]
	}
	return ""
}

// AllPlayAllRounds returns the rounds of an all-play-all match between two
// teams of n players (T-4, 001 §11.4), as in the 8×8 table of seed 002:
// in round r (from 1) player A_i meets B_j with j = (i + r - 2) mod n + 1,
// so every A meets every B once; colours alternate by round, not by board:
// the home team has red on every board in odd rounds and black in even
// rounds. games[r-1][i-1] is A_i's game in round r.
func AllPlayAllRounds(home, away Lineup) ([][]BoardGame, error) {
	n := len(home)
	if n == 0 || len(away) != n {
		return nil, ruleErr(CodeAllPlayAllSize, "T-4",
			"an all-play-all needs two teams of equal, non-zero size, got %d and %d", len(home), len(away))
	}
	rounds := make([][]BoardGame, n)
	for r := range rounds {
		games := make([]BoardGame, n)
		homeRed := r%2 == 0 // round r+1 is odd
		for i := range games {
			h, a := home[i], away[(i+r)%n]
			if homeRed {
				games[i] = BoardGame{Board: i + 1, Red: h, Black: a, HomeRed: true}
			} else {
				games[i] = BoardGame{Board: i + 1, Red: a, Black: h}
			}
		}
		rounds[r] = games
	}
	return rounds, nil
}
