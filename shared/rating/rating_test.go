package rating_test

import (
	"errors"
	"math"
	"testing"

	"github.com/xqtour/xqtour/shared/rating"
)

// The hand-worked example (L-1): a four-player round robin, A 2400, B 2200,
// C 1900 and D unrated.
//
//	R1 A–D 1-0, B–C ½-½;  R2 A–C 1-0, D–B 0-1;  R3 A–B ½-½, C–D 1-0
//
// By default games against the unrated D count for no one. The expected
// scores (differences capped at 400):
//
//	A: v C d=−500→−400, E=1/(1+10^−1)=0.90909, won: 10×(1−0.90909)=+0.90909
//	   v B d=−200, E=1/(1+10^−0.5)=0.75975, drew: 10×(0.5−0.75975)=−2.59747 → −1.68838 → −2
//	B: v C d=−300, E=0.84902, drew: 20×(0.5−0.84902)=−6.98040
//	   v A d=+200, E=0.24025, drew: 20×(0.5−0.24025)=+5.19494 → −1.78546 → −2
//	C: v B d=+300, E=0.15098, drew: 30×(0.5−0.15098)=+10.47060
//	   v A d=+400, E=0.09091, lost: 30×(0−0.09091)=−2.72727 → +7.74333 → +8
//	D: three rated opponents, three losses: with minGames 3 a first rating of
//	   avg(2400, 2200, 1900)=2167 + 400×(0−3)/3 = 1767; with the default 5, none.
var example = struct {
	players []rating.Player
	games   []rating.Game
}{
	players: []rating.Player{{"A", 2400}, {"B", 2200}, {"C", 1900}, {"D", 0}},
	games: []rating.Game{
		{"A", "D", 2}, {"B", "C", 1},
		{"A", "C", 2}, {"D", "B", 0},
		{"A", "B", 1}, {"C", "D", 2},
	},
}

func TestReport_L1_HandWorked(t *testing.T) {
	p := rating.Defaults()
	got, err := rating.Report(p, example.players, example.games)
	if err != nil {
		t.Fatal(err)
	}
	want := []rating.Line{
		{ID: "A", Old: 2400, New: 2398, Games: 2, Halves: 3, Expected: 1.67, K: 10, Change: -2, OpponentAverage: 2050},
		{ID: "B", Old: 2200, New: 2198, Games: 2, Halves: 2, Expected: 1.09, K: 20, Change: -2, OpponentAverage: 2150},
		{ID: "C", Old: 1900, New: 1908, Games: 2, Halves: 1, Expected: 0.24, K: 30, Change: 8, OpponentAverage: 2300},
		{ID: "D", Old: 0, New: 0, Games: 3, Halves: 0, OpponentAverage: 2167},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	p.MinGames = 3
	got, _ = rating.Report(p, example.players, example.games)
	if d := got[3]; d.New != 1767 || !d.First {
		t.Errorf("D with minGames 3: %+v, want a first rating of 1767", d)
	}
}

// With an initial rating of 1500 the unrated D counts like any rated
// player, for its opponents and for itself (K 30):
//
//	A v D d=−900→−400, E=0.90909, won: +0.90909; total −0.77929 → −1
//	B v D likewise K 20: +1.81818; total +0.03272 → 0
//	C v D d=−400: +2.72727; total +10.47060 → +10
//	D three losses, each E=0.09091: 3×30×(0−0.09091)=−8.18182 → −8: 1492
func TestReport_L1_InitialRating(t *testing.T) {
	p := rating.Defaults()
	p.InitialRating = 1500
	got, err := rating.Report(p, example.players, example.games)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ new, change int }{{2399, -1}, {2200, 0}, {1910, 10}, {1492, -8}} {
		if got[i].New != want.new || got[i].Change != want.change {
			t.Errorf("%s: new %d change %d, want %d %+d", got[i].ID, got[i].New, got[i].Change, want.new, want.change)
		}
	}
	if !got[3].First || got[3].K != 30 || got[3].Old != 0 {
		t.Errorf("D: %+v, want a first rating with K 30", got[3])
	}
}

func TestParams_Validate(t *testing.T) {
	for name, p := range map[string]rating.Params{
		"no bands":      {MinGames: 5, MaxDiff: 400},
		"closed last":   {Bands: []rating.Band{{Below: 2000, K: 20}}, MinGames: 5, MaxDiff: 400},
		"falling bands": {Bands: []rating.Band{{Below: 2400, K: 20}, {Below: 2000, K: 30}, {K: 10}}, MinGames: 5, MaxDiff: 400},
		"K zero":        {Bands: []rating.Band{{K: 0}}, MinGames: 5, MaxDiff: 400},
		"minGames 0":    {Bands: []rating.Band{{K: 20}}, MaxDiff: 400},
		"maxDiff 50":    {Bands: []rating.Band{{K: 20}}, MinGames: 5, MaxDiff: 50},
	} {
		if err := p.Validate(); !errors.Is(err, rating.ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	if err := rating.Defaults().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// The expected score is symmetric and capped.
func TestParams_Expected(t *testing.T) {
	p := rating.Defaults()
	for _, d := range []int{0, 50, 200, 399, 400, 800} {
		if s := p.Expected(2000, 2000+d) + p.Expected(2000+d, 2000); math.Abs(s-1) > 1e-12 {
			t.Errorf("d=%d: E+E' = %v", d, s)
		}
	}
	if p.Expected(1000, 2000) != p.Expected(1000, 1400) {
		t.Error("a difference over MaxDiff is not capped")
	}
}
