package tournament_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// bigSwiss plays rounds of a Swiss of n players with results from a fixed
// rule (the smaller id string wins, every fifth table drawn).
func bigSwiss(b *testing.B, n, rounds int) (*tournament.Tournament, []*tournament.Player, []*tournament.Round, []tournament.Result) {
	b.Helper()
	ev, err := tournament.New("t1", tournament.Settings{Name: "big", System: tournament.Swiss, Rounds: rounds + 1}, "", 0)
	if err != nil {
		b.Fatal(err)
	}
	var ps []*tournament.Player
	for i := range n {
		p, err := ev.Register(tournament.Player{ID: fmt.Sprintf("p%05d", i+1), Name: fmt.Sprintf("Player %d", i+1), Rating: 2600 - i}, 0)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, &p)
	}
	var rs []*tournament.Round
	var results []tournament.Result
	for range rounds {
		r, err := tournament.PairNext(ev, tournament.NewHistory(ps, rs, results), tournament.PairOptions{}, gid)
		if err != nil {
			b.Fatal(err)
		}
		ev.Round = r.Number
		rs = append(rs, r)
		for _, p := range r.Pairings {
			res := "1-0"
			if p.Black < p.Red {
				res = "0-1"
			}
			if p.Table%5 == 0 {
				res = "1/2-1/2"
			}
			results = append(results, tournament.Result{Round: r.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(res)})
		}
	}
	return ev, ps, rs, results
}

// BenchmarkPairNextSwiss1000 pairs round 11 of a 1,000-player Swiss from
// the stored history, as POST rounds does (history rebuild plus the engine);
// it reports the stored round item's size against DynamoDB's 400 KB limit.
func BenchmarkPairNextSwiss1000(b *testing.B) {
	ev, ps, rs, results := bigSwiss(b, 1000, 10)
	h := tournament.NewHistory(ps, rs, results)
	b.ResetTimer()
	var r *tournament.Round
	for b.Loop() {
		var err error
		if r, err = tournament.PairNext(ev, h, tournament.PairOptions{}, gid); err != nil {
			b.Fatal(err)
		}
	}
	doc, _ := json.Marshal(r)
	b.ReportMetric(float64(len(doc)), "itemBytes")
}

// BenchmarkStandings1000 ranks the same event after 10 rounds, as GET
// standings does (conversion plus the R-4a chain).
func BenchmarkStandings1000(b *testing.B) {
	ev, ps, rs, results := bigSwiss(b, 1000, 10)
	h := tournament.NewHistory(ps, rs, results)
	b.ResetTimer()
	for b.Loop() {
		in, err := tournament.StandingsEvent(ev, h)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := standings.Standings(in, 10); err != nil {
			b.Fatal(err)
		}
	}
}
