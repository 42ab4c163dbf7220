package team_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/team"
)

// TestSplitMix64_ReferenceVector: the first outputs for seed 0 of Vigna's
// reference splitmix64.c; anyone redrawing a lineup starts from these.
func TestSplitMix64_ReferenceVector(t *testing.T) {
	g := team.SplitMix64{}
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := g.Next(); got != want {
			t.Fatalf("output %d: got %#x, want %#x", i+1, got, want)
		}
	}
}

// TestShuffle_T3_WorkedSeed0 draws four board numbers by hand.
func TestShuffle_T3_WorkedSeed0(t *testing.T) {
	// Seed 0, ids A B C D:
	// i=3: Below(4): 2^64 mod 4 = 0, nothing rejected; 0x…cdaf mod 4 = 0xaf mod 4 = 3 → j=3,
	//      D stays: A B C D.
	// i=2: Below(3): 2^64 mod 3 = 1, only 0 is rejected; 0x6e789e6aa1b965f4 mod 3 = its hex
	//      digit sum mod 3 (16 ≡ 1 mod 3) = 135 mod 3 = 0 → j=0, swap C and A: C B A D.
	// i=1: Below(2): 0x06c4…454f is odd → j=1, B stays: C B A D.
	if got, want := team.Shuffle([]string{"A", "B", "C", "D"}, 0), []string{"C", "B", "A", "D"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestShuffle_IsAPermutationAndLeavesInputAlone(t *testing.T) {
	in := []string{"1", "2", "3", "4", "5", "6", "7", "8"}
	orig := slices.Clone(in)
	seen := map[string]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		got := team.Shuffle(in, seed)
		sorted := slices.Clone(got)
		slices.Sort(sorted)
		if !slices.Equal(sorted, orig) {
			t.Fatalf("seed %d: %v is not a permutation of %v", seed, got, orig)
		}
		if !slices.Equal(team.Shuffle(in, seed), got) {
			t.Fatalf("seed %d: two draws differ", seed)
		}
		seen[team.Lineup(got).String()] = true
	}
	if !slices.Equal(in, orig) {
		t.Fatalf("Shuffle changed its input: %v", in)
	}
	if len(seen) < 190 {
		t.Fatalf("200 seeds gave only %d orders of 8 players", len(seen))
	}
}

// TestBelow_Uniform: every remainder comes up about equally often.
func TestBelow_Uniform(t *testing.T) {
	g := team.SplitMix64{State: 7}
	const n, draws = 6, 60000
	var counts [n]int
	for range draws {
		counts[g.Below(n)]++
	}
	for v, c := range counts {
		if c < draws/n*9/10 || c > draws/n*11/10 {
			t.Fatalf("value %d came up %d times in %d draws of 0…%d", v, c, draws, n-1)
		}
	}
}

func TestDrawLineup_ByFormat(t *testing.T) {
	const seed = 0
	tests := []struct {
		name string
		s    team.Settings
		want team.Lineup
	}{
		// T-1: the boards are fixed; nothing is drawn.
		{"T1_Roster", team.Settings{Format: team.FixedBoards, Boards: 4}, team.Lineup{"1", "2", "3", "4"}},
		// T-2: the members in roster order; substitutes come in only by the captain's choice.
		{"T2_Members", team.Settings{Format: team.BoardsWithSubstitutes, Boards: 4, Substitutes: 2}, team.Lineup{"1", "2", "3", "4"}},
		// T-3: the members' boards by lot — seed 0 over 1 2 3 4 is the worked shuffle above
		// (A B C D → C B A D).
		{"T3_DrawnByLot", team.Settings{Format: team.LineupPerMatch, Boards: 4, Substitutes: 2}, team.Lineup{"3", "2", "1", "4"}},
		{"T4_DrawnByLot", team.Settings{Format: team.AllPlayAll, Boards: 4}, team.Lineup{"3", "2", "1", "4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := numberedRoster(t, tc.s)
			got := r.DrawLineup(seed)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			if err := r.CheckLineup(got); err != nil {
				t.Fatalf("drawn lineup refused: %v", err)
			}
		})
	}
}

// TestDrawLineup_T3_AlwaysLegal: over many seeds, a drawn lineup is always
// one the captain could have submitted.
func TestDrawLineup_T3_AlwaysLegal(t *testing.T) {
	r := numberedRoster(t, team.Settings{Format: team.LineupPerMatch, Boards: 5, Substitutes: 3})
	for seed := uint64(0); seed < 500; seed++ {
		l := r.DrawLineup(seed)
		if err := r.CheckLineup(l); err != nil {
			t.Fatalf("seed %d: %v: %v", seed, l, err)
		}
		for _, id := range l {
			if id > "5" {
				t.Fatalf("seed %d: substitute %s drawn into %v", seed, id, l)
			}
		}
	}
}
