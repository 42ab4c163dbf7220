package service

import (
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// CheckIn checks a player in for round N (E-2): the player with its own
// token, or the organiser or an arbiter at the desk for any player. The
// player's item is written under the event item's version, so a round
// paired meanwhile makes the check-in run again on the new state; a player
// already checked in gets the same answer and nothing is written.
type CheckIn struct {
	N      int
	Player string
}

// Roles implements Command: the player, the organiser and the arbiters.
func (CheckIn) Roles() []Role { return []Role{Player, Organiser, Arbiter, ChiefArbiter} }

// Apply implements Command; its answer is the player.
func (c CheckIn) Apply(x *Txn) (any, error) {
	pid := c.Player
	switch {
	case x.By.Role == Player && pid != "" && pid != x.By.ID:
		return nil, command.Forbid("a player's token checks in its own player only; the organiser or an arbiter checks in others")
	case x.By.Role == Player:
		pid = x.By.ID
	case pid == "":
		return nil, command.BadRequest("invalid_field", "player: the id of the player to check in")
	case !ValidID('p', pid):
		return nil, command.BadRequest("invalid_field", "player: "+quote(Clip(pid, 40))+" is not a player id")
	}
	p, rec, err := x.S.Player(x.Ctx, x.TID, pid)
	if err != nil {
		return nil, err
	}
	if p.CheckedIn >= c.N && p.Status == tournament.Active && c.N == x.T.Round+1 {
		return p, nil // already checked in: the same answer, nothing written
	}
	if err := x.T.CheckIn(p, c.N, x.Now); err != nil {
		return nil, err
	}
	x.Put(encodeItem(rec, p))
	x.Check(x.Meta)
	return p, nil
}

// ConfigureCheckIn turns the event's check-in on or off (before round 1)
// and sets when the next round's check-in opens (E-2): On nil leaves the
// setting, OpensAt nil leaves the time (0: at the previous round's pairing).
type ConfigureCheckIn struct {
	On      *bool
	OpensAt *int64
}

// Roles implements Command: the organiser's.
func (ConfigureCheckIn) Roles() []Role { return []Role{Organiser} }

// Serial implements Serial: it rewrites the event item, as check-ins read it.
func (ConfigureCheckIn) Serial() {}

// Apply implements Command; its answer is the event.
func (c ConfigureCheckIn) Apply(x *Txn) (any, error) {
	if err := x.T.ConfigureCheckIn(c.On, c.OpensAt, x.Now); err != nil {
		return nil, err
	}
	x.Put(encodeItem(x.Meta, x.T))
	return x.T, nil
}
