package httpapi_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/tournament"
)

type teamStandingsJSON struct {
	Round int
	View  string
	Chain []string
	Rows  []struct {
		Rank        int
		TeamID      string
		MatchPoints int
		BoardPoints int
		Matches     int
		MatchWins   int
		BoardWins   int
		BlackGames  int
		Byes        int
		Tiebreaks   []struct {
			Name  string
			Value float64
		}
	}
}

// T-1: the roster is in rating order, unrated players after the rated ones;
// every member is a player of the event with their own token.
func TestRegisterTeam_T1_RatingOrderUnratedLast(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":4}`)
	if ev.T["teamFormat"] != "fixedBoards" {
		t.Fatalf("default team format: %v", ev.T["teamFormat"])
	}
	body := map[string]any{"name": "Dragons", "members": []map[string]any{
		{"name": "Unrated A"}, {"name": "Mid", "rating": 2100}, {"name": "Top", "rating": 2400}, {"name": "Unrated B", "club": "X"}}}
	var tc teamCreated
	s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, body).Want(t, http.StatusCreated).Decode(t, &tc)
	var names []string
	for i, m := range tc.Team.Members {
		names = append(names, m.Name)
		if m.Board != i+1 {
			t.Errorf("member %s board %d at position %d", m.Name, m.Board, i)
		}
	}
	if want := []string{"Top", "Mid", "Unrated A", "Unrated B"}; !slices.Equal(names, want) {
		t.Fatalf("board order %v, want %v (T-1)", names, want)
	}
	if len(tc.PlayerTokens) != 4 || tc.Token == "" || tc.Team.Number != 1 {
		t.Fatalf("tokens: %+v", tc)
	}
	var players struct{ Players []struct{ ID, Name string } }
	s.Get("/tournaments/"+ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &players)
	if len(players.Players) != 4 {
		t.Fatalf("members are not players of the event: %+v", players)
	}
	var list struct{ Teams []teamJSON }
	s.Get("/tournaments/"+ev.ID+"/teams").Want(t, http.StatusOK).Decode(t, &list)
	if len(list.Teams) != 1 || list.Teams[0].Members[0].Name != "Top" {
		t.Fatalf("GET teams: %+v", list)
	}
	// Three members for four boards; a substitute in a fixed-boards event.
	wantError(t, s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, map[string]any{"name": "Short", "members": []map[string]any{{"name": "a"}, {"name": "b"}, {"name": "c"}}}),
		http.StatusUnprocessableEntity, "roster_size", "T-1")
	wantError(t, s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, map[string]any{"name": "Subs",
		"members": []map[string]any{{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}}, "substitutes": []map[string]any{{"name": "e"}}}),
		http.StatusUnprocessableEntity, "substitutes_not_allowed", "T-1")
	s.Post("/tournaments/"+ev.ID+"/teams", "", body).Want(t, http.StatusUnauthorized)
	s.Post("/tournaments/"+ev.ID+"/teams", tc.Token, body).Want(t, http.StatusForbidden)
	ind := newEvent(t, s, `{"name":"Open","system":"swiss","rounds":5}`)
	wantError(t, s.Post("/tournaments/"+ind.ID+"/teams", ind.Token, body), http.StatusUnprocessableEntity, "not_a_team_event", "T-1")
}

