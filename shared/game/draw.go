package game

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// playerSide returns the side a player's action is for: a player's own, or
// the side a scribe records it for. Officials other than the scribe may not
// act for a player (O-1).
func playerSide(by Actor, what string) (xiangqi.Color, *RuleError) {
	if by.Role != Player && by.Role != Scribe {
		return 0, refuse(CodeForbidden, "O-1", "%s may not %s", by.Role.withArticle(), what)
	}
	return by.Side, nil
}

// OfferDraw offers a draw for by's side.
//
//   - D-1: only the side that has just moved, before it presses its clock; the
//     offer does not stop the clock. G-4: when neither side has mating
//     material, either side may offer on its own turn before moving.
//   - D-2: offers alternate; the offerer cannot withdraw. 000 §5 lets the third
//     offer of a game come from either side (第三次双方都可以提和) — a part of
//     its limit of three, so only under that limit; with another limit (or
//     none) offers alternate throughout.
//   - D-4: at most Rules.DrawOfferLimit per game (000: three).
//   - D-5/G-5: a side without mating material may not offer while the
//     opponent has it.
//
// While a repetition ruling is pending the players may still agree a draw
// (G-6 议和): either side may offer then, outside D-1, D-2 and D-4.
func (g *Game) OfferDraw(now int64, by Actor) error {
	if err := g.checkPlay(now, true); err != nil {
		return err
	}
	if err := g.checkNotAdjourned(); err != nil {
		return err
	}
	side, err := playerSide(by, "offer a draw")
	if err != nil {
		return err
	}
	if g.offer.pending {
		return refuse(CodeDrawNotAllowed, "D-3", "%s's offer is waiting for an answer", g.offer.by)
	}
	if g.status == Playing {
		if err := g.checkOffer(side); err != nil {
			// O-2 (000 ch.4 (9), (13), (15)): where the event adopts it, an
			// offer without mating material or repeated after a refusal
			// loses at once instead of being refused.
			// (15) 不与纪律处分: a loss, not a disciplinary penalty, so it
			// is logged as its own kind.
			if g.rules.OfferLoses && (err.Rule == "D-5" || err.Rule == "D-2") {
				g.logRuling(now, by, Ruling{Kind: RulingForbiddenOffer, Side: side,
					Note: fmt.Sprintf("O-2: %s (%s; 立即认负)", err.Message, err.Rule)})
				g.end(now, winFor(side.Opponent()), ForbiddenOffer)
				return nil
			}
			return err
		}
	}
	g.offer = offer{pending: true, by: side, ply: len(g.moves), made: g.offer.made + 1, last: int8(side)}
	g.version++
	return nil
}

// checkOffer applies D-1, D-2, D-4 and D-5 to an offer by side.
func (g *Game) checkOffer(side xiangqi.Color) *RuleError {
	dead := g.pos.DeadPosition()
	afterOwnMove := len(g.moves) > 0 && g.awaitingPress && side == g.lastMover()
	g4 := dead && !g.awaitingPress && side == g.pos.SideToMove()
	switch {
	case !afterOwnMove && !g4:
		if dead {
			return refuse(CodeDrawNotAllowed, "G-4", "without mating material on either side, offer on your own turn before moving, or after your move before pressing")
		}
		return refuse(CodeDrawNotAllowed, "D-1", "a draw may be offered only after one's own move and before pressing the clock")
	case g.rules.drawOfferLimit() >= 0 && g.offer.made >= g.rules.drawOfferLimit():
		return refuse(CodeDrawNotAllowed, "D-4", "all %d draw offers of this game have been made", g.rules.drawOfferLimit())
	case g.offer.last == int8(side) && !(g.offer.made == 2 && g.rules.drawOfferLimit() == 3):
		return refuse(CodeDrawNotAllowed, "D-2", "%s made the last offer; offers alternate", side)
	case !g.pos.HasMatingMaterial(side) && g.pos.HasMatingMaterial(side.Opponent()):
		return refuse(CodeDrawNotAllowed, "D-5", "%s has no mating material while %s has; it may not offer a draw (G-5)", side, side.Opponent())
	}
	return nil
}

