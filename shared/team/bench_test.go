package team_test

import (
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/team"
)

func BenchmarkOrderedLineups_12Choose8(b *testing.B) {
	ids := make([]string, 12)
	for i := range ids {
		ids[i] = fmt.Sprint(i + 1)
	}
	for b.Loop() {
		team.OrderedLineups(ids, 8)
	}
}

func BenchmarkAllPlayAllRounds_8x8(b *testing.B) {
	var home, away team.Lineup
	for i := 1; i <= 8; i++ {
		home = append(home, fmt.Sprintf("A%d", i))
		away = append(away, fmt.Sprintf("B%d", i))
	}
	for b.Loop() {
		if _, err := team.AllPlayAllRounds(home, away); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScoreMatch_6Boards(b *testing.B) {
	games := team.Boards(team.Lineup{"a", "b", "c", "d", "e", "f"}, team.Lineup{"g", "h", "i", "j", "k", "l"})
	results := []result.Result{result.RedWins, result.BlackWins, result.Draw, result.RedByForfeit, result.BlackByForfeit, result.RedWins}
	for b.Loop() {
		if _, err := team.ScoreMatch(games, results, team.Scoring210); err != nil {
			b.Fatal(err)
		}
	}
}
