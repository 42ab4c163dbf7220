package tournament_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/tournament"
)

func event(t *testing.T, s tournament.Settings, n int) (*tournament.Tournament, []*tournament.Player) {
	t.Helper()
	ev, err := tournament.New("t1", s, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var ps []*tournament.Player
	for i := range n {
		p, err := ev.Register(tournament.Player{ID: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("P%d", i+1), Rating: 2000 - i}, 0)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, &p)
	}
	return ev, ps
}

func gid(round, table, game int) string { return fmt.Sprintf("g%d.%d.%d", round, table, game) }

// play pairs the next round and stores it; results holds what the test adds.
func play(t *testing.T, ev *tournament.Tournament, ps []*tournament.Player, rounds *[]*tournament.Round, results *[]tournament.Result, o tournament.PairOptions, decide func(p tournament.Pairing) string) *tournament.Round {
	t.Helper()
	r, err := tournament.PairNext(ev, tournament.NewHistory(ps, *rounds, *results), o, gid)
	if err != nil {
		t.Fatalf("round %d: %v", ev.Round+1, err)
	}
	ev.Round = r.Number
	*rounds = append(*rounds, r)
	for _, p := range r.Pairings {
		if res := decide(p); res != "" {
			*results = append(*results, tournament.Result{Round: r.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(res)})
		}
	}
	return r
}

func redWins(tournament.Pairing) string { return "1-0" }

// mustResult reads a test's result string; the tests write results as
// the API does.
func mustResult(s string) result.Result {
	r, err := result.Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}

func TestPairingNumbers_P3_SeedsTakeOddNumbers(t *testing.T) {
	ev := &tournament.Tournament{ID: "t1", Settings: tournament.Settings{System: tournament.Swiss, Numbering: tournament.NumberingRegistration}}
	ps := []*tournament.Player{
		{ID: "a", Number: 1, JoinedRound: 1},
		{ID: "b", Number: 2, Seeded: true, Rating: 2100, JoinedRound: 1},
		{ID: "c", Number: 3, JoinedRound: 1},
		{ID: "d", Number: 4, Seeded: true, Rating: 2300, JoinedRound: 1},
		{ID: "e", Number: 5, JoinedRound: 1},
		{ID: "f", Number: 6, JoinedRound: 1},
		{ID: "late", Number: 7, JoinedRound: 3},
	}
	got := tournament.PairingNumbers(ev, ps)
	want := map[string]int{"d": 1, "a": 2, "b": 3, "c": 4, "e": 5, "f": 6, "late": 7}
	for id, n := range want {
		if got[id] != n {
			t.Errorf("%s: number %d, want %d (all: %v)", id, got[id], n, got)
		}
	}
}

// TestPairingNumbers_P3_HalvesByRating: 002 appendix 3 §2.1 (然后分成人(队)数
// 相等的上、下两组 … 各组分别以抽签方式确定每个运动员的正式序号; 种子组抽1、3、5…
// 单数号，非种子组抽2、4、6…双数号) as settled for P-3: by default the field
// splits by rating into halves of equal size (a seeded player heads the
// upper half whatever the rating), each half draws its numbers by a lot
// replayable from the event id, the upper half the odd numbers. Seven
// players: the lower half is one larger and its last drawn player takes
// number 7, round 1's bye. An unrated player is rated last; a late entry
// follows.
func TestPairingNumbers_P3_HalvesByRating(t *testing.T) {
	ev, err := tournament.New("evt-42", tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 7}, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Settings.Numbering != tournament.NumberingRating {
		t.Fatalf("default numbering %q, want rating", ev.Settings.Numbering)
	}
	ratings := []int{1500, 2300, 0, 1900, 2100, 1700, 1600}
	var ps []*tournament.Player
	for i, r := range ratings {
		ps = append(ps, &tournament.Player{ID: fmt.Sprintf("p%d", i+1), Number: i + 1, Rating: r, JoinedRound: 1})
	}
	ps[0].Seeded = true // seeded on past results: upper half despite 1500
	ps = append(ps, &tournament.Player{ID: "late", Number: 8, Rating: 2500, JoinedRound: 3})
	got := tournament.PairingNumbers(ev, ps)
	upper := map[string]bool{"p1": true, "p2": true, "p5": true} // seed, then 2300, 2100; seven players: the lower half is one larger
	// Replay the lot by hand: the upper half in registration order, then
	// the lower half, shuffled by the generator SwissLot seeds.
	lot := rand.New(rand.NewPCG(tournament.SwissLot("evt-42")))
	up := []string{"p1", "p2", "p5"}
	low := []string{"p3", "p4", "p6", "p7"}
	lot.Shuffle(len(up), func(i, j int) { up[i], up[j] = up[j], up[i] })
	lot.Shuffle(len(low), func(i, j int) { low[i], low[j] = low[j], low[i] })
	want := map[string]int{"late": 8}
	for i, id := range up {
		want[id] = 2*i + 1
	}
	for i, id := range low {
		want[id] = min(2*i+2, 7) // the extra lower player: number 7, round 1's bye
	}
	for id, n := range want {
		if got[id] != n {
			t.Errorf("%s: number %d, want %d", id, got[id], n)
		}
		if id != "late" && n != 7 && upper[id] != (n%2 == 1) {
			t.Errorf("%s: number %d is in the wrong half", id, n)
		}
	}
	// Another event draws other lots, but the halves stay.
	other := *ev
	other.ID = "evt-43"
	again := tournament.PairingNumbers(&other, ps)
	for id := range upper {
		if again[id]%2 != 1 || again[id] == 7 {
			t.Errorf("%s: upper half, number %d", id, again[id])
		}
	}
}

