package team_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/team"
)

var scorings = map[string]team.Scoring{
	"2/1/0":           team.Scoring210,
	"3/1/0":           team.Scoring310,
	"3/0 red1 black2": team.Scoring30RedBlack,
}

func fourBoards() []team.BoardGame {
	return team.Boards(team.Lineup{"a1", "a2", "a3", "a4"}, team.Lineup{"b1", "b2", "b3", "b4"})
}

// TestScoreMatch_T7_WorkedMatches checks testdata/t7_match_scores.tsv, whose
// comments carry the working.
func TestScoreMatch_T7_WorkedMatches(t *testing.T) {
	rows := readRows(t, "testdata/t7_match_scores.tsv")
	if len(rows) == 0 {
		t.Fatal("no matches in testdata")
	}
	for _, row := range rows {
		t.Run(row[0], func(t *testing.T) {
			sc, ok := scorings[row[1]]
			if !ok {
				t.Fatalf("unknown scoring %q", row[1])
			}
			var results []result.Result
			var home, away team.Lineup
			for i, s := range strings.Split(row[2], ",") {
				r, err := result.Parse(s)
				if err != nil {
					t.Fatal(err)
				}
				results = append(results, r)
				home = append(home, "a"+strconv.Itoa(i+1))
				away = append(away, "b"+strconv.Itoa(i+1))
			}
			var want [4]int
			for i := range want {
				v, err := strconv.Atoi(row[3+i])
				if err != nil {
					t.Fatal(err)
				}
				want[i] = v
			}
			m, err := team.ScoreMatch(team.Boards(home, away), results, sc)
			if err != nil {
				t.Fatal(err)
			}
			got := [4]int{m.Home.BoardPoints, m.Away.BoardPoints, m.Home.MatchPoints, m.Away.MatchPoints}
			if got != want {
				t.Fatalf("got board %d-%d match %d-%d, want board %d-%d match %d-%d",
					got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3])
			}
		})
	}
}

func TestScoreMatch_T7_GameCounts(t *testing.T) {
	// b1 +- home wins by forfeit; b2 1/2; b3 0-1 away (black) wins; b4 0-0.
	m, err := team.ScoreMatch(fourBoards(), []result.Result{result.RedByForfeit, result.Draw, result.BlackWins, result.DoubleForfeit}, team.Scoring210)
	if err != nil {
		t.Fatal(err)
	}
	wantHome := team.Side{BoardPoints: 3, MatchPoints: 1, Wins: 1, Draws: 1, Losses: 2, ForfeitLosses: 1}
	wantAway := team.Side{BoardPoints: 3, MatchPoints: 1, Wins: 1, Draws: 1, Losses: 2, ForfeitLosses: 2}
	if m.Home != wantHome || m.Away != wantAway || m.DoubleForfeit {
		t.Fatalf("got %+v, want home %+v away %+v", m, wantHome, wantAway)
	}
	m, err = team.ScoreMatch(fourBoards(), []result.Result{result.DoubleForfeit, result.DoubleForfeit, result.DoubleForfeit, result.DoubleForfeit}, team.Scoring210)
	if err != nil || !m.DoubleForfeit || m.Home.ForfeitLosses != 4 || m.Away.Losses != 4 || m.Home.MatchPoints != 1 || m.Away.MatchPoints != 1 {
		t.Fatalf("whole double forfeit: got %+v, %v", m, err)
	}
}

// TestScoreMatch_T4_AllPlayAllTwoByTwo scores an all-play-all: red wins
// every game. Round 1 A is red on both boards → A 4; round 2 B is red → B 4;
// 4-4 → 1-1.
func TestScoreMatch_T4_AllPlayAllTwoByTwo(t *testing.T) {
	rounds, err := team.AllPlayAllRounds(team.Lineup{"A1", "A2"}, team.Lineup{"B1", "B2"})
	if err != nil {
		t.Fatal(err)
	}
	var games []team.BoardGame
	for _, r := range rounds {
		games = append(games, r...)
	}
	m, err := team.ScoreMatch(games, []result.Result{result.RedWins, result.RedWins, result.RedWins, result.RedWins}, team.Scoring210)
	if err != nil {
		t.Fatal(err)
	}
	if m.Home.BoardPoints != 4 || m.Away.BoardPoints != 4 || m.Home.MatchPoints != 1 || m.Away.MatchPoints != 1 {
		t.Fatalf("got %+v", m)
	}
}

