package service_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
)

// What a token shows its holder: a player its game of the round paired
// (the next until the round starts, then the current) against its
// opponent; a scribe the latest round; a removed player's token nothing;
// the organiser the event alone.
func TestMe(t *testing.T) {
	svc, tid, organiser := newService(t)
	var ids []string
	for _, name := range []string{"Wang", "Li"} {
		res, err := svc.Exec(t.Context(), tid, organiser, service.RegisterPlayer{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.(service.Registered).Player.ID)
	}
	res, err := svc.Exec(t.Context(), tid, organiser, service.AddOfficial{Role: service.Scribe, Name: "Chen", Tables: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	scribe := service.Caller{Scope: tid, ID: res.(service.Appointed).Official.ID, Role: service.Scribe}
	me, err := svc.Me(t.Context(), scribe)
	if err != nil || me.Official == nil || me.Official.Name != "Chen" || me.Latest != nil {
		t.Fatalf("scribe before round 1: %+v %v", me, err)
	}
	one := 1
	if _, err := svc.Exec(t.Context(), tid, organiser, service.PairRound{Round: &one}); err != nil {
		t.Fatal(err)
	}
	for i, pid := range ids {
		me, err := svc.Me(t.Context(), service.Caller{Scope: tid, ID: pid, Role: service.Player})
		if err != nil || me.Player == nil || me.Player.ID != pid {
			t.Fatalf("player %s: %+v %v", pid, me, err)
		}
		g := me.Current
		if g == nil {
			g = me.Next
		}
		if g == nil || g.Round.Number != 1 || g.Opponent != ids[1-i] || g.Black != (g.Pairing.Black == pid) {
			t.Errorf("player %s's game: %+v", pid, g)
		}
	}
	if me, err := svc.Me(t.Context(), scribe); err != nil || me.Latest == nil || me.Latest.Number != 1 {
		t.Errorf("scribe after round 1: %+v %v", me, err)
	}
	var ce *command.Error
	if _, err := svc.Me(t.Context(), service.Caller{Scope: tid, ID: service.NewID('p'), Role: service.Player}); !errors.As(err, &ce) || ce.Kind != command.Unauthorized {
		t.Errorf("a token of a player no longer there: %v", err)
	}
	me, err = svc.Me(t.Context(), service.Caller{Scope: tid, ID: tid, Role: service.Organiser})
	if err != nil || me.Event.T.ID != tid || me.Player != nil || me.Official != nil || me.Team != nil {
		t.Errorf("organiser: %+v %v", me, err)
	}
}

// A read of one round shows that round; of none, every round paired; a
// round not yet paired is not found, naming how far the event is.
func TestRoundsOf(t *testing.T) {
	svc, tid, organiser := newService(t)
	for _, name := range []string{"Wang", "Li"} {
		if _, err := svc.Exec(t.Context(), tid, organiser, service.RegisterPlayer{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	one := 1
	if _, err := svc.Exec(t.Context(), tid, organiser, service.PairRound{Round: &one}); err != nil {
		t.Fatal(err)
	}
	ev, err := svc.Load(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	for only, want := range map[int]int{0: 1, 1: 1} {
		if rs, err := ev.RoundsOf(only); err != nil || len(rs) != want || rs[0].Number != 1 {
			t.Errorf("RoundsOf(%d): %v %v", only, rs, err)
		}
	}
	var ce *command.Error
	if _, err := ev.RoundsOf(2); !errors.As(err, &ce) || ce.Kind != command.NotFound || ce.Message != "round 2 of "+tid+" (the event has paired 1) not found" {
		t.Errorf("RoundsOf(2): %v", err)
	}
}