// TestNumbering_P3_Options: an individual Swiss takes rating (default),
// draw or registration; other words are refused naming P-3.
func TestNumbering_P3_Options(t *testing.T) {
	for _, tc := range []struct{ in, want string }{{"", "rating"}, {"draw", "draw"}, {"registration", "registration"}} {
		ev, err := tournament.New("e", tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 7, Numbering: tc.in}, "", 0)
		if err != nil || ev.Settings.Numbering != tc.want {
			t.Errorf("numbering %q: got %v %v, want %q", tc.in, ev, err, tc.want)
		}
	}
	_, err := tournament.New("e", tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 7, Numbering: "lot"}, "", 0)
	var fe *tournament.FieldError
	if !errors.As(err, &fe) || fe.Rule != "P-3" || fe.Field != "numbering" {
		t.Errorf("unknown numbering: %v", err)
	}
	// Stored before the option existed: still registration order.
	old := tournament.Settings{System: tournament.Swiss}
	if got := old.NumberingInEffect(); got != tournament.NumberingRegistration {
		t.Errorf("stored event numbering %q, want registration", got)
	}
}

// P-12: an open game refuses the next round unless the organiser confirms;
// then it is listed and counts as a draw for the pairing.
func TestPairNext_P12_UnfinishedGames(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 6)
	var rounds []*tournament.Round
	var results []tournament.Result
	r1 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(p tournament.Pairing) string {
		if p.Table == 2 {
			return ""
		}
		return "1-0"
	})
	h := tournament.NewHistory(ps, rounds, results)
	_, err := tournament.PairNext(ev, h, tournament.PairOptions{}, gid)
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Rule != "P-12" || re.Code != tournament.CodeUnfinishedGames {
		t.Fatalf("got %v, want a P-12 refusal", err)
	}
	r2, err := tournament.PairNext(ev, h, tournament.PairOptions{UnfinishedAsDraws: true}, gid)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r2.UnfinishedAsDraws, []string{r1.Pairings[1].GameID}) {
		t.Fatalf("unfinished %v", r2.UnfinishedAsDraws)
	}
	// Table 2's players (1 point each as a draw) form the middle group, between
	// the winners (2) and the losers (0); neither meets their round-1 opponent.
	for _, p := range r2.Pairings {
		for _, q := range r1.Pairings {
			if p.Red == q.Red && p.Black == q.Black || p.Red == q.Black && p.Black == q.Red {
				t.Errorf("rematch %v (P-5)", p)
			}
		}
	}
	if len(r2.Explanations) != len(r2.Pairings) {
		t.Fatalf("%d explanations for %d pairings", len(r2.Explanations), len(r2.Pairings))
	}
}

