package service

import (
	"errors"
	"fmt"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// RoundOf is a round with the event it belongs to, as a command that
// changed it leaves them (or a conflict found them).
type RoundOf struct {
	Event *Event
	Round *tournament.Round
	// Due is the work the command made due and stored (a team round's
	// lineups at its start, T-3), for the request to do at once
	// (CompleteDue); nil when none.
	Due *store.Record
}

// StartRound starts paired round N now (C-1, C-6): its games' clocks start
// and late arrival counts from now; a round whose start time has not come
// starts early. A round that has started is a conflict carrying it
// (round_already_started), nothing changed; a round not yet paired is
// refused by the core. A team round's start is its lineup deadline (T-3):
// the draw of what is missing is made due now in the same transaction
// (due.go), and done by the request once the start is stored.
type StartRound struct {
	N int
}

// Roles implements Command: the organiser and the arbiters.
func (StartRound) Roles() []Role { return []Role{Organiser, Arbiter, ChiefArbiter} }

// Apply implements Command.
func (c StartRound) Apply(x *Txn) (any, error) {
	ev, err := x.Event()
	if err != nil {
		return nil, err
	}
	if err := ev.T.CheckPaired(c.N); err != nil {
		return nil, err
	}
	r := ev.Round(c.N)
	if r == nil {
		return nil, command.NotFoundf("round %d of %s", c.N, x.TID)
	}
	if r.Started(x.Now) {
		return nil, &command.Error{Kind: command.Conflict, Code: "round_already_started", Rule: "C-1",
			Message: fmt.Sprintf("round %d started at %s; its clocks are running and nothing changed", c.N, games.RFC3339(r.StartsAt)),
			Params:  map[string]any{"round": c.N, "startedAt": games.RFC3339(r.StartsAt)},
			Current: RoundOf{Event: ev, Round: r}}
	}
	changed := *r
	changed.StartsAt, changed.GamesReady = x.Now, false
	due, err := x.S.deadlineDue(x.Ctx, ev.T, &changed)
	if err != nil {
		return nil, err
	}
	x.Put(encodeItem(ev.Rounds[c.N], &changed))
	if due != nil {
		x.Put(due)
	}
	if ev.T.Settings.Teams && r.StartsAt != 0 && r.StartsAt != changed.StartsAt { // the deadline it had is not one any more
		old, err := x.S.store.Get(x.Ctx, store.DuePK, store.DueSK(r.StartsAt, x.TID, c.N, ""))
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if old != nil {
			x.Delete(old)
		}
	}
	*r = changed
	return RoundOf{Event: ev, Round: r, Due: due}, nil
}
