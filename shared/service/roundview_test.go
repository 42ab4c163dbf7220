package service_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
)

// decideGame records result on game gid as an arbiter over the board.
func decideGame(t *testing.T, e testEvent, gid, result string) {
	t.Helper()
	now := e.now().UnixMilli()
	arbiter := func(*games.Item) (game.Actor, error) { return game.Actor{Role: game.Arbiter}, nil }
	if _, err := e.svc.Games.Mutate(t.Context(), gid, now, arbiter, e.svc.OnGame(t.Context(), now, service.GameResult{Result: result})); err != nil {
		t.Fatal(err)
	}
}

// pairNext pairs round n through ExecPair, its games made.
func pairNext(t *testing.T, e testEvent, n int) service.Paired {
	t.Helper()
	res, err := e.svc.ExecPair(t.Context(), e.tid, e.organiser, service.PairRound{Round: &n}, e.now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	return res.(service.Paired)
}

// A round's view joins its pairings with the players' names and shown
// numbers and the results played; the bye is named with its explanation;
// explanations come only when asked for, and In renders them in a
// language, saying which, without touching the view it was given. The event's games are in round and table order
// over every round, or one round's; a round not yet paired is not found.
func TestRoundView(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "View Open", Rounds: 3})
	ctx := t.Context()
	for i := range 5 {
		if _, err := e.svc.Exec(ctx, e.tid, e.organiser, service.RegisterPlayer{Name: fmt.Sprintf("P%d", i+1), Rating: 2000 - 10*i}); err != nil {
			t.Fatal(err)
		}
	}
	p := pairNext(t, e, 1)
	decideGame(t, e, p.Round.Pairings[0].GameID, "1-0")
	ev, err := e.svc.Load(ctx, e.tid)
	if err != nil {
		t.Fatal(err)
	}
	now := e.now().UnixMilli()
	r, numbers := ev.Round(1), ev.Numbers()
	v := ev.RoundView(r, true, now)
	if v.Round != 1 || len(v.Pairings) != 2 || v.Started || v.Matches != nil || len(v.Byes) != 1 || v.Bye == nil || *v.Bye != r.Byes[0] {
		t.Fatalf("round view %+v", v)
	}
	for i, pv := range v.Pairings {
		pr := r.Pairings[i]
		if pv.Table != pr.Table || pv.RedName != ev.H.Player(pr.Red).Name || pv.BlackName != ev.H.Player(pr.Black).Name ||
			pv.RedNumber != numbers[pr.Red] || pv.BlackNumber == 0 || pv.GameID != pr.GameID || pv.Explanation == nil {
			t.Errorf("table %d: %+v for %+v", pr.Table, pv, pr)
		}
	}
	if res := v.Pairings[0].Result; res == nil || *res != "1-0" || v.Pairings[1].Result != nil {
		t.Errorf("results %v %v, want 1-0 on table 1 alone", v.Pairings[0].Result, v.Pairings[1].Result)
	}
	if v.ByeName == nil || *v.ByeName != ev.H.Player(r.Byes[0]).Name || v.ByeExplanation == nil || v.Language != "" {
		t.Errorf("bye %v named %v, explained %+v, language %q", v.Bye, v.ByeName, v.ByeExplanation, v.Language)
	}
	en, zh := v.In(tournament.English), v.In(tournament.Chinese)
	if en.Language != "en" || zh.Language != "zh" || en.Pairings[0].Explanation.Opponent == zh.Pairings[0].Explanation.Opponent || en.ByeExplanation == nil {
		t.Errorf("in English: language %q, %q (in Chinese %q)", en.Language, en.Pairings[0].Explanation.Opponent, zh.Pairings[0].Explanation.Opponent)
	}
	if v.Pairings[0].Explanation.Opponent == zh.Pairings[0].Explanation.Opponent {
		t.Errorf("In rendered the view it was given: %q", zh.Pairings[0].Explanation.Opponent)
	}
	if plain := ev.RoundView(r, false, now); plain.Pairings[0].Explanation != nil || plain.ByeExplanation != nil || plain.In(tournament.English).Language != "" {
		t.Errorf("unexplained view: %+v", plain)
	}

	decideGame(t, e, p.Round.Pairings[1].GameID, "0-1")
	pairNext(t, e, 2)
	if ev, err = e.svc.Load(ctx, e.tid); err != nil {
		t.Fatal(err)
	}
	all, err := ev.Games(0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range all {
		got = append(got, fmt.Sprintf("%d.%d", g.Round, g.Table))
	}
	if want := "[1.1 1.2 2.1 2.2]"; fmt.Sprint(got) != want {
		t.Errorf("games in order %v, want %s", got, want)
	}
	rows, err := ev.GameViews(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Round != 1 || rows[0].Result == nil || rows[1].Result == nil || *rows[1].Result != "0-1" || rows[1].BlackName == "" {
		t.Errorf("round 1's games %+v", rows)
	}
	var ce *command.Error
	if _, err := ev.Games(3); !errors.As(err, &ce) || ce.Kind != command.NotFound {
		t.Errorf("games of round 3, not paired: %v", err)
	}
}

// A team knockout's round view shows its match with the teams named, the
// scores once the boards are played and the tie's winner and what decided
// it (S-3); the teams' rosters are read in team-number order, members and
// substitutes apart and each player named, and an individual event has none.
func TestRoundView_TeamKnockout(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Cup", System: tournament.Knockout, Teams: true, Boards: 2})
	ctx := t.Context()
	var teams []service.TeamRegistered
	for i := range 2 {
		var members []tournament.Player
		for j := range 2 {
			members = append(members, tournament.Player{Name: fmt.Sprintf("T%d P%d", i+1, j+1), Rating: 2000 - 100*i - 10*j})
		}
		res, err := e.svc.Exec(ctx, e.tid, e.organiser, service.RegisterTeam{Name: fmt.Sprintf("Team %d", i+1), Members: members})
		if err != nil {
			t.Fatal(err)
		}
		teams = append(teams, res.(service.TeamRegistered))
	}
	if ro := teams[0].Roster(); ro.Name != "Team 1" || len(ro.Members) != 2 || ro.Members[1].Board != 2 || ro.Members[1].Name != "T1 P2" || len(ro.Substitutes) != 0 {
		t.Errorf("registered roster %+v", ro)
	}
	rosters, err := e.svc.TeamRosters(ctx, e.tid)
	if err != nil {
		t.Fatal(err)
	}
	if len(rosters) != 2 || rosters[0].Number != 1 || rosters[1].Name != "Team 2" || rosters[1].Members[0].Name != "T2 P1" || rosters[1].Members[0].Rating != 1900 {
		t.Errorf("rosters %+v", rosters)
	}

	p := pairNext(t, e, 1)
	if len(p.Round.Pairings) != 2 {
		t.Fatalf("round 1: %d boards", len(p.Round.Pairings))
	}
	v := p.Event.RoundView(p.Round, false, e.now().UnixMilli())
	if len(v.Matches) != 1 || v.Matches[0].HomeName == "" || v.Matches[0].AwayName == "" || !v.Matches[0].Set || v.Matches[0].HomeMatchPoints != nil || v.Matches[0].Tie == "" || v.Matches[0].Winner != "" {
		t.Fatalf("round 1 unplayed: %+v", v.Matches)
	}
	// The home team wins both boards.
	home := v.Matches[0].Home
	homeRoster := map[string]bool{}
	for _, tr := range teams {
		if tr.Team.ID == home {
			for _, id := range tr.Team.Roster {
				homeRoster[id] = true
			}
		}
	}
	for _, pr := range p.Round.Pairings {
		res := "0-1"
		if homeRoster[pr.Red] {
			res = "1-0"
		}
		decideGame(t, e, pr.GameID, res)
	}
	ev, err := e.svc.Load(ctx, e.tid)
	if err != nil {
		t.Fatal(err)
	}
	m := ev.RoundView(ev.Round(1), true, e.now().UnixMilli()).Matches[0]
	if m.HomeBoardPoints == nil || *m.HomeBoardPoints <= *m.AwayBoardPoints || m.Winner != home || m.WinnerName != m.HomeName || m.DecidedBy == "" || m.Explanation == nil {
		t.Errorf("round 1 played: %+v", m)
	}

	other := newEvent(t, service.Options{}, tournament.Settings{Name: "Solo", Rounds: 3})
	if none, err := other.svc.TeamRosters(ctx, other.tid); err != nil || none == nil || len(none) != 0 {
		t.Errorf("an individual event's teams: %v, %v", none, err)
	}
}

// RosterOf splits a roster into members and substitutes in board order,
// names whom it finds and shows a withdrawal's round.
func TestRosterOf(t *testing.T) {
	tm := &tournament.Team{ID: "m1", Number: 3, Name: "Club", Status: tournament.Withdrawn, WithdrawnAfter: 2, Roster: []string{"a", "b", "c"}, Substitutes: []string{"b"}}
	players := []*tournament.Player{{ID: "a", Name: "A", Rating: 1800, Club: "X"}, {ID: "b", Name: "B"}}
	ro := service.RosterOf(tm, service.PlayerByID(players))
	if ro.Withdrawn == nil || *ro.Withdrawn != 2 || ro.Status != string(tournament.Withdrawn) || len(ro.Members) != 2 || len(ro.Substitutes) != 1 {
		t.Fatalf("roster %+v", ro)
	}
	if a, c, b := ro.Members[0], ro.Members[1], ro.Substitutes[0]; a.Name != "A" || a.Club != "X" || a.Board != 1 || c.Name != "" || c.Board != 3 || b.Name != "B" || b.Board != 2 {
		t.Errorf("members %+v, substitutes %+v", ro.Members, ro.Substitutes)
	}
}
