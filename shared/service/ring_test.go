package service_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A challenge event's ring (S-8) names its players: before any challenge
// the first entrant defends and holds it with the others waiting; while
// the first challenge is played nobody holds it; once the challenger wins,
// the challenger does, and the challenge says who held it before and after.
// An event of another system has no ring.
func TestRing(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Ring", System: tournament.ChallengeSystem})
	svc, tid, ctx := e.svc, e.tid, t.Context()
	var ids []string
	for _, name := range []string{"Holder", "C1", "C2"} {
		res, err := svc.Exec(ctx, tid, e.organiser, service.RegisterPlayer{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.(service.Registered).Player.ID)
	}
	ring := func() *service.Ring {
		t.Helper()
		r, err := svc.Ring(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	names := func(ps []*service.RingPlayer) (out []string) {
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	r := ring()
	if r.Defender == nil || r.Defender.ID != ids[0] || r.Defender.Name != "Holder" || r.Defender.Number != 1 ||
		r.Holder == nil || r.Holder.ID != ids[0] || len(r.Challenges) != 0 || len(r.Waiting) != 2 || r.Waiting[0].Name != "C1" || r.DefendingTeam != nil {
		t.Fatalf("before round 1: defender %+v holder %+v, %d challenges, waiting %v", r.Defender, r.Holder, len(r.Challenges), names(r.Waiting))
	}

	one := 1
	res, err := svc.Exec(ctx, tid, e.organiser, service.PairRound{Round: &one})
	if err != nil {
		t.Fatal(err)
	}
	p := res.(service.Paired)
	now := e.now().UnixMilli()
	if err := svc.EnsureGamesAfterCommit(ctx, p.Event.T, p.Round, p.Event.H, p.Stored, now); err != nil {
		t.Fatal(err)
	}
	if r = ring(); r.Holder != nil || len(r.Challenges) != 1 || r.Challenges[0].Challenger != ids[1] || len(r.Waiting) != 1 || r.Waiting[0].Name != "C2" {
		t.Fatalf("round 1 played: holder %+v, challenges %+v, waiting %v", r.Holder, r.Challenges, names(r.Waiting))
	}
	pr := p.Round.Pairings[0]
	won := "1-0"
	if pr.Black == ids[1] {
		won = "0-1"
	}
	arbiter := func(*games.Item) (game.Actor, error) { return game.Actor{Role: game.Arbiter}, nil }
	if _, err := svc.Games.Mutate(ctx, pr.GameID, now, arbiter, svc.OnGame(ctx, now, service.GameResult{Result: won, Reason: "resignation"})); err != nil {
		t.Fatal(err)
	}
	r = ring()
	if ch := r.Challenges[0]; r.Holder == nil || r.Holder.ID != ids[1] || ch.HolderBefore != ids[0] || ch.HolderAfter != ids[1] || ch.Result == result.None || ch.GameID != pr.GameID {
		t.Errorf("the challenger won: holder %+v, challenge %+v", r.Holder, ch)
	}

	other := newEvent(t, service.Options{}, tournament.Settings{Name: "Swiss", Rounds: 3})
	if _, err := other.svc.Ring(ctx, other.tid); err == nil {
		t.Error("a Swiss's ring: read, want refused")
	}
}