// A four-team round robin with fixed boards (T-1): the matches are set at
// pairing, colours follow T-6, results go through the game routes and add up
// to match points (T-7) in the team table, as JSON and CSV.
func TestTeamRoundRobin_T6_T7_R5(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":4}`, 4, 4, 0)
	r1 := te.pair(t, s, nil, http.StatusCreated)
	if len(r1.Matches) != 2 || len(r1.Pairings) != 8 || len(r1.Byes) != 0 {
		t.Fatalf("round 1: %+v", r1)
	}
	games := map[string][]string{} // match → game ids by board
	for _, m := range r1.Matches {
		if !m.Set || m.HomeMatchPoints != nil {
			t.Fatalf("a fixed-boards match is set at pairing, undecided: %+v", m)
		}
		home, away := te.byID[m.Home].roster(), te.byID[m.Away].roster()
		for _, p := range r1.Pairings {
			if p.Match != m.Match {
				continue
			}
			// T-6: the team listed first has red on odd boards, black on even.
			red, black := home[p.Board-1], away[p.Board-1]
			if p.Board%2 == 0 {
				red, black = black, red
			}
			if p.Red != red || p.Black != black {
				t.Errorf("match %s board %d: %s-%s, want %s-%s (T-6)", m.Match, p.Board, p.Red, p.Black, red, black)
			}
			games[m.Match] = append(games[m.Match], p.GameID)
		}
	}
	m1, m2 := r1.Matches[0], r1.Matches[1]
	// Match 1: home wins board 1 (red), wins board 2 (as black), draws board 3
	// and loses board 4 (as black): 2+2+1+0 = 5 board points to 3, match 2-0.
	for b, res := range []string{"1-0", "0-1", "1/2-1/2", "1-0"} {
		te.result(t, s, games[m1.Match][b], res)
	}
	// Match 2: every board drawn, 4-4, a match draw 1-1.
	for _, gid := range games[m2.Match] {
		te.result(t, s, gid, "1/2-1/2")
	}
	var r teamRoundJSON
	s.Get(fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)).Want(t, http.StatusOK).Decode(t, &r)
	got := r.Matches[0]
	if got.HomeBoardPoints == nil || *got.HomeBoardPoints != 5 || *got.AwayBoardPoints != 3 || *got.HomeMatchPoints != 2 || *got.AwayMatchPoints != 0 {
		t.Fatalf("match 1 score: %+v", got)
	}
	var st teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	if st.View != "teams" || len(st.Rows) != 4 || st.Chain[0] != "matchPoints" {
		t.Fatalf("team standings: %+v", st)
	}
	want := []struct {
		team   string
		rank   int
		mp, bp int
	}{{m1.Home, 1, 2, 5}, {m2.Home, 2, 1, 4}, {m2.Away, 2, 1, 4}, {m1.Away, 4, 0, 3}}
	// match points, then board points; match 2's teams stay level on
	// every criterion before direct encounter, which they drew.
	for i, w := range want {
		row := st.Rows[i]
		if i == 1 || i == 2 {
			if (row.TeamID != m2.Home && row.TeamID != m2.Away) || row.MatchPoints != 1 || row.BoardPoints != 4 {
				t.Errorf("row %d: %+v", i, row)
			}
			continue
		}
		if row.TeamID != w.team || row.Rank != w.rank || row.MatchPoints != w.mp || row.BoardPoints != w.bp {
			t.Errorf("row %d: %+v, want %+v", i, row, w)
		}
	}
	csvResp := s.Get("/tournaments/"+te.ev.ID+"/standings?view=teams&format=csv").Want(t, http.StatusOK)
	recs, err := csv.NewReader(bytes.NewReader(csvResp.Body)).ReadAll()
	if err != nil || len(recs) != 5 || recs[0][2] != "teamId" || recs[0][4] != "matchPoints" || recs[1][2] != m1.Home || recs[1][4] != "2" || recs[1][5] != "5" {
		t.Fatalf("team CSV (%v): %q", err, recs)
	}
	if h := slices.Clone(recs[0]); len(slices.Compact(slices.Sorted(slices.Values(h)))) != len(h) {
		t.Errorf("team CSV header repeats a column: %q", recs[0])
	}
	if want := []string{"rank", "number", "teamId", "name", "matchPoints", "boardPoints", "matchWins", "boardWins", "directEncounter", "fouls", "blackGames", "blackWins", "matches"}; !slices.Equal(recs[0][:len(want)], want) {
		t.Errorf("team CSV header %q, want the R-5 chain in order first", recs[0])
	}
	var boards standingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=boards").Want(t, http.StatusOK).Decode(t, &boards)
	if len(boards.Rows) != 16 || boards.Rows[0].Points != 2 {
		t.Fatalf("boards view: %+v", boards)
	}
	bcsv := s.Get("/tournaments/"+te.ev.ID+"/standings?view=boards&format=csv").Want(t, http.StatusOK)
	if recs, err := csv.NewReader(bytes.NewReader(bcsv.Body)).ReadAll(); err != nil || len(recs) != 17 || recs[0][2] != "playerId" {
		t.Fatalf("boards CSV (%v): %q", err, recs)
	}
	var places teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings?view=teamsByPlaces").Want(t, http.StatusOK).Decode(t, &places)
	if places.View != "teamsByPlaces" || len(places.Rows) != 4 || places.Chain[0] != "placeSum" {
		t.Fatalf("teamsByPlaces: %+v", places)
	}
	// T-1: the lineup is the roster, fixed; a different order names T-1, and
	// the set match refuses even the roster itself.
	cap1 := te.byID[m1.Home]
	ro := cap1.roster()
	wantError(t, te.lineup(s, 1, cap1.Token, map[string]any{"lineup": []string{ro[1], ro[0], ro[2], ro[3]}}), http.StatusUnprocessableEntity, "lineup_out_of_order", "T-1")
	wantError(t, te.lineup(s, 1, cap1.Token, map[string]any{"lineup": ro}), http.StatusUnprocessableEntity, "lineup_locked", "T-1")
	s.Post("/tournaments/"+te.ev.ID+"/rounds/1/changes", te.ev.Token, map[string]any{"action": "swapColours", "table": 1}).Want(t, http.StatusUnprocessableEntity)
	wantError(t, s.Post("/tournaments/"+te.ev.ID+"/teams/"+m1.Away+"/withdraw", te.ev.Token, nil), http.StatusUnprocessableEntity, "team_withdrawal_unsupported", "S-6")
	// Round 2 pairs the other teams.
	r2 := te.pair(t, s, nil, http.StatusCreated)
	met := map[[2]string]bool{}
	for _, m := range append(r1.Matches, r2.Matches...) {
		k := [2]string{min(m.Home, m.Away), max(m.Home, m.Away)}
		if met[k] {
			t.Errorf("round robin rematch %v", k)
		}
		met[k] = true
	}
}

