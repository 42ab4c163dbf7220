package swiss_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// TestWindow_P4_P10_MatchesWholeField: a field too big for one weighted
// matching is mended in a window of score levels (P-4, P-10 拆对 as far up
// as needed, P-8, P-6). Here fields of 30…90 players are paired both ways —
// the whole-field optimum, and the walk mended by a window when the whole
// field is declared too big — and the window's round must measure the same.
// (Where no window proves optimal the walk's round stands, which could be
// worse; these fields never need that.)
func TestWindow_P4_P10_MatchesWholeField(t *testing.T) {
	compared, proven := 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		n, k := 30+int(seed*7%61), 3+int(seed%6)
		rep, err := checker.Simulate(checker.Event{Players: n, Rounds: k, Seed: seed, Churn: seed%2 == 0, Forbidden: int(seed % 3)})
		if err != nil || rep.Stopped {
			continue
		}
		in := swiss.Input{Players: rep.Players, Rounds: k + 2, Round: k + 1, DrawPoints: 1}
		whole, err := swiss.Pair(in)
		if err != nil {
			t.Fatal(err)
		}
		restore := swiss.SetWholeFieldLimit(0)
		windowed, err := swiss.Pair(in)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if vs := checker.Check(in, windowed); len(vs) > 0 {
			t.Errorf("seed %d: windowed round breaks %v", seed, vs)
		}
		a, _ := swiss.Measure(in, whole)
		b, _ := swiss.Measure(in, windowed)
		compared++
		switch c := slices.Compare(b, a); {
		case c < 0:
			t.Errorf("seed %d: the window beats the whole-field optimum: %v < %v", seed, b, a)
		case c == 0:
			proven++
		default:
			t.Errorf("seed %d: windowed %v, whole field %v", seed, b, a)
		}
	}
	if compared < 20 {
		t.Errorf("%d of %d rounds reached the whole-field optimum through the walk or a window", proven, compared)
	}
	t.Logf("%d of %d rounds at the whole-field optimum", proven, compared)
}