// Withdrawn and paused players are not paired; late entries join from their round (S-6).
func TestPairNext_S6_WithdrawnPausedLate(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 6)
	var rounds []*tournament.Round
	var results []tournament.Result
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	if err := ev.Withdraw(ps[0]); err != nil {
		t.Fatal(err)
	}
	ps[1].Status = tournament.Paused
	late, err := ev.Register(tournament.Player{ID: "late", Name: "Late"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ps = append(ps, &late)
	r2 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	in := map[string]bool{}
	for _, p := range r2.Pairings {
		in[p.Red], in[p.Black] = true, true
	}
	for _, id := range r2.Byes {
		in[id] = true
	}
	// Four players left and the late entry: two tables and a bye (S-7).
	if in["p1"] || in["p2"] || !in["late"] || len(r2.Pairings) != 2 || len(r2.Byes) != 1 {
		t.Fatalf("round 2: %+v", r2)
	}
}

func TestPairNext_RoundRobinOddFieldRests_S7(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.DoubleRoundRobin}, 3)
	var rounds []*tournament.Round
	var results []tournament.Result
	rests := map[string]int{}
	for range 6 {
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
		if len(r.Pairings) != 1 || len(r.Byes) != 1 {
			t.Fatalf("round %d: %+v", r.Number, r)
		}
		rests[r.Byes[0]]++
	}
	for _, p := range ps {
		if rests[p.ID] != 2 {
			t.Errorf("%s rests %d times in a double round robin of 3, want 2", p.ID, rests[p.ID])
		}
	}
	_, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{}, gid)
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Code != tournament.CodeEventComplete {
		t.Fatalf("seventh round: %v", err)
	}
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
	if err != nil || len(sev.Games) != 6 || len(sev.Byes) != 6 || sev.Rounds != 6 {
		t.Fatalf("standings input: %v %+v", err, sev)
	}
}

// S-3: a two-game knockout match: the first game's colours by lot, the
// second game appears once the first has a result, with colours swapped; a
// level match gets additional rapid games until decided; then the final.
func TestPairNext_KnockoutTwoGameMatches(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Knockout, GamesPerMatch: 2}, 4)
	var rounds []*tournament.Round
	var results []tournament.Result
	next := func(round *tournament.Round, decide func(p tournament.Pairing) string) []tournament.Pairing {
		t.Helper()
		add, ex, err := tournament.NextGames(ev, tournament.NewHistory(ps, rounds, results), gid)
		if err != nil || len(add) != len(ex) {
			t.Fatalf("next games: %v (%d games, %d explanations)", err, len(add), len(ex))
		}
		round.Pairings = append(round.Pairings, add...)
		round.Explanations = append(round.Explanations, ex...)
		for _, p := range add {
			results = append(results, tournament.Result{Round: round.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(decide(p))})
		}
		return add
	}
	// The better seed (smaller id) wins every game, except that the match
	// of p2 and p3 has both regular games drawn and p3 wins the first rapid game.
	decide := func(p tournament.Pairing) string {
		level := p.Match == "R1-2"
		switch {
		case level && p.Board <= 2:
			return "1/2-1/2"
		case level && p.Red == "p3" || !level && p.Red < p.Black:
			return "1-0"
		}
		return "0-1"
	}
	r1 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, decide)
	if len(r1.Pairings) != 2 || r1.Pairings[0].Match == r1.Pairings[1].Match || r1.Pairings[0].Board != 1 {
		t.Fatalf("round 1 opens with one game per match: %+v", r1.Pairings)
	}
	h := func() *tournament.History { return tournament.NewHistory(ps, rounds, results) }
	_, err := tournament.PairNext(ev, h(), tournament.PairOptions{}, gid)
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Code != tournament.CodeRoundUnfinished {
		t.Fatalf("pairing before the second games: %v", err)
	}
	second := next(r1, decide)
	if len(second) != 2 || second[0].Board != 2 || second[0].Red != r1.Pairings[0].Black || second[0].Table != 3 {
		t.Fatalf("second games (colours alternate): %+v", second)
	}
	if c := tournament.GameControl(ev, second[0]); c.Name != ev.Settings.TimeControl.Name {
		t.Errorf("a regular game plays at %q", c.Name)
	}
	_, err = tournament.PairNext(ev, h(), tournament.PairOptions{}, gid)
	if !errors.As(err, &re) || re.Code != tournament.CodeMatchUndecided {
		t.Fatalf("level match: %v", err)
	}
	rapid := next(r1, decide)
	if len(rapid) != 1 || rapid[0].Match != "R1-2" || rapid[0].Board != 3 || tournament.GameControl(ev, rapid[0]).Name != "rapid-10/40+5/30" {
		t.Fatalf("additional rapid game: %+v", rapid)
	}
	// p3 won rapid game 3; game 4 of the two-game mini-match still decides nothing yet.
	rapid2 := next(r1, func(tournament.Pairing) string { return "1/2-1/2" })
	if len(rapid2) != 1 || rapid2[0].Board != 4 {
		t.Fatalf("second rapid game: %+v", rapid2)
	}
	if more := next(r1, decide); len(more) != 0 {
		t.Fatalf("games after the decision: %+v", more)
	}
	r2 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(tournament.Pairing) string { return "" })
	final := []string{r2.Pairings[0].Red, r2.Pairings[0].Black}
	slices.Sort(final)
	if !slices.Equal(final, []string{"p1", "p3"}) {
		t.Fatalf("final %v, want p1 and p3", final)
	}
}

