package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

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

// ExpulsionItems applies an expulsion ruling r by by in event game sg to
// its event (O-2, 000 ch.3 裁判长 7): the chief arbiter's is a proposal kept
// on the player for the organiser to decide; the organiser's, as chief
// arbiter, is decided at once and the player leaves the event (S-6). It
// returns the player item, and the event's when the player leaves, to be
// written with the game (games.Item.Also); a refusal changes nothing.
func (s *Service) ExpulsionItems(ctx context.Context, sg *games.Item, by game.Actor, r game.Ruling) ([]*store.Record, error) {
	tid, pid := sg.Link.Tournament, sg.Link.Red
	if r.Side == xiangqi.Black {
		pid = sg.Link.Black
	}
	t, meta, err := s.Tournament(ctx, tid)
	if err != nil {
		return nil, err
	}
	p, rec, err := s.Player(ctx, tid, pid)
	if err != nil {
		return nil, err
	}
	if by.Role == game.Organiser {
		if err := t.Expel(p, by.ID, sg.ID, r.Note, s.now(ctx)); err != nil {
			return nil, err
		}
		return []*store.Record{encodeItem(rec, p), encodeItem(meta, t)}, nil
	}
	if err := t.ProposeExpulsion(p, by.ID, sg.ID, r.Note, s.now(ctx)); err != nil {
		return nil, err
	}
	return []*store.Record{encodeItem(rec, p)}, nil
}
