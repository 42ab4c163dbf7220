package game

import (
	"errors"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// CodeAdjourned refuses play in an adjourned game until it is resumed (C-7).
const CodeAdjourned = "adjourned"

// CodeNotAdjourned refuses a resumption of a game that is not adjourned (C-7).
const CodeNotAdjourned = "not_adjourned"

// sealed is an adjourned game's sealed move (封棋, 000 ch.3 书记员 3): the
// move the side to move has chosen, kept secret until the game resumes.
type sealed struct {
	on   bool
	move xiangqi.Move
	by   xiangqi.Color
	at   int64
}

// Adjourned reports whether the game is adjourned, since when (Unix ms) and
// by whose sealed move. The move itself is not shown to anyone.
func (g *Game) Adjourned() (at int64, by xiangqi.Color, ok bool) {
	return g.seal.at, g.seal.by, g.seal.on
}

// Adjourn seals the side to move's next move and adjourns the game (C-7,
// 000 ch.3 书记员 3 封棋、续赛): the move is checked legal but not played nor
// shown, and the clocks stop, the sealer's charged with the time it took to
// choose the move. The player to move seals it, or the board's scribe or an
// official for it; ply is the moves the caller has seen, as for Move. Until
// Resume nothing but a resignation, a recorded result or a ruling changes
// the game.
func (g *Game) Adjourn(now int64, by Actor, text string, ply int) error {
	if err := g.checkPlay(now, false); err != nil {
		return err
	}
	if g.seal.on {
		return refuse(CodeAdjourned, "C-7", "the game is already adjourned, since %d", g.seal.at)
	}
	mover := g.pos.SideToMove()
	switch {
	case by.Role == Player && by.Side != mover:
		return refuse(CodeNotYourTurn, "C-7", "only %s, to move, seals the move", mover)
	case by.Role != Player && !by.Role.records():
		return refuse(CodeForbidden, "O-1", "%s may not adjourn a game", by.Role.withArticle())
	}
	if ply != len(g.moves) {
		return refuse(CodeStalePly, "", "the game is at ply %d, not %d", len(g.moves), ply)
	}
	if g.awaitingPress {
		return refuse(CodeNotPressed, "C-1", "%s has moved but not pressed its clock: the move sealed is the next one", g.lastMover())
	}
	if _, _, flagged := g.clk.Flagged(now); flagged {
		return refuse(CodeNotYourTurn, "C-3", "a flag has fallen; the result waits for the late limit (C-6)")
	}
	m, err := notation.ParseAny(g.pos, text)
	if err != nil {
		code := CodeUnreadableMove // a sealed move is never a foul: it is refused
		if ime := (*xiangqi.IllegalMoveError)(nil); errors.As(err, &ime) {
			code = CodeIllegalMove
		}
		return &RuleError{Code: code, Rule: "C-7", Message: "the sealed move: " + err.Error(), Err: err}
	}
	g.clk = g.clk.Stop(now)
	g.seal = sealed{on: true, move: m, by: mover, at: now}
	g.logRuling(now, by, Ruling{Kind: RulingAdjourn, Side: mover})
	return nil
}

// Resume resumes an adjourned game (续赛, C-7): the sealed move is played
// now and its clock pressed, and the opponent's clock runs from now. Each
// side has the time it had at the adjournment; the time between counts for
// neither. The board's scribe or an official resumes it.
func (g *Game) Resume(now int64, by Actor) error {
	if !by.Role.records() {
		return refuse(CodeForbidden, "O-1", "the scribe or an official resumes a game; %s may not", by.Role.withArticle())
	}
	g.Settle(now)
	switch {
	case g.status == Over:
		return refuse(CodeGameOver, "", "the game is over: %v by %v", g.result, g.reason)
	case !g.seal.on:
		return refuse(CodeNotAdjourned, "C-7", "the game is not adjourned")
	}
	s := g.seal
	g.seal = sealed{}
	g.logRuling(now, by, Ruling{Kind: RulingResume, Side: s.by})
	g.clk = g.clk.Start(clock.Side(s.by), now)
	g.play(now, s.move)
	if g.status == Playing {
		return g.press(now)
	}
	return nil
}

// checkNotAdjourned refuses play while the game is adjourned (C-7).
func (g *Game) checkNotAdjourned() *RuleError {
	if g.seal.on {
		return refuse(CodeAdjourned, "C-7", "the game is adjourned with %s's sealed move; it resumes with POST /games/{gid}/resume", g.seal.by)
	}
	return nil
}
