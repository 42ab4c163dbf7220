package tournament_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

func TestSettings_S1_S3_S4_OptionsDefaultsAndRefusals(t *testing.T) {
	reset := false
	tests := []struct {
		name  string
		s     tournament.Settings
		field string
	}{
		{"S1_UnknownNumbering", tournament.Settings{System: tournament.RoundRobin, Numbering: "alphabet"}, "numbering"},
		{"S1_NumberingOnAKnockout", tournament.Settings{System: tournament.Knockout, Numbering: tournament.NumberingDraw}, "numbering"},
		{"S1_NumberingOnATeamSwiss", tournament.Settings{System: tournament.Swiss, Rounds: 5, Teams: true, Boards: 4, Numbering: tournament.NumberingRating}, "numbering"},
		{"P3_UnknownSwissNumbering", tournament.Settings{System: tournament.Swiss, Rounds: 5, Numbering: "alphabet"}, "numbering"},
		{"S3_KnockoutOnASwiss", tournament.Settings{System: tournament.Swiss, Rounds: 5, Knockout: tournament.KnockoutOptions{ThirdPlace: true}}, "knockout"},
		{"S3_KnockoutOnARoundRobin", tournament.Settings{System: tournament.RoundRobin, Knockout: tournament.KnockoutOptions{TieBreak: "rapid-5/30"}}, "knockout"},
		{"S3_KnockoutOnSamePlaceFinals", tournament.Settings{System: tournament.Groups, Knockout: tournament.KnockoutOptions{TieBreak: "rapid-5/30"}}, "knockout"},
		{"S3_ThirdPlaceInDoubleElimination", tournament.Settings{System: tournament.DoubleElimination, Knockout: tournament.KnockoutOptions{ThirdPlace: true}}, "knockout.thirdPlace"},
		{"S3_ThirdPlaceInSwissKnockout", tournament.Settings{System: tournament.SwissKnockout, Rounds: 3, Knockout: tournament.KnockoutOptions{ThirdPlace: true}}, "knockout.thirdPlace"},
		{"S3_ResetInSingleElimination", tournament.Settings{System: tournament.Knockout, Knockout: tournament.KnockoutOptions{Reset: &reset}}, "knockout.reset"},
		{"S4_ThreeFinalists", tournament.Settings{System: tournament.SwissKnockout, Rounds: 3, Knockout: tournament.KnockoutOptions{Finalists: 3}}, "knockout.finalists"},
		{"S4_FinalistsInAKnockout", tournament.Settings{System: tournament.Knockout, Knockout: tournament.KnockoutOptions{Finalists: 4}}, "knockout.finalists"},
		{"S3_UnknownTieBreakPreset", tournament.Settings{System: tournament.Knockout, Knockout: tournament.KnockoutOptions{TieBreak: "rapid-1/1"}}, "knockout.tieBreak"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.s.Name = "x"
			err := tc.s.Normalize()
			var fe *tournament.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Rule == "" {
				t.Fatalf("got %v, want a FieldError on %s naming its rule", err, tc.field)
			}
		})
	}
	defaults := []struct {
		system    string
		numbering string
		reset     bool // want a Reset pointer to true
		finalists int
		tieBreak  string
	}{
		{tournament.RoundRobin, tournament.NumberingRegistration, false, 0, ""},
		{tournament.DoubleRoundRobin, tournament.NumberingRegistration, false, 0, ""},
		{tournament.Swiss, tournament.NumberingRating, false, 0, ""},
		{tournament.Knockout, "", false, 0, "rapid-10/40+5/30"},
		{tournament.DoubleElimination, "", true, 0, "rapid-10/40+5/30"},
		{tournament.SwissKnockout, tournament.NumberingRating, false, 2, "rapid-10/40+5/30"},
	}
	for _, d := range defaults {
		s := tournament.Settings{Name: "x", System: d.system, Rounds: 3}
		if d.system == tournament.RoundRobin || d.system == tournament.DoubleRoundRobin {
			s.Rounds = 0
		}
		if err := s.Normalize(); err != nil {
			t.Fatalf("%s: %v", d.system, err)
		}
		k := s.Knockout
		if s.Numbering != d.numbering || (k.Reset != nil) != d.reset || d.reset && !*k.Reset || k.Finalists != d.finalists || k.TieBreak != d.tieBreak || k.ThirdPlace {
			t.Errorf("%s defaults: numbering %q, knockout %+v", d.system, s.Numbering, k)
		}
	}
}

