package tournament_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/tournament"
)

// homeWins has the team listed first win every board of its match (T-6:
// red on odd boards, black on even ones).
func homeWins(r *tournament.Round, p tournament.Pairing) string {
	for _, m := range r.Matches {
		if m.ID == p.Match {
			if p.Board%2 == 1 {
				return "1-0"
			}
			return "0-1"
		}
	}
	return ""
}

// S-3 for teams: 16 teams fill a bracket of 16; each round's matches are
// ties of the bracket, the winners meet in the next round, and the bracket
// ends after four rounds with the first-listed team of the final on top.
func TestPairNextTeams_S3_TeamKnockoutBracket(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "Cup", System: tournament.Knockout, Boards: 2}, 16)
	var final *tournament.Round
	for n, matches := range []int{8, 4, 2, 1} {
		r := f.pair(t, homeWins)
		if len(r.Matches) != matches || len(r.Pairings) != 2*matches {
			t.Fatalf("round %d: %d matches, %d boards", n+1, len(r.Matches), len(r.Pairings))
		}
		for _, m := range r.Matches {
			if m.Tie == "" || m.Rapid {
				t.Errorf("round %d: match %+v", n+1, m)
			}
		}
		final = r
	}
	if _, err := tournament.PairNextTeams(f.t, f.history(), tournament.PairOptions{}, gid); err == nil {
		t.Fatal("a fifth round was paired")
	}
	places, err := tournament.TeamKnockoutPlaces(f.t, f.history())
	if err != nil {
		t.Fatal(err)
	}
	if places[0].Player != final.Matches[0].Home || places[0].Place != 1 || len(places) != 16 {
		t.Errorf("places %+v, want %s first", places[:2], final.Matches[0].Home)
	}
	if i := slices.IndexFunc(places, func(p tournament.OverallPlace) bool { return p.Place == 9 }); i != 8 {
		t.Errorf("the first-round losers should share 9th from row 9, got row %d", i+1)
	}
}

// BenchmarkPairNextTeams_TeamKnockout64: the final of a 64-team, 4-board
// knockout is paired by rebuilding the team history and replaying the whole
// bracket from the stored rounds, as a stateless request does.
func BenchmarkPairNextTeams_TeamKnockout64(b *testing.B) {
	f := newTeamField(b, tournament.Settings{Name: "Cup", System: tournament.Knockout, Boards: 4}, 64)
	for range 5 {
		f.pair(b, homeWins)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tournament.PairNextTeams(f.t, f.history(), tournament.PairOptions{}, gid); err != nil {
			b.Fatal(err)
		}
	}
}
