package tournament_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/team"
	"github.com/xqtour/xqtour/shared/tournament"
)

// teamField is a team event as the store would hold it.
type teamField struct {
	t       *tournament.Tournament
	players []*tournament.Player
	teams   []*tournament.Team
	rounds  []*tournament.Round
	results []tournament.Result
	lineups []tournament.Lineup
}

func newTeamField(t testing.TB, s tournament.Settings, n int) *teamField {
	t.Helper()
	s.Teams = true
	ev, err := tournament.New("t1", s, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &teamField{t: ev}
	for i := range n {
		var members []tournament.Player
		for j := range s.Boards + s.Substitutes {
			rating := 2000 - 100*i - j
			if n > 20 { // larger fields (benchmarks) keep ratings positive
				rating = 3000 - 40*i - j
			}
			members = append(members, tournament.Player{ID: fmt.Sprintf("p%d.%d", i+1, j+1), Name: fmt.Sprintf("T%d P%d", i+1, j+1), Rating: rating})
		}
		tm, ps, err := ev.RegisterTeam(tournament.Team{ID: fmt.Sprintf("m%d", i+1), Name: fmt.Sprintf("Team %d", i+1)}, members[:s.Boards], members[s.Boards:], 0)
		if err != nil {
			t.Fatal(err)
		}
		f.teams = append(f.teams, &tm)
		for k := range ps {
			f.players = append(f.players, &ps[k])
		}
	}
	return f
}

func (f *teamField) history() *tournament.TeamHistory {
	return tournament.NewTeamHistory(tournament.NewHistory(f.players, f.rounds, f.results), f.teams, f.lineups)
}

// pair pairs and stores the next round; decide gives each board's result.
func (f *teamField) pair(t testing.TB, decide func(r *tournament.Round, p tournament.Pairing) string) *tournament.Round {
	t.Helper()
	r, err := tournament.PairNextTeams(f.t, f.history(), tournament.PairOptions{}, gid)
	if err != nil {
		t.Fatalf("round %d: %v", f.t.Round+1, err)
	}
	f.t.Round = r.Number
	f.rounds = append(f.rounds, r)
	for _, p := range r.Pairings {
		if res := decide(r, p); res != "" {
			f.results = append(f.results, tournament.Result{Round: r.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(res)})
		}
	}
	return r
}

// T-1 roster order and T-6 colours at pairing: a fixed-boards match is set at
// once, the home team red on odd boards.
func TestPairNextTeams_T1_T6_FixedBoardsSetAtPairing(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "L", System: tournament.RoundRobin, Boards: 4}, 4)
	r := f.pair(t, func(*tournament.Round, tournament.Pairing) string { return "" })
	if len(r.Matches) != 2 || len(r.Pairings) != 8 {
		t.Fatalf("round 1: %+v", r)
	}
	for _, m := range r.Matches {
		home, away := f.teams[m.Home[1]-'1'], f.teams[m.Away[1]-'1']
		for _, p := range r.Pairings {
			if p.Match != m.ID {
				continue
			}
			red, black := home.Roster[p.Board-1], away.Roster[p.Board-1]
			if p.Board%2 == 0 {
				red, black = black, red
			}
			if p.Red != red || p.Black != black || p.Table != (m.Number-1)*4+p.Board {
				t.Errorf("%s board %d: %+v, want %s-%s", m.ID, p.Board, p, red, black)
			}
		}
	}
}

