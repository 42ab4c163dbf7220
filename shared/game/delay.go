package game

import (
	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// AsOf is the game as it stood at the instant at (Unix ms), for a broadcast
// delay: the moves played by then, the game still being played when it
// ended later, the clocks as a press with each move would have left them.
// When nothing happened after at — no move, no end — it is g itself, and
// only the reading instant differs (the caller views it at at). Rulings,
// offers, fouls and clock corrections made after the last shown move are not
// shown until no move is hidden; the clocks of a game with hidden moves are
// replayed from the move times, so a correction made earlier shows again
// once the delay has passed. g is not changed.
func (g *Game) AsOf(at int64) *Game {
	k := len(g.times)
	for k > 0 && g.times[k-1] > at {
		k--
	}
	if k == len(g.moves) && (g.status != Over || g.endedAt <= at) {
		return g
	}
	h := &Game{startFEN: g.startFEN, rules: g.rules, startMs: g.startMs, lateLimitMs: g.lateLimitMs, rulingAskedBy: -1,
		moves: append([]xiangqi.Move(nil), g.moves[:k]...), times: append([]int64(nil), g.times[:k]...), version: g.version}
	h.offer.last = -1
	for side := range g.arrivedAt {
		if g.arrived[side] && g.arrivedAt[side] <= at {
			h.arrived[side], h.arrivedAt[side] = true, g.arrivedAt[side]
		}
	}
	for _, e := range g.log {
		if e.At <= at {
			h.log = append(h.log, e)
		}
	}
	if err := h.replay(); err != nil { // g's own moves: replayed when g was decoded
		panic("game: replaying a prefix of stored moves: " + err.Error())
	}
	h.clk = clock.New(g.clk.Control)
	if g.startMs != 0 && g.startMs <= at {
		h.clk = h.clk.Start(clock.Side(h.startSide()), g.startMs)
		for _, t := range h.times {
			if c, err := h.clk.Press(t); err == nil {
				h.clk = c
			}
		}
	}
	return h
}
