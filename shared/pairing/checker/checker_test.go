package checker_test

import (
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

func rec(side swiss.Side, opp int) swiss.RoundRecord {
	return swiss.RoundRecord{Side: side, Opponent: opp}
}

// fourAfterRound1: 1 beat 2, 3 beat 4 (as black).
func fourAfterRound1() swiss.Input {
	return swiss.Input{Rounds: 7, Round: 2, DrawPoints: 1, Players: []swiss.Player{
		{Number: 1, Score: 2, History: []swiss.RoundRecord{rec(swiss.Red, 2)}},
		{Number: 2, Score: 0, History: []swiss.RoundRecord{rec(swiss.Black, 1)}},
		{Number: 3, Score: 2, History: []swiss.RoundRecord{rec(swiss.Black, 4)}},
		{Number: 4, Score: 0, History: []swiss.RoundRecord{rec(swiss.Red, 3)}},
	}}
}

func boards(pairs ...[2]int) []swiss.Board {
	var bs []swiss.Board
	for i, p := range pairs {
		bs = append(bs, swiss.Board{Table: i + 1, Red: p[0], Black: p[1]})
	}
	return bs
}

// TestCheckCatches feeds the checker broken rounds and expects the rule
// each one breaks; the correct round passes.
func TestCheckCatches(t *testing.T) {
	three := swiss.Input{Rounds: 9, Round: 4, DrawPoints: 1, Players: []swiss.Player{
		{Number: 1, Score: 2, History: []swiss.RoundRecord{rec(swiss.Black, 3), rec(swiss.Red, 4), rec(swiss.Red, 5)}},
		{Number: 2, Score: 2, History: []swiss.RoundRecord{rec(swiss.Red, 6), rec(swiss.Black, 7), {}}},
		{Number: 3, Status: swiss.Withdrawn, History: make([]swiss.RoundRecord, 3)},
		{Number: 4, Status: swiss.Withdrawn, History: make([]swiss.RoundRecord, 3)},
		{Number: 5, Status: swiss.Withdrawn, History: make([]swiss.RoundRecord, 3)},
		{Number: 6, Status: swiss.Withdrawn, History: make([]swiss.RoundRecord, 3)},
		{Number: 7, Status: swiss.Withdrawn, History: make([]swiss.RoundRecord, 3)},
	}}
	odd := swiss.Input{Rounds: 7, Round: 2, DrawPoints: 1, Players: []swiss.Player{
		{Number: 1, Score: 2, History: []swiss.RoundRecord{rec(swiss.Red, 2)}},
		{Number: 2, Score: 0, History: []swiss.RoundRecord{rec(swiss.Black, 1)}},
		{Number: 3, Score: 2, History: []swiss.RoundRecord{{Side: swiss.Bye}}},
	}}
	tests := []struct {
		name string
		in   swiss.Input
		out  swiss.Round
		want string // rule id expected; "" for a clean round
	}{
		{"Correct", fourAfterRound1(), swiss.Round{Boards: boards([2]int{3, 1}, [2]int{2, 4})}, ""},
		{"Rematch_P5", fourAfterRound1(), swiss.Round{Boards: boards([2]int{2, 1}, [2]int{3, 4})}, "P-5"},
		{"Missing_S6", fourAfterRound1(), swiss.Round{Boards: boards([2]int{3, 1})}, "S-6"},
		{"MoreRedsGetsRed_P11", fourAfterRound1(), swiss.Round{Boards: boards([2]int{1, 3}, [2]int{2, 4})}, "P-11"},
		{"TopGroupSplit_P4", fourAfterRound1(), swiss.Round{Boards: boards([2]int{4, 1}, [2]int{3, 2})}, "P-4"},
		{"Tables_P4", fourAfterRound1(), swiss.Round{Boards: []swiss.Board{{Table: 2, Red: 3, Black: 1}, {Table: 1, Red: 2, Black: 4}}}, "P-4"},
		{"SecondBye_S7", odd, swiss.Round{Boards: boards([2]int{2, 1}), Bye: 3}, "S-7"},
		{"ByeNotLowest_S7", odd, swiss.Round{Boards: boards([2]int{2, 3}), Bye: 1}, "S-7"},
		{"NoByeOddField_P1", odd, swiss.Round{Boards: boards([2]int{2, 3})}, "P-1"},
		{"AvoidableThreeInRow_P8", three, swiss.Round{Boards: boards([2]int{1, 2})}, "P-8"},
		{"SwapAvoidsThree", three, swiss.Round{Boards: boards([2]int{2, 1})}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := checker.Check(tc.in, tc.out)
			if tc.want == "" {
				for _, v := range vs {
					t.Errorf("unexpected: %v", v)
				}
				return
			}
			var rules []string
			for _, v := range vs {
				rules = append(rules, v.Rule)
				if v.Rule == tc.want {
					return
				}
			}
			t.Errorf("want a %s violation, got [%s]", tc.want, strings.Join(rules, " "))
		})
	}
}

// TestCheckImpossible: the checker confirms a real dead end and rejects a
// false one.
func TestCheckImpossible(t *testing.T) {
	dead := swiss.Input{Round: 2, Players: []swiss.Player{
		{Number: 1, History: []swiss.RoundRecord{rec(swiss.Red, 2)}},
		{Number: 2, History: []swiss.RoundRecord{rec(swiss.Black, 1)}},
	}}
	if vs := checker.CheckImpossible(dead); len(vs) != 0 {
		t.Errorf("dead end not confirmed: %v", vs)
	}
	if vs := checker.CheckImpossible(fourAfterRound1()); len(vs) == 0 {
		t.Error("a pairable field was accepted as impossible")
	}
}
