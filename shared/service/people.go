package service

import (
	"context"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// EditPlayer corrects a player's name, rating or club before round 1 is
// paired (O-1). The event item is rewritten with the player, so a pairing
// that read the old registration fails its condition and pairs again, and
// an edit after the pairing sees the round and is refused.
type EditPlayer struct {
	Player string
	Edit   tournament.PlayerEdit
}

// Roles implements Command: the organiser's.
func (EditPlayer) Roles() []Role { return []Role{Organiser} }

// Apply implements Command; its answer is the player as edited.
func (c EditPlayer) Apply(x *Txn) (any, error) {
	p, rec, err := x.S.Player(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	if err := x.T.EditPlayer(p, c.Edit, x.T.Settings.Teams); err != nil {
		return nil, err
	}
	x.Put(encodeItem(rec, p), encodeItem(x.Meta, x.T))
	return p, nil
}

// RemovePlayer takes a registration back before round 1 (O-1): the player
// item is deleted under the version read, with the event item rewritten, in
// one transaction; a pairing meanwhile makes this a refusal, a second
// removal a not-found. The player's token stops working with it.
type RemovePlayer struct {
	Player string
}

// Roles implements Command: the organiser's.
func (RemovePlayer) Roles() []Role { return []Role{Organiser} }

// Apply implements Command; its answer is PlayerChanged, the player removed.
func (c RemovePlayer) Apply(x *Txn) (any, error) {
	p, rec, err := x.S.Player(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	if err := x.T.RemovePlayer(p, x.T.Settings.Teams); err != nil {
		return nil, err
	}
	x.Delete(rec)
	x.Put(encodeItem(x.Meta, x.T))
	return PlayerChanged{T: x.T, Player: p}, nil
}

// RotateOrganiserToken gives the organiser a new token. The event item
// holds its hash, so the write that stores the new hash is the one after
// which the old token is refused.
type RotateOrganiserToken struct{}

// Roles implements Command: the organiser's.
func (RotateOrganiserToken) Roles() []Role { return []Role{Organiser} }

// Reissued is a reissue's answer: the item as it now is and the new token,
// shown once.
type Reissued struct {
	Item  any
	Token string
}

// Apply implements Command.
func (RotateOrganiserToken) Apply(x *Txn) (any, error) {
	token, hash := NewToken(x.TID, x.TID)
	x.T.OrganiserTokenHash = hash
	x.Put(encodeItem(x.Meta, x.T))
	return Reissued{Item: x.T, Token: token}, nil
}

// ReissueToken gives an official or a team's captain (the item ID of kind
// Kind, store.KindOfficial or store.KindTeam) a new token on the
// organiser's authority; the write is conditional, so the old token stops
// working at once.
type ReissueToken struct {
	Kind string
	ID   string
}

// Roles implements Command: the organiser's.
func (ReissueToken) Roles() []Role { return []Role{Organiser} }

// Apply implements Command; Reissued.Item is the *tournament.Official or
// *tournament.Team.
func (c ReissueToken) Apply(x *Txn) (any, error) {
	token, hash := NewToken(x.TID, c.ID)
	switch c.Kind {
	case store.KindOfficial:
		o, rec, err := x.S.Official(x.Ctx, x.TID, c.ID)
		if err != nil {
			return nil, err
		}
		o.TokenHash = hash
		x.Put(encodeItem(rec, o))
		return Reissued{Item: o, Token: token}, nil
	default:
		tm, rec, err := x.S.Team(x.Ctx, x.TID, c.ID)
		if err != nil {
			return nil, err
		}
		tm.CaptainTokenHash = hash
		x.Put(encodeItem(rec, tm))
		return Reissued{Item: tm, Token: token}, nil
	}
}

// Official reads official oid of event tid.
func (s *Service) Official(ctx context.Context, tid, oid string) (*tournament.Official, *store.Record, error) {
	var o tournament.Official
	rec, err := s.get(ctx, store.TournamentPK(tid), store.OfficialSK(oid), "official "+oid, &o)
	return &o, rec, err
}

// Team reads team mid of event tid.
func (s *Service) Team(ctx context.Context, tid, mid string) (*tournament.Team, *store.Record, error) {
	var t tournament.Team
	rec, err := s.get(ctx, store.TournamentPK(tid), store.TeamSK(mid), "team "+mid, &t)
	return &t, rec, err
}