// rrField registers eight players whose ratings are not in registration
// order; p1 and p5 share a rating.
func rrField(t *testing.T, s tournament.Settings) (*tournament.Tournament, []*tournament.Player) {
	t.Helper()
	ev, err := tournament.New("t1", s, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var ps []*tournament.Player
	for i, r := range []int{1600, 2100, 1800, 2300, 1600, 2200, 1900, 2000} {
		p, err := ev.Register(tournament.Player{ID: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("P%d", i+1), Rating: r}, 0)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, &p)
	}
	return ev, ps
}

// pairs writes a round as "red-black" per table.
func pairs(r *tournament.Round) string {
	var out []string
	for _, p := range r.Pairings {
		out = append(out, p.Red+"-"+p.Black)
	}
	return strings.Join(out, " ")
}

// berger lays out the first two rounds of the 8-player round-robin table
// (S-1: R1 1-8 2-7 3-6 4-5, R2 8-5 6-4 7-3 1-2) for the players holding
// numbers 1…8.
func berger(order []string) [2]string {
	at := func(ns ...int) string {
		var out []string
		for i := 0; i < len(ns); i += 2 {
			out = append(out, order[ns[i]-1]+"-"+order[ns[i+1]-1])
		}
		return strings.Join(out, " ")
	}
	return [2]string{at(1, 8, 2, 7, 3, 6, 4, 5), at(8, 5, 6, 4, 7, 3, 1, 2)}
}

// S-1 numbers by seeding: rating order, equal ratings in registration order
// (p1 before p5); rounds 1 and 2 follow the Berger table for those numbers.
func TestPairNext_S1_NumberingByRating(t *testing.T) {
	ev, ps := rrField(t, tournament.Settings{Name: "x", System: tournament.RoundRobin, Numbering: tournament.NumberingRating})
	want := berger([]string{"p4", "p6", "p2", "p8", "p7", "p3", "p1", "p5"})
	var rounds []*tournament.Round
	var results []tournament.Result
	for n := range 2 {
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		if got := pairs(r); got != want[n] {
			t.Errorf("round %d: %s, want %s", n+1, got, want[n])
		}
		if ex := r.Explanations[0].Opponent; !strings.Contains(ex, "numbers by rating") {
			t.Errorf("round %d explanation %q does not say how numbers were given", n+1, ex)
		}
	}
}

// S-1 numbers by draw: the lot is SHA-256("numbering/" + tournament id) →
// PCG → Shuffle of the players in registration order, replayed here as an
// arbiter would; the numbers hold for round 2 and a retried round 1, and
// another event's lot differs.
func TestPairNext_S1_NumberingByDraw(t *testing.T) {
	s := tournament.Settings{Name: "x", System: tournament.RoundRobin, Numbering: tournament.NumberingDraw}
	ev, ps := rrField(t, s)
	sum := sha256.Sum256([]byte("numbering/t1"))
	order := []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"}
	rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16]))).
		Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	if slices.IsSorted(order) {
		t.Fatalf("the lot of t1 keeps registration order %v; pick another id", order)
	}
	want := berger(order)
	var rounds []*tournament.Round
	var results []tournament.Result
	r1 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	if got := pairs(r1); got != want[0] {
		t.Fatalf("round 1: %s, want %s (numbers %v)", got, want[0], order)
	}
	// A retry of round 1 (same history, the players listed in another order) draws the same.
	rev := slices.Clone(ps)
	slices.Reverse(rev)
	again, err := tournament.PairNext(&tournament.Tournament{ID: ev.ID, Settings: ev.Settings, Players: ev.Players}, tournament.NewHistory(rev, nil, nil), tournament.PairOptions{}, gid)
	if err != nil || pairs(again) != want[0] {
		t.Fatalf("retried round 1: %v %v, want %s", err, again, want[0])
	}
	r2 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	if got := pairs(r2); got != want[1] {
		t.Fatalf("round 2: %s, want %s (numbers %v)", got, want[1], order)
	}
	other := *ev
	other.ID = "t2"
	var ids []string
	for _, p := range tournament.RoundRobinOrder(&other, ps) {
		ids = append(ids, p.ID)
	}
	if slices.Equal(ids, order) {
		t.Errorf("events t1 and t2 drew the same numbers %v", ids)
	}
}