// T-2: captains choose any Boards players of the roster keeping its order;
// the match is set when both lineups are in; the organiser draws what is
// missing (members in roster order under T-2).
func TestTeamLineups_T2(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Cup","system":"roundRobin","teams":true,"boards":2,"substitutes":1}`, 4, 2, 1)
	if len(te.teams[0].Team.Substitutes) != 1 {
		t.Fatalf("substitutes: %+v", te.teams[0].Team)
	}
	r1 := te.pair(t, s, nil, http.StatusCreated)
	if len(r1.Matches) != 2 || len(r1.Pairings) != 0 || r1.Matches[0].Set {
		t.Fatalf("lineups are not known yet: %+v", r1)
	}
	m := r1.Matches[0]
	home, away := te.byID[m.Home], te.byID[m.Away]
	hr, ar := home.roster(), away.roster()
	s.Post(fmt.Sprintf("/tournaments/%s/rounds/1/lineups", te.ev.ID), "", map[string]any{"lineup": hr[:2]}).Want(t, http.StatusUnauthorized)
	wantError(t, te.lineup(s, 1, home.Token, map[string]any{"team": away.ID, "lineup": ar[:2]}), http.StatusForbidden, "forbidden", "")
	wantError(t, te.lineup(s, 1, home.PlayerTokens[0].Token, map[string]any{"lineup": hr[:2]}), http.StatusForbidden, "forbidden", "")
	wantError(t, te.lineup(s, 1, home.Token, map[string]any{"lineup": []string{hr[0], ar[0]}}), http.StatusUnprocessableEntity, "unknown_player", "T-2")
	wantError(t, te.lineup(s, 1, home.Token, map[string]any{"lineup": []string{hr[2], hr[0]}}), http.StatusUnprocessableEntity, "lineup_out_of_order", "T-2")
	wantError(t, te.lineup(s, 1, home.Token, map[string]any{"lineup": hr}), http.StatusUnprocessableEntity, "lineup_size", "T-2")
	te.lineup(s, 1, te.ev.Token, map[string]any{"lineup": hr[:2]}).Want(t, http.StatusBadRequest)
	te.lineup(s, 9, home.Token, map[string]any{"lineup": hr[:2]}).Want(t, http.StatusNotFound)
	// The home captain brings the substitute in on board 2 (1-3 keeps the
	// order); the match waits for the other lineup.
	var resp struct {
		Round   teamRoundJSON
		Lineups []struct {
			Team    string
			Players []string
			Drawn   bool
		}
	}
	te.lineup(s, 1, home.Token, map[string]any{"lineup": []string{hr[0], hr[2]}}).Want(t, http.StatusOK).Decode(t, &resp)
	if len(resp.Lineups) != 1 || resp.Lineups[0].Drawn || resp.Round.Matches[0].Set || len(resp.Round.Pairings) != 0 {
		t.Fatalf("first lineup: %+v", resp)
	}
	te.lineup(s, 1, te.ev.Token, map[string]any{"team": away.ID, "lineup": []string{ar[1], ar[2]}}).Want(t, http.StatusOK).Decode(t, &resp)
	if !resp.Round.Matches[0].Set || len(resp.Round.Pairings) != 2 {
		t.Fatalf("both lineups in, the match is set: %+v", resp.Round)
	}
	// T-6 on the chosen lineups.
	p1, p2 := resp.Round.Pairings[0], resp.Round.Pairings[1]
	if p1.Red != hr[0] || p1.Black != ar[1] || p2.Red != ar[2] || p2.Black != hr[2] {
		t.Fatalf("boards %+v %+v", p1, p2)
	}
	wantError(t, te.lineup(s, 1, home.Token, map[string]any{"lineup": hr[:2]}), http.StatusUnprocessableEntity, "lineup_locked", "T-2")
	// The organiser draws the other match: T-2 fields the members in order.
	te.lineup(s, 1, te.ev.Token, map[string]any{"drawMissing": true}).Want(t, http.StatusOK).Decode(t, &resp)
	if len(resp.Lineups) != 2 || !resp.Lineups[0].Drawn || len(resp.Round.Pairings) != 4 || !resp.Round.Matches[1].Set {
		t.Fatalf("drawn lineups: %+v", resp)
	}
	for _, l := range resp.Lineups {
		if ro := te.byID[l.Team].roster(); !slices.Equal(l.Players, ro[:2]) {
			t.Errorf("drawn T-2 lineup of %s: %v, want the members %v", l.Team, l.Players, ro[:2])
		}
	}
	wantError(t, te.lineup(s, 1, home.Token, map[string]any{"drawMissing": true}), http.StatusForbidden, "forbidden", "")
}