func TestScoreMatch_Errors(t *testing.T) {
	_, err := team.ScoreMatch(fourBoards(), []result.Result{result.RedWins, result.RedWins, result.RedWins}, team.Scoring210)
	wantRuleErr(t, err, team.CodeResultCount, "T-7")
	_, err = team.ScoreMatch(fourBoards(), []result.Result{result.RedWins, result.Result(99), result.RedWins, result.RedWins}, team.Scoring210)
	wantRuleErr(t, err, team.CodeUnknownResult, "K-1")
	_, err = team.ScoreMatch(fourBoards(), []result.Result{result.RedWins, result.None, result.RedWins, result.RedWins}, team.Scoring210)
	wantRuleErr(t, err, team.CodeUnknownResult, "K-1")
}

func TestBoardPoints_K1(t *testing.T) {
	tests := []struct {
		name       string
		res        result.Result
		sc         team.Scoring
		red, black int
	}{
		{"K1_Default_RedWins", result.RedWins, team.Scoring210, 2, 0},
		{"K1_Default_BlackWins", result.BlackWins, team.Scoring210, 0, 2},
		{"K1_Default_Draw", result.Draw, team.Scoring210, 1, 1},
		{"K1_Default_RedForfeitWin", result.RedByForfeit, team.Scoring210, 2, 0},
		{"K1_Default_BlackForfeitWin", result.BlackByForfeit, team.Scoring210, 0, 2},
		{"K1_Default_DoubleForfeit", result.DoubleForfeit, team.Scoring210, 0, 0},
		{"K1_310_Win", result.BlackWins, team.Scoring310, 0, 3},
		{"K1_310_Draw", result.Draw, team.Scoring310, 1, 1},
		{"K1_30RedBlack_DrawRed1Black2", result.Draw, team.Scoring30RedBlack, 1, 2},
		{"K1_30RedBlack_Win", result.RedWins, team.Scoring30RedBlack, 3, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			red, black, err := team.BoardPoints(tc.res, tc.sc)
			if err != nil || red != tc.red || black != tc.black {
				t.Fatalf("got %d-%d, %v; want %d-%d", red, black, err, tc.red, tc.black)
			}
		})
	}
}

func TestMatchPoints_T7(t *testing.T) {
	tests := []struct {
		name             string
		hb, ab, hmp, amp int
	}{
		{"T7_MoreWins2", 5, 3, 2, 0},
		{"T7_FewerGets0", 2, 6, 0, 2},
		{"T7_Equal1Each", 4, 4, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, a := team.MatchPoints(tc.hb, tc.ab)
			if h != tc.hmp || a != tc.amp {
				t.Fatalf("got %d-%d, want %d-%d", h, a, tc.hmp, tc.amp)
			}
		})
	}
}

// TestBye_S7_MatchWin: 001 §14.4 "团体成绩按胜场计分" — a team bye in a Swiss
// is a match win; it is no game, so it counts no wins, draws or losses.
func TestBye_S7_MatchWin(t *testing.T) {
	tests := []struct {
		name string
		opt  team.ByeBoards
		sc   team.Scoring
		want team.Side
	}{
		// 4 boards × win 2 = 8 board points.
		{"S7_DefaultAllBoardsWon_210", 0, team.Scoring210, team.Side{BoardPoints: 8, MatchPoints: 2}},
		{"S7_NoBoardPoints", team.ByeNoBoardPoints, team.Scoring210, team.Side{MatchPoints: 2}},
		// 4 boards × win 3 = 12.
		{"S7_AllBoardsWon_310", team.ByeAllBoardsWon, team.Scoring310, team.Side{BoardPoints: 12, MatchPoints: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := team.Bye(4, tc.sc, tc.opt); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
