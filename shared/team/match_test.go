package team_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/team"
)

func TestBoards_T6_HomeRedOnOddBoards(t *testing.T) {
	home := team.Lineup{"a1", "a2", "a3", "a4", "a5"}
	away := team.Lineup{"b1", "b2", "b3", "b4", "b5"}
	// 001 §12.2: the first-listed team's odd boards take red, even boards black.
	want := []team.BoardGame{
		{Board: 1, Red: "a1", Black: "b1", HomeRed: true},
		{Board: 2, Red: "b2", Black: "a2"},
		{Board: 3, Red: "a3", Black: "b3", HomeRed: true},
		{Board: 4, Red: "b4", Black: "a4"},
		{Board: 5, Red: "a5", Black: "b5", HomeRed: true},
	}
	if got := team.Boards(home, away); !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// TestBoards_T6_MissingPlayerLeavesEmptySide: a team short of a player
// still gets the board, with an empty id to record as a forfeit (C-6).
func TestBoards_T6_MissingPlayerLeavesEmptySide(t *testing.T) {
	got := team.Boards(team.Lineup{"a1", "a2", "a3"}, team.Lineup{"b1", "b2"})
	want := []team.BoardGame{
		{Board: 1, Red: "a1", Black: "b1", HomeRed: true},
		{Board: 2, Red: "b2", Black: "a2"},
		{Board: 3, Red: "a3", Black: "", HomeRed: true},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// TestAllPlayAll_T4_Seed002Table compares the 8×8 schedule with the table
// of seed 002, transcribed in testdata, row by row.
func TestAllPlayAll_T4_Seed002Table(t *testing.T) {
	rows := readRows(t, "testdata/t4_all_play_all_8x8.tsv")
	if len(rows) != 64 {
		t.Fatalf("testdata has %d rows, want 64", len(rows))
	}
	var home, away team.Lineup
	for i := 1; i <= 8; i++ {
		home = append(home, fmt.Sprintf("A%d", i))
		away = append(away, fmt.Sprintf("B%d", i))
	}
	rounds, err := team.AllPlayAllRounds(home, away)
	if err != nil {
		t.Fatal(err)
	}
	roundNames := []string{"第一轮", "第二轮", "第三轮", "第四轮", "第五轮", "第六轮", "第七轮", "第八轮"}
	colour := func(red bool) string {
		if red {
			return "先"
		}
		return "后"
	}
	var got [][]string
	for r, games := range rounds {
		for _, g := range games {
			a, b := g.Red, g.Black
			if !g.HomeRed {
				a, b = g.Black, g.Red
			}
			got = append(got, []string{roundNames[r], a, colour(g.HomeRed), colour(!g.HomeRed), b})
		}
	}
	if len(got) != len(rows) {
		t.Fatalf("got %d games, want %d", len(got), len(rows))
	}
	for i := range rows {
		if !slices.Equal(got[i], rows[i]) {
			t.Errorf("T-4 row %d: got %v, want %v", i+1, got[i], rows[i])
		}
	}
}

// TestAllPlayAll_T4_TwoByTwo works the smallest even case by hand: round 1
// A1-B1, A2-B2 with A red everywhere; round 2 A1-B2, A2-B1 with B red.
func TestAllPlayAll_T4_TwoByTwo(t *testing.T) {
	got, err := team.AllPlayAllRounds(team.Lineup{"A1", "A2"}, team.Lineup{"B1", "B2"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]team.BoardGame{
		{{Board: 1, Red: "A1", Black: "B1", HomeRed: true}, {Board: 2, Red: "A2", Black: "B2", HomeRed: true}},
		{{Board: 1, Red: "B2", Black: "A1"}, {Board: 2, Red: "B1", Black: "A2"}},
	}
	if len(got) != len(want) || !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// TestAllPlayAll_T4_GeneralN checks the n×n generalisation: every A meets
// every B exactly once, nobody plays twice in a round, colours alternate by
// round, so each player of the first team has red in ⌈n/2⌉ games.
func TestAllPlayAll_T4_GeneralN(t *testing.T) {
	for n := 1; n <= 12; n++ {
		var home, away team.Lineup
		for i := 1; i <= n; i++ {
			home = append(home, fmt.Sprintf("A%d", i))
			away = append(away, fmt.Sprintf("B%d", i))
		}
		rounds, err := team.AllPlayAllRounds(home, away)
		if err != nil {
			t.Fatal(err)
		}
		if len(rounds) != n {
			t.Fatalf("n=%d: %d rounds", n, len(rounds))
		}
		met := map[[2]string]int{}
		reds := map[string]int{}
		for r, games := range rounds {
			busy := map[string]bool{}
			for b, g := range games {
				if g.Board != b+1 || g.HomeRed != (r%2 == 0) {
					t.Fatalf("n=%d round %d board %d: %+v", n, r+1, b+1, g)
				}
				a, o := g.Red, g.Black
				if !g.HomeRed {
					a, o = o, a
				}
				if a != home[b] || busy[a] || busy[o] {
					t.Fatalf("n=%d round %d: %+v", n, r+1, g)
				}
				busy[a], busy[o] = true, true
				met[[2]string{a, o}]++
				reds[g.Red]++
			}
		}
		if len(met) != n*n {
			t.Fatalf("n=%d: %d distinct pairings, want %d", n, len(met), n*n)
		}
		for _, a := range home {
			if reds[a] != (n+1)/2 {
				t.Fatalf("n=%d: %s has red %d times, want %d", n, a, reds[a], (n+1)/2)
			}
		}
	}
}

func TestAllPlayAll_T4_Errors(t *testing.T) {
	_, err := team.AllPlayAllRounds(team.Lineup{"A1", "A2"}, team.Lineup{"B1"})
	wantRuleErr(t, err, team.CodeAllPlayAllSize, "T-4")
	_, err = team.AllPlayAllRounds(nil, nil)
	wantRuleErr(t, err, team.CodeAllPlayAllSize, "T-4")
}
