package swiss_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// pairText pairs an input written in the testdata format and runs the
// checker on the result.
func pairText(t *testing.T, text string) swiss.Round {
	t.Helper()
	in, err := parseInput(text)
	if err != nil {
		t.Fatal(err)
	}
	out, err := swiss.Pair(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range checker.Check(in, out) {
		t.Errorf("checker: %v", v)
	}
	return out
}

// fillers declares withdrawn opponents 3…n with the given history length.
func fillers(from, to, rounds int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "p %d status withdrawn :%s\n", i, strings.Repeat(" -", rounds))
	}
	return b.String()
}

func TestColour_P11(t *testing.T) {
	tests := []struct {
		name       string
		round      int
		one, two   string // histories of players 1 and 2 (opponents 3…)
		wantRed    int
		wantColour swiss.ColourCase
	}{
		{"FewerRedsGetsRed_4_1", 3, "B3 B4", "R5 B6", 1, swiss.ColourFewerReds},
		{"FewerRedsGetsRed_4_1_Reverse", 3, "R3 B4", "B5 B6", 2, swiss.ColourFewerReds},
		{"EqualCountsBlackLast_4_2", 3, "R3 B4", "B5 R6", 1, swiss.ColourAlternate},
		{"UpperBlackVsRedRun_4_7", 5, "R3 B4 - -", "B5 B6 R7 R8", 1, swiss.ColourAlternate},
		{"BlackRunLongerGetsRed_4_5", 5, "R3 B4 - -", "R5 R6 B7 B8", 2, swiss.ColourLongerBlacks},
		{"BlackRunsLongerGetsRed_4_3", 7, "R3 R4 B5 R6 B7 B8", "R9 B10 R11 B12 - -", 1, swiss.ColourLongerBlacks},
		{"RedRunShorterGetsRed_4_6", 5, "B3 R4 - -", "B5 B6 R7 R8", 1, swiss.ColourShorterReds},
		{"RedRunsShorterGetsRed_4_4", 7, "B3 B4 R5 R6 - -", "B8 R9 B10 R11 - -", 2, swiss.ColourShorterReds},
		{"NumberSumOddSmallerRed_4_8", 3, "R3 B4", "R5 B6", 1, swiss.ColourNumberSum},
		{"NoColourYetTakesTheOther_4_2", 3, "bye -", "B5 R6", 1, swiss.ColourAlternate},
		{"NoColourYetBlackLastGetsRed_4_2", 3, "bye -", "R5 B6", 2, swiss.ColourAlternate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.round - 1
			text := fmt.Sprintf("rounds 11\nround %d\np 1 score 2 : %s\np 2 score 2 : %s\n%s",
				tc.round, tc.one, tc.two, fillers(3, 13, r))
			out := pairText(t, text)
			if len(out.Boards) != 1 {
				t.Fatalf("got %d boards, want 1", len(out.Boards))
			}
			b := out.Boards[0]
			if b.Red != tc.wantRed || b.Why.Colour != tc.wantColour {
				t.Errorf("got red %d (%s), want red %d (%s)", b.Red, b.Why.Colour, tc.wantRed, tc.wantColour)
			}
		})
	}
}

// TestColour_P11_NumberSumEven: §4(8) with an even sum gives the larger
// number red.
func TestColour_P11_NumberSumEven(t *testing.T) {
	out := pairText(t, "rounds 11\nround 3\np 1 score 2 : R4 B5\np 3 score 2 : R6 B7\np 2 status withdrawn : - -\n"+fillers(4, 7, 2))
	if b := out.Boards[0]; b.Red != 3 || b.Why.Colour != swiss.ColourNumberSum {
		t.Errorf("got red %d (%s), want 3 (numberSum)", b.Red, b.Why.Colour)
	}
}

