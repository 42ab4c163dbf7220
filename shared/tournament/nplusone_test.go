package tournament_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/combined"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// S-4 N+1 (001 §10.4.3.3): whoever met a finalist in rounds 1…N counts the
// finalist's N+1-round score — the score after N plus the final's slow
// game. The final is one slow game (no additional rapid games), so that is
// the finalist's plain total after round N+1, and R-4a's 对手分 over the
// table after round N+1 already counts it: checked here against
// combined.NPlusOneOpponentScores, and for every player without a bye
// against the sum of the opponents' totals.
func TestStandings_S4_NPlusOneOpponentScores(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.SwissNPlusOne, Rounds: 4}, 8)
	var rounds []*tournament.Round
	var results []tournament.Result
	none := func(tournament.Pairing) string { return "" }
	for range 4 {
		play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, none)
		finishAll(rounds, &results)
	}
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
	if err != nil {
		t.Fatal(err)
	}
	afterN, err := standings.Standings(sev, 3)
	if err != nil {
		t.Fatal(err)
	}
	final, err := standings.Standings(sev, 4)
	if err != nil {
		t.Fatal(err)
	}
	points := func(tb standings.Table) map[string]int {
		m := map[string]int{}
		for _, r := range tb.Rows {
			m[r.PlayerID] = r.Points
		}
		return m
	}
	before, total := points(afterN), points(final)
	fg := rounds[3].Pairings[0] // table 1 of round N+1 is the final
	var fs [2]combined.FinalistScore
	for i, id := range []string{fg.Red, fg.Black} {
		fs[i] = combined.FinalistScore{Player: id, AfterN: before[id], FinalSlow: total[id] - before[id]}
	}
	for id, want := range combined.NPlusOneOpponentScores(fs) {
		if total[id] != want {
			t.Errorf("finalist %s: total %d after N+1, N+1 score %d", id, total[id], want)
		}
	}
	met := map[string][]string{}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			met[p.Red] = append(met[p.Red], p.Black)
			met[p.Black] = append(met[p.Black], p.Red)
		}
	}
	for _, row := range final.Rows {
		if row.Byes > 0 {
			continue
		}
		sum := 0
		for _, o := range met[row.PlayerID] {
			sum += total[o]
		}
		if tb := row.Tiebreaks[0]; tb.Name != standings.OpponentScore || tb.Float64() != float64(sum) {
			t.Errorf("%s: %s %v, want %d (opponents' N+1 totals)", row.PlayerID, tb.Name, tb.Float64(), sum)
		}
	}
}

// TestStandings_S4_NPlusOneFinalPlaces: 001 §10.4.3.1 (第N轮结束后排名前2名的棋手
// …进行冠亚军决赛，其他棋手进行第N+1轮积分编排赛确定第3名及以后名次). Eight
// players, N = 3: the final's loser is 2nd even when a non-finalist ends
// round N+1 with more points, and that non-finalist is 3rd. Before round
// N+1 the table is the plain Swiss table.
func TestStandings_S4_NPlusOneFinalPlaces(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.SwissNPlusOne, Rounds: 4}, 8)
	var rounds []*tournament.Round
	var results []tournament.Result
	for range 3 {
		play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	}
	// Round N+1: the final goes to black; every other game to red.
	r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(p tournament.Pairing) string {
		if p.Table == 1 {
			return "0-1"
		}
		return "1-0"
	})
	final := r.Pairings[0]
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
	if err != nil {
		t.Fatal(err)
	}
	table, err := standings.Standings(sev, 4)
	if err != nil {
		t.Fatal(err)
	}
	if table.Rows[0].PlayerID != final.Black || table.Rows[0].Rank != 1 || table.Rows[1].PlayerID != final.Red || table.Rows[1].Rank != 2 {
		t.Fatalf("top two %s (%d), %s (%d); want the final's winner %s 1st and loser %s 2nd",
			table.Rows[0].PlayerID, table.Rows[0].Rank, table.Rows[1].PlayerID, table.Rows[1].Rank, final.Black, final.Red)
	}
	loser := table.Rows[1].Points
	above := false
	for _, row := range table.Rows[2:] {
		if row.Rank < 3 || row.Playoff {
			t.Errorf("%s: rank %d playoff %v, want 3rd or lower and no play-off", row.PlayerID, row.Rank, row.Playoff)
		}
		above = above || row.Points > loser
	}
	if !above {
		t.Errorf("the case needs a non-finalist with more points than the final's loser (%d): %+v", loser, table.Rows)
	}
	plain, err := standings.Standings(sev, 3)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Rows[0].Rank != 1 || plain.Rows[1].Points > plain.Rows[0].Points {
		t.Errorf("table after round N is not the plain Swiss table: %+v", plain.Rows[:2])
	}
}
