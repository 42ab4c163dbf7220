package combined_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/combined"
)

// S-3 cross elimination (交叉淘汰, 001 §10.3) beyond two groups of two: the
// first round crosses group j with group G+1-j, a group's i-th placed with
// the other's (q+1-i)-th, byes going to the group winners, so group mates
// never meet in the first round played.
func TestCrossElimination_S3(t *testing.T) {
	group := func(name string, n int) []string {
		var out []string
		for i := 1; i <= n; i++ {
			out = append(out, name+string(rune('0'+i)))
		}
		return out
	}
	tests := []struct {
		name   string
		groups [][]string
		q      int
		want   string
	}{
		{"S3_TwoGroupsTwo_1v4_2v3", [][]string{group("a", 3), group("b", 3)}, 2, "R1-1 a1-b2 R1-2 b1-a2"},
		{"S3_FourGroupsTwo", [][]string{group("a", 4), group("b", 4), group("c", 4), group("d", 4)}, 2,
			"R1-1 a1-d2 R1-2 d1-a2 R1-3 b1-c2 R1-4 c1-b2"},
		{"S3_FourGroupsOne", [][]string{group("a", 3), group("b", 3), group("c", 3), group("d", 3)}, 1, "R1-1 a1-d1 R1-2 b1-c1"},
		// Six qualifiers in a bracket of eight: the group winners have byes.
		{"S3_TwoGroupsThree_Byes", [][]string{group("a", 4), group("b", 4)}, 3, "R1-2 b2-a3 R1-4 a2-b3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			br, err := combined.CrossElimination(tc.groups, tc.q, true)
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
	three := [][]string{group("a", 2), group("b", 2), group("c", 2)}
	if _, err := combined.CrossElimination(three, 2, true); !errors.Is(err, combined.ErrField) {
		t.Errorf("three groups: got %v, want ErrField", err)
	}
	if _, err := combined.CrossElimination(three[:2], 3, true); !errors.Is(err, combined.ErrField) {
		t.Errorf("more qualifiers than players: got %v, want ErrField", err)
	}
}
