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
// seed 002's 团体循环对抗赛秩序表（8-8）row by row.
//
// How the API's rounds map to the table's: the API plays the whole
// all-play-all match inside one event round — the match is one pairing of
// the two teams, and its 64 games are the match's boards 1…64 (tables 1…64
// for the first match). Board b is the table's row b: table round
// ⌈b/8⌉ (第一轮 … 第八轮, which the organiser schedules as sittings of the
// event round) and A player (b-1) mod 8 + 1. A is the team listed first
// (home), B the other; A_i and B_j are the i-th and j-th players of the
// lineups the captains set (T-4 numbers each team as in T-3), and 先 is red.
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
	var r teamRoundJSON
	s.Get(fmt.Sprintf("/tournaments/%s/rounds/1", te.ev.ID)).Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Pairings) != 64 || !r.Matches[0].Set {
		t.Fatalf("an 8×8 all-play-all has 64 games: %d, set %v", len(r.Pairings), r.Matches[0].Set)
	}
	byBoard := map[int]int{}
	for k, p := range r.Pairings {
		byBoard[p.Board] = k
	}
	met := map[[2]string]bool{}
	for k, row := range rows {
		board := k + 1
		if row.Round != (board-1)/8+1 || row.A != (board-1)%8+1 {
			t.Fatalf("table row %d is %+v: the mapping above does not hold", board, row)
		}
		p := r.Pairings[byBoard[board]]
		red, black := a[row.A-1], b[row.B-1]
		switch {
		case row.ACol == "后" && row.BCol == "先":
			red, black = black, red
		case row.ACol != "先" || row.BCol != "后":
			t.Fatalf("row %d: colours %s/%s", board, row.ACol, row.BCol)
		}
		if p.Board != board || p.Table != board || p.Red != red || p.Black != black {
			t.Errorf("%s A%d %s – %s B%d: board %d table %d %s-%s, want %s-%s",
				seedRounds[row.Round-1], row.A, row.ACol, row.BCol, row.B, p.Board, p.Table, p.Red, p.Black, red, black)
		}
		wantGame(t, s, p.GameID, red, black)
		met[[2]string{a[row.A-1], b[row.B-1]}] = true
	}
	if len(met) != 64 {
		t.Errorf("every A meets every B once: %d distinct pairs", len(met))
	}
}
