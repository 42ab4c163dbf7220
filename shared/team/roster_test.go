package team_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/xqtour/xqtour/shared/team"
)

// TestRoster_T1_FixedBoardsWorkedExample checks testdata/t1_fixed_boards.tsv,
// whose comments carry the working.
func TestRoster_T1_FixedBoardsWorkedExample(t *testing.T) {
	var entry []team.Player
	var want []string
	for _, row := range readRows(t, "testdata/t1_fixed_boards.tsv") {
		switch row[0] {
		case "entry":
			r, err := strconv.Atoi(row[2])
			if err != nil {
				t.Fatal(err)
			}
			entry = append(entry, team.Player{ID: row[1], Rating: r})
		case "board":
			if b, _ := strconv.Atoi(row[1]); b != len(want)+1 {
				t.Fatalf("testdata boards out of sequence at %v", row)
			}
			want = append(want, row[2])
		}
	}
	s := team.Settings{Format: team.FixedBoards, Boards: len(entry)}
	r, err := team.NewRoster("T", s, entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.IDs(); !slices.Equal(got, want) {
		t.Fatalf("got board order %v, want %v", got, want)
	}
	// T-1: the only lineup is the roster itself.
	ls, err := r.Lineups()
	if err != nil || len(ls) != 1 || !slices.Equal(ls[0], team.Lineup(want)) {
		t.Fatalf("got lineups %v, %v; want just %v", ls, err, want)
	}
}

func TestRatingOrder_T1(t *testing.T) {
	p := func(id string, rating int) team.Player { return team.Player{ID: id, Rating: rating} }
	tests := []struct {
		name string
		in   []team.Player
		want []string
	}{
		{"T1_HigherRatingFirst", []team.Player{p("a", 2100), p("b", 2400), p("c", 2250)}, []string{"b", "c", "a"}},
		{"T1_UnratedAfterRated", []team.Player{p("u", 0), p("r", 1200)}, []string{"r", "u"}},
		{"T1_TiesKeepEntryOrder", []team.Player{p("x", 2000), p("y", 2000), p("z", 2000)}, []string{"x", "y", "z"}},
		{"T1_AllUnratedKeepEntryOrder", []team.Player{p("c", 0), p("a", 0), p("b", 0)}, []string{"c", "a", "b"}},
		{"T1_Empty", nil, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.in)
			got := team.RatingOrder(tc.in)
			ids := []string{}
			for _, p := range got {
				ids = append(ids, p.ID)
			}
			if !slices.Equal(ids, tc.want) {
				t.Fatalf("got %v, want %v", ids, tc.want)
			}
			if !slices.Equal(tc.in, in) {
				t.Fatalf("RatingOrder changed its input: %v", tc.in)
			}
		})
	}
}