// T-3: any order of the roster, set before the round's start; after it the
// server draws the missing lineups with the documented seed — the due
// work's runner at the deadline, never a read of the round — and refuses
// late lineups.
func TestTeamLineupDeadline_T3(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Blitz","system":"roundRobin","teams":true,"boards":3,"teamFormat":"lineupPerMatch"}`, 4, 3, 0)
	start := s.Clock.Now().Add(time.Hour)
	r1 := te.pair(t, s, map[string]any{"startsAt": start.Format(time.RFC3339)}, http.StatusCreated)
	if len(r1.Matches) != 2 {
		t.Fatalf("round 1: %+v", r1)
	}
	m := r1.Matches[0]
	home := te.byID[m.Home]
	hr := home.roster()
	homeLineup := []string{hr[2], hr[0], hr[1]}
	te.lineup(s, 1, home.Token, map[string]any{"lineup": homeLineup}).Want(t, http.StatusOK)
	round1 := fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)

	// Before the deadline neither a read nor the due work draws anything.
	s.Clock.Advance(time.Hour - time.Millisecond)
	if run := s.RunDue(); run.Found != 0 {
		t.Fatalf("work due before the deadline: %+v", run)
	}
	var r teamRoundJSON
	s.Get(round1).Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) != 0 || r.Matches[0].Set || r.Matches[1].Set {
		t.Fatalf("before the deadline: %+v", r)
	}
	if ls := storedLineups(t, s, te.ev.ID, 1); len(ls) != 1 {
		t.Fatalf("before the deadline the store holds %d lineups, want the captain's only: %+v", len(ls), ls)
	}

	// At the deadline a read still draws nothing; the due work draws the
	// three missing lineups and sets both matches; their board games exist
	// with T-6 colours.
	s.Clock.Advance(time.Millisecond)
	s.Get(round1).Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) != 0 || r.Matches[0].Set {
		t.Fatalf("a read at the deadline set a match: %+v", r)
	}
	if run := s.RunDue(); run.Found != 1 || run.Done != 1 {
		t.Fatalf("due work at the deadline: %+v, want the round's one item done", run)
	}
	s.Get(round1).Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) != 6 || !r.Matches[0].Set || !r.Matches[1].Set {
		t.Fatalf("after the deadline's due work every match is set: %+v", r)
	}
	ls := storedLineups(t, s, te.ev.ID, 1)
	if len(ls) != 4 {
		t.Fatalf("stored lineups: %+v", ls)
	}
	lineups := map[string][]string{}
	for _, l := range ls {
		lineups[l.Team] = l.Players
		if l.Team == home.ID {
			if l.Drawn || !slices.Equal(l.Players, homeLineup) {
				t.Errorf("the captain's lineup was replaced: %+v", l)
			}
			continue
		}
		tc := te.byID[l.Team]
		seed := tournament.LineupSeed(te.ev.ID, 1, l.Team)
		tm := tournament.Team{ID: tc.ID, Roster: tc.roster(), Members: tc.roster()}
		want := tm.TeamRoster(tournament.Settings{TeamFormat: "lineupPerMatch", Boards: 3}.TeamSettings()).DrawLineup(seed)
		if !l.Drawn || l.Seed != seed || l.By != tournament.DrawnByServer || !slices.Equal(l.Players, want) {
			t.Errorf("drawn lineup of %s: %+v, want %v by the server with seed %d", l.Team, l, want, seed)
		}
	}
	for _, mt := range r.Matches {
		hl, al := lineups[mt.Home], lineups[mt.Away]
		for _, p := range r.Pairings {
			if p.Match != mt.Match {
				continue
			}
			// T-6: the first-listed team has red on odd boards, black on even.
			red, black := hl[p.Board-1], al[p.Board-1]
			if p.Board%2 == 0 {
				red, black = black, red
			}
			if p.Red != red || p.Black != black || p.Table != (mt.Number-1)*3+p.Board {
				t.Errorf("match %s board %d: %+v, want %s-%s (T-6)", mt.Match, p.Board, p, red, black)
			}
			wantGame(t, s, p.GameID, red, black)
		}
	}

	// T-3: a late lineup is refused and changes nothing; the organiser finds
	// nothing left to draw.
	away := te.byID[m.Away]
	wantError(t, te.lineup(s, 1, away.Token, map[string]any{"lineup": away.roster()}), http.StatusUnprocessableEntity, "lineup_deadline_passed", "T-3")
	wantError(t, te.lineup(s, 1, te.ev.Token, map[string]any{"team": away.ID, "lineup": away.roster()}), http.StatusUnprocessableEntity, "lineup_deadline_passed", "T-3")
	var resp struct {
		Round   teamRoundJSON
		Lineups []struct{ Team string }
	}
	te.lineup(s, 1, te.ev.Token, map[string]any{"drawMissing": true}).Want(t, http.StatusOK).Decode(t, &resp)
	if len(resp.Lineups) != 0 || len(resp.Round.Pairings) != 6 {
		t.Fatalf("drawMissing after the server's draw: %+v", resp)
	}
	if again := storedLineups(t, s, te.ev.ID, 1); !slices.EqualFunc(again, ls, func(a, b tournament.Lineup) bool { return slices.Equal(a.Players, b.Players) }) {
		t.Fatalf("lineups changed after the deadline: %+v, was %+v", again, ls)
	}
}

