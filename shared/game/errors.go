package game

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/rulebook"
)

// Error codes carried by *RuleError. They are stable: the HTTP layer maps them
// to statuses in one table and clients read them.
const (
	CodeForbidden       = "forbidden"        // the actor's role may not do this (403)
	CodeNotYourTurn     = "not_your_turn"    // a player acting for the side not to move
	CodeStalePly        = "stale_ply"        // the client's ply is not the game's (409)
	CodeGameOver        = "game_over"        // the game has a result
	CodePendingRuling   = "pending_ruling"   // G-6: clocks stopped, waiting for a ruling
	CodeIllegalMove     = "illegal_move"     // the rules refuse the move (Rule names which)
	CodeUnreadableMove  = "unreadable_move"  // no notation reads the text (N-4)
	CodeNotPressed      = "not_pressed"      // C-1: the last mover has not pressed yet
	CodeNothingToPress  = "nothing_to_press" // C-1: no move waits for a press
	CodeDrawNotAllowed  = "draw_offer_not_allowed"
	CodeNoDrawOffer     = "no_draw_offer"     // accept/decline without an offer to answer
	CodeClaimRefused    = "claim_refused"     // the claim's condition does not hold
	CodeInvalidRuling   = "invalid_ruling"    // a ruling that does not fit the game
	CodeInvalidArgument = "invalid_argument"  // an unknown kind or an out-of-range value
	CodeIllegalMoveFoul = "illegal_move_foul" // G-2: refused and recorded as a foul
	CodeIllegalMoveLoss = "illegal_move_loss" // G-2: the event counts it as a loss; the game is over
	// CodeRoundNotStarted: a player acted before the game's round started (C-1).
	CodeRoundNotStarted = "round_not_started"
	// CodeNotFinished: a result correction of a game that has no result.
	CodeNotFinished = "not_finished"
	// CodeRoundAlreadyStarted: Start on a game whose round has started.
	CodeRoundAlreadyStarted = "round_already_started"
)

// RuleError is a refusal of the game's rules: the core's one refusal type,
// rulebook.RuleError, whose Code is one of the codes above.
type RuleError = rulebook.RuleError

func refuse(code, rule, format string, args ...any) *RuleError {
	return &RuleError{Code: code, Rule: rule, Message: fmt.Sprintf(format, args...)}
}