// A team Swiss of seven teams over five rounds (S-7, T-7, R-7): every round
// pairs three matches and gives one bye to a team that has had none; no two
// teams meet twice; the bye scores a match win with every board won; the
// table ranks by match points from the board results.
func TestPairNextTeams_S7_TeamSwissFiveRoundsWithBye(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "S", System: tournament.Swiss, Rounds: 5, Boards: 2}, 7)
	// Board results: the team with the lower number wins board 1, board 2 is drawn.
	decide := func(r *tournament.Round, p tournament.Pairing) string {
		if p.Board == 2 {
			return "1/2-1/2"
		}
		if p.Red < p.Black {
			return "1-0"
		}
		return "0-1"
	}
	met, byes := map[[2]string]bool{}, map[string]bool{}
	for range 5 {
		r := f.pair(t, decide)
		if len(r.Matches) != 3 || len(r.Byes) != 1 || len(r.Pairings) != 6 {
			t.Fatalf("round %d: %d matches, byes %v, %d games", r.Number, len(r.Matches), r.Byes, len(r.Pairings))
		}
		if byes[r.Byes[0]] {
			t.Fatalf("round %d: %s has a second bye", r.Number, r.Byes[0])
		}
		byes[r.Byes[0]] = true
		for _, m := range r.Matches {
			k := [2]string{min(m.Home, m.Away), max(m.Home, m.Away)}
			if met[k] {
				t.Errorf("round %d: %s and %s meet again", r.Number, m.Home, m.Away)
			}
			met[k] = true
		}
	}
	th := f.history()
	ev, err := tournament.TeamStandingsEvent(f.t, th)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := standings.TeamStandings(ev, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Match points recomputed from the rounds: a match goes to the team whose
	// player with the lower id won board 1 (board 2 drawn), a bye is 2.
	mp := map[string]int{}
	for _, r := range f.rounds {
		for _, m := range r.Matches {
			ms, ok := th.MatchScore(f.t, r, m)
			if !ok {
				t.Fatalf("round %d %s undecided", r.Number, m.ID)
			}
			mp[m.Home] += ms.Home.MatchPoints
			mp[m.Away] += ms.Away.MatchPoints
			if ms.Home.BoardPoints+ms.Away.BoardPoints != 4 || ms.Home.MatchPoints+ms.Away.MatchPoints != 2 || ms.Home.MatchPoints == 1 {
				t.Errorf("round %d %s: %+v", r.Number, m.ID, ms)
			}
		}
		mp[r.Byes[0]] += team.MatchWin
	}
	for _, row := range tab.Rows {
		if row.MatchPoints != mp[row.TeamID] {
			t.Errorf("%s: %d match points, want %d", row.TeamID, row.MatchPoints, mp[row.TeamID])
		}
		if row.Byes != 1 && byes[row.TeamID] {
			t.Errorf("%s: bye not counted: %+v", row.TeamID, row)
		}
	}
	if tab.Rows[0].TeamID != "m1" || tab.Rows[0].MatchPoints != 10 {
		t.Errorf("team 1 wins every match: %+v", tab.Rows[0])
	}
}

