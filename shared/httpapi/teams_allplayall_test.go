package httpapi_test

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// seedRounds are the round names of seed 002's table, 第一轮 … 第八轮.
var seedRounds = []string{"第一轮", "第二轮", "第三轮", "第四轮", "第五轮", "第六轮", "第七轮", "第八轮"}

// t4Row is one row of the 8×8 table: in table round Round, A_A (colour
// ACol, 先 = red) plays B_B.
type t4Row struct {
	Round, A, B int
	ACol, BCol  string
}

func readT4Table(t *testing.T) []t4Row {
	t.Helper()
	f, err := os.Open("../team/testdata/t4_all_play_all_8x8.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []t4Row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 5 {
			t.Fatalf("row %q: want 5 columns", line)
		}
		row := t4Row{Round: slices.Index(seedRounds, c[0]) + 1, ACol: c[2], BCol: c[3]}
		_, errA := fmt.Sscanf(c[1], "A%d", &row.A)
		_, errB := fmt.Sscanf(c[4], "B%d", &row.B)
		if row.Round == 0 || errA != nil || errB != nil {
			t.Fatalf("row %q: unreadable", line)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 64 {
		t.Fatalf("the 8×8 table has %d rows, want 64", len(rows))
	}
	return rows
}

// T-4 over HTTP: an allPlayAll event between two teams of eight reproduces
// seed 002's 团体循环对抗赛秩序表（8-8）row by row, each of its rounds
// (第一轮 … 第八轮) a round of the event, played one after the other.
//
// How the API's rounds map to the table's: event round r is the table's
// round r. The meeting of the two teams is one match, the same in all eight
// rounds; the captains set its lineups once, in round 1 (a lineup for a
// later round is 422 lineup_locked), and each later round's games exist as
// soon as it is paired. Board b is the table's row b — round ⌈b/8⌉, A player
// (b-1) mod 8 + 1 — at table (b-1) mod 8 + 1 of its round. A is the team
// listed first (home), B the other; A_i and B_j are the i-th and j-th
// players of the lineups (T-4 numbers each team as in T-3), and 先 is red.
// The match's score (T-7) counts all 64 games.
func TestTeamAllPlayAll_T4_Seed002Table8x8(t *testing.T) {
	rows := readT4Table(t)
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"Friendly","system":"roundRobin","teams":true,"boards":8,"teamFormat":"allPlayAll"}`, 2, 8, 0)
	r1 := te.pair(t, s, nil, http.StatusCreated)
	if len(r1.Matches) != 1 || len(r1.Pairings) != 0 {
		t.Fatalf("round 1: %+v", r1)
	}
	m := r1.Matches[0]
	home, away := te.byID[m.Home], te.byID[m.Away]
	// Numberings other than the roster order, so that the test sees the
	// lineup, not the roster: A1…A8 the home roster reversed, B1…B8 the away
	// roster rotated by three.
	a := slices.Clone(home.roster())
	slices.Reverse(a)
	b := append(slices.Clone(away.roster()[3:]), away.roster()[:3]...)
	te.lineup(s, 1, home.Token, map[string]any{"lineup": a}).Want(t, http.StatusOK)
	te.lineup(s, 1, away.Token, map[string]any{"lineup": b}).Want(t, http.StatusOK)
	met := map[[2]string]bool{}
	gameIDs := map[string]bool{}
	for round := 1; round <= 8; round++ {
		if round > 1 {
			rr := te.pair(t, s, nil, http.StatusCreated)
			if rr.Round != round || len(rr.Matches) != 1 || rr.Matches[0].Match != m.Match || rr.Matches[0].Home != m.Home {
				t.Fatalf("round %d is not the meeting's next round: %+v", round, rr)
			}
			wantError(t, te.lineup(s, round, home.Token, map[string]any{"lineup": a}), http.StatusUnprocessableEntity, "lineup_locked", "T-4")
		}
		var r teamRoundJSON
		s.Get(fmt.Sprintf("/tournaments/%s/rounds/%d", te.ev.ID, round)).Want(t, http.StatusOK).Decode(t, &r)
		if len(r.Pairings) != 8 || !r.Matches[0].Set {
			t.Fatalf("%s has 8 games: %d, set %v", seedRounds[round-1], len(r.Pairings), r.Matches[0].Set)
		}
		for _, p := range r.Pairings {
			row := rows[p.Board-1]
			if row.Round != round || row.A != (p.Board-1)%8+1 {
				t.Fatalf("%s: board %d is table row %+v", seedRounds[round-1], p.Board, row)
			}
			red, black := a[row.A-1], b[row.B-1]
			switch {
			case row.ACol == "后" && row.BCol == "先":
				red, black = black, red
			case row.ACol != "先" || row.BCol != "后":
				t.Fatalf("row %d: colours %s/%s", p.Board, row.ACol, row.BCol)
			}
			if p.Table != row.A || p.Red != red || p.Black != black {
				t.Errorf("%s A%d %s – %s B%d: board %d table %d %s-%s, want table %d %s-%s",
					seedRounds[row.Round-1], row.A, row.ACol, row.BCol, row.B, p.Board, p.Table, p.Red, p.Black, row.A, red, black)
			}
			wantGame(t, s, p.GameID, red, black)
			met[[2]string{a[row.A-1], b[row.B-1]}] = true
			gameIDs[p.GameID] = true
			te.result(t, s, p.GameID, "1-0")
		}
		if round < 8 {
			if got := r.Matches[0].HomeMatchPoints; got != nil {
				t.Errorf("after %s the match is scored (%d) before its last round", seedRounds[round-1], *got)
			}
		}
	}
	if len(met) != 64 || len(gameIDs) != 64 {
		t.Errorf("every A meets every B once: %d distinct pairs, %d games", len(met), len(gameIDs))
	}
	// Red won every game: each team had red in four rounds, 32 games each,
	// 64 board points to 64, a drawn match over all eight rounds (T-7).
	var st teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	if len(st.Rows) != 2 || st.Rows[0].BoardPoints != 64 || st.Rows[0].MatchPoints != 1 || st.Rows[1].MatchPoints != 1 {
		t.Fatalf("standings after the 8-8 table: %+v", st.Rows)
	}
	te.pair(t, s, nil, http.StatusUnprocessableEntity) // the table has eight rounds
}

// T-4 in a round robin of four teams of two (002's table, 2-2): each meeting
// of two teams takes two event rounds, the same matches in both, and the
// round robin of the teams moves on only after a meeting's last round —
// three meetings, six rounds, every team meeting every other once.
func TestTeamAllPlayAll_T4_RoundRobinOfMeetings(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":2,"teamFormat":"allPlayAll"}`, 4, 2, 0)
	met := map[[2]string]bool{}
	var prev []matchJSON
	for round := 1; round <= 6; round++ {
		r := te.pair(t, s, nil, http.StatusCreated)
		if round%2 == 1 {
			for _, m := range r.Matches {
				te.lineup(s, round, te.byID[m.Home].Token, map[string]any{"lineup": te.byID[m.Home].roster()}).Want(t, http.StatusOK)
				te.lineup(s, round, te.byID[m.Away].Token, map[string]any{"lineup": te.byID[m.Away].roster()}).Want(t, http.StatusOK)
				pair := [2]string{min(m.Home, m.Away), max(m.Home, m.Away)}
				if met[pair] {
					t.Errorf("round %d: teams %s and %s meet again", round, m.Home, m.Away)
				}
				met[pair] = true
			}
		} else if len(r.Matches) != len(prev) || r.Matches[0].Home != prev[0].Home || r.Matches[0].Away != prev[0].Away {
			t.Errorf("round %d is not the meeting's second round: %+v after %+v", round, r.Matches, prev)
		}
		prev = r.Matches
		s.Get(fmt.Sprintf("/tournaments/%s/rounds/%d", te.ev.ID, round)).Want(t, http.StatusOK).Decode(t, &r)
		if len(r.Pairings) != 4 {
			t.Fatalf("round %d has %d games, want 2 matches × 2", round, len(r.Pairings))
		}
		for _, p := range r.Pairings {
			te.result(t, s, p.GameID, "1/2-1/2")
		}
	}
	if len(met) != 6 {
		t.Errorf("%d meetings, want the 6 of four teams", len(met))
	}
	te.pair(t, s, nil, http.StatusUnprocessableEntity)
	var st teamStandingsJSON
	s.Get("/tournaments/"+te.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	for _, row := range st.Rows {
		if row.MatchPoints != 3 || row.BoardPoints != 12 {
			t.Errorf("row %+v, want 3 drawn matches of 4 games: 3 match points, 12 board points", row)
		}
	}
}
