package httpapi

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/store"
)

// GameJSON renders a stored game item (as the table, its stream or the local
// change feed carries it) as of nowMs, exactly as an anonymous GET
// /games/{gid} answers it — under its event's broadcast delay, the game as
// it stood the delay ago: the live updates push this body so a client
// handles one shape, and the socket, which carries no credentials, is public.
func GameJSON(rec *store.Record, nowMs int64) (json.RawMessage, error) {
	sg, err := liveGame(rec)
	if err != nil {
		return nil, err
	}
	seen, at := sg.public(nowMs)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as writeJSON encodes responses
	if err := enc.Encode(gameView(seen, at, 0)); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func liveGame(rec *store.Record) (*storedGame, error) {
	gid, ok := strings.CutPrefix(rec.PK, store.GamePK(""))
	if !ok || rec.SK != store.GameSK {
		return nil, fmt.Errorf("httpapi: %s/%s is not a game item", rec.PK, rec.SK)
	}
	return decodeGame(gid, rec)
}

// public is sg as the public sees it at now, and the instant to read its
// clocks at (delay.go).
func (sg *storedGame) public(now int64) (*storedGame, int64) {
	if d := sg.delayMs(); d > 0 {
		return sg.asOf(now - d), now - d
	}
	return sg, now
}

// GameBrief is one game's change as the round channel tells it: where the
// game is played, its last move and position, its clocks and, once over,
// its result — a board of a broadcast page, without the game's history.
type GameBrief struct {
	// Kind is "move" when the last thing that happened was a move (pressed
	// with it or not yet pressed), "result" once the game is over, "clock"
	// for anything else (a press, an offer, a ruling, a correction).
	Kind       string
	Game       string
	Tournament string
	Round      int
	Table      int
	Ply        int
	Move       string // the last move in ICCS; "" before the first
	FEN        string
	Status     string
	Result     *string
	Reason     *string
	// Clocks is the view's clocks object, read at the instant the public
	// sees the game at.
	Clocks json.RawMessage
	// DelayMs is the event's broadcast delay: the public sees the game as
	// it stood that long ago.
	DelayMs int64
}

// GameBriefOf is the public's brief of a stored game item at nowMs (under a
// broadcast delay, of the game as it stood the delay ago). An item of a
// standalone game has no round: ok is false.
func GameBriefOf(rec *store.Record, nowMs int64) (b GameBrief, ok bool, err error) {
	sg, err := liveGame(rec)
	if err != nil || sg.Link.Tournament == "" {
		return GameBrief{}, false, err
	}
	seen, at := sg.public(nowMs)
	v := gameView(seen, at, seen.Game.Ply())
	clocks, err := json.Marshal(v.Clocks)
	if err != nil {
		return GameBrief{}, false, err
	}
	b = GameBrief{Game: sg.ID, Tournament: sg.Link.Tournament, Round: sg.Link.Round, Table: sg.Link.Table, Ply: v.Ply, FEN: v.FEN,
		Status: v.Status, Result: v.Result, Reason: v.Reason, Clocks: clocks, DelayMs: sg.delayMs(), Kind: briefKind(seen.Game)}
	if moves := seen.Game.Moves(); len(moves) > 0 {
		b.Move = moves[len(moves)-1].String()
	}
	return b, true, nil
}

// briefKind says what the last change of g was, from the game alone (the
// stream carries only the new image): over is a result; a last move not yet
// pressed, or one whose press started the running clock, is a move.
func briefKind(g *game.Game) string {
	if g.Status() == game.Over {
		return "result"
	}
	times := g.MoveTimes()
	if len(times) == 0 {
		return "clock"
	}
	c := g.Clock()
	if g.AwaitingPress() || (c.Running != clock.None && c.Since == times[len(times)-1]) {
		return "move"
	}
	return "clock"
}

// GameLink is where a stored game item is played and how far behind the
// play the public sees it.
type GameLink struct {
	Tournament string // "" for a standalone game
	Round      int
	Table      int
	DelayMs    int64 // the event's broadcast delay
}

// GameLinkOf reads a stored game item's link alone, not the game's moves.
func GameLinkOf(rec *store.Record) (GameLink, error) {
	n, k := binary.Uvarint(rec.Doc)
	if k <= 0 || uint64(len(rec.Doc)-k) < n {
		return GameLink{}, fmt.Errorf("httpapi: %s: corrupt game item", rec.PK)
	}
	var l gameLink
	if err := json.Unmarshal(rec.Doc[k:k+int(n)], &l); err != nil {
		return GameLink{}, fmt.Errorf("httpapi: %s: %w", rec.PK, err)
	}
	return GameLink{Tournament: l.Tournament, Round: l.Round, Table: l.Table, DelayMs: int64(l.Delay) * 1000}, nil
}
