package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"sync/atomic"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Entries by the players themselves (E-1). The organiser opens the event to
// entries; anyone with its link may then enter and gets, like a
// registration, the player's id and token at once, or, when the organiser
// approves entries, the same held as a pending entry: the token opens the
// player's page from the approval on.
//
// The burst. Every entry numbers the next player and holds a place, so it
// rewrites the event item (its count of players and of pending entries).
// That item is the one place the capacity and the numbering are decided,
// so the entry commands are Serial: within a process one event's entries
// queue on its lock and never race each other; across processes (other
// Lambda instances) a lost race is a conditional-write conflict that Exec
// runs again on fresh items. One entry is one transaction of the event
// item, the player (or the pending entry) and, the first time a name and
// club is used, its name key (E#<tid>/N#<hash>): a likely duplicate is one
// read, and two identical entries racing each other cannot both pass, as
// the second finds the key written or loses the transaction on it. With
// DynamoDB's ~1,000 writes a second to one item and a transaction of three
// items taking a few ms, one event takes a few hundred entries a second;
// the route's throttle (template.yaml, EntryThrottling*) stays below that.

// entrySteps counts the runs of Enter's Apply, retries included, so a test
// can tell how many steps a burst of entries took.
var entrySteps atomic.Int64

// EntrySteps is how many entry steps have run in this process, retries
// included: a burst's steps less its entries are its retries.
func EntrySteps() int64 { return entrySteps.Load() }

// anyone is the role of a caller without a token: an entrant (E-1).
const anyone Role = "anyone"

// Anyone is the Credential of a command open to everybody with the event's
// link (Enter): no token is read.
func Anyone(_ context.Context, t *tournament.Tournament) (Caller, error) {
	return Caller{Scope: t.ID, Role: anyone}, nil
}

// OpenEntries opens the event to entries on Policy's terms (E-1).
type OpenEntries struct {
	Policy tournament.EntryPolicy
}

// Roles implements Command: the organiser's.
func (OpenEntries) Roles() []Role { return []Role{Organiser} }

// Serial implements Serial: it rewrites the event item, as entries read it.
func (OpenEntries) Serial() {}

// Apply implements Command; its answer is the event.
func (c OpenEntries) Apply(x *Txn) (any, error) {
	if err := x.T.OpenEntries(c.Policy, x.Now); err != nil {
		return nil, err
	}
	x.Put(encodeItem(x.Meta, x.T))
	return x.T, nil
}

// CloseEntries stops taking entries (E-1).
type CloseEntries struct{}

// Roles implements Command: the organiser's.
func (CloseEntries) Roles() []Role { return []Role{Organiser} }

// Serial implements Serial: it rewrites the event item, as entries read it.
func (CloseEntries) Serial() {}

// Apply implements Command; its answer is the event.
func (CloseEntries) Apply(x *Txn) (any, error) {
	if err := x.T.CloseEntries(); err != nil {
		return nil, entryRefusal(err)
	}
	x.Put(encodeItem(x.Meta, x.T))
	return x.T, nil
}

// Enter is an entry by the player (E-1), run with the Anyone credential.
// DuplicateOk enters a second person of a name and club already entered.
type Enter struct {
	Name        string
	Rating      *int
	Club        string
	DuplicateOk bool
}

// Entered is Enter's answer: the event, the player (held when Pending,
// awaiting approval) and its token, shown once.
type Entered struct {
	T       *tournament.Tournament
	Player  tournament.Player
	Token   string
	Pending bool
}

// Roles implements Command: anyone's.
func (Enter) Roles() []Role { return []Role{anyone} }

// Serial implements Serial: entries come in bursts and all rewrite the event item.
func (Enter) Serial() {}

