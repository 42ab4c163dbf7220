package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// CatchUpRound is the catch-up round n of ev owes the event, an explicit
// command of the writer side, never of a read: the work due on a round
// (due.go) — after a game of an event whose rounds grow as played ends
// (GameEnded at once, RunDue when that failed), at a team round's lineup
// deadline (RunDue; CompleteDue after a start). It grows the latest round
// of a knockout by the games its matches now need (ExtendRound, S-3), draws
// the lineups due by the round's deadline (DrawDueLineups, T-3), and makes
// the games of a round not known to have them (EnsureGames: a round just
// grown, an interrupted pairing, a team round with matches still unset).
// It returns the round as it now is, and steady when there was nothing to
// do: its games exist and nothing was drawn. The writes are all
// conditional and deterministic (keyed game ids, drawn lineups a function
// of the event), so two catch-ups at once write the same items, once.
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
// round as stored, and writes nothing, in every system — a Swiss round of
// 50,000 players is read by thousands of players at once, and a read that
// made or marked its games would write the event's key from a GET. What a
// round owes is done by the writer side: its games by the pairing (and its
// retry), a knockout's next games by the game command that ended a game,
// the lineups due at a team round's deadline by the due work's runner
// (CatchUpRound, due.go). steady says whether what is read may be kept as
// the round's view: its games are known to exist (GamesReady). Every
// change to the round after that is a write of its round item or of a
// result (a knockout grown, a match set, a result in), which advances the
// counters the view was kept under, so the view is never kept past it.
func (s *Service) ReadRound(ev *Event, n int) (r *tournament.Round, steady bool, err error) {
	if r = ev.Round(n); r == nil {
		return nil, false, command.NotFoundf("round %d of %s", n, ev.T.ID)
	}
	return r, r.GamesReady, nil
}
