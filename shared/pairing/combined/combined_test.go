package combined_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/combined"
	"github.com/xqtour/xqtour/shared/pairing/knockout"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func players(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i+1)
	}
	return out
}

func firstRound(t *testing.T, b *knockout.Bracket) []knockout.Match {
	t.Helper()
	ms, err := b.NextRound(nil)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestSwissKnockout_S4(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		stage combined.KnockoutStage
		want  []knockout.Match
	}{
		{"S4_TopTwo_FinalAndBronze", 10, combined.TopTwo, []knockout.Match{
			{ID: "P1-2", Round: 1, A: "p1", B: "p2"}, {ID: "P3-4", Round: 1, A: "p3", B: "p4"}}},
		{"S4_TopTwo_ThreePlayersFinalOnly", 3, combined.TopTwo, []knockout.Match{{ID: "P1-2", Round: 1, A: "p1", B: "p2"}}},
		{"S4_TopFour_1v4_2v3", 9, combined.TopFour, []knockout.Match{
			{ID: "R1-1", Round: 1, A: "p1", B: "p4"}, {ID: "R1-2", Round: 1, A: "p2", B: "p3"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := combined.SwissKnockout(players(tc.n), tc.stage)
			if err != nil {
				t.Fatal(err)
			}
			if got := firstRound(t, b); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	for _, bad := range []struct {
		n     int
		stage combined.KnockoutStage
	}{{1, combined.TopTwo}, {3, combined.TopFour}, {8, 0}} {
		if _, err := combined.SwissKnockout(players(bad.n), bad.stage); !errors.Is(err, combined.ErrField) {
			t.Errorf("%d players stage %d: got %v, want ErrField", bad.n, bad.stage, err)
		}
	}
}

// S-4 top four: the second round is the final of the semi-final winners and
// the third-place match of their losers.
func TestSwissKnockout_S4_TopFourSecondRound(t *testing.T) {
	b, _ := combined.SwissKnockout(players(8), combined.TopFour)
	firstRound(t, b)
	ms, err := b.NextRound([]knockout.Result{{Match: "R1-1", Winner: "p4"}, {Match: "R1-2", Winner: "p2"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []knockout.Match{{ID: "F", Round: 2, A: "p4", B: "p2"}, {ID: "3P", Round: 2, A: "p1", B: "p3"}}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("got %+v, want %+v", ms, want)
	}
}

// S-4 last-place elimination over a 9-round event of 20 players, 3 dropped
// after each round from round 5 (past halfway) while more than 8 remain.
func TestElimination_S4(t *testing.T) {
	e := combined.Elimination{Rounds: 9, FromRound: combined.PastHalfway(9), PerRound: 3, Keep: 8}
	if e.FromRound != 5 || combined.PastHalfway(10) != 6 {
		t.Fatalf("PastHalfway: 9→%d, 10→%d; want 5, 6", e.FromRound, combined.PastHalfway(10))
	}
	active := players(20)
	var log []string
	for r := 1; r <= 9; r++ {
		out, err := e.Eliminated(r, active)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, fmt.Sprintf("after %d: %v", r, out))
		active = active[:len(active)-len(out)]
	}
	want := []string{
		"after 1: []", "after 2: []", "after 3: []", "after 4: []",
		"after 5: [p18 p19 p20]", "after 6: [p15 p16 p17]", "after 7: [p12 p13 p14]",
		"after 8: [p9 p10 p11]", "after 9: []",
	}
	if !reflect.DeepEqual(log, want) {
		t.Errorf("got %q, want %q", log, want)
	}
	short := combined.Elimination{Rounds: 7, FromRound: 4, PerRound: 4, Keep: 6}
	if out, _ := short.Eliminated(4, players(8)); !reflect.DeepEqual(out, []string{"p7", "p8"}) {
		t.Errorf("S4_KeepFloor: got %v, want [p7 p8]", out)
	}
	if _, err := (combined.Elimination{}).Eliminated(1, players(4)); !errors.Is(err, combined.ErrField) {
		t.Errorf("zero elimination: got %v", err)
	}
}

func TestNPlusOne_S4_Split(t *testing.T) {
	f, rest, err := combined.NPlusOneSplit(players(7))
	if err != nil {
		t.Fatal(err)
	}
	if f != [2]string{"p1", "p2"} || !reflect.DeepEqual(rest, []string{"p3", "p4", "p5", "p6", "p7"}) {
		t.Errorf("got %v %v", f, rest)
	}
	if _, _, err := combined.NPlusOneSplit(players(1)); !errors.Is(err, combined.ErrField) {
		t.Errorf("one player: got %v", err)
	}
}

func TestNPlusOne_S4_FinalColours(t *testing.T) {
	c := func(r, b int) combined.ColourCount { return combined.ColourCount{Red: r, Black: b} }
	tests := []struct {
		name   string
		c1, c2 combined.ColourCount
		want   combined.FinalColours
	}{
		{"S4_FewerRedsGetsRed", c(2, 3), c(3, 2), combined.FinalColours{Red: "p1", Black: "p2"}},
		{"S4_SecondBalancesToRed", c(3, 2), c(2, 3), combined.FinalColours{Red: "p2", Black: "p1"}},
		{"S4_ByeLeavesFewerGames", c(3, 2), c(2, 2), combined.FinalColours{Red: "p2", Black: "p1"}},
		{"S4_EqualBalanceFewerReds", c(3, 3), c(2, 2), combined.FinalColours{Red: "p2", Black: "p1"}},
		{"S4_SameCountsHigherChooses", c(3, 2), c(3, 2), combined.FinalColours{Chooser: "p1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := combined.NPlusOneColours("p1", "p2", tc.c1, tc.c2); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	fc := combined.NPlusOneColours("p1", "p2", c(2, 2), c(2, 2))
	if got := fc.Choose("p2", false); got.Red != "p2" || got.Black != "p1" {
		t.Errorf("chooser takes black: got %+v", got)
	}
	if got := fc.Choose("p2", true); got.Red != "p1" || got.Black != "p2" {
		t.Errorf("chooser takes red: got %+v", got)
	}
	set := combined.FinalColours{Red: "p2", Black: "p1"}
	if got := set.Choose("p2", true); got != set {
		t.Errorf("Choose changed decided colours: %+v", got)
	}
}

// S-4 (001 §10.4.3.3): after N=7 rounds p1 has 11 and p2 10 (K-1 points);
// p2 wins the final's slow game. Their Swiss opponents count 11 and 12.
func TestNPlusOne_S4_OpponentScores(t *testing.T) {
	got := combined.NPlusOneOpponentScores([2]combined.FinalistScore{
		{Player: "p1", AfterN: 11, FinalSlow: 0},
		{Player: "p2", AfterN: 10, FinalSlow: 2},
	})
	if want := map[string]int{"p1": 11, "p2": 12}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestSnakeGroups_S5(t *testing.T) {
	g, err := combined.SnakeGroups(players(10), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"p1", "p6", "p7"}, {"p2", "p5", "p8"}, {"p3", "p4", "p9", "p10"}}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got %v, want %v", g, want)
	}
	for _, bad := range []struct{ n, groups int }{{5, 3}, {4, 0}} {
		if _, err := combined.SnakeGroups(players(bad.n), bad.groups); !errors.Is(err, combined.ErrField) {
			t.Errorf("%d players in %d groups: got %v", bad.n, bad.groups, err)
		}
	}
}

func TestSamePlaceFinals_S5(t *testing.T) {
	groups := [][]string{{"a1", "a2", "a3"}, {"b1", "b2", "b3"}, {"c1", "c2", "c3"}}
	got, err := combined.SamePlaceFinals(groups, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []combined.FinalGroup{{FirstPlace: 1, Players: []string{"a1", "b1", "c1"}}, {FirstPlace: 4, Players: []string{"a2", "b2", "c2"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if _, err := combined.SamePlaceFinals(groups, 4); !errors.Is(err, combined.ErrField) {
		t.Errorf("too many qualifiers: got %v", err)
	}
	b, err := combined.SamePlacePlayoff(groups[0], groups[1], 3)
	if err != nil {
		t.Fatal(err)
	}
	wantM := []knockout.Match{{ID: "P1-2", Round: 1, A: "a1", B: "b1"}, {ID: "P3-4", Round: 1, A: "a2", B: "b2"}, {ID: "P5-6", Round: 1, A: "a3", B: "b3"}}
	if ms := firstRound(t, b); !reflect.DeepEqual(ms, wantM) {
		t.Errorf("playoff: got %+v, want %+v", ms, wantM)
	}
}

func TestCrossFinals_S5(t *testing.T) {
	a, b := []string{"a1", "a2", "a3", "a4"}, []string{"b1", "b2", "b3", "b4"}
	tests := []struct {
		name string
		q    int
		want string
	}{
		{"S5_Cross_A1B2_B1A2", 2, "R1-1 a1-b2 R1-2 b1-a2"},
		{"S5_Cross_FourEach", 4, "R1-1 a1-b4 R1-2 b2-a3 R1-3 b1-a4 R1-4 a2-b3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			br, err := combined.CrossFinals(a, b, tc.q, true)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, m := range firstRound(t, br) {
				parts = append(parts, m.ID+" "+m.A+"-"+m.B)
			}
			if got := strings.Join(parts, " "); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	if _, err := combined.CrossFinals(a[:1], b, 2, false); !errors.Is(err, combined.ErrField) {
		t.Errorf("short group: got %v", err)
	}
}

// A whole seeded-groups event (S-5) as a worked example: 12 players by
// rating into two snake groups, each group's standings as a round robin
// would give them (here: better rating first), then cross finals and
// same-place finals.
func TestGroups_S5_GoldenEvent(t *testing.T) {
	var sb strings.Builder
	groups, err := combined.SnakeGroups(players(12), 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range groups {
		fmt.Fprintf(&sb, "group %c: %s\n", 'A'+i, strings.Join(g, " "))
	}
	cross, err := combined.CrossFinals(groups[0], groups[1], 2, true)
	if err != nil {
		t.Fatal(err)
	}
	sb.WriteString("cross finals:\n")
	play(t, &sb, cross)
	same, err := combined.SamePlacePlayoff(groups[0], groups[1], 6)
	if err != nil {
		t.Fatal(err)
	}
	sb.WriteString("same-place finals:\n")
	play(t, &sb, same)
	got := sb.String()
	path := filepath.Join("testdata", "groups_12.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// play runs a bracket with the upper slot always winning.
func play(t *testing.T, sb *strings.Builder, b *knockout.Bracket) {
	t.Helper()
	var res []knockout.Result
	for {
		ms, err := b.NextRound(res)
		if err != nil {
			t.Fatal(err)
		}
		if b.Finished() {
			break
		}
		res = nil
		fmt.Fprintf(sb, "  round %d:", b.Round())
		for _, m := range ms {
			fmt.Fprintf(sb, " %s %s-%s", m.ID, m.A, m.B)
			res = append(res, knockout.Result{Match: m.ID, Winner: m.A})
		}
		sb.WriteString("\n")
	}
	places, err := b.Places()
	if err != nil {
		t.Fatal(err)
	}
	sb.WriteString("  places:")
	for _, p := range places {
		fmt.Fprintf(sb, " %d=%s", p.Place, p.Player)
	}
	sb.WriteString("\n")
}