func TestPicker_P9(t *testing.T) {
	tests := []struct {
		name  string
		round int
		one   string
		two   string
		want  int
		why   swiss.PickReason
	}{
		{"OddRoundSmallerFirst", 3, "R3 B4", "R5 B6", 1, swiss.PickNumber},
		{"EvenRoundLargerFirst", 4, "R3 B4 -", "R5 B6 -", 2, swiss.PickNumber},
		{"LargerImbalanceFirst", 3, "R3 B4", "B5 B6", 2, swiss.PickImbalance},
		{"LongerRunFirst", 5, "R3 B4 - -", "R5 R6 B7 B8", 2, swiss.PickStreak},
		// §2(3) "先后走局数相等(均为少先或多先或平先)时，有连先或连后的先编":
		// both one red short; 1 has two blacks in a row (连后), 2 only one
		// black last, so 1 picks first although round 4 is even.
		{"EqualImbalanceRunFirst_2_3", 4, "R3 B4 B5", "B6 R7 B8", 1, swiss.PickStreak},
		// One game of a colour is no run (连): 1 (no game yet) and 2 (one
		// red, one black) are both 平先 without a run, so by number —
		// round 3 is odd, the smaller first.
		{"SingleGameIsNoRun_2_4", 3, "bye -", "B4 R5", 1, swiss.PickNumber},
		// Settled reading of §2(2)–(3): 1 is one red short with two
		// blacks running, 2 one red over without a run. Their imbalance
		// is equal but their counts are not (少先 against 多先), so the
		// run does not decide: round 4 is even, the larger number first.
		{"ShortAgainstOverNumberDecides_2_2", 4, "R3 B4 B5", "R6 B7 R8", 2, swiss.PickNumber},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := fmt.Sprintf("rounds 11\nround %d\np 1 score 2 : %s\np 2 score 2 : %s\n%s",
				tc.round, tc.one, tc.two, fillers(3, 13, tc.round-1))
			b := pairText(t, text).Boards[0]
			if b.Why.Picker != tc.want || b.Why.PickedBy != tc.why {
				t.Errorf("picker %d (%s), want %d (%s)", b.Why.Picker, b.Why.PickedBy, tc.want, tc.why)
			}
		})
	}
}

// TestStatus_S6: withdrawn, paused and not-yet-joined players are not
// paired; a player back from a pause is.
func TestStatus_S6(t *testing.T) {
	out := pairText(t, `rounds 7
round 3
p 1 score 4 : R2 B3
p 2 score 0 status withdrawn : B1 -
p 3 score 0 status paused : R1 -
p 4 score 2 : B5 -
p 5 score 2 : R4 B6
p 6 score 2 : bye R5
p 7 score 0 status notjoined : - -
`)
	seen := map[int]bool{}
	for _, b := range out.Boards {
		seen[b.Red], seen[b.Black] = true, true
	}
	seen[out.Bye] = true
	for _, n := range []int{1, 4, 5, 6} {
		if !seen[n] {
			t.Errorf("active player %d not paired", n)
		}
	}
	for _, n := range []int{2, 3, 7} {
		if seen[n] {
			t.Errorf("inactive player %d paired", n)
		}
	}
}

// TestBye_S7_NobodyTwice: the lowest player already had a bye, so the
// next lowest gets it.
func TestBye_S7_NobodyTwice(t *testing.T) {
	out := pairText(t, `rounds 7
round 3
p 1 score 4 : R2 B3
p 2 score 2 : B1 bye
p 3 score 0 : R4 B1
p 4 score 2 : B3 R5
p 5 score 2 : bye B4
`)
	if out.Bye != 3 {
		t.Errorf("bye %d, want 3 (the lowest, no bye yet)", out.Bye)
	}
	out = pairText(t, `rounds 7
round 3
p 1 score 4 : R2 B3
p 2 score 2 : B1 R4
p 3 score 2 : bye R1
p 4 score 0 : R5 B2
p 5 score 2 : B4 bye
`)
	if out.Bye == 3 || out.Bye == 5 {
		t.Errorf("bye %d has had one", out.Bye)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want error
	}{
		{"DuplicateNumber", "round 1\np 1 :\np 1 :\n", swiss.ErrInput},
		{"ShortHistory", "round 2\np 1 :\np 2 : -\n", swiss.ErrInput},
		{"UnknownOpponent", "round 2\np 1 : R9\np 2 : -\n", swiss.ErrInput},
		// Three players who have all met and all had a bye (P-8, S-7).
		{"NoCompletePairing", "round 4\np 1 : R2 B3 bye\np 2 : B1 bye R3\np 3 : bye R1 B2\n", swiss.ErrNoPairing},
		{"NoCompletePairingEven", "round 2\np 1 : R2\np 2 : B1\n", swiss.ErrNoPairing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := parseInput(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			_, err = swiss.Pair(in)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if tc.want == swiss.ErrNoPairing {
				for _, v := range checker.CheckImpossible(in) {
					t.Errorf("checker disagrees: %v", v)
				}
			}
		})
	}
}

