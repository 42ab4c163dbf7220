package service

import (
	"context"
	"slices"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/games"
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

// The holders of a token ReissueToken gives anew: an official, a team's captain.
const (
	OfficialToken = store.KindOfficial
	CaptainToken  = store.KindTeam
)

// ReissueToken gives an official or a team's captain (the item ID, Kind
// OfficialToken or CaptainToken) a new token on the organiser's
// authority; the write is conditional, so the old token stops working at
// once.
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
	case OfficialToken:
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

// ReissuePlayerToken gives a player who lost their token (or whose token
// leaked) a new one. Each of the player's games holds a copy of the hash,
// so a move costs one read; the games are rewritten with the player,
// unfinished games first, so the old token opens nothing once the command
// returns. Past one transaction (100 items, 4 MB) only finished games
// remain, written by the command itself in further transactions; a move
// made meanwhile makes a transaction fail and Exec run the reissue again on
// fresh items.
type ReissuePlayerToken struct {
	Player string
}

// PlayerReissued is ReissuePlayerToken's answer: the player, its number as
// the event shows it, and the new token, shown once.
type PlayerReissued struct {
	Player *tournament.Player
	Number int
	Token  string
}

// Roles implements Command: the organiser's.
func (ReissuePlayerToken) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c ReissuePlayerToken) Apply(x *Txn) (any, error) {
	ev, err := x.Event()
	if err != nil {
		return nil, err
	}
	p, rec, err := x.S.Player(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	token, hash := NewToken(x.TID, c.Player)
	p.TokenHash = hash
	games, err := x.S.playerGameWrites(x.Ctx, ev, c.Player, hash)
	if err != nil {
		return nil, err
	}
	for _, chunk := range store.TransactChunks(append([]*store.Record{encodeItem(rec, p)}, games...)) {
		if err := x.S.store.Transact(x.Ctx, chunk); err != nil {
			return nil, err
		}
	}
	return PlayerReissued{Player: p, Number: ev.Numbers()[c.Player], Token: token}, nil
}

// playerGameWrites returns the player's games rewritten with the new token
// hash, unfinished games first.
func (s *Service) playerGameWrites(ctx context.Context, ev *Event, pid, hash string) ([]*store.Record, error) {
	var ids []string
	for _, r := range ev.H.Rounds {
		for _, p := range r.Pairings {
			if p.Red == pid || p.Black == pid {
				ids = append(ids, p.GameID)
			}
		}
	}
	found, err := s.GamesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	var open, over []*store.Record
	for _, gid := range ids {
		sg := found[gid]
		if sg == nil {
			continue // not created yet: it will copy the new hash from the player
		}
		if sg.Link.Tournament != ev.T.ID {
			continue // not this event's game: a new hash never goes into another event's item
		}
		if sg.Link.Red == pid {
			sg.Link.RedHash = hash
		}
		if sg.Link.Black == pid {
			sg.Link.BlackHash = hash
		}
		rec, err := games.Encode(sg.Rec, sg.Link, sg.Game)
		if err != nil {
			return nil, err
		}
		if sg.Game.Status() == game.Playing {
			open = append(open, rec)
		} else {
			over = append(over, rec)
		}
	}
	return slices.Concat(open, over), nil
}