func swissRound() *tournament.Round {
	return &tournament.Round{Number: 1,
		Pairings: []tournament.Pairing{{Table: 1, Red: "a", Black: "b"}, {Table: 2, Red: "c", Black: "d"}},
		Byes:     []string{"e"},
		Explanations: []tournament.Explanation{{OpponentReason: "firstRound"}, {OpponentReason: "firstRound"},
			{OpponentReason: tournament.ReasonBye}},
	}
}

func TestRoundApply(t *testing.T) {
	cases := []struct {
		name    string
		ch      tournament.Change
		pairs   [][2]string
		bye     string
		touched []int
	}{
		{"swap", tournament.Change{Action: tournament.ChangeSwapColours, Table: 2}, [][2]string{{"a", "b"}, {"d", "c"}}, "e", []int{2}},
		{"pair across tables", tournament.Change{Action: tournament.ChangePair, Red: "a", Black: "d"}, [][2]string{{"a", "d"}, {"c", "b"}}, "e", []int{1, 2}},
		{"pair with the bye", tournament.Change{Action: tournament.ChangePair, Red: "e", Black: "b"}, [][2]string{{"e", "b"}, {"c", "d"}}, "a", []int{1}},
		{"same table recoloured", tournament.Change{Action: tournament.ChangePair, Red: "b", Black: "a"}, [][2]string{{"b", "a"}, {"c", "d"}}, "e", []int{1}},
		{"move the bye", tournament.Change{Action: tournament.ChangeBye, Player: "d"}, [][2]string{{"a", "b"}, {"c", "e"}}, "d", []int{2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := swissRound()
			touched, err := r.Apply(tc.ch, "org", 5)
			if err != nil {
				t.Fatal(err)
			}
			var got [][2]string
			for _, p := range r.Pairings {
				got = append(got, [2]string{p.Red, p.Black})
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.pairs) || r.Byes[0] != tc.bye || !slices.Equal(touched, tc.touched) {
				t.Fatalf("got %v bye %s touched %v, want %v bye %s touched %v", got, r.Byes[0], touched, tc.pairs, tc.bye, tc.touched)
			}
			if len(r.Audit) != 1 || r.Audit[0].By != "org" || r.Audit[0].At != 5 || r.Audit[0].Action != tc.ch.Action {
				t.Fatalf("audit %+v", r.Audit)
			}
			if r.Explanations[touched[0]-1].OpponentReason != "manual" {
				t.Fatalf("explanation of a changed table: %+v", r.Explanations)
			}
		})
	}
	for _, ch := range []tournament.Change{
		{Action: tournament.ChangeSwapColours, Table: 9},
		{Action: tournament.ChangePair, Red: "a", Black: "a"},
		{Action: tournament.ChangePair, Red: "a", Black: "zz"},
		{Action: tournament.ChangeBye, Player: "e"},
		{Action: "shuffle"},
	} {
		r := swissRound()
		if _, err := r.Apply(ch, "org", 5); err == nil {
			t.Errorf("%+v accepted", ch)
		}
		if len(r.Audit) != 0 || r.Pairings[0].Red != "a" {
			t.Errorf("%+v: a refused change altered the round", ch)
		}
	}
}

// finishAll decides every open game: the smaller id wins.
func finishAll(rounds []*tournament.Round, results *[]tournament.Result) {
	done := map[[2]int]bool{}
	for _, r := range *results {
		done[[2]int{r.Round, r.Table}] = true
	}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if done[[2]int{r.Number, p.Table}] {
				continue
			}
			res := "1-0"
			if p.Black < p.Red {
				res = "0-1"
			}
			*results = append(*results, tournament.Result{Round: r.Number, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(res)})
		}
	}
}

