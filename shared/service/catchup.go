package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// CatchUpRound is the catch-up a read of round n of ev owes the event,
// named as the command it is, since no background job runs: the latest
// round of a knockout grown by the games its matches now need
// (ExtendRound, S-3), the lineups due by the round's deadline drawn
// (DrawDueLineups, T-3), and the games of a round not known to have them
// made (EnsureGames: an interrupted pairing, a round just grown, a team
// round with matches still unset). It returns the round as it now is, and
// steady when there was nothing to do: its games exist and nothing was
// drawn, so what is read of it may be kept as a view. The writes are all
// conditional and deterministic (keyed game ids, drawn lineups a function
// of the event), so two reads catching up at once write the same items.
func (s *Service) CatchUpRound(ctx context.Context, ev *Event, n int) (r *tournament.Round, steady bool, err error) {
	if n == ev.T.Round {
		if err := s.ExtendRound(ctx, ev); err != nil {
			return nil, false, err
		}
	}
	drawn, err := s.DrawDueLineups(ctx, ev, []int{n})
	if err != nil {
		return nil, false, err
	}
	if r = ev.Round(n); r == nil {
		return nil, false, command.NotFoundf("round %d of %s", n, ev.T.ID)
	}
	// A public, polled read: once the round item says its games exist,
	// the view needs none of them (results come from the result items), so
	// only a round whose games are not known to exist pays for reading
	// them. A draw above has ensured them already.
	if len(drawn) > 0 {
		return r, false, nil
	}
	if !r.GamesReady {
		return r, false, s.EnsureGames(ctx, ev.T, r, ev.H, s.now(ctx))
	}
	return r, true, nil
}