// TestDeterministic: the same input always gives the same round.
func TestDeterministic(t *testing.T) {
	rep, err := checker.Simulate(checker.Event{Players: 61, Rounds: 6, Seed: 5, Churn: true})
	if err != nil {
		t.Fatal(err)
	}
	in := swiss.Input{Players: rep.Players, Rounds: 7, Round: 7, DrawPoints: 1}
	a, err := swiss.Pair(in)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		b, _ := swiss.Pair(in)
		if !reflect.DeepEqual(a, b) {
			t.Fatal("two pairings of the same input differ")
		}
	}
}

// TestLabels: every code has a stable string and a Chinese label.
func TestLabels(t *testing.T) {
	for r := swiss.FirstRoundPair; r <= swiss.FloatDown; r++ {
		if r.String() == "" || r.Label() == "" {
			t.Errorf("reason %d unnamed", r)
		}
	}
	for c := swiss.ColourFirstRound; c <= swiss.ColourAvoidThree; c++ {
		if c.String() == "" || c.Label() == "" {
			t.Errorf("colour case %d unnamed", c)
		}
	}
	for p := swiss.PickFirstRound; p <= swiss.PickNumber; p++ {
		if p.String() == "" || p.Label() == "" {
			t.Errorf("pick reason %d unnamed", p)
		}
	}
	if got := swiss.ColourNumberSum.Section(); got != 8 {
		t.Errorf("numberSum section %d, want 8", got)
	}
}

func TestSeedNumbers_P3(t *testing.T) {
	tests := []struct {
		seeds, others int
		wantSeeds     []int
		wantOthers    []int
	}{
		{4, 4, []int{1, 3, 5, 7}, []int{2, 4, 6, 8}},
		{4, 3, []int{1, 3, 5, 7}, []int{2, 4, 6}},
		{2, 5, []int{1, 3}, []int{2, 4, 5, 6, 7}},
		{5, 2, []int{1, 3, 5, 6, 7}, []int{2, 4}},
		{0, 3, []int{}, []int{1, 2, 3}},
	}
	for _, tc := range tests {
		s, o := swiss.SeedNumbers(tc.seeds, tc.others)
		if fmt.Sprint(s) != fmt.Sprint(tc.wantSeeds) || fmt.Sprint(o) != fmt.Sprint(tc.wantOthers) {
			t.Errorf("SeedNumbers(%d, %d) = %v, %v; want %v, %v", tc.seeds, tc.others, s, o, tc.wantSeeds, tc.wantOthers)
		}
	}
}