// T-2 lineups: the match is set only when both lineups are known; an
// out-of-order or unknown player names T-2; a set match refuses changes; a
// lineup after the round's start is refused (T-3's deadline); DrawMissing
// fields the members in roster order.
func TestTeamLineups_T2_SetWhenBothIn(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "C", System: tournament.RoundRobin, Boards: 2, Substitutes: 1}, 2)
	if f.t.Settings.TeamFormat != "boardsWithSubstitutes" {
		t.Fatalf("format %q", f.t.Settings.TeamFormat)
	}
	r := f.pair(t, func(*tournament.Round, tournament.Pairing) string { return "" })
	if len(r.Matches) != 1 || len(r.Pairings) != 0 {
		t.Fatalf("round 1: %+v", r)
	}
	m := r.Matches[0]
	th := f.history()
	home := th.Team(m.Home)
	var re *team.RuleError
	for _, bad := range [][]string{{home.Roster[2], home.Roster[0]}, {home.Roster[0], "nobody"}} {
		_, err := th.SubmitLineup(f.t, r, m.Home, bad, "cap", 0)
		if !errors.As(err, &re) || re.Rule != "T-2" {
			t.Errorf("lineup %v: %v, want a T-2 refusal", bad, err)
		}
	}
	l, err := th.SubmitLineup(f.t, r, m.Home, []string{home.Roster[1], home.Roster[2]}, "cap", 0)
	if err != nil {
		t.Fatal(err)
	}
	th.AddLineup(l)
	if changed, _ := th.SetMatches(f.t, r, gid); changed || tournament.MatchSet(r, m) {
		t.Fatal("a match with one lineup is set")
	}
	drawn := th.DrawMissing(f.t, r, "org", 0)
	if len(drawn) != 1 || drawn[0].Team != m.Away || !slices.Equal(drawn[0].Players, th.Team(m.Away).Members) {
		t.Fatalf("drawn %+v", drawn)
	}
	th.AddLineup(drawn[0])
	if changed, err := th.SetMatches(f.t, r, gid); !changed || err != nil || len(r.Pairings) != 2 {
		t.Fatalf("set: %v %v %+v", changed, err, r.Pairings)
	}
	var tre *tournament.RuleError
	if _, err := th.SubmitLineup(f.t, r, m.Home, []string{home.Roster[0], home.Roster[1]}, "cap", 0); !errors.As(err, &tre) || tre.Code != tournament.CodeLineupLocked {
		t.Errorf("a set match: %v", err)
	}
	r.StartsAt = 1000
	r.Pairings = nil
	if _, err := th.SubmitLineup(f.t, r, m.Home, []string{home.Roster[0], home.Roster[1]}, "cap", 1000); !errors.As(err, &re) || re.Code != team.CodeLineupDeadlinePassed {
		t.Errorf("after the start: %v", err)
	}
}

func TestTeamSettings_Normalize(t *testing.T) {
	tests := []struct {
		in    tournament.Settings
		field string
	}{
		{tournament.Settings{Name: "x", System: "roundRobin", Teams: true, TeamFormat: "relay"}, "teamFormat"},
		{tournament.Settings{Name: "x", System: "roundRobin", Teams: true, TeamFormat: "fixedBoards", Substitutes: 2}, "teamFormat"},
		{tournament.Settings{Name: "x", System: "roundRobin", TeamFormat: "fixedBoards"}, "boards"},
		{tournament.Settings{Name: "x", System: "roundRobin", Teams: true, TeamFormat: "lineupPerMatch", Substitutes: 2}, ""},
	}
	for _, tt := range tests {
		err := tt.in.Normalize()
		var fe *tournament.FieldError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("%+v: %v", tt.in, err)
		case tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field):
			t.Errorf("%+v: %v, want a %s error", tt.in, err, tt.field)
		}
	}
}

// P-12 for matches: a team Swiss round waits for the matches of the round
// before unless the organiser counts the open ones as drawn matches; the
// round then lists them by MatchRef.
func TestPairNextTeams_P12_OpenMatches(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "S", System: tournament.Swiss, Rounds: 3, Boards: 2}, 4)
	r1 := f.pair(t, func(r *tournament.Round, p tournament.Pairing) string {
		if p.Match == "M1" {
			return "1-0"
		}
		return "" // M2 still being played
	})
	var re *tournament.RuleError
	if _, err := tournament.PairNextTeams(f.t, f.history(), tournament.PairOptions{}, gid); !errors.As(err, &re) || re.Rule != "P-12" {
		t.Fatalf("open match: %v, want a P-12 refusal", err)
	}
	r2, err := tournament.PairNextTeams(f.t, f.history(), tournament.PairOptions{UnfinishedAsDraws: true}, gid)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{tournament.MatchRef(1, r1.Matches[1].ID)}; !slices.Equal(r2.UnfinishedAsDraws, want) {
		t.Errorf("unfinishedAsDraws %v, want %v", r2.UnfinishedAsDraws, want)
	}
	if len(r2.Matches) != 2 {
		t.Fatalf("round 2: %+v", r2.Matches)
	}
}

