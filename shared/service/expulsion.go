package service

import "github.com/xqtour/xqtour/shared/service/command"

// DecideExpulsion is the organising body's decision on a chief arbiter's
// proposal to expel Player (O-2): Approve expels, false rejects (nil: the
// request did not say). The player and the event item are written
// together; a lost race is a conflict carrying the player as it now is.
type DecideExpulsion struct {
	Player  string
	Approve *bool
	Note    string
}

// Roles implements Command: the organiser's.
func (DecideExpulsion) Roles() []Role { return []Role{Organiser} }

// Apply implements Command; its answer is PlayerChanged.
func (c DecideExpulsion) Apply(x *Txn) (any, error) {
	if c.Approve == nil {
		return nil, &command.Error{Kind: command.Invalid, Code: "invalid_field", Rule: "O-2", Message: "approve: true to expel the player, false to reject the proposal"}
	}
	p, rec, err := x.S.Player(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	if err := x.T.DecideExpulsion(p, *c.Approve, x.By.ID, c.Note, x.Now); err != nil {
		return nil, err
	}
	x.Put(encodeItem(rec, p), encodeItem(x.Meta, x.T))
	return PlayerChanged{T: x.T, Player: p}, nil
}

// Current implements Reporter: the player as it now is.
func (c DecideExpulsion) Current(x *Txn) (any, error) {
	p, _, err := x.S.Player(x.Ctx, x.TID, c.Player)
	return PlayerChanged{T: x.T, Player: p}, err
}
