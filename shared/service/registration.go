package service

import (
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// RegisterPlayer enters a player (S-1, S-2): the player's item and the
// event's count, in one transaction under the event item's version, so the
// count and the cap playersPerEvent hold however many requests race.
type RegisterPlayer struct {
	Name   string
	Rating int
	Club   string
	Seeded bool
}

// Registered is RegisterPlayer's answer: the event, the player and the
// player's token, shown once.
type Registered struct {
	T      *tournament.Tournament
	Player *tournament.Player
	Token  string
}

// Roles implements Command: the organiser's.
func (RegisterPlayer) Roles() []Role { return []Role{Organiser} }

// Serial implements Serial: a burst of registrations all rewrite the event item.
func (RegisterPlayer) Serial() {}

// Apply implements Command.
func (c RegisterPlayer) Apply(x *Txn) (any, error) {
	pid := NewID('p')
	token, hash := NewToken(x.TID, pid)
	p, err := x.T.Register(tournament.Player{ID: pid, Name: c.Name, Rating: c.Rating, Club: c.Club, Seeded: c.Seeded, TokenHash: hash}, x.Now)
	if err != nil {
		return nil, err
	}
	x.Put(encodeItem(x.Meta, x.T), PlayerItem(x.T, &p))
	return Registered{T: x.T, Player: &p, Token: token}, nil
}

// AddOfficial appoints an arbiter, a chief arbiter or a scribe (O-1). The
// event's count of officials is written with the official, under the
// event's version, so the cap officialsPerEvent holds however many
// requests race.
type AddOfficial struct {
	Role   string
	Name   string
	Tables []int
}

// Appointed is AddOfficial's answer: the official and its token, shown once.
type Appointed struct {
	Official tournament.Official
	Token    string
}

// Roles implements Command: the organiser's.
func (AddOfficial) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c AddOfficial) Apply(x *Txn) (any, error) {
	a, err := c.appoint(x.TID, x.T.Officials)
	if err != nil {
		return nil, err
	}
	x.T.Officials++
	rec := encodeItem(&store.Record{PK: store.TournamentPK(x.TID), SK: store.OfficialSK(a.Official.ID), Kind: store.KindOfficial, Expires: EventTTL(x.T)}, a.Official)
	x.Put(encodeItem(x.Meta, x.T), rec)
	return a, nil
}

// appoint makes the official, with a token of scope (an event or a
// festival) that has had officials appointed already, within the caps.
func (c AddOfficial) appoint(scope string, officials int) (Appointed, error) {
	if n := len(c.Tables); n > LimitOf(CapScribeTables).Max {
		return Appointed{}, TooMany(CapScribeTables, n)
	}
	if officials >= LimitOf(CapOfficials).Max {
		return Appointed{}, OverLimit(CapOfficials)
	}
	oid := NewID('o')
	token, hash := NewToken(scope, oid)
	o, err := tournament.NewOfficial(oid, c.Role, c.Name, c.Tables, hash)
	return Appointed{Official: o, Token: token}, err
}

// SetBroadcast sets the event's broadcast delay, until round 1 is paired
// (then every game has copied it: broadcast_fixed). Seconds is nil when the
// request did not name it.
type SetBroadcast struct {
	Seconds *int
}

// Roles implements Command: the organiser's.
func (SetBroadcast) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c SetBroadcast) Apply(x *Txn) (any, error) {
	if c.Seconds == nil {
		return nil, missingField("broadcastDelaySeconds: give the delay in seconds (0 for none)")
	}
	if err := x.T.SetBroadcastDelay(*c.Seconds); err != nil {
		return nil, err
	}
	x.Put(encodeItem(x.Meta, x.T))
	return x.T, nil
}
