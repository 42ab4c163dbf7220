package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// CatchUpRound is the catch-up round n of ev owes the event, an explicit
// command the writer side runs (a pairing asked again for its round, the
// round's start, a read of an event whose rounds grow as they are played —
// ReadRound): the latest round of a knockout grown by the games its matches
// now need (ExtendRound, S-3), the lineups due by the round's deadline drawn
// (DrawDueLineups, T-3), and the games of a round not known to have them
// made (EnsureGames: an interrupted pairing, a round just grown, a team
// round with matches still unset). It returns the round as it now is, and
// steady when there was nothing to do: its games exist and nothing was
// drawn, so what is read of it may be kept as a view. The writes are all
// conditional and deterministic (keyed game ids, drawn lineups a function
// of the event), so two catch-ups at once write the same items.
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
	// Once the round item says its games exist, nothing needs them read
	// (results come from the result items), so only a round whose games are
	// not known to exist pays for reading them. A draw above has ensured
	// them already.
	if len(drawn) > 0 {
		return r, false, nil
	}
	if !r.GamesReady {
		return r, false, s.EnsureGames(ctx, ev.T, r, ev.H, s.now(ctx))
	}
	return r, true, nil
}

// ReadRound is what a public read of round n of ev does: it returns the
// round as stored, and writes nothing — a Swiss round of 50,000 players
// is read by thousands of players at once, and a read that made or marked
// its games would write the event's key (the whole round, once) from a GET.
// A round's games are made by the pairing, and repaired by the writer side
// (the pairing asked again for round n, the round's start: CatchUpRound).
// The exceptions are the events whose rounds grow as they are played and
// whose growth nothing else triggers yet: a knockout's next and additional
// rapid games (S-3), after a game ends, and a team round's lineups drawn
// at their deadline (T-3); their reads still run CatchUpRound. steady says
// whether what is read may be kept as the round's view: its games are
// known to exist and the read changed nothing.
func (s *Service) ReadRound(ctx context.Context, ev *Event, n int) (r *tournament.Round, steady bool, err error) {
	if growsWhenRead(ev.T) {
		return s.CatchUpRound(ctx, ev, n)
	}
	if r = ev.Round(n); r == nil {
		return nil, false, command.NotFoundf("round %d of %s", n, ev.T.ID)
	}
	return r, r.GamesReady, nil
}

// growsWhenRead reports whether the event's rounds may gain games or
// lineups as they are played without a write of the organiser's (see
// ReadRound): a team event's, and any system with knockout matches or a
// ring; the Swiss and round-robin systems pair a round once, whole.
func growsWhenRead(t *tournament.Tournament) bool {
	switch t.Settings.System {
	case tournament.Swiss, tournament.RoundRobin, tournament.DoubleRoundRobin, tournament.SwissElimination, tournament.SwissNPlusOne:
		return t.Settings.Teams
	}
	return true
}