// S-1 multi-game matches in a round robin: with gamesPerMatch 2 each pairing
// of the table is a two-game match on two tables, the first game by the
// table's colours and the second with colours swapped; over the whole event
// every pair plays once with each colour.
func TestPairNext_S1_RoundRobinMultiGameMatches(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.RoundRobin, GamesPerMatch: 2}, 4)
	var rounds []*tournament.Round
	var results []tournament.Result
	colours := map[[2]string]int{}
	for n := 1; n <= 3; n++ {
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		if len(r.Pairings) != 4 {
			t.Fatalf("round %d: %d games, want 2 matches of 2", n, len(r.Pairings))
		}
		for i := 0; i < 4; i += 2 {
			g1, g2 := r.Pairings[i], r.Pairings[i+1]
			if g1.Match == "" || g1.Match != g2.Match || g1.Board != 1 || g2.Board != 2 || g1.Table != i+1 || g2.Table != i+2 {
				t.Fatalf("round %d match layout: %+v %+v", n, g1, g2)
			}
			if g2.Red != g1.Black || g2.Black != g1.Red || r.Explanations[i+1].ColourReason != "alternate" {
				t.Errorf("round %d: game 2 %+v does not swap the colours of game 1 %+v", n, g2, g1)
			}
			colours[[2]string{g1.Red, g1.Black}]++
			colours[[2]string{g2.Red, g2.Black}]++
		}
	}
	if len(colours) != 12 {
		t.Errorf("%d (red, black) pairs, want all 12 ordered pairs of 4 players once: %v", len(colours), colours)
	}
	if round4, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{}, gid); err == nil {
		t.Fatalf("a fourth round: %+v", round4)
	}
}

// pairUntilComplete pairs and decides every round until the event is complete.
func pairUntilComplete(t *testing.T, ev *tournament.Tournament, ps []*tournament.Player, decide func(p tournament.Pairing) string) []*tournament.Round {
	t.Helper()
	var rounds []*tournament.Round
	var results []tournament.Result
	for range 20 {
		h := tournament.NewHistory(ps, rounds, results)
		if add, ex, err := tournament.NextGames(ev, h, gid); err != nil || len(add) != len(ex) {
			t.Fatalf("next games: %v", err)
		} else if len(add) > 0 {
			r := rounds[len(rounds)-1]
			r.Pairings = append(r.Pairings, add...)
			r.Explanations = append(r.Explanations, ex...)
			for _, p := range add {
				results = append(results, tournament.Result{Round: r.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(decide(p))})
			}
			continue
		}
		r, err := tournament.PairNext(ev, h, tournament.PairOptions{}, gid)
		var re *tournament.RuleError
		if errors.As(err, &re) && re.Code == tournament.CodeEventComplete {
			return rounds
		}
		if err != nil {
			t.Fatalf("round %d: %v", ev.Round+1, err)
		}
		ev.Round = r.Number
		rounds = append(rounds, r)
		for _, p := range r.Pairings {
			results = append(results, tournament.Result{Round: r.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(decide(p))})
		}
	}
	t.Fatal("the event never completed")
	return nil
}

// smallerWins: the smaller id wins every game.
func smallerWins(p tournament.Pairing) string {
	if p.Red < p.Black {
		return "1-0"
	}
	return "0-1"
}