// A team Swiss with five teams (S-7): the lowest team gets the bye, scored as
// a match win (2 match points, every board won); nobody gets a second bye;
// round 2 waits for round 1's matches (P-12).
func TestTeamSwissBye_S7(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Open","system":"swiss","rounds":3,"teams":true,"boards":2}`, 5, 2, 0)
	byes := map[string]bool{}
	for round := 1; round <= 2; round++ {
		r := te.pair(t, s, nil, http.StatusCreated)
		if len(r.Matches) != 2 || len(r.Byes) != 1 || len(r.Pairings) != 4 {
			t.Fatalf("round %d: %+v", round, r)
		}
		if byes[r.Byes[0]] {
			t.Fatalf("round %d: %s has a second bye (S-7)", round, r.Byes[0])
		}
		byes[r.Byes[0]] = true
		if round == 1 {
			if r.Byes[0] != te.teams[4].ID {
				t.Errorf("round 1 bye to %s, want the last team", r.Byes[0])
			}
			te.pair(t, s, nil, http.StatusUnprocessableEntity) // P-12: matches unfinished
		}
		for _, p := range r.Pairings {
			te.result(t, s, p.GameID, "1-0") // boards split 1-1: every match drawn
		}
	}
	var st teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings?round=1").Want(t, http.StatusOK).Decode(t, &st)
	if st.Chain[0] != "matchPoints" || st.Chain[1] != "opponentScore" {
		t.Errorf("R-7 chain: %v", st.Chain)
	}
	row := st.Rows[0]
	if row.TeamID != te.teams[4].ID || row.MatchPoints != 2 || row.BoardPoints != 4 || row.Byes != 1 || row.Matches != 0 {
		t.Fatalf("the bye team after round 1: %+v", st.Rows)
	}
	// S-6: a team that withdraws keeps its results and is no longer paired;
	// four teams left, round 3 has no bye.
	gone := te.teams[0].ID
	var w struct{ Team struct{ Status string } }
	s.Post("/tournaments/"+te.ev.ID+"/teams/"+gone+"/withdraw", te.ev.Token, nil).Want(t, http.StatusOK).Decode(t, &w)
	if w.Team.Status != "withdrawn" {
		t.Fatalf("withdraw: %+v", w)
	}
	wantError(t, s.Post("/tournaments/"+te.ev.ID+"/teams/"+gone+"/withdraw", te.ev.Token, nil), http.StatusUnprocessableEntity, "already_withdrawn", "S-6")
	r3 := te.pair(t, s, nil, http.StatusCreated)
	if len(r3.Matches) != 2 || len(r3.Byes) != 0 {
		t.Fatalf("round 3 after a withdrawal: %+v", r3)
	}
	for _, m := range r3.Matches {
		if m.Home == gone || m.Away == gone {
			t.Fatalf("a withdrawn team is paired: %+v", r3.Matches)
		}
	}
	s.Get("/tournaments/"+te.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	if len(st.Rows) != 5 {
		t.Fatalf("the withdrawn team's results stand: %+v", st.Rows)
	}
}

// T-4: an all-play-all match lays out every member against every member as
// in seed 002's table — in the match's round r, A_i meets B_j with
// j = (i + r - 2) mod n + 1, the home team red on every board of odd rounds
// and black in even ones — one game per pair, n games in each of n event
// rounds, and the match is scored over all n×n games.
func TestTeamAllPlayAll_T4(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Friendly","system":"roundRobin","teams":true,"boards":3,"teamFormat":"allPlayAll"}`, 2, 3, 0)
	r1 := te.pair(t, s, nil, http.StatusCreated)
	m := r1.Matches[0]
	home, away := te.byID[m.Home], te.byID[m.Away]
	hl := home.roster()
	al := []string{away.roster()[2], away.roster()[0], away.roster()[1]} // T-4 numbering in any order
	te.lineup(s, 1, home.Token, map[string]any{"lineup": hl}).Want(t, http.StatusOK)
	var resp struct{ Round teamRoundJSON }
	te.lineup(s, 1, away.Token, map[string]any{"lineup": al}).Want(t, http.StatusOK).Decode(t, &resp)
	const n = 3
	ps := resp.Round.Pairings
	for r := 1; r <= n; r++ {
		if r > 1 {
			ps = te.pair(t, s, nil, http.StatusCreated).Pairings
		}
		if len(ps) != n {
			t.Fatalf("round %d of a 3×3 all-play-all has 3 games, got %d", r, len(ps))
		}
		for k, p := range ps {
			i := k + 1 // A_i
			j := (i+r-2)%n + 1
			red, black := hl[i-1], al[j-1]
			if r%2 == 0 {
				red, black = black, red
			}
			if p.Table != i || p.Board != (r-1)*n+i || p.Red != red || p.Black != black {
				t.Errorf("round %d, A%d v B%d: %+v, want %s-%s", r, i, j, p, red, black)
			}
			// Home wins every game of rounds 1 and 2 and loses round 3's:
			// 12 board points to 6, a match win (T-7).
			res := "1-0"
			if (p.Red == hl[0] || p.Red == hl[1] || p.Red == hl[2]) == (r == n) {
				res = "0-1"
			}
			te.result(t, s, p.GameID, res)
		}
	}
	var st teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	if st.Rows[0].TeamID != home.ID || st.Rows[0].BoardPoints != 12 || st.Rows[0].MatchPoints != 2 || st.Rows[1].BoardPoints != 6 {
		t.Fatalf("all-play-all standings: %+v", st.Rows)
	}
	var ct struct {
		Rows []struct{ Cells []struct{ Round int } }
	}
	s.Get("/tournaments/"+te.ev.ID+"/crosstable").Want(t, http.StatusOK).Decode(t, &ct)
	if len(ct.Rows) != 6 {
		t.Fatalf("crosstable over the board games: %+v", ct)
	}
	// allPlayAll is a round robin's table (团体循环对抗赛秩序表).
	r := s.Post("/tournaments", "", `{"name":"x","system":"swiss","teams":true,"boards":3,"teamFormat":"allPlayAll"}`)
	if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_field" {
		t.Errorf("a Swiss allPlayAll: %d %s", r.Status, r.Body)
	}
}

