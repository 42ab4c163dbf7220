package service_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A festival's token acts in its own sections only (E-3): a section is in
// the festival, an event of no festival is not, an id of another kind is
// no section (no read), and an event that does not exist is not found.
func TestInFestival(t *testing.T) {
	svc, other, _ := newService(t)
	ctx := t.Context()
	f, _, err := svc.CreateFestival(ctx, "Spring Championship")
	if err != nil {
		t.Fatal(err)
	}
	organiser := func(*service.Festival) error { return nil }
	sec, err := svc.CreateEvent(ctx, service.NewEvent{Settings: tournament.Settings{Name: "Open", Rounds: 5}, Festival: f.ID, Auth: organiser})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, fid, tid string
		want           bool
	}{
		{"its section", f.ID, sec.T.ID, true},
		{"an event of no festival", f.ID, other, false},
		{"another festival's token", service.NewID('f'), sec.T.ID, false},
		{"an event's token, not a festival's", other, sec.T.ID, false},
		{"a game, not an event", f.ID, service.NewID('g'), false},
	} {
		if got, err := svc.InFestival(ctx, c.fid, c.tid); err != nil || got != c.want {
			t.Errorf("%s: %v %v, want %v", c.name, got, err, c.want)
		}
	}
	if _, err := svc.InFestival(ctx, f.ID, service.NewID('t')); err == nil {
		t.Error("an event that does not exist: no error")
	} else if kind, _ := refusal(t, err); kind != command.NotFound {
		t.Errorf("an event that does not exist: %v", err)
	}
}