// S-3 single elimination with a third-place match: 4 players, semi-finals
// 1v4 and 2v3, then the final F (p1 v p2) and 3P (p3 v p4) in round 2.
func TestPairNext_S3_KnockoutThirdPlace(t *testing.T) {
	for _, third := range []bool{false, true} {
		ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Knockout, Knockout: tournament.KnockoutOptions{ThirdPlace: third}}, 4)
		rounds := pairUntilComplete(t, ev, ps, smallerWins)
		if len(rounds) != 2 {
			t.Fatalf("thirdPlace %v: %d rounds", third, len(rounds))
		}
		got := layout(rounds[1])
		want := 1
		if third {
			want = 2
			if !strings.Contains(got, "/3P:p3-p4") && !strings.Contains(got, "/3P:p4-p3") {
				t.Errorf("round 2 %q has no third-place match p3 v p4", got)
			}
		}
		if len(rounds[1].Pairings) != want || !strings.Contains(got, "/F:") {
			t.Errorf("thirdPlace %v: round 2 %q", third, got)
		}
	}
}

// S-3 double elimination: when the losers' champion wins the grand final,
// the reset plays a second one (round 5 of 4 players), unless the organiser
// turned the reset off.
func TestPairNext_S3_DoubleEliminationReset(t *testing.T) {
	// p1 wins everything but the first grand final.
	decide := func(p tournament.Pairing) string {
		if p.Match == "GF" {
			if p.Red == "p1" {
				return "0-1"
			}
			return "1-0"
		}
		return smallerWins(p)
	}
	off := false
	for _, tc := range []struct {
		reset  *bool
		rounds int
	}{{nil, 5}, {&off, 4}} {
		ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.DoubleElimination, Knockout: tournament.KnockoutOptions{Reset: tc.reset}}, 4)
		rounds := pairUntilComplete(t, ev, ps, decide)
		if len(rounds) != tc.rounds {
			var got []string
			for _, r := range rounds {
				got = append(got, layout(r))
			}
			t.Errorf("reset %v: %d rounds, want %d:\n%s", *ev.Settings.Knockout.Reset, len(rounds), tc.rounds, strings.Join(got, "\n"))
		}
	}
}

// S-4 Swiss then knockout with four finalists: after 3 Swiss rounds the
// top four of the standings play 1v4 and 2v3, then the final and the
// third-place match.
func TestPairNext_S4_SwissKnockoutFourFinalists(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.SwissKnockout, Rounds: 3, Knockout: tournament.KnockoutOptions{Finalists: 4}}, 7)
	rounds := pairUntilComplete(t, ev, ps, smallerWins)
	if len(rounds) != 5 {
		t.Fatalf("%d rounds, want 3 Swiss and 2 knockout", len(rounds))
	}
	var results []tournament.Result
	finishAll(rounds[:3], &results)
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds[:3], results))
	if err != nil {
		t.Fatal(err)
	}
	table, err := standings.Standings(sev, 3)
	if err != nil {
		t.Fatal(err)
	}
	top := func(i int) string { return table.Rows[i].PlayerID }
	semis := rounds[3]
	if len(semis.Pairings) != 2 {
		t.Fatalf("semi-finals: %s", layout(semis))
	}
	for _, pair := range [][2]string{{top(0), top(3)}, {top(1), top(2)}} {
		found := false
		for _, p := range semis.Pairings {
			found = found || p.Red == pair[0] && p.Black == pair[1] || p.Red == pair[1] && p.Black == pair[0]
		}
		if !found {
			t.Errorf("semi-finals %q lack %s v %s", layout(semis), pair[0], pair[1])
		}
	}
	if got := layout(rounds[4]); !strings.Contains(got, "/F:") || !strings.Contains(got, "/3P:") {
		t.Errorf("round 5 %q is not the final and the third-place match", got)
	}
}

