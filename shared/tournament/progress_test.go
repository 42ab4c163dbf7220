package tournament_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A round is paired until its start (or a result recorded early), started
// then, and finished once every table has its result.
func TestStateOf(t *testing.T) {
	players := []*tournament.Player{{ID: "p1", Number: 1, Status: tournament.Active}, {ID: "p2", Number: 2, Status: tournament.Active}}
	r := &tournament.Round{Number: 1, StartsAt: 1000, Pairings: []tournament.Pairing{{Table: 1, Red: "p1", Black: "p2", GameID: "g1"}}}
	h := tournament.NewHistory(players, []*tournament.Round{r}, nil)
	if got := tournament.StateOf(h, r, 999); got != tournament.RoundPaired {
		t.Errorf("before its start: %s", got)
	}
	if got := tournament.StateOf(h, r, 1000); got != tournament.RoundStarted {
		t.Errorf("at its start: %s", got)
	}
	done := tournament.NewHistory(players, []*tournament.Round{r}, []tournament.Result{{Round: 1, Table: 1, GameID: "g1", Red: "p1", Black: "p2", Result: result.RedWins}})
	if got := tournament.StateOf(done, r, 999); got != tournament.RoundFinished {
		t.Errorf("every result in: %s", got)
	}
	if !tournament.UnderWay(done, r, 0) {
		t.Error("a round with a result recorded is under way before its start")
	}
}

// C-6: a start more than a day before the pairing, or more than a year
// after, is a malformed startsAt.
func TestCheckRoundStart(t *testing.T) {
	const now = 1_800_000_000_000
	day := int64(tournament.RoundStartWindow)
	for _, c := range []struct {
		at int64
		ok bool
	}{{now, true}, {now - day, true}, {now - day - 1, false}, {now + 364*day, true}, {now + 367*day, false}} {
		err := tournament.CheckRoundStart(c.at, now)
		var fe *tournament.FieldError
		if c.ok != (err == nil) || (err != nil && (!errors.As(err, &fe) || fe.Field != "startsAt" || fe.Rule != "C-6")) {
			t.Errorf("start %d: %v", c.at-now, err)
		}
	}
}

// G-6: a standalone game's repetition is automatic by default, and the
// arbiters' ruling, which it has nobody to give, is refused.
func TestStandaloneRules(t *testing.T) {
	r, err := tournament.StandaloneRules(tournament.ChallengeControl(), tournament.Rules{}, false)
	if err != nil || r.Repetition != game.PerpetualCheckLoses {
		t.Errorf("default: %v, %v", r.Repetition, err)
	}
	_, err = tournament.StandaloneRules(tournament.ChallengeControl(), tournament.Rules{Rules: game.Rules{Repetition: game.ArbiterRuling}}, true)
	var fe *tournament.FieldError
	if !errors.As(err, &fe) || fe.Rule != "G-6" {
		t.Errorf("the ruling asked for: %v", err)
	}
	if c := tournament.ChallengeControl(); c.Name != "world" {
		t.Errorf("S-8's control is %q", c.Name)
	}
}

// S-8: a challenge ring that names no time control gets the world
// control; one that names a control, and any other system, keeps its own.
func TestEventControl(t *testing.T) {
	untimed, _ := clock.Preset("untimed")
	rapid, _ := clock.Preset("rapid-5/30")
	for _, c := range []struct {
		system string
		tc     clock.Control
		given  bool
		want   string
	}{
		{tournament.ChallengeSystem, untimed, false, "world"},
		{tournament.ChallengeSystem, rapid, true, "rapid-5/30"},
		{tournament.ChallengeSystem, untimed, true, "untimed"},
		{"swiss", untimed, false, "untimed"},
	} {
		if got := tournament.EventControl(c.system, c.tc, c.given).Name; got != c.want {
			t.Errorf("%s, %s given %v: %s, want %s", c.system, c.tc.Name, c.given, got, c.want)
		}
	}
}

// T-2, T-3: a captain sets their own team's lineup and draws nothing; the
// organiser names the team or draws the missing ones.
func TestLineupTeam(t *testing.T) {
	for _, c := range []struct {
		captain, named string
		draw           bool
		want, code     string
	}{
		{"m1", "", false, "m1", ""},
		{"m1", "m1", false, "m1", ""},
		{"m1", "m2", false, "", tournament.CodeForbidden},
		{"m1", "", true, "", tournament.CodeForbidden},
		{"", "m2", false, "m2", ""},
		{"", "", true, "", ""},
		{"", "", false, "", "invalid_field"},
	} {
		got, err := tournament.LineupTeam(c.captain, c.named, c.draw)
		code := ""
		var re *tournament.RuleError
		var fe *tournament.FieldError
		switch {
		case errors.As(err, &re):
			code = re.Code
		case errors.As(err, &fe):
			code = "invalid_field"
		}
		if got != c.want || code != c.code {
			t.Errorf("%+v: %q, %v", c, got, err)
		}
	}
}

// an individual event's clubs are its teams, in name order, with
// their players; a player of no club is in none.
func TestClubs(t *testing.T) {
	teams, members := tournament.Clubs([]*tournament.Player{{ID: "p1", Club: "Shanghai"}, {ID: "p2", Club: "Beijing"}, {ID: "p3"}, {ID: "p4", Club: "Shanghai"}})
	if len(teams) != 2 || teams[0].ID != "Beijing" || teams[0].Number != 1 || teams[1].Name != "Shanghai" || teams[1].Number != 2 {
		t.Errorf("teams %+v", teams)
	}
	if len(members["Shanghai"]) != 2 || members["Shanghai"][1] != "p4" || len(members) != 2 {
		t.Errorf("members %v", members)
	}
}