// Apply implements Command.
func (c Enter) Apply(x *Txn) (any, error) {
	entrySteps.Add(1)
	e, pending, err := x.T.Enter(tournament.Entry{Name: c.Name, Rating: c.Rating, Club: c.Club}, x.Now)
	if err != nil {
		return nil, entryRefusal(err)
	}
	nameSK := store.EntryNameSK(entryNameHash(e.Name, e.Club))
	var seen items.EntryName
	nameRec, err := x.S.get(x.Ctx, store.EntriesPK(x.TID), nameSK, "entry name", &seen)
	switch {
	case err == nil && !c.DuplicateOk:
		return nil, &command.Error{Kind: command.Refused, Code: tournament.CodeLikelyDuplicate, Rule: "E-1",
			Message: "an entry with this name and club was already made; if you are another person, send the entry again with \"duplicateOk\": true"}
	case err != nil && !isNotFound(err):
		return nil, err
	}
	pid := NewID('p')
	token, hash := NewToken(x.TID, pid)
	rating := 0
	if e.Rating != nil {
		rating = *e.Rating
	}
	if nameRec == nil {
		x.Put(items.Encode(&store.Record{PK: store.EntriesPK(x.TID), SK: nameSK, Kind: store.KindEntryName, Expires: EventTTL(x.T)}, items.EntryName{ID: pid}))
	}
	if pending {
		pe := items.Entry{ID: pid, Name: e.Name, Rating: rating, Club: e.Club, TokenHash: hash, EnteredAt: x.Now}
		x.Put(encodeItem(x.Meta, x.T),
			items.Encode(&store.Record{PK: store.EntriesPK(x.TID), SK: store.PlayerSK(pid), Kind: store.KindEntry, Expires: EventTTL(x.T)}, pe))
		return Entered{T: x.T, Player: tournament.Player{ID: pid, Name: e.Name, Rating: rating, Club: e.Club}, Token: token, Pending: true}, nil
	}
	p, err := x.T.Register(tournament.Player{ID: pid, Name: e.Name, Rating: rating, Club: e.Club, TokenHash: hash}, x.Now)
	if err != nil {
		return nil, entryRefusal(err)
	}
	x.Put(encodeItem(x.Meta, x.T), PlayerItem(x.T, &p))
	return Entered{T: x.T, Player: p, Token: token}, nil
}

// ApproveEntry makes pending entry Player a registration with the id and
// token it was given (E-1): the pending entry is deleted and the player
// written with the event item, in one transaction.
type ApproveEntry struct {
	Player string
}

// Roles implements Command: the organiser's.
func (ApproveEntry) Roles() []Role { return []Role{Organiser} }

// Serial implements Serial: it rewrites the event item, as entries read it.
func (ApproveEntry) Serial() {}

