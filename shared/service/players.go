package service

import "github.com/xqtour/xqtour/shared/tournament"

// PlayerStatus changes player Player's status with Change — withdraw,
// pause or resume (S-6). The event item is rewritten with the player,
// advancing its version, so the race with a pairing is lost by whichever
// writes second: a round paired meanwhile makes this a conflict with the
// player as it now is, and a pairing that read the old status fails its
// condition on the event and pairs again.
type PlayerStatus struct {
	Player string
	Change func(*tournament.Tournament, *tournament.Player) error
}

// PlayerChanged is PlayerStatus's answer: the event and the player as
// changed.
type PlayerChanged struct {
	T      *tournament.Tournament
	Player *tournament.Player
}

// Roles implements Command: the organiser's.
func (PlayerStatus) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c PlayerStatus) Apply(x *Txn) (any, error) {
	p, rec, err := x.S.Player(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	if err := c.Change(x.T, p); err != nil {
		return nil, err
	}
	x.Put(encodeItem(rec, p), encodeItem(x.Meta, x.T))
	return PlayerChanged{T: x.T, Player: p}, nil
}

// Current implements Reporter: the player as it now is.
func (c PlayerStatus) Current(x *Txn) (any, error) {
	p, _, err := x.S.Player(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	return PlayerChanged{T: x.T, Player: p}, nil
}
