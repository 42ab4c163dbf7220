package service_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// gamesOf reads every game of round r's pairings, failing on one missing.
func gamesOf(t *testing.T, e testEvent, r *tournament.Round) map[string]string {
	t.Helper()
	var ids []string
	for _, p := range r.Pairings {
		ids = append(ids, p.GameID)
	}
	found, err := e.svc.GamesByID(t.Context(), ids)
	if err != nil {
		t.Fatal(err)
	}
	red := map[string]string{}
	for _, p := range r.Pairings {
		sg := found[p.GameID]
		if sg == nil {
			t.Fatalf("round %d table %d: game %s not made", r.Number, p.Table, p.GameID)
		}
		red[p.GameID] = sg.Link.Red
	}
	return red
}

// ExecPair pairs a round and makes its games; ExecChange rewrites the game
// of a table it changed; ExecStart starts the round and its games' clocks,
// and a second start is a conflict carrying the round.
func TestExecPairChangeStart(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Sequence Open", Rounds: 3})
	ctx := t.Context()
	for i := range 4 {
		if _, err := e.svc.Exec(ctx, e.tid, e.organiser, service.RegisterPlayer{Name: fmt.Sprintf("P%d", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
	p := pairNext(t, e, 1)
	if !p.Created || len(p.Round.Pairings) != 2 {
		t.Fatalf("paired %+v", p.Round)
	}
	gamesOf(t, e, p.Round)
	now := e.now().UnixMilli()

	ch, err := e.svc.ExecChange(ctx, e.tid, e.organiser, service.ChangeRound{N: 1, Change: tournament.Change{Action: "swapColours", Table: 1}}, now)
	if err != nil {
		t.Fatal(err)
	}
	before, after := p.Round.Pairings[0], ch.Round.Pairings[0]
	if after.Red != before.Black || after.GameID != before.GameID {
		t.Fatalf("table 1 swapped: %+v, was %+v", after, before)
	}
	if red := gamesOf(t, e, ch.Round)[after.GameID]; red != after.Red {
		t.Errorf("table 1's game has red %s, want %s (the swap)", red, after.Red)
	}

	st, err := e.svc.ExecStart(ctx, e.tid, e.organiser, 1, now)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Round.Started(now) {
		t.Errorf("round 1 not started: %+v", st.Round)
	}
	found, err := e.svc.RoundGames(ctx, st.Round)
	if err != nil {
		t.Fatal(err)
	}
	for id, sg := range found {
		if service.NeedsStart(sg, st.Round, now) {
			t.Errorf("game %s waits for its round's start", id)
		}
	}
	_, err = e.svc.ExecStart(ctx, e.tid, e.organiser, 1, now)
	var ce *command.Error
	if !errors.As(err, &ce) || ce.Kind != command.Conflict {
		t.Fatalf("second start: %v", err)
	}
	if cur, ok := ce.Current.(service.RoundOf); !ok || cur.Round.Number != 1 {
		t.Errorf("the conflict carries %+v", ce.Current)
	}
}

// ExecLineup sets a team round's lineups (the organiser's drawMissing
// draws both) and makes the board games of the match they set.
func TestExecLineup(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "League", Rounds: 3, Teams: true, Boards: 2, Substitutes: 1})
	ctx := t.Context()
	for i := range 2 {
		var members, subs []tournament.Player
		for j := range 3 {
			pl := tournament.Player{Name: fmt.Sprintf("T%d P%d", i+1, j+1), Rating: 2000 - 100*i - 10*j}
			if j < 2 {
				members = append(members, pl)
			} else {
				subs = append(subs, pl)
			}
		}
		if _, err := e.svc.Exec(ctx, e.tid, e.organiser, service.RegisterTeam{Name: fmt.Sprintf("Team %d", i+1), Members: members, Substitutes: subs}); err != nil {
			t.Fatal(err)
		}
	}
	p := pairNext(t, e, 1)
	if len(p.Round.Matches) != 1 || len(p.Round.Pairings) != 0 {
		t.Fatalf("round 1 before its lineups: %d matches, %d boards", len(p.Round.Matches), len(p.Round.Pairings))
	}
	cmd := &service.SubmitLineup{N: 1, DrawMissing: true}
	if err := e.svc.ExecLineup(ctx, e.tid, e.organiser, cmd, e.now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if len(cmd.Written)+len(cmd.Due) != 2 || len(cmd.Round.Pairings) != 2 || !tournament.MatchSet(cmd.Round, cmd.Round.Matches[0]) {
		t.Fatalf("lineups drawn: %d written, %d due, %d boards", len(cmd.Written), len(cmd.Due), len(cmd.Round.Pairings))
	}
	gamesOf(t, e, cmd.Round)
}
