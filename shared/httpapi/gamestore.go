package httpapi

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// gameLink is what the game item knows beyond the game itself: where it is
// played and whose tokens may move. Players' token hashes are copied in when
// the game is created, so a player's move costs one read.
type gameLink struct {
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
	Info *recordInfoJSON `json:"i,omitempty"`
	// Delay is the event's broadcast delay (seconds), copied when the game
	// is made (the setting is fixed before round 1), so a public read
	// knows it without reading the event.
	Delay int `json:"d,omitempty"`
}

// recordInfoJSON is the stored form of game.RecordInfo.
type recordInfoJSON struct {
	Event string `json:"e,omitempty"`
	Site  string `json:"s,omitempty"`
	Date  string `json:"d,omitempty"`
	Round string `json:"r,omitempty"`
	Red   string `json:"rn,omitempty"`
	Black string `json:"bn,omitempty"`
}

// storedGame is a game item decoded: the link and the game.
type storedGame struct {
	ID   string
	Link gameLink
	Game *game.Game
	rec  *store.Record
	// also are event items an operation changed with the game (an
	// expulsion's player and event, O-2), written in the game's transaction.
	also []*store.Record
}

// encodeGame packs the item's document: uvarint length, the link as JSON, then
// the game's compact binary form (moves two bytes each).
func encodeGame(rec *store.Record, link gameLink, g *game.Game) (*store.Record, error) {
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

func decodeGame(gid string, rec *store.Record) (*storedGame, error) {
	n, k := binary.Uvarint(rec.Doc)
	if k <= 0 || uint64(len(rec.Doc)-k) < n {
		return nil, fmt.Errorf("game %s: corrupt item", gid)
	}
	sg := &storedGame{ID: gid, rec: rec}
	if err := json.Unmarshal(rec.Doc[k:k+int(n)], &sg.Link); err != nil {
		return nil, fmt.Errorf("game %s: %w", gid, err)
	}
	g, err := game.Decode(rec.Doc[k+int(n):])
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", gid, err)
	}
	sg.Game = g
	return sg, nil
}

func (a *API) loadGame(c *call, gid string) (*storedGame, error) {
	rec, err := a.store.Get(c.ctx(), store.GamePK(gid), store.GameSK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound("game " + gid)
	}
	if err != nil {
		return nil, err
	}
	sg, err := decodeGame(gid, rec)
	if err == nil {
		noteEvent(c.ctx(), sg.Link.Tournament, gid)
	}
	return sg, err
}

// eventGame builds the record of a pairing's game (Version 0: to be created),
// with the event's time control and rules; its clocks start at the round's
// start (C-6): a round with no start time yet waits, clocks still, until the
// organiser or an arbiter starts it. A game made after its round started (a
// knockout's next or play-off game, a team board set late) starts when it is
// made, now: its players could not have played it before. numbers are the
// players' numbers as the event shows them (P-3), the ones the game keeps.
func (a *API) eventGame(t *tournament.Tournament, r *tournament.Round, p tournament.Pairing, red, black *tournament.Player, numbers map[string]int, now int64) (*store.Record, error) {
	start := r.StartsAt
	if start != 0 && now > start {
		start = now
	}
	setup := game.Setup{Control: t.Settings.TimeControl, Rules: t.Settings.Rules.Rules, StartMs: start}
	if t.Settings.Rules.RecordArrivals {
		setup.LateLimitMs = t.Settings.Rules.LateForfeitMs // C-6: absent at start + limit forfeits
	}
	g, err := game.New(setup)
	if err != nil {
		return nil, err
	}
	link := gameLink{Tournament: t.ID, Round: r.Number, Table: p.Table, Red: red.ID, Black: black.ID, RedHash: red.TokenHash, BlackHash: black.TokenHash,
		RedName: red.Name, BlackName: black.Name, RedNumber: numbers[red.ID], BlackNumber: numbers[black.ID], Delay: t.Settings.BroadcastDelaySeconds}
	return encodeGame(&store.Record{PK: store.GamePK(p.GameID), SK: store.GameSK, Kind: store.KindGame}, link, g)
}