// Apply implements Command; its answer is PlayerChanged, the player registered.
func (c ApproveEntry) Apply(x *Txn) (any, error) {
	pe, rec, err := x.S.pendingEntry(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	if err := x.T.Approve(); err != nil {
		return nil, err
	}
	p, err := x.T.Register(tournament.Player{ID: pe.ID, Name: pe.Name, Rating: pe.Rating, Club: pe.Club, TokenHash: pe.TokenHash}, x.Now)
	if err != nil {
		return nil, entryRefusal(err)
	}
	x.Delete(rec)
	x.Put(encodeItem(x.Meta, x.T), PlayerItem(x.T, &p))
	return PlayerChanged{T: x.T, Player: &p}, nil
}

// RejectEntry refuses pending entry Player (E-1): its place is freed, its
// token never opens anything, and its name key goes with it so the person
// may enter again.
type RejectEntry struct {
	Player string
}

// Roles implements Command: the organiser's.
func (RejectEntry) Roles() []Role { return []Role{Organiser} }

// Serial implements Serial: it rewrites the event item, as entries read it.
func (RejectEntry) Serial() {}

// Apply implements Command; its answer is the event.
func (c RejectEntry) Apply(x *Txn) (any, error) {
	pe, rec, err := x.S.pendingEntry(x.Ctx, x.TID, c.Player)
	if err != nil {
		return nil, err
	}
	if err := x.T.Reject(); err != nil {
		return nil, err
	}
	x.Delete(rec)
	var seen items.EntryName
	nameRec, err := x.S.get(x.Ctx, store.EntriesPK(x.TID), store.EntryNameSK(entryNameHash(pe.Name, pe.Club)), "entry name", &seen)
	switch {
	case err == nil && seen.ID == c.Player:
		x.Delete(nameRec)
	case err != nil && !isNotFound(err):
		return nil, err
	}
	x.Put(encodeItem(x.Meta, x.T))
	return x.T, nil
}

// PendingEntry is an entry awaiting the organiser's approval (E-1).
type PendingEntry struct {
	ID        string
	Name      string
	Rating    int
	Club      string
	EnteredAt int64
}

// PendingEntries reads event tid's entries awaiting approval, in id order.
func (s *Service) PendingEntries(ctx context.Context, tid string) ([]PendingEntry, error) {
	recs, err := s.store.Query(ctx, store.EntriesPK(tid), store.PlayerPrefix, 0)
	if err != nil {
		return nil, err
	}
	out := make([]PendingEntry, 0, len(recs))
	for _, rec := range recs {
		var pe items.Entry
		if err := items.Decode(rec, &pe); err != nil {
			return nil, err
		}
		out = append(out, PendingEntry{ID: pe.ID, Name: pe.Name, Rating: pe.Rating, Club: pe.Club, EnteredAt: pe.EnteredAt})
	}
	return out, nil
}

// pendingEntry reads event tid's pending entry pid.
func (s *Service) pendingEntry(ctx context.Context, tid, pid string) (items.Entry, *store.Record, error) {
	var pe items.Entry
	rec, err := s.get(ctx, store.EntriesPK(tid), store.PlayerSK(pid), "pending entry "+pid, &pe)
	return pe, rec, err
}

// entryNameHash is the name key's hash of an entry's name and club, as
// tournament.DuplicateKey compares them.
func entryNameHash(name, club string) string {
	sum := sha256.Sum256([]byte(tournament.DuplicateKey(name, club)))
	return hex.EncodeToString(sum[:16])
}

// entryRefusal gives the refusals of entries their kinds: closed is
// forbidden (nobody may enter), full is a conflict (the event's state, not
// the request).
func entryRefusal(err error) error {
	var re *tournament.RuleError
	if errors.As(err, &re) {
		switch re.Code {
		case tournament.CodeEntriesClosed:
			return &command.Error{Kind: command.Forbidden, Code: re.Code, Message: re.Message, Rule: re.Rule}
		case tournament.CodeEventFull:
			return &command.Error{Kind: command.Conflict, Code: re.Code, Message: re.Message, Rule: re.Rule}
		}
	}
	return err
}

// isNotFound reports whether err is a not-found refusal.
func isNotFound(err error) bool {
	var e *command.Error
	return errors.As(err, &e) && e.Kind == command.NotFound
}

// EntryRow is one line of the organiser's list of entries: an entry
// awaiting approval (Pending) or a registered player, with the other rows
// likely the same person (E-1).
type EntryRow struct {
	ID, Name, Club string
	Rating         int
	// Pending marks an entry awaiting approval; Player is the registered
	// player otherwise, and Number its shown number.
	Pending    bool
	Player     *tournament.Player
	Number     int
	EnteredAt  int64
	Duplicates []string
}

// EntryList is event t's entries awaiting approval, in id order, then its
// registered players in number order, each with the ids of the other rows
// that share its name and club (tournament.Duplicates).
func (s *Service) EntryList(ctx context.Context, t *tournament.Tournament) ([]EntryRow, error) {
	players, err := s.Players(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	pending, err := s.PendingEntries(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	rows := make([]EntryRow, 0, len(pending)+len(players))
	for _, pe := range pending {
		rows = append(rows, EntryRow{ID: pe.ID, Name: pe.Name, Club: pe.Club, Rating: pe.Rating, Pending: true, EnteredAt: pe.EnteredAt})
	}
	number := tournament.ShownNumbers(t, players)
	slices.SortFunc(players, func(x, y *tournament.Player) int { return number[x.ID] - number[y.ID] })
	for _, p := range players {
		rows = append(rows, EntryRow{ID: p.ID, Name: p.Name, Club: p.Club, Rating: p.Rating, Player: p, Number: number[p.ID], EnteredAt: p.RegisteredAt})
	}
	names, clubs := make([]string, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		names[i], clubs[i] = r.Name, r.Club
	}
	for i, others := range tournament.Duplicates(names, clubs) {
		rows[i].Duplicates = []string{}
		for _, j := range others {
			rows[i].Duplicates = append(rows[i].Duplicates, rows[j].ID)
		}
	}
	return rows, nil
}
