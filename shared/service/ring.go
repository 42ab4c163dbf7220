package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/tournament"
)

// RingPlayer names a player of a challenge event's ring (S-8). Its JSON is
// the player as GET /tournaments/{tid}/ring shows it.
type RingPlayer struct {
	ID     string `json:"id"`
	Number int    `json:"number"`
	Name   string `json:"name"`
}

// Ring is a challenge event's ring (S-8, tournament.RingOf) with its
// players named: the first defender, the holder now (nil while a
// challenge is played), every challenge in order and the challengers
// waiting, in order; DefendingTeam, when a team holds the ring, its
// members in their order of defence (nil otherwise). A challenge names
// its players by id, each of them among these.
type Ring struct {
	Event            *Event
	Defender, Holder *RingPlayer
	Challenges       []tournament.Challenge
	Waiting          []*RingPlayer
	DefendingTeam    []*RingPlayer
}

// Ring reads the ring of challenge event tid; an event of another system
// has none (the core's refusal).
func (s *Service) Ring(ctx context.Context, tid string) (*Ring, error) {
	ev, err := s.Load(ctx, tid)
	if err != nil {
		return nil, err
	}
	ring, err := tournament.RingOf(ev.T, ev.H)
	if err != nil {
		return nil, err
	}
	person := func(id string) *RingPlayer {
		p := ev.H.Player(id)
		if p == nil {
			return nil
		}
		return &RingPlayer{ID: p.ID, Number: p.Number, Name: p.Name}
	}
	people := func(ids []string) []*RingPlayer {
		out := make([]*RingPlayer, len(ids))
		for i, id := range ids {
			out[i] = person(id)
		}
		return out
	}
	out := &Ring{Event: ev, Defender: person(ring.Defender), Holder: person(ring.Holder), Challenges: ring.Challenges, Waiting: people(ring.Waiting)}
	if ring.DefendingTeam != nil {
		out.DefendingTeam = people(ring.DefendingTeam)
	}
	return out, nil
}