// answer checks that by may answer a pending offer of the opponent (D-3).
func (g *Game) answer(now int64, by Actor, what string) *RuleError {
	if err := g.checkPlay(now, true); err != nil {
		return err
	}
	if err := g.checkNotAdjourned(); err != nil {
		return err
	}
	side, err := playerSide(by, what)
	if err != nil {
		return err
	}
	if !g.offer.pending || g.offer.by == side {
		return refuse(CodeNoDrawOffer, "D-3", "there is no draw offer for %s to answer", side)
	}
	return nil
}

// AcceptDraw accepts the opponent's pending offer: the game is drawn by
// agreement, final (D-3).
func (g *Game) AcceptDraw(now int64, by Actor) error {
	if err := g.answer(now, by, "accept a draw"); err != nil {
		return err
	}
	g.end(now, result.Draw, Agreement)
	return nil
}

// DeclineDraw declines the opponent's pending offer (D-3); making a move
// declines it too.
func (g *Game) DeclineDraw(now int64, by Actor) error {
	if err := g.answer(now, by, "decline a draw"); err != nil {
		return err
	}
	g.offer.pending = false
	g.version++
	return nil
}

// ClaimKind is what a player claims.
type ClaimKind int8

// The claims of the OpenAPI document.
const (
	ClaimTime      ClaimKind = iota // the opponent's flag has fallen (C-3)
	ClaimNoCapture                  // 自然限着 (G-3)
	ClaimRuling                     // 请裁: a repetition ruling (G-6)
)

var claimNames = [...]string{"time", "noCapture", "ruling"}

// String returns "time", "noCapture" or "ruling".
func (k ClaimKind) String() string {
	if k < 0 || int(k) >= len(claimNames) {
		return ""
	}
	return claimNames[k]
}

// ParseClaimKind reads "time", "noCapture" or "ruling".
func ParseClaimKind(s string) (ClaimKind, bool) {
	for i, n := range claimNames {
		if n == s {
			return ClaimKind(i), true
		}
	}
	return ClaimTime, false
}

// Claim makes a claim for by's side.
//   - time: the opponent's time has run out (C-3). Reading the game after the
//     deadline already decides it; the claim succeeds when that is so.
//   - noCapture: Rules.NoCaptureMoves rounds without a capture (G-3, default
//     60) make the game a draw.
//   - ruling: from 5 cycles of repetition either player may ask for the
//     arbiters' ruling (G-6 请裁); the clocks stop and the game is pending.
//     At 6 cycles the game is pending without a request.
func (g *Game) Claim(now int64, by Actor, kind ClaimKind) error {
	if _, err := playerSide(by, "claim for a player"); err != nil {
		return err
	}
	if err := g.checkStarted(now); err != nil && g.status != Over {
		return err
	}
	if kind == ClaimTime {
		g.Settle(now)
		if g.status == Over && g.reason == Time && g.result == winFor(by.Side) {
			return nil
		}
		if g.status == Over {
			return refuse(CodeGameOver, "", "the game is over: %v by %v", g.result, g.reason)
		}
		return refuse(CodeClaimRefused, "C-3", "%s's time has not run out", by.Side.Opponent())
	}
	if err := g.checkOpen(now, kind == ClaimRuling); err != nil {
		return err
	}
	if err := g.checkNotAdjourned(); err != nil {
		return err
	}
	switch kind {
	case ClaimNoCapture:
		n := g.pos.NoCaptureCount()
		if n < g.rules.noCapturePlies() {
			return refuse(CodeClaimRefused, "G-3", "%d moves without a capture, %d needed", n/2, g.rules.noCapturePlies()/2)
		}
		g.end(now, result.Draw, NoCapture)
	case ClaimRuling:
		if g.rules.Repetition != ArbiterRuling {
			return refuse(CodeClaimRefused, "G-6", "this event's rule set %v has no repetition ruling", g.rules.Repetition)
		}
		if g.status == Playing {
			if rep := g.repetition(false); rep.Cycles < RulingRequestCycles {
				return refuse(CodeClaimRefused, "G-6", "a ruling may be asked for from %d cycles; the position has repeated %d", RulingRequestCycles, rep.Cycles)
			}
			g.pend(now)
		}
		if g.rulingAskedBy < 0 {
			g.rulingAskedBy = int8(by.Side)
			g.version++
		}
	default:
		return refuse(CodeInvalidArgument, "", "unknown claim %d", kind)
	}
	return nil
}
