package tournament_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// S-2: late-entry settings are a Swiss's only, name the field when wrong,
// and default to joining until the last round with missed rounds scoring zero.
func TestSettings_S2_LateEntries(t *testing.T) {
	tests := []struct {
		name  string
		s     tournament.Settings
		field string
	}{
		{"round robin", tournament.Settings{System: tournament.RoundRobin, LateEntries: tournament.LateEntries{MissedRounds: standings.MissedDraw}}, "lateEntries"},
		{"knockout", tournament.Settings{System: tournament.Knockout, LateEntries: tournament.LateEntries{UntilRound: 2}}, "lateEntries"},
		{"team swiss", tournament.Settings{System: tournament.Swiss, Rounds: 5, Teams: true, LateEntries: tournament.LateEntries{MissedRounds: standings.MissedZero}}, "lateEntries"},
		{"unknown score", tournament.Settings{System: tournament.Swiss, Rounds: 5, LateEntries: tournament.LateEntries{MissedRounds: "half"}}, "lateEntries.missedRounds"},
		{"past the last round", tournament.Settings{System: tournament.Swiss, Rounds: 5, LateEntries: tournament.LateEntries{UntilRound: 6}}, "lateEntries.untilRound"},
		{"negative round", tournament.Settings{System: tournament.Swiss, Rounds: 5, LateEntries: tournament.LateEntries{UntilRound: -1}}, "lateEntries.untilRound"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.Name = "x"
			var fe *tournament.FieldError
			if err := tt.s.Normalize(); !errors.As(err, &fe) || fe.Field != tt.field {
				t.Fatalf("got %v, want a FieldError naming %s", err, tt.field)
			}
		})
	}
	s := tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}
	if err := s.Normalize(); err != nil {
		t.Fatal(err)
	}
	if s.LateEntries != (tournament.LateEntries{MissedRounds: standings.MissedZero}) {
		t.Errorf("defaults: %+v", s.LateEntries)
	}
	rr := tournament.Settings{Name: "x", System: tournament.RoundRobin}
	if err := rr.Normalize(); err != nil || rr.LateEntries != (tournament.LateEntries{}) {
		t.Errorf("round robin without late entries: %v %+v", err, rr.LateEntries)
	}
}

// S-2: registration closes once round untilRound is paired.
func TestRegister_S2_LateEntriesUntilRound(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5, LateEntries: tournament.LateEntries{UntilRound: 2}}, 4)
	var rounds []*tournament.Round
	var results []tournament.Result
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	late, err := ev.Register(tournament.Player{ID: "late", Name: "Late"}, 0)
	if err != nil || late.JoinedRound != 2 {
		t.Fatalf("entry before round 2: %v %+v", err, late)
	}
	ps = append(ps, &late)
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	var re *tournament.RuleError
	if _, err := ev.Register(tournament.Player{ID: "later", Name: "Later"}, 0); !errors.As(err, &re) || re.Code != "registration_closed" || re.Rule != "S-2" {
		t.Fatalf("entry after round 2 is paired: %v", err)
	}
	// Without untilRound, entries close once the last round is paired.
	ev2, ps2 := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 1}, 4)
	var r2 []*tournament.Round
	var res2 []tournament.Result
	play(t, ev2, ps2, &r2, &res2, tournament.PairOptions{}, redWins)
	if _, err := ev2.Register(tournament.Player{ID: "later", Name: "Later"}, 0); !errors.As(err, &re) || re.Code != "registration_closed" {
		t.Fatalf("entry after the last round is paired: %v", err)
	}
}

// S-2, K-1: a late entrant joining before round 3 with missed rounds scored
// as draws enters round 3's pairing with two draws' points and has them in
// the standings, while a paused player's missed round still scores zero (S-6).
func TestLateEntrant_S2_MissedRoundsScoreAsDraws(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5, LateEntries: tournament.LateEntries{MissedRounds: standings.MissedDraw}}, 6)
	var rounds []*tournament.Round
	var results []tournament.Result
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	ps[5].Status = tournament.Paused
	play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, redWins)
	ps[5].Status = tournament.Active
	late, err := ev.Register(tournament.Player{ID: "late", Name: "Late"}, 0)
	if err != nil || late.JoinedRound != 3 {
		t.Fatalf("late entry: %v %+v", err, late)
	}
	ps = append(ps, &late)
	h := tournament.NewHistory(ps, rounds, results)
	in, err := tournament.SwissInput(ev, h, tournament.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	num := tournament.PairingNumbers(ev, ps)
	scores := map[int]int{}
	for _, p := range in.Players {
		scores[p.Number] = p.Score
	}
	if got := scores[num["late"]]; got != 2 {
		t.Errorf("late entrant's pairing score: %d, want 2 (two missed rounds as draws)", got)
	}
	pausedBefore := scores[num[ps[5].ID]]
	r3 := play(t, ev, ps, &rounds, &results, tournament.PairOptions{}, func(p tournament.Pairing) string {
		if p.Red == "late" || p.Black == "late" {
			return "1/2-1/2"
		}
		return "1-0"
	})
	var opp string
	for _, p := range r3.Pairings {
		switch "late" {
		case p.Red:
			opp = p.Black
		case p.Black:
			opp = p.Red
		}
	}
	if opp == "" {
		t.Fatalf("late entrant not paired in round 3: %+v", r3)
	}
	// The matching score group: the opponent had 2 points too.
	if got := scores[num[opp]]; got != 2 {
		t.Errorf("round 3 opponent %s had %d points, want 2 (the late entrant's score group)", opp, got)
	}
	sev, err := tournament.StandingsEvent(ev, tournament.NewHistory(ps, rounds, results))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := standings.Standings(sev, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows {
		switch row.PlayerID {
		case "late":
			if row.Points != 3 || row.Games != 1 || row.Draws != 1 || row.Byes != 0 {
				t.Errorf("late entrant after round 3: %+v, want 2 missed-draw points plus a drawn game", row)
			}
		case ps[5].ID:
			// Paused in round 2: that round scores nothing, in the standings
			// as in the pairing score (S-6).
			if row.Games+row.Byes != 2 || pausedBefore != row.Points-gained(r3, results, ps[5].ID) {
				t.Errorf("paused player: %+v (pairing score before round 3: %d)", row, pausedBefore)
			}
		}
	}
}

// gained is what a player scored in round r under K-1's default.
func gained(r *tournament.Round, results []tournament.Result, id string) int {
	for _, b := range r.Byes {
		if b == id {
			return 2
		}
	}
	for _, res := range results {
		if res.Round != r.Number || (res.Red != id && res.Black != id) {
			continue
		}
		switch {
		case res.Result == result.Draw:
			return 1
		case (res.Result == result.RedWins) == (res.Red == id):
			return 2
		}
	}
	return 0
}
