package tournament_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/tournament"
)

// S-6: pause and resume in a Swiss; refused for a withdrawn player, twice,
// and in a round robin, whose table is fixed.
func TestPauseResume_S6(t *testing.T) {
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 4)
	code := func(err error) string {
		var re *tournament.RuleError
		if errors.As(err, &re) {
			return re.Code
		}
		return ""
	}
	if err := ev.Pause(ps[0]); err != nil || ps[0].Status != tournament.Paused {
		t.Fatalf("pause: %v %s", err, ps[0].Status)
	}
	if got := code(ev.Pause(ps[0])); got != "already_paused" {
		t.Errorf("second pause: %q", got)
	}
	if got := code(ev.Resume(ps[1])); got != "not_paused" {
		t.Errorf("resume of an active player: %q", got)
	}
	if err := ev.Resume(ps[0]); err != nil || ps[0].Status != tournament.Active {
		t.Fatalf("resume: %v %s", err, ps[0].Status)
	}
	if err := ev.Withdraw(ps[2]); err != nil {
		t.Fatal(err)
	}
	if got := code(ev.Pause(ps[2])); got != "already_withdrawn" {
		t.Errorf("pause of a withdrawn player: %q", got)
	}
	rr, rps := event(t, tournament.Settings{Name: "x", System: tournament.RoundRobin}, 4)
	if got := code(rr.Pause(rps[0])); got != "pause_unsupported" {
		t.Errorf("round-robin pause: %q", got)
	}
	team := &tournament.Tournament{Settings: tournament.Settings{System: tournament.Swiss, Teams: true}}
	if got := code(team.Pause(&tournament.Player{Status: tournament.Active})); got != "pause_unsupported" {
		t.Errorf("team-event pause: %q", got)
	}
}