// TestNewRoster_T2_SubstitutesRankedWithMembers: 001 §11.2 ranks the
// substitutes by the same principle as the members, so a strong substitute
// sits between members; the members alone still form a legal lineup.
func TestNewRoster_T2_SubstitutesRankedWithMembers(t *testing.T) {
	s := team.Settings{Format: team.BoardsWithSubstitutes, Boards: 4, Substitutes: 2}
	members := []team.Player{{ID: "m1", Rating: 2400}, {ID: "m2", Rating: 2300}, {ID: "m3", Rating: 2200}, {ID: "m4", Rating: 2100}}
	subs := []team.Player{{ID: "s1", Rating: 2350}, {ID: "s2"}}
	r, err := team.NewRoster("T", s, members, subs)
	if err != nil {
		t.Fatal(err)
	}
	// Working: 2400 m1, 2350 s1, 2300 m2, 2200 m3, 2100 m4, then unrated s2.
	if got, want := r.IDs(), []string{"m1", "s1", "m2", "m3", "m4", "s2"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for _, p := range r.Players {
		if p.Substitute != (p.ID[0] == 's') {
			t.Fatalf("%s: Substitute = %v", p.ID, p.Substitute)
		}
	}
	// Members are roster numbers 1-3-4-5: in order, so a T-2 lineup.
	if got, want := r.Members(), (team.Lineup{"m1", "m2", "m3", "m4"}); !slices.Equal(got, want) {
		t.Fatalf("members %v, want %v", got, want)
	}
	if err := r.CheckLineup(r.Members()); err != nil {
		t.Fatal(err)
	}
}

// TestNewRoster_T1_KeepEntryOrderUnratedLast: the team's own order stands
// for its rated players (1800 before 2500 as entered), but T-1 as settled
// (000 ch.7 §2 2.1: 无等级分者排在有等级分棋手的后面, in every event) puts the
// unrated entered first after them.
func TestNewRoster_T1_KeepEntryOrderUnratedLast(t *testing.T) {
	s := team.Settings{Format: team.FixedBoards, Boards: 4, KeepEntryOrder: true}
	in := []team.Player{{ID: "a"}, {ID: "c", Rating: 1800}, {ID: "b", Rating: 2500}, {ID: "d"}}
	r, err := team.NewRoster("T", s, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.IDs(), []string{"c", "b", "a", "d"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestNewRoster_Errors(t *testing.T) {
	fixed := team.Settings{Format: team.FixedBoards, Boards: 2}
	subs := team.Settings{Format: team.BoardsWithSubstitutes, Boards: 2, Substitutes: 1}
	perMatch := team.Settings{Format: team.LineupPerMatch, Boards: 2, Substitutes: 2}
	apa := team.Settings{Format: team.AllPlayAll, Boards: 2}
	tests := []struct {
		name          string
		s             team.Settings
		members, subs []team.Player
		code, rule    string
	}{
		{"T1_TooFewMembers", fixed, players("a"), nil, team.CodeRosterSize, "T-1"},
		{"T1_TooManyMembers", fixed, players("a", "b", "c"), nil, team.CodeRosterSize, "T-1"},
		{"T1_NoSubstitutes", fixed, players("a", "b"), players("c"), team.CodeSubstitutesNotAllowed, "T-1"},
		{"T4_NoSubstitutes", apa, players("a", "b"), players("c"), team.CodeSubstitutesNotAllowed, "T-4"},
		{"T2_TooManySubstitutes", subs, players("a", "b"), players("c", "d"), team.CodeTooManySubstitutes, "T-2"},
		{"T2_DuplicateAcrossSubstitutes", subs, players("a", "b"), players("a"), team.CodeDuplicatePlayer, "T-2"},
		{"T3_DuplicateMember", perMatch, players("a", "a"), nil, team.CodeDuplicatePlayer, "T-3"},
		{"T3_EmptyID", perMatch, players("a", ""), nil, team.CodeInvalidPlayer, "T-3"},
		{"T1_NegativeRating", fixed, []team.Player{{ID: "a", Rating: -1}, {ID: "b"}}, nil, team.CodeInvalidPlayer, "T-1"},
		{"T1_NoBoards", team.Settings{Format: team.FixedBoards}, nil, nil, team.CodeInvalidSettings, "T-1"},
		{"T1_SettingsWithSubstitutes", team.Settings{Format: team.FixedBoards, Boards: 2, Substitutes: 1}, players("a", "b"), nil, team.CodeInvalidSettings, "T-1"},
		{"T2_NegativeSubstitutes", team.Settings{Format: team.BoardsWithSubstitutes, Boards: 2, Substitutes: -1}, players("a", "b"), nil, team.CodeInvalidSettings, "T-2"},
		{"UnknownFormat", team.Settings{Format: 9, Boards: 2}, players("a", "b"), nil, team.CodeInvalidSettings, "T-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := team.NewRoster("T", tc.s, tc.members, tc.subs)
			wantRuleErr(t, err, tc.code, tc.rule)
		})
	}
}

func TestFormat_NamesRoundTrip(t *testing.T) {
	for f, rule := range map[team.Format]string{team.FixedBoards: "T-1", team.BoardsWithSubstitutes: "T-2", team.LineupPerMatch: "T-3", team.AllPlayAll: "T-4"} {
		got, err := team.ParseFormat(f.String())
		if err != nil || got != f {
			t.Fatalf("ParseFormat(%q) = %v, %v; want %v", f.String(), got, err, f)
		}
		if f.Rule() != rule {
			t.Fatalf("%v.Rule() = %s, want %s", f, f.Rule(), rule)
		}
	}
	_, err := team.ParseFormat("knockout")
	wantRuleErr(t, err, team.CodeInvalidSettings, "T-1")
}