// mutateGame is every game write: one strongly consistent read, the caller
// authenticated, then the operation (which validates its own fields, after
// auth, so an unauthenticated client learns nothing), and one conditional write when the game changed — with the
// result item created in the same transaction the moment an event game ends,
// so the result reaches the event exactly once. A refusal that still changed
// the game (a flag that fell first, an illegal move counted as a foul) is
// stored before it is returned. A write that loses a race is redone on the
// game as it now is (a move on a stale view then fails its ply check: 409
// with the current state), within the retry budget (retry.go), after which
// it is a 503 with Retry-After: the server's contention, not the client's.
func (a *API) mutateGame(c *call, op func(sg *storedGame, by game.Actor) error) (int, any, error) {
	gid := c.r.PathValue("gid")
	start := time.Now()
	for attempt := 1; ; attempt++ {
		sg, err := a.loadGame(c, gid)
		if err != nil {
			return 0, nil, err
		}
		by, who, err := a.gameActor(c, sg)
		if err != nil {
			return 0, nil, err
		}
		by.ID = who.ID // the log of rulings says who
		before, plyBefore := sg.Game.Version(), sg.Game.Ply()
		res, why := sg.Game.Result()
		opErr := op(sg, by)
		if sg.Game.Version() != before {
			res2, why2 := sg.Game.Result()
			corrected := sg.Link.Reported && (res2 != res || why2 != why)
			if err := a.saveGame(c, sg, corrected); err != nil {
				if sg.Game.Ply() > plyBefore && errors.Is(err, store.ErrSuperseded) {
					// A move whose answer DynamoDB lost may be on the board
					// with the opponent's reply already after it (the store's
					// read-back then finds a later version, not its own): the
					// game as it now is tells, by holding these moves.
					if now, lerr := a.loadGame(c, gid); lerr == nil && opErr == nil && slices.Equal(now.Game.Moves()[:min(now.Game.Ply(), sg.Game.Ply())], sg.Game.Moves()) {
						return http.StatusOK, gameView(now, c.nowMs(), 0), nil
					}
				}
				if command.Retryable(err) {
					// The game changed between this read and write (or the
					// store failed and nothing was written): read it again
					// and redo the operation on what it is now, after a
					// jittered pause, within the retry budget. A move made on
					// a stale view then fails its ply check (409); contention
					// that outlasts the budget is the server's, a 503.
					if pause := command.Backoff(attempt - 1); time.Since(start)+pause < command.Budget {
						time.Sleep(pause)
						continue
					}
					return 0, nil, command.Contended(err)
				}
				return 0, nil, err
			}
		}
		if opErr != nil {
			var re *game.RuleError
			if errors.As(opErr, &re) && re.Code == game.CodeStalePly {
				return 0, nil, a.gameConflict(c, gid, re.Message)
			}
			return 0, nil, opErr
		}
		return http.StatusOK, gameView(sg, c.nowMs(), 0), nil
	}
}

// saveGame writes the game under its version; an event game that has just
// ended also gets its result item, in the same transaction, and a corrected
// result rewrites the result item with the game.
func (a *API) saveGame(c *call, sg *storedGame, corrected bool) error {
	if corrected {
		return a.correctResult(c, sg)
	}
	report := sg.Link.Tournament != "" && !sg.Link.Reported && sg.Game.Status() == game.Over
	if report {
		// Only the pairing's own game writes the table's result: an item
		// that merely names the table (planted before imports were
		// checked) ends, but reports nothing.
		own, err := a.pairingsGame(c, sg)
		if err != nil {
			return err
		}
		if !own {
			a.log.Error("a game that is not its pairing's ended: its result is not written", "game", sg.ID,
				"tournament", sg.Link.Tournament, "round", sg.Link.Round, "table", sg.Link.Table)
		}
		report = own
	}
	if report {
		sg.Link.Reported = true
	}
	rec, err := encodeGame(sg.rec, sg.Link, sg.Game)
	if err != nil {
		return err
	}
	rec.Expires = a.gameTTL(sg, c.nowMs()) // a finished standalone game expires after the retention
	if !report && len(sg.also) == 0 {
		return a.store.Put(c.ctx(), rec)
	}
	if !report {
		return a.store.Transact(c.ctx(), append([]*store.Record{rec}, sg.also...))
	}
	res, why := sg.Game.Result()
	v := sg.Game.View(c.nowMs())
	item := tournament.Result{Round: sg.Link.Round, Table: sg.Link.Table, GameID: sg.ID, Red: sg.Link.Red, Black: sg.Link.Black,
		Result: res, Reason: why.String(), RedFouls: v.Fouls[xiangqi.Red], BlackFouls: v.Fouls[xiangqi.Black], EndedAt: v.EndedAt}
	x := encode(&store.Record{PK: store.TournamentPK(sg.Link.Tournament), SK: store.ResultSK(sg.Link.Round, sg.Link.Table), Kind: store.KindResult}, item)
	return a.store.Transact(c.ctx(), append([]*store.Record{rec, x}, sg.also...))
}

// correctResult rewrites the result item of an event game whose result an
// arbiter corrected after it had been reported.
func (a *API) correctResult(c *call, sg *storedGame) error {
	var old tournament.Result
	rec, err := a.load(c.ctx(), store.TournamentPK(sg.Link.Tournament), store.ResultSK(sg.Link.Round, sg.Link.Table), "result", &old)
	if err != nil {
		return err
	}
	res, why := sg.Game.Result()
	old.Result, old.Reason = res, why.String()
	g, err := encodeGame(sg.rec, sg.Link, sg.Game)
	if err != nil {
		return err
	}
	return a.store.Transact(c.ctx(), []*store.Record{g, encode(rec, old)})
}

func (a *API) gameConflict(c *call, gid, msg string) error {
	e := &Error{Status: http.StatusConflict, Code: "conflict", Message: msg + "; the current state is attached"}
	if sg, err := a.loadGame(c, gid); err == nil {
		e.Current = gameView(sg, c.nowMs(), 0)
	}
	return e
}

// settleOnRead stores a flag that fell before a read: the game ends when
// anyone looks after the deadline, with no background job (C-3, C-4).
func (a *API) settleOnRead(c *call, sg *storedGame) {
	if sg.Game.Status() != game.Playing || !sg.Game.Settle(c.nowMs()) {
		return
	}
	if err := a.saveGame(c, sg, false); err != nil && !errors.Is(err, store.ErrConflict) {
		a.log.Error("store settled game", "game", sg.ID, "err", err.Error())
	}
}