// S-3 additional rapid games at the organiser's preset: a drawn one-game
// final is followed by rapid games at rapid-5/30.
func TestNextGames_S3_TieBreakPreset(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Knockout, Knockout: tournament.KnockoutOptions{TieBreak: "rapid-5/30"}}, 2)
	rounds := pairUntilComplete(t, ev, ps, func(p tournament.Pairing) string {
		if p.Board == 1 {
			return "1/2-1/2"
		}
		return smallerWins(p)
	})
	ps1 := rounds[0].Pairings
	if len(ps1) < 2 {
		t.Fatalf("the drawn final had no rapid game: %+v", ps1)
	}
	if c := tournament.GameControl(ev, ps1[1]); c.Name != "rapid-5/30" {
		t.Errorf("rapid game plays at %q, want rapid-5/30", c.Name)
	}
	if c := tournament.GameControl(ev, ps1[0]); c.Name == "rapid-5/30" {
		t.Errorf("the regular game plays at the tie-break preset")
	}
	if ex := rounds[0].Explanations[1].Opponent; !strings.Contains(ex, "rapid-5/30") {
		t.Errorf("explanation %q does not name the preset", ex)
	}
}

// S-6 with numbers by rating: a player withdrawn after round 1 of a
// 4-player round robin is not paired again, and the standings' input adds
// exactly the games the table still had for them, so every pair of players
// appears once — the numbering read by the pairing and by the standings is
// the same.
func TestStandingsEvent_S6_WithdrawalUnderRatingNumbers(t *testing.T) {
	ev, err := tournament.New("t1", tournament.Settings{Name: "x", System: tournament.RoundRobin, Numbering: tournament.NumberingRating}, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var ps []*tournament.Player
	for i, r := range []int{1500, 1600, 1700, 1800} { // p4 holds number 1
		p, err := ev.Register(tournament.Player{ID: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("P%d", i+1), Rating: r}, 0)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, &p)
	}
	var rounds []*tournament.Round
	var results []tournament.Result
	r1 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	if got := pairs(r1); got != "p4-p1 p3-p2" {
		t.Fatalf("round 1 %s, want p4-p1 p3-p2 (1-4, 2-3 in rating order)", got)
	}
	if err := ev.Withdraw(ps[1]); err != nil { // p2, number 3
		t.Fatal(err)
	}
	for range 2 {
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		if len(r.Pairings) != 1 || strings.Contains(pairs(r), "p2") {
			t.Fatalf("round %d pairs %s with p2 withdrawn", r.Number, pairs(r))
		}
	}
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
	if err != nil {
		t.Fatal(err)
	}
	met := map[string]int{}
	for _, g := range sev.Games {
		pair := []string{g.Red, g.Black}
		slices.Sort(pair)
		met[strings.Join(pair, "-")]++
	}
	if len(met) != 6 || len(sev.Games) != 6 {
		t.Fatalf("games %v, want each of the 6 pairs once", met)
	}
}

// An event stored before the options existed (zero values, never
// normalized again) reads with the defaults its pairing applies.
func TestSettings_S3_S4_OptionsInEffectForStoredEvents(t *testing.T) {
	for _, tc := range []struct {
		system, numbering string
		reset             bool
		finalists         int
		tieBreak          string
	}{
		{tournament.RoundRobin, tournament.NumberingRegistration, false, 0, ""},
		{tournament.Swiss, tournament.NumberingRegistration, false, 0, ""},
		{tournament.Knockout, "", false, 0, "rapid-10/40+5/30"},
		{tournament.DoubleElimination, "", true, 0, "rapid-10/40+5/30"},
		{tournament.SwissKnockout, tournament.NumberingRegistration, false, 2, "rapid-10/40+5/30"},
	} {
		s := tournament.Settings{System: tc.system}
		k := s.KnockoutInEffect()
		if s.NumberingInEffect() != tc.numbering || (k.Reset != nil && *k.Reset) != tc.reset || k.Finalists != tc.finalists || k.TieBreak != tc.tieBreak {
			t.Errorf("%s: numbering %q, knockout %+v", tc.system, s.NumberingInEffect(), k)
		}
	}
}
