// Package games is the application layer of games: the game item's stored
// shape (Link and the game's compact binary form), the one loop every game
// write goes through (Store.Mutate: read, authorise, apply, one conditional
// write, the result item with it when an event game ends, retried on the
// store's contention), and the game's JSON view (View), which GET
// /games/{gid} answers and the live fan-out (shared/live) pushes. It knows
// nothing of events beyond a game's link, so the stream fan-out links
// neither the HTTP layer nor the pairing engines.
//
// Where each concept lives:
//
//	item.go   the game item: Link, Item, Encode, Decode, a link alone (LinkOf),
//	          the broadcast delay (Item.Public, Item.AsOf), "started" (Item.Begun)
//	store.go  Store: Load, Mutate, Save (with the result item and the work an end
//	          makes due: Ending, Ended), SettleOnRead, TTL
//	view.go   View, the game's JSON (GET /games/{gid}), ViewOf, JSON, Brief
package games

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/store"
)

// Link is what the game item knows beyond the game itself: where it is
// played and whose tokens may move. Players' token hashes are copied in when
// the game is created, so a player's move costs one read. Its JSON names
// are the stored shape (short, stable).
type Link struct {
	Tournament string `json:"t,omitempty"`
	Round      int    `json:"r,omitempty"`
	Table      int    `json:"n,omitempty"`
	// Red and Black are player ids ("red"/"black" seats for a standalone game).
	Red       string `json:"rp"`
	Black     string `json:"bp"`
	RedHash   string `json:"rh"`
	BlackHash string `json:"bh"`
	// Reported is set once the result item exists (the tournament link).
	Reported bool `json:"x,omitempty"`
	// The players' names and numbers as the game was made (the event's
	// players are edited only before round 1), for a board's display: the
	// numbers drawn for round 1 in an individual Swiss (P-3); a game made
	// before they showed keeps the entry numbers.
	RedName     string `json:"rn,omitempty"`
	BlackName   string `json:"bn,omitempty"`
	RedNumber   int    `json:"ri,omitempty"`
	BlackNumber int    `json:"bi,omitempty"`
	// Info is what an imported record's tags said of a standalone game
	// (event, site, date, round, players), written again in its export.
	Info *RecordInfo `json:"i,omitempty"`
	// Delay is the event's broadcast delay (seconds), copied when the game
	// is made (the setting is fixed before round 1), so a public read
	// knows it without reading the event.
	Delay int `json:"d,omitempty"`
	// SignedResults is the event's setting, copied when the game is made:
	// the result reaches the event once the scoresheet is signed (O-3).
	SignedResults bool `json:"sr,omitempty"`
}

// RecordInfo is the stored form of game.RecordInfo.
type RecordInfo struct {
	Event string `json:"e,omitempty"`
	Site  string `json:"s,omitempty"`
	Date  string `json:"d,omitempty"`
	Round string `json:"r,omitempty"`
	Red   string `json:"rn,omitempty"`
	Black string `json:"bn,omitempty"`
}

// Item is a game item decoded: the link and the game.
type Item struct {
	ID   string
	Link Link
	Game *game.Game
	// Rec is the stored item (its version guards the next write).
	Rec *store.Record
	// Also are event items an operation changed with the game (an
	// expulsion's player and event, O-2), written in the game's transaction.
	Also []*store.Record
	// Due are the items of work the last Save's end of the game made due
	// and stored (Store.Ending), for Store.Ended.
	Due []*store.Record
}

// Encode packs the item's document: uvarint length, the link as JSON, then
// the game's compact binary form (moves two bytes each).
func Encode(rec *store.Record, link Link, g *game.Game) (*store.Record, error) {
	lj, err := json.Marshal(link)
	if err != nil {
		return nil, err
	}
	doc := binary.AppendUvarint(nil, uint64(len(lj)))
	doc = append(doc, lj...)
	if doc, err = g.AppendBinary(doc); err != nil {
		return nil, err
	}
	rec.Doc = doc
	return rec, nil
}

// Decode reads game gid's stored item.
func Decode(gid string, rec *store.Record) (*Item, error) {
	lj, rest, err := split(rec)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", gid, err)
	}
	it := &Item{ID: gid, Rec: rec}
	if err := json.Unmarshal(lj, &it.Link); err != nil {
		return nil, fmt.Errorf("game %s: %w", gid, err)
	}
	g, err := game.Decode(rest)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", gid, err)
	}
	it.Game = g
	return it, nil
}

// split is a game item's document cut into the link's JSON and the game.
func split(rec *store.Record) (link, g []byte, err error) {
	n, k := binary.Uvarint(rec.Doc)
	if k <= 0 || uint64(len(rec.Doc)-k) < n {
		return nil, nil, fmt.Errorf("%s: corrupt game item", rec.PK)
	}
	return rec.Doc[k : k+int(n)], rec.Doc[k+int(n):], nil
}

// Of decodes a stored game item as the table, its stream or the local
// change feed carries it, its id read from its key.
func Of(rec *store.Record) (*Item, error) {
	gid, ok := strings.CutPrefix(rec.PK, store.GamePK(""))
	if !ok || rec.SK != store.GameSK {
		return nil, fmt.Errorf("games: %s/%s is not a game item", rec.PK, rec.SK)
	}
	return Decode(gid, rec)
}

// Placement is where a stored game item is played and how far behind the
// play the public sees it.
type Placement struct {
	Tournament string // "" for a standalone game
	Round      int
	Table      int
	DelayMs    int64 // the event's broadcast delay
}

// LinkOf reads a stored game item's placement alone, not the game's moves.
func LinkOf(rec *store.Record) (Placement, error) {
	lj, _, err := split(rec)
	if err != nil {
		return Placement{}, fmt.Errorf("games: %w", err)
	}
	var l Link
	if err := json.Unmarshal(lj, &l); err != nil {
		return Placement{}, fmt.Errorf("games: %s: %w", rec.PK, err)
	}
	return Placement{Tournament: l.Tournament, Round: l.Round, Table: l.Table, DelayMs: int64(l.Delay) * 1000}, nil
}

// DelayMs is the game's broadcast delay in ms; 0 when it has none.
func (it *Item) DelayMs() int64 { return int64(it.Link.Delay) * 1000 }

// AsOf is it as its game stood at at (game.AsOf), sharing the link.
func (it *Item) AsOf(at int64) *Item {
	g := it.Game.AsOf(at)
	if g == it.Game {
		return it
	}
	return &Item{ID: it.ID, Link: it.Link, Game: g, Rec: it.Rec}
}

// Public is it as the public sees it at now — under its event's broadcast
// delay, the game as it stood the delay ago — and the instant to read its
// clocks at.
func (it *Item) Public(now int64) (*Item, int64) {
	if d := it.DelayMs(); d > 0 {
		return it.AsOf(now - d), now - d
	}
	return it, now
}

// Begun reports whether anything has happened in the game since it was
// created: a move, an end, a ruling or an arrival recorded. A game begun
// keeps its players (a round's changes and an edit of its players leave
// it alone).
func (it *Item) Begun() bool {
	g := it.Game
	return g.Ply() > 0 || g.Status() != game.Playing || len(g.Log()) > 0
}