// S-1 and T-6 in a team double round robin: the second cycle repeats
// the first cycle's matches with home and away swapped, so each team has red
// on the other boards; the table ends in a play-off for places still tied.
func TestPairNextTeams_S1_DoubleRoundRobinSwapsHome(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "D", System: tournament.DoubleRoundRobin, Boards: 2}, 4)
	draw := func(*tournament.Round, tournament.Pairing) string { return "1/2-1/2" }
	var rounds []*tournament.Round
	for range 6 {
		rounds = append(rounds, f.pair(t, draw))
	}
	if _, err := tournament.PairNextTeams(f.t, f.history(), tournament.PairOptions{}, gid); err == nil {
		t.Fatal("a 4-team double round robin has 6 rounds")
	}
	for k := range 3 {
		first, second := rounds[k].Matches, rounds[k+3].Matches
		for i, m := range first {
			if second[i].Home != m.Away || second[i].Away != m.Home {
				t.Errorf("round %d %s: %s v %s, want %s v %s", k+4, second[i].ID, second[i].Home, second[i].Away, m.Away, m.Home)
			}
		}
	}
	ev, err := tournament.TeamStandingsEvent(f.t, f.history())
	if err != nil {
		t.Fatal(err)
	}
	tab, err := standings.TeamStandings(ev, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows { // every board drawn: all level, a play-off decides
		if row.MatchPoints != 6 || row.BoardPoints != 12 || !row.Playoff {
			t.Errorf("%+v", row)
		}
	}
}

// T-3 drawn by the server: nothing is due before the round's start or in a
// round without one; from the start on, only the lineups still missing are
// drawn, with LineupSeed, by the server, and a set match draws nothing.
func TestDueLineups_T3_DrawnAtDeadline(t *testing.T) {
	f := newTeamField(t, tournament.Settings{Name: "B", System: tournament.RoundRobin, Boards: 3, TeamFormat: "lineupPerMatch"}, 2)
	r := f.pair(t, func(*tournament.Round, tournament.Pairing) string { return "" })
	m := r.Matches[0]
	th := f.history()
	home := th.Team(m.Home)
	l, err := th.SubmitLineup(f.t, r, m.Home, []string{home.Roster[2], home.Roster[0], home.Roster[1]}, "cap", 0)
	if err != nil {
		t.Fatal(err)
	}
	th.AddLineup(l)
	if due := th.DueLineups(f.t, r, 5000); due != nil {
		t.Fatalf("a round without a start has no deadline: %+v", due)
	}
	r.StartsAt = 1000
	if due := th.DueLineups(f.t, r, 999); due != nil {
		t.Fatalf("before the deadline: %+v", due)
	}
	due := th.DueLineups(f.t, r, 1000)
	seed := tournament.LineupSeed(f.t.ID, r.Number, m.Away)
	want := th.Team(m.Away).TeamRoster(f.t.Settings.TeamSettings()).DrawLineup(seed)
	if len(due) != 1 || due[0].Team != m.Away || !due[0].Drawn || due[0].Seed != seed || due[0].By != tournament.DrawnByServer || !slices.Equal(due[0].Players, want) {
		t.Fatalf("at the deadline: %+v, want %v drawn with seed %d", due, want, seed)
	}
	if again := th.DueLineups(f.t, r, 2000); !slices.EqualFunc(again, due, func(a, b tournament.Lineup) bool { return slices.Equal(a.Players, b.Players) && a.Seed == b.Seed }) {
		t.Fatalf("the draw is not reproducible: %+v then %+v", due, again)
	}
	th.AddLineup(due[0])
	if changed, err := th.SetMatches(f.t, r, gid); !changed || err != nil {
		t.Fatalf("set: %v %v", changed, err)
	}
	if due := th.DueLineups(f.t, r, 3000); len(due) != 0 {
		t.Fatalf("a set match draws nothing: %+v", due)
	}
}
