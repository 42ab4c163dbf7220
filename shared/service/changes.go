package service

import (
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// ChangeRound is an organiser's manual change of round N before it starts
// — swap colours, force a pair, move the bye — kept in the round's audit
// log (C-1). The changed tables keep their game ids: each game, not yet
// begun, is rewritten with its new players. The round, those games (under
// the versions that showed them unbegun) and the event (no round paired
// since) change together, so a move made or a round paired meanwhile makes
// this a conflict carrying the round as it now is.
type ChangeRound struct {
	N      int
	Change tournament.Change
}

// Roles implements Command: the organiser's.
func (ChangeRound) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c ChangeRound) Apply(x *Txn) (any, error) {
	ev, err := x.Event()
	if err != nil {
		return nil, err
	}
	r := ev.Round(c.N)
	if r == nil {
		return nil, command.NotFoundf("round %d of %s", c.N, x.TID)
	}
	if len(r.Audit) >= LimitOf(CapRoundAudit).Max {
		return nil, OverLimit(CapRoundAudit)
	}
	if err := ev.T.CheckChange(r, ev.H, x.Now); err != nil {
		return nil, err
	}
	have, err := x.S.RoundGames(x.Ctx, r)
	if err != nil {
		return nil, err
	}
	begun := func(p tournament.Pairing) bool { sg := have[p.GameID]; return sg != nil && sg.Begun() }
	if err := r.CheckGamesUnbegun(begun); err != nil {
		return nil, err
	}
	for _, id := range []string{c.Change.Red, c.Change.Black, c.Change.Player} {
		if id != "" && ev.H.Player(id) == nil {
			return nil, command.NotFoundf("player %s", quote(Clip(id, 40)))
		}
	}
	changed := *r
	if _, err := changed.Apply(c.Change, x.By.ID, x.Now); err != nil {
		return nil, err
	}
	rewrites, err := x.S.GameWrites(ev.T, &changed, ev.H, have, false, x.Now)
	if err != nil {
		return nil, err
	}
	// Every game was read above and the transaction rewrites the changed
	// ones under those versions, so the round knows its games exist when
	// each of its tables' games did; otherwise the request makes the rest
	// after the commit (EnsureGamesAfterCommit, or the due work it leaves).
	changed.GamesReady = true
	for _, p := range changed.Pairings {
		if have[p.GameID] == nil {
			changed.GamesReady = false
		}
	}
	x.Put(append([]*store.Record{encodeItem(ev.Rounds[c.N], &changed)}, rewrites...)...)
	x.Check(ev.Meta) // unchanged: its version guards against a round paired meanwhile
	return RoundOf{Event: ev, Round: &changed}, nil
}

// Current implements Reporter: the round as it now is.
func (c ChangeRound) Current(x *Txn) (any, error) {
	ev, err := x.Event()
	if err != nil {
		return nil, err
	}
	r := ev.Round(c.N)
	if r == nil {
		return nil, command.NotFoundf("round")
	}
	return RoundOf{Event: ev, Round: r}, nil
}
