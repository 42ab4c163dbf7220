package team_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/team"
)

func numberedRoster(t *testing.T, s team.Settings) team.Roster {
	t.Helper()
	ids := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	members := players(ids[:s.Boards]...)
	subs := players(ids[s.Boards : s.Boards+s.Substitutes]...)
	r, err := team.NewRoster("T", s, members, subs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var fourPlusTwo = team.Settings{Format: team.BoardsWithSubstitutes, Boards: 4, Substitutes: 2}

// TestLineups_T2_FourBoardsTwoSubstitutesGive15 reproduces 001 §11.2's
// example from testdata (the working is in the file's comments).
func TestLineups_T2_FourBoardsTwoSubstitutesGive15(t *testing.T) {
	var want []string
	for _, row := range readRows(t, "testdata/t2_lineups_4_boards_2_substitutes.golden") {
		want = append(want, row[0])
	}
	ls, err := numberedRoster(t, fourPlusTwo).Lineups()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ls {
		got = append(got, l.String())
	}
	if len(got) != 15 || !slices.Equal(got, want) {
		t.Fatalf("got %d lineups\n%s\nwant %d\n%s", len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
	}
}

func TestOrderedLineups_T2_Counts(t *testing.T) {
	binom := func(n, k int) int {
		c := 1
		for i := 0; i < k; i++ {
			c = c * (n - i) / (i + 1)
		}
		return c
	}
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	for n := 0; n <= len(ids); n++ {
		for k := 0; k <= n; k++ {
			ls := team.OrderedLineups(ids[:n], k)
			if len(ls) != binom(n, k) {
				t.Fatalf("T-2 C(%d,%d): got %d lineups, want %d", n, k, len(ls), binom(n, k))
			}
		}
		if ls := team.OrderedLineups(ids[:n], n+1); ls != nil {
			t.Fatalf("more boards than players: got %v", ls)
		}
	}
}

func TestCheckLineup_T2(t *testing.T) {
	r := numberedRoster(t, fourPlusTwo)
	tests := []struct {
		name       string
		l          team.Lineup
		code, rule string
	}{
		{"T2_Members", team.Lineup{"1", "2", "3", "4"}, "", ""},
		{"T2_OneSubstitute", team.Lineup{"1", "2", "3", "5"}, "", ""},
		{"T2_LastOfFifteen", team.Lineup{"3", "4", "5", "6"}, "", ""},
		{"T2_OutOfOrder", team.Lineup{"1", "2", "4", "3"}, team.CodeLineupOutOfOrder, "T-2"},
		{"T2_SubstituteAboveMember", team.Lineup{"5", "1", "2", "3"}, team.CodeLineupOutOfOrder, "T-2"},
		{"T2_UnknownPlayer", team.Lineup{"1", "2", "3", "x"}, team.CodeUnknownPlayer, "T-2"},
		{"T2_Duplicate", team.Lineup{"1", "1", "2", "3"}, team.CodeDuplicatePlayer, "T-2"},
		{"T2_TooShort", team.Lineup{"1", "2", "3"}, team.CodeLineupSize, "T-2"},
		{"T2_TooLong", team.Lineup{"1", "2", "3", "4", "5"}, team.CodeLineupSize, "T-2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantRuleErr(t, r.CheckLineup(tc.l), tc.code, tc.rule)
		})
	}
}

// TestCheckLineup_T2_ExactlyTheEnumerated tries every 4-board sequence over
// the six roster numbers and one stranger: CheckLineup accepts exactly the
// 15 lineups Lineups lists.
func TestCheckLineup_T2_ExactlyTheEnumerated(t *testing.T) {
	r := numberedRoster(t, fourPlusTwo)
	ls, _ := r.Lineups()
	legal := map[string]bool{}
	for _, l := range ls {
		legal[l.String()] = true
	}
	alphabet := []string{"1", "2", "3", "4", "5", "6", "x"}
	accepted := 0
	l := make(team.Lineup, 4)
	var walk func(b int)
	walk = func(b int) {
		if b == len(l) {
			err := r.CheckLineup(l)
			if (err == nil) != legal[l.String()] {
				t.Fatalf("T-2 %s: CheckLineup = %v, enumerated = %v", l, err, legal[l.String()])
			}
			if err == nil {
				accepted++
			}
			return
		}
		for _, id := range alphabet {
			l[b] = id
			walk(b + 1)
		}
	}
	walk(0)
	if accepted != 15 {
		t.Fatalf("accepted %d lineups, want 15", accepted)
	}
}

func TestCheckLineup_T1_OnlyTheRoster(t *testing.T) {
	r := numberedRoster(t, team.Settings{Format: team.FixedBoards, Boards: 3})
	if err := r.CheckLineup(team.Lineup{"1", "2", "3"}); err != nil {
		t.Fatal(err)
	}
	wantRuleErr(t, r.CheckLineup(team.Lineup{"1", "3", "2"}), team.CodeLineupOutOfOrder, "T-1")
	wantRuleErr(t, r.CheckLineup(team.Lineup{"1", "2", "9"}), team.CodeUnknownPlayer, "T-1")
}

func TestCheckLineup_T3_AnyOrderAnyPlayers(t *testing.T) {
	r := numberedRoster(t, team.Settings{Format: team.LineupPerMatch, Boards: 4, Substitutes: 2})
	tests := []struct {
		name       string
		l          team.Lineup
		code, rule string
	}{
		{"T3_Reversed", team.Lineup{"4", "3", "2", "1"}, "", ""},
		{"T3_SubstitutesOnTop", team.Lineup{"6", "5", "1", "2"}, "", ""},
		{"T3_UnknownPlayer", team.Lineup{"4", "3", "2", "B1"}, team.CodeUnknownPlayer, "T-3"},
		{"T3_Duplicate", team.Lineup{"4", "3", "4", "1"}, team.CodeDuplicatePlayer, "T-3"},
		{"T3_Size", team.Lineup{"4", "3"}, team.CodeLineupSize, "T-3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantRuleErr(t, r.CheckLineup(tc.l), tc.code, tc.rule)
		})
	}
	_, err := r.Lineups()
	wantRuleErr(t, err, team.CodeLineupsNotEnumerable, "T-3")
}

func TestCheckLineup_T4_EveryMemberAnyOrder(t *testing.T) {
	r := numberedRoster(t, team.Settings{Format: team.AllPlayAll, Boards: 3})
	if err := r.CheckLineup(team.Lineup{"3", "1", "2"}); err != nil {
		t.Fatal(err)
	}
	wantRuleErr(t, r.CheckLineup(team.Lineup{"3", "1"}), team.CodeLineupSize, "T-4")
}

// TestSubmitLineup_T3_Deadline: the deadline is exclusive — a lineup at
// exactly the deadline is late.
func TestSubmitLineup_T3_Deadline(t *testing.T) {
	r := numberedRoster(t, team.Settings{Format: team.LineupPerMatch, Boards: 2, Substitutes: 1})
	const deadline = int64(1_790_000_000_000)
	tests := []struct {
		name       string
		l          team.Lineup
		now        int64
		code, rule string
	}{
		{"T3_OneMsBefore", team.Lineup{"3", "1"}, deadline - 1, "", ""},
		{"T3_AtDeadline", team.Lineup{"3", "1"}, deadline, team.CodeLineupDeadlinePassed, "T-3"},
		{"T3_After", team.Lineup{"3", "1"}, deadline + 60_000, team.CodeLineupDeadlinePassed, "T-3"},
		{"T3_InTimeButUnknown", team.Lineup{"3", "z"}, deadline - 1, team.CodeUnknownPlayer, "T-3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantRuleErr(t, r.SubmitLineup(tc.l, deadline, tc.now), tc.code, tc.rule)
		})
	}
	// T-2 lineups have the same deadline, and the error names T-2.
	r2 := numberedRoster(t, fourPlusTwo)
	wantRuleErr(t, r2.SubmitLineup(team.Lineup{"1", "2", "3", "4"}, deadline, deadline), team.CodeLineupDeadlinePassed, "T-2")
	wantRuleErr(t, r2.SubmitLineup(team.Lineup{"2", "1", "3", "4"}, deadline, 0), team.CodeLineupOutOfOrder, "T-2")
}
