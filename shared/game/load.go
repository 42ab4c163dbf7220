package game

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// MaxRecordMoves bounds the moves a loaded record may hold: far beyond any
// real game (the no-capture rule ends one long before), small enough that a
// game item stays well inside the store's item size.
const MaxRecordMoves = 1000

// FromRecord builds a game from a record's moves, as POST /games/import does
// with a PGN file: s gives the start position, the time control and the
// rules; the moves are played at now, without clocks or the automatic draws
// (what the record shows was played). res is the record's result: result.None
// leaves the game in progress from its last position with the side to move's
// clock running; why may be NoReason, and is then "record". A record whose
// last move mates or stalemates ends by that (G-1), and a result that
// contradicts it is refused.
func FromRecord(s Setup, moves []xiangqi.Move, res result.Result, why Reason, now int64) (*Game, error) {
	g, err := New(s)
	if err != nil {
		return nil, err
	}
	if err := g.load(now, moves, res, why); err != nil {
		return nil, err
	}
	g.version = 0
	return g, nil
}

// LoadRecord replaces the moves entered so far with a record's — an arbiter
// or the board's scribe typing in the scoresheet of a game played over the
// board — and logs who did it, when, and what it replaced (O-2). The record
// starts from the game's own start position. The clocks keep the time left
// to each side and run for the side to move unless the record ends the game;
// a finished game's record may be loaded only by an arbiter (a correction).
func (g *Game) LoadRecord(now int64, by Actor, moves []xiangqi.Move, res result.Result, why Reason) error {
	if err := MayLoadRecord(by); err != nil {
		return err
	}
	g.Settle(now)
	if g.status == Over && by.Role != Arbiter && by.Role != ChiefArbiter {
		return refuse(CodeGameOver, "O-1", "the game is over (%v by %v): only an arbiter may replace its record", g.result, g.reason)
	}
	before := fmt.Sprintf("%d moves", len(g.moves))
	if g.status == Over {
		before += fmt.Sprintf(", %v by %v", g.result, g.reason)
	}
	saved := *g
	if err := g.load(now, moves, res, why); err != nil {
		*g = saved
		return err
	}
	after := fmt.Sprintf("%d moves", len(g.moves))
	if g.status == Over {
		after += fmt.Sprintf(", %v by %v", g.result, g.reason)
	}
	g.logRuling(now, by, Ruling{Kind: RulingLoad, Side: g.pos.SideToMove(), Result: g.result, Reason: g.reason,
		Note: "record loaded: " + after + " in place of " + before})
	return nil
}

// load plays moves from the start position at now in place of the game's.
func (g *Game) load(now int64, moves []xiangqi.Move, res result.Result, why Reason) error {
	if len(moves) > MaxRecordMoves {
		return refuse(CodeInvalidArgument, "", "the record has %d moves; at most %d are read", len(moves), MaxRecordMoves)
	}
	if res != result.None && res.String() == "" {
		return refuse(CodeInvalidArgument, "", "unknown result %d", res)
	}
	g.moves, g.times = nil, nil
	if err := g.replay(); err != nil {
		return err
	}
	for i, m := range moves {
		if st := g.pos.Status(); st != xiangqi.Ongoing {
			return refuse(CodeInvalidArgument, "G-1", "the record goes on after move %d, where the game ended (%v)", i, st)
		}
		captures := g.pos.Captured(m) != xiangqi.NoPiece
		if err := g.pos.Play(m); err != nil {
			return &RuleError{Code: CodeIllegalMove, Message: fmt.Sprintf("move %d: %v", i+1, err), Err: err}
		}
		g.moves = append(g.moves, m)
		g.times = append(g.times, now)
		g.hashes = append(g.hashes, g.pos.Hash())
		if captures {
			g.base = len(g.moves)
		}
	}
	g.status, g.result, g.reason, g.endedAt = Playing, result.None, NoReason, 0
	g.awaitingPress = false
	g.offer.pending = false
	g.rulingAskedBy = -1
	g.version++
	switch st := g.pos.Status(); {
	case st == xiangqi.Checkmate || st == xiangqi.Stalemate:
		// G-1: the side that cannot move loses, mated or stalemated (困毙).
		won, because := winFor(g.lastMover()), Checkmate
		if st == xiangqi.Stalemate {
			because = Stalemate
		}
		if res != result.None && res != won {
			return refuse(CodeInvalidArgument, "G-1", "the record gives %v, but its last move ends the game by %v: %v", res, because, won)
		}
		g.end(now, won, because)
	case res != result.None:
		if why == NoReason {
			why = RecordSays
		}
		g.end(now, res, why)
	default:
		g.clk = g.clk.Start(clock.Side(g.pos.SideToMove()), now)
	}
	return nil
}

// StartFEN returns the FEN of the position the game started from, as the
// engine writes it.
func (g *Game) StartFEN() string {
	if g.startFEN == "" {
		return xiangqi.NewPosition().FEN()
	}
	return g.startFEN
}