// S-4: three Swiss rounds, then 1st v 2nd for the title and 3rd v 4th for
// bronze, drawn from the standings; then the event is complete.
func TestPairNext_SwissKnockout_S4(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.SwissKnockout, Rounds: 3}, 6)
	var rounds []*tournament.Round
	var results []tournament.Result
	none := func(tournament.Pairing) string { return "" }
	for range 3 {
		r := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, none)
		if len(r.Pairings) != 3 || r.Pairings[0].Match != "" {
			t.Fatalf("Swiss round %d: %+v", r.Number, r.Pairings)
		}
		finishAll(rounds, &results)
	}
	r4 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, none)
	if len(r4.Pairings) != 2 || r4.Pairings[0].Match != "P1-2" || r4.Pairings[1].Match != "P3-4" {
		t.Fatalf("knockout stage: %+v", r4.Pairings)
	}
	// p1 beat everyone it met; it is in the title match.
	if r4.Pairings[0].Red != "p1" && r4.Pairings[0].Black != "p1" {
		t.Errorf("title match %+v without the leader p1", r4.Pairings[0])
	}
	finishAll(rounds, &results)
	_, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{}, gid)
	var re *tournament.RuleError
	if !errors.As(err, &re) || re.Code != tournament.CodeEventComplete {
		t.Fatalf("after the placing matches: %v", err)
	}
}

// S-4 N+1: after N = 3 rounds the top two meet on table 1 although they may
// have met; the other four are paired by the Swiss on tables 2 and 3.
func TestPairNext_NPlusOne_S4(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.SwissNPlusOne, Rounds: 4}, 7)
	var rounds []*tournament.Round
	var results []tournament.Result
	none := func(tournament.Pairing) string { return "" }
	for range 3 {
		play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, none)
		finishAll(rounds, &results)
	}
	r4 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, none)
	if len(r4.Pairings) != 3 || len(r4.Byes) != 1 || r4.Explanations[0].OpponentReason != "nPlusOneFinal" {
		t.Fatalf("round N+1: %+v", r4)
	}
	final := []string{r4.Pairings[0].Red, r4.Pairings[0].Black}
	if !slices.Contains(final, "p1") {
		t.Errorf("final %v without the leader p1", final)
	}
	tables := map[int]bool{}
	for _, p := range r4.Pairings {
		if tables[p.Table] {
			t.Fatalf("table %d twice: %+v", p.Table, r4.Pairings)
		}
		tables[p.Table] = true
	}
	finishAll(rounds, &results)
	if _, err := tournament.PairNext(ev, tournament.NewHistory(ps, rounds, results), tournament.PairOptions{}, gid); err == nil {
		t.Fatal("a fifth round of a 3+1 event was paired")
	}
}

// A simulated 21-player Swiss of 7 rounds with random results, a late entry,
// a withdrawal, a pause and an open game carried over (P-12): every round the
// engine is given by SwissInput passes the pairing checker, and PairNext
// stores exactly that round.
func TestSwissSimulation_CheckerPassesEveryRound(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "sim", System: tournament.Swiss, Rounds: 7}, 20)
	rng := rand.New(rand.NewPCG(7, 11))
	var rounds []*tournament.Round
	var results []tournament.Result
	open := map[[2]int]tournament.Pairing{}
	for n := 1; n <= 7; n++ {
		switch n {
		case 2:
			late, err := ev.Register(tournament.Player{ID: "late", Name: "Late"}, 0)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, &late)
		case 4:
			if err := ev.Withdraw(ps[3]); err != nil {
				t.Fatal(err)
			}
		case 5:
			ps[7].Status = tournament.Paused
		case 6:
			ps[7].Status = tournament.Active
		}
		h := tournament.NewHistory(ps, rounds, results)
		o := tournament.PairOptions{UnfinishedAsDraws: true}
		in, err := tournament.SwissInput(ev, h, o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := swiss.Pair(in)
		if err != nil {
			t.Fatalf("round %d: %v", n, err)
		}
		if v := checker.Check(in, want); len(v) > 0 {
			t.Fatalf("round %d: %v", n, v)
		}
		r := play(t, ev, ps, &rounds, &results, o, func(tournament.Pairing) string { return "" })
		if len(r.Pairings) != len(want.Boards) {
			t.Fatalf("round %d: PairNext made %d boards, the engine %d", n, len(r.Pairings), len(want.Boards))
		}
		// Finish earlier open games, then this round's, leaving one open on odd rounds.
		for k, p := range open {
			results = append(results, tournament.Result{Round: k[0], Table: k[1], GameID: p.GameID, Red: p.Red, Black: p.Black, Result: result.BlackWins})
			delete(open, k)
		}
		for _, p := range r.Pairings {
			if n%2 == 1 && p.Table == 1 {
				open[[2]int{n, p.Table}] = p
				continue
			}
			res := [...]string{"1-0", "0-1", "1/2-1/2"}[rng.IntN(3)]
			results = append(results, tournament.Result{Round: n, Table: p.Table, GameID: p.GameID, Red: p.Red, Black: p.Black, Result: mustResult(res)})
		}
	}
}
