package service_test

import (
	"context"
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The desk's list is every player by number with who is checked in for
// the round: a player withdrawn after checking in is not counted, one not
// yet checked in is listed unchecked; a player's own token may not read it.
func TestCheckInDesk(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Desk Open", Rounds: 3, CheckIn: true})
	var ids []string
	for _, name := range []string{"Wang", "Li", "Zhao"} {
		res, err := e.svc.Exec(t.Context(), e.tid, e.organiser, service.RegisterPlayer{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.(service.Registered).Player.ID)
	}
	for _, pid := range []string{ids[2], ids[0]} {
		if _, err := e.svc.Exec(t.Context(), e.tid, e.organiser, service.CheckIn{N: 1, Player: pid}); err != nil {
			t.Fatal(err)
		}
	}
	withdraw := service.PlayerStatus{Player: ids[2], Change: (*tournament.Tournament).Withdraw}
	if _, err := e.svc.Exec(t.Context(), e.tid, e.organiser, withdraw); err != nil {
		t.Fatal(err)
	}
	d, err := e.svc.CheckInDesk(t.Context(), e.tid, e.organiser, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Open || d.OpensAt != 0 || d.CheckedIn != 1 || len(d.Rows) != 3 {
		t.Fatalf("desk: open %v, opens %d, %d checked in, %d rows", d.Open, d.OpensAt, d.CheckedIn, len(d.Rows))
	}
	for i, want := range []struct {
		id string
		in bool
	}{{ids[0], true}, {ids[1], false}, {ids[2], false}} {
		if r := d.Rows[i]; r.Player.ID != want.id || r.Number != i+1 || r.CheckedIn != want.in {
			t.Errorf("row %d: %s no. %d checked in %v, want %s no. %d %v", i, r.Player.ID, r.Number, r.CheckedIn, want.id, i+1, want.in)
		}
	}
	player := func(context.Context, *tournament.Tournament) (service.Caller, error) {
		return service.Caller{Scope: e.tid, ID: ids[0], Role: service.Player}, nil
	}
	var ce *command.Error
	if _, err := e.svc.CheckInDesk(t.Context(), e.tid, player, 1); !errors.As(err, &ce) || ce.Kind != command.Forbidden {
		t.Errorf("a player reads the desk: %v", err)
	}
}
