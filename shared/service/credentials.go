package service

import (
	"context"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// TokenHolder is who a token "<scope>.<id>.<secret>" speaks for (O-1,
// E-3) and the hash its secret must match, read from the one item that
// holds it: an event's organiser (the event item), player, official or
// team captain, or a festival's organiser or official. A standalone
// game's seats are read with the game, by the caller that serves it. A
// holder that is gone, or never was, or a shape no item holds, is
// command.NotFound: the HTTP layer answers an unknown token.
func (s *Service) TokenHolder(ctx context.Context, scope, id string) (Caller, string, error) {
	switch {
	case strings.HasPrefix(scope, "t") && id == scope:
		t, _, err := s.Tournament(ctx, scope)
		if err != nil {
			return Caller{}, "", err
		}
		return Caller{Scope: scope, ID: id, Role: Organiser}, t.OrganiserTokenHash, nil
	case strings.HasPrefix(scope, "t") && strings.HasPrefix(id, "p"):
		p, _, err := s.Player(ctx, scope, id)
		if err != nil {
			return Caller{}, "", err
		}
		return Caller{Scope: scope, ID: id, Role: Player}, p.TokenHash, nil
	case strings.HasPrefix(scope, "t") && strings.HasPrefix(id, "o"):
		o, _, err := s.Official(ctx, scope, id)
		if err != nil {
			return Caller{}, "", err
		}
		return Caller{Scope: scope, ID: id, Role: o.Role, Tables: o.Tables}, o.TokenHash, nil
	case strings.HasPrefix(scope, "t") && strings.HasPrefix(id, "m"):
		tm, _, err := s.Team(ctx, scope, id)
		if err != nil {
			return Caller{}, "", err
		}
		return Caller{Scope: scope, ID: id, Role: Captain}, tm.CaptainTokenHash, nil
	case strings.HasPrefix(scope, "f"):
		f, err := s.Festival(ctx, scope)
		if err != nil {
			return Caller{}, "", err
		}
		if id == scope {
			return Caller{Scope: scope, ID: id, Role: Organiser}, f.TokenHash, nil
		}
		i := slices.IndexFunc(f.Officials, func(o tournament.Official) bool { return o.ID == id })
		if i < 0 {
			return Caller{}, "", command.NotFoundf("official %s", id)
		}
		o := f.Officials[i]
		return Caller{Scope: scope, ID: o.ID, Role: o.Role, Tables: o.Tables}, o.TokenHash, nil
	}
	return Caller{}, "", command.NotFoundf("the holder of a token of %s", scope)
}