// R-9 (T-5) over an individual event: view=teamsByPlaces ranks the clubs by
// the sum of their players' places, then the best place; players without a
// club are left out. Team and board views belong to team events.
func TestTeamsByPlacesClubs_R9(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Club open","system":"roundRobin"}`)
	clubs := []string{"North", "South", "North", "South", ""}
	var ids []string
	for i, c := range clubs {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": fmt.Sprintf("P%d", i+1), "club": c}).Want(t, http.StatusCreated).Decode(t, &p)
		ids = append(ids, p.ID)
	}
	var r roundJSON
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r)
	for _, p := range r.Pairings { // the lower registration number wins
		res := "1-0"
		if slices.Index(ids, p.Black) < slices.Index(ids, p.Red) {
			res = "0-1"
		}
		finish(t, s, ev.ID, 1, p.Table, p.GameID, p.Red, p.Black, res)
	}
	var ind standingsJSON
	s.Get("/tournaments/"+ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &ind)
	place := map[string]int{}
	for _, row := range ind.Rows {
		place[row.PlayerID] = row.Rank
	}
	var st teamStandingsJSON
	s.Get("/tournaments/"+ev.ID+"/standings?view=teamsByPlaces").Want(t, http.StatusOK).Decode(t, &st)
	if len(st.Rows) != 2 || st.View != "teamsByPlaces" {
		t.Fatalf("clubs: %+v", st)
	}
	sums := map[string]int{"North": place[ids[0]] + place[ids[2]], "South": place[ids[1]] + place[ids[3]]}
	for _, row := range st.Rows {
		if row.Tiebreaks[0].Name != "placeSum" || int(row.Tiebreaks[0].Value) != sums[row.TeamID] {
			t.Errorf("club %s: %+v, want place sum %d", row.TeamID, row, sums[row.TeamID])
		}
	}
	if st.Rows[0].Tiebreaks[0].Value > st.Rows[1].Tiebreaks[0].Value {
		t.Errorf("the lower place sum ranks first (R-9): %+v", st.Rows)
	}
	wantError(t, s.Get("/tournaments/"+ev.ID+"/standings?view=teams"), http.StatusUnprocessableEntity, "team_standings_unavailable", "R-5")
}

// Both captains submit at the same moment: each lineup write rewrites the
// round item under its version, so one of them retries, sees the other's
// lineup and sets the match — exactly one set of board games, whatever the
// interleaving.
func TestTeamLineupsConcurrent(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Rush","system":"roundRobin","teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`, 2, 2, 0)
	r1 := te.pair(t, s, nil, http.StatusCreated)
	m := r1.Matches[0]
	var wg sync.WaitGroup
	for _, id := range []string{m.Home, m.Away} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tc := te.byID[id]
			if r := te.lineup(s, 1, tc.Token, map[string]any{"lineup": tc.roster()}); r.Status != http.StatusOK {
				t.Errorf("captain of %s: %d %s", id, r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
	var r teamRoundJSON
	s.Get("/tournaments/"+te.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r)
	if !r.Matches[0].Set || len(r.Pairings) != 2 {
		t.Fatalf("after two concurrent lineups: %+v", r)
	}
	for _, p := range r.Pairings {
		s.Get("/games/"+p.GameID).Want(t, http.StatusOK)
	}
}