// TestLastRound_P8_NoPartnerChange: appendix 3 §4(10) (在最后一轮中出现连三先、
// 连三后或相差三先的配对，均不拆开重排). 1 and 2 are both +2 with red last;
// 1 has met 3, the only red-due player, so the walk's next choice is 2
// (通行), which gives one of them +3 whatever the colours. Before the last
// round another partner (4) avoids it (§1.11(3)); in the last round the
// walk's pair stands.
func TestLastRound_P8_NoPartnerChange(t *testing.T) {
	field := `p 1 score 4 : R5 B6 R7 R3
p 2 score 4 : R9 R10 B11 R12
p 3 score 4 : R17 B18 R19 B1
p 4 score 4 : B13 R14 B15 R16
` + fillers(5, 19, 4)
	for _, tc := range []struct {
		rounds int
		want   [][2]int // {red, black}
	}{
		{7, [][2]int{{4, 1}, {3, 2}}},
		// 1-2: equal counts, both red last; §4(4)(6) the shorter red run
		// (2: one) takes red and 2 goes to +3.
		{5, [][2]int{{2, 1}, {3, 4}}},
	} {
		t.Run(fmt.Sprintf("Round5Of%d", tc.rounds), func(t *testing.T) {
			out := pairText(t, fmt.Sprintf("rounds %d\nround 5\n%s", tc.rounds, field))
			var got [][2]int
			for _, b := range out.Boards {
				got = append(got, [2]int{b.Red, b.Black})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFloatLimitBeforeColour_P6 holds the float limit above the colour
// wish: appendix 3 §1.9 says no player floats the same way more than twice
// (最多不超过两次), §1.11(3) only asks that +3 and three in a row be avoided
// as far as possible (应尽可能避免). The top group 1, 2, 3 (1 and 2 have
// met) must send one player down. Sending 1 down would be its third
// down-float and leave 2-3 without a colour fault; keeping 1 pairs 1-3,
// both with two reds last, so one of them plays red a third time in a row,
// and 2 floats instead. The float limit wins: 1-3, and 2 down.
func TestFloatLimitBeforeColour_P6(t *testing.T) {
	text := `rounds 7
round 4
p 1 score 4 : B7d R8d R2
p 2 score 4 : R14 R15 B1
p 3 score 4 : B10 R11 R12
p 4 score 2 : B16 R17 B18
p 5 score 2 : R19 B20 R21
p 6 score 2 : B22 R23 B24
` + fillers(7, 24, 3)
	out := pairText(t, text)
	in, err := parseInput(text)
	if err != nil {
		t.Fatal(err)
	}
	var oneThree, twoDown bool
	for _, b := range out.Boards {
		oneThree = oneThree || b.Red+b.Black == 4 && (b.Red == 1 || b.Red == 3)
		twoDown = twoDown || b.Red == 2 && b.RedFloat == swiss.Down || b.Black == 2 && b.BlackFloat == swiss.Down
	}
	if !oneThree || !twoDown {
		t.Errorf("got %+v, want 1 v 3 and 2 down to the score-2 group", out.Boards)
	}
	m, err := swiss.Measure(in, out)
	if err != nil {
		t.Fatal(err)
	}
	// Crossings, third floats, colour faults.
	if want := []int{1, 0, 1}; !reflect.DeepEqual(m, want) {
		t.Errorf("measure %v, want %v", m, want)
	}
}

// TestLoneFloatNotCounted_P6 leaves out of the float limit the float of a
// player alone in its score group (§1.9: 不含本积分段只有一人必然下调或上调):
// player 1 is alone at score 6 with two down-floats; floating it again is
// no third float, so the round measures no third float at all.
func TestLoneFloatNotCounted_P6(t *testing.T) {
	in, err := parseInput(`rounds 7
round 4
p 1 score 6 : R7d B8d R9
p 2 score 2 : B10 R11 B12
p 3 score 2 : R13 B14 R15
p 4 score 2 : B16 R17 B18
` + fillers(5, 18, 3))
	if err != nil {
		t.Fatal(err)
	}
	out, err := swiss.Pair(in)
	if err != nil {
		t.Fatal(err)
	}
	m, err := swiss.Measure(in, out)
	if err != nil {
		t.Fatal(err)
	}
	if thirds := m[len(m)-2]; thirds != 0 {
		t.Errorf("measure %v: %d third floats, want 0 (a lone player's float is not counted)", m, thirds)
	}
	for _, v := range checker.Check(in, out) {
		t.Errorf("checker: %v", v)
	}
}
