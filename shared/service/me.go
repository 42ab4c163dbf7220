package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Me is what an event's token shows its holder (GET /me): the event, and
// by the holder's role where to go next — a player's current and next
// games (tournament.PlayerGames), an official's item and, for a scribe,
// the latest round its tables are in, a captain's team.
type Me struct {
	Event *Event
	// Player, Current and Next: a player's item and games (nil: none).
	Player        *tournament.Player
	Current, Next *tournament.PlayerGame
	// Official is an arbiter's, a chief arbiter's or a scribe's item;
	// Latest, for a scribe, the event's latest round (nil before round 1),
	// whose games at the scribe's tables (Official.Covers) are its own.
	Official *tournament.Official
	Latest   *tournament.Round
	// Team is a captain's team.
	Team *tournament.Team
}

// errGoneHolder: the token's player or team was removed after the token
// was checked (a removal racing the read).
var errGoneHolder = &command.Error{Kind: command.Unauthorized, Code: "unauthorized", Message: "unknown token"}

// Me reads what event token holder by sees of its event at the request's
// instant (WithNow). by is a caller the HTTP layer has proved; an event's
// organiser gets the event alone.
func (s *Service) Me(ctx context.Context, by Caller) (*Me, error) {
	ev, err := s.Load(ctx, by.Scope)
	if err != nil {
		return nil, err
	}
	me := &Me{Event: ev}
	switch by.Role {
	case Player:
		if me.Player = ev.H.Player(by.ID); me.Player == nil {
			return nil, errGoneHolder
		}
		me.Current, me.Next = tournament.PlayerGames(ev.H, by.ID, s.now(ctx))
	case Arbiter, ChiefArbiter, Scribe:
		if me.Official, _, err = s.Official(ctx, by.Scope, by.ID); err != nil {
			return nil, err
		}
		if by.Role == Scribe {
			me.Latest = ev.Round(ev.T.Round)
		}
	case Captain:
		te, err := ev.Teams()
		if err != nil {
			return nil, err
		}
		if me.Team = te.TH.Team(by.ID); me.Team == nil {
			return nil, errGoneHolder
		}
	}
	return me, nil
}
