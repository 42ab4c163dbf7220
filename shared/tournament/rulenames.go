package tournament

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
)

// RuleNames is an event's or a standalone game's rule options as a request
// names them (the OpenAPI document's Rules): the repetition rule set and
// the illegal-move handling by name, the rest as the typed rules hold them.
// The HTTP layer's JSON shape has these fields in this order, so that it
// converts to and from RuleNames as it is.
type RuleNames struct {
	Repetition       string
	IllegalMoves     string
	NoCaptureMoves   int
	DrawOfferLimit   int
	DeadPositionDraw bool
	LateForfeitMs    int64
	RecordArrivals   bool
	OfferLoses       bool
	// DroppedPieceLoses is a pointer so that an absent option takes the
	// rule book's default, on (000 ch.7 §2 第4条 如出现两次运动员立刻认负);
	// an event's stored settings keep what they hold.
	DroppedPieceLoses *bool
}

// Rules reads the named options into the typed rules, refusing an unknown
// rule set or handling by its field and rule; nil, or an absent name, is
// the zero value, the rule book's default. Ranges and defaults are the
// event's (Settings.Normalize).
func (n *RuleNames) Rules() (Rules, error) {
	if n == nil {
		n = &RuleNames{}
	}
	dropped := n.DroppedPieceLoses == nil || *n.DroppedPieceLoses
	rep, ok := game.ParseRepetitionRule(n.Repetition)
	if !ok && n.Repetition != "" {
		return Rules{}, &FieldError{Field: "rules.repetition", Message: fmt.Sprintf("unknown rule set %q (want ruling, threefoldDraw or perpetualCheckLoses)", n.Repetition), Rule: "G-6"}
	}
	ill, ok := game.ParseIllegalMoveRule(n.IllegalMoves)
	if !ok && n.IllegalMoves != "" {
		return Rules{}, &FieldError{Field: "rules.illegalMoves", Message: fmt.Sprintf("unknown handling %q (want reject, foul or lose)", n.IllegalMoves), Rule: "G-2"}
	}
	return Rules{Rules: game.Rules{Repetition: rep, IllegalMoves: ill, NoCaptureMoves: n.NoCaptureMoves,
		DrawOfferLimit: n.DrawOfferLimit, DeadPositionDraw: n.DeadPositionDraw,
		OfferLoses: n.OfferLoses, DroppedPieceLoses: dropped}, LateForfeitMs: n.LateForfeitMs, RecordArrivals: n.RecordArrivals}, nil
}

// Standalone is the rules of a standalone game with control tc as n names
// them (StandaloneRules decides what a name left out means, G-6).
func (n *RuleNames) Standalone(tc clock.Control) (game.Rules, error) {
	r, err := n.Rules()
	if err != nil {
		return game.Rules{}, err
	}
	return StandaloneRules(tc, r, n != nil && n.Repetition != "")
}

// Names is r as a request names it: what Rules reads back to r.
func (r Rules) Names() RuleNames {
	dropped := r.DroppedPieceLoses
	return RuleNames{Repetition: r.Repetition.String(), IllegalMoves: r.IllegalMoves.String(), NoCaptureMoves: r.NoCaptureMoves,
		DrawOfferLimit: r.DrawOfferLimit, DeadPositionDraw: r.DeadPositionDraw, LateForfeitMs: r.LateForfeitMs, RecordArrivals: r.RecordArrivals,
		OfferLoses: r.OfferLoses, DroppedPieceLoses: &dropped}
}
