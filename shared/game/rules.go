package game

import "fmt"

// RepetitionRule is how a game treats repeated positions (G-6).
type RepetitionRule int8

// The rule sets. The zero value is the seeds' own.
const (
	// ArbiterRuling is 000 ch.8 请裁制度: warn at 5 cycles, either player may ask
	// for a ruling from 5, at 6 the clocks stop and three arbiters rule.
	ArbiterRuling RepetitionRule = iota
	// ThreefoldDraw: the third occurrence of a position is a draw.
	ThreefoldDraw
	// PerpetualCheckLoses: at the third occurrence, a side that gave check with
	// every move of the cycle loses (if both did, or neither, it is a draw).
	PerpetualCheckLoses
)

// repetitionNames are the API's names of the rule sets (an event's
// rules.repetition); ArbiterRuling is "ruling".
var repetitionNames = [...]string{"ruling", "threefoldDraw", "perpetualCheckLoses"}

// String returns the rule set's stable name: "ruling", "threefoldDraw" or
// "perpetualCheckLoses".
func (r RepetitionRule) String() string {
	if r < 0 || int(r) >= len(repetitionNames) {
		return ""
	}
	return repetitionNames[r]
}

// ParseRepetitionRule reads a rule set name.
func ParseRepetitionRule(s string) (RepetitionRule, bool) {
	for i, n := range repetitionNames {
		if n == s {
			return RepetitionRule(i), true
		}
	}
	return ArbiterRuling, false
}

// MarshalText writes the rule set's name, as an event's stored settings
// have always held it.
func (r RepetitionRule) MarshalText() ([]byte, error) {
	if r.String() == "" {
		return nil, fmt.Errorf("unknown repetition rule set %d (G-6)", r)
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a name MarshalText wrote; "" is the zero value.
func (r *RepetitionRule) UnmarshalText(b []byte) error {
	v, ok := ParseRepetitionRule(string(b))
	if !ok && len(b) > 0 {
		return fmt.Errorf("unknown repetition rule set %q (G-6)", b)
	}
	*r = v
	return nil
}

// IllegalMoveRule is what an illegal move does (G-2, B-10).
type IllegalMoveRule int8

// The choices; the zero value is the online default.
const (
	// RejectIllegal refuses the move with the rule it breaks; nothing changes.
	RejectIllegal IllegalMoveRule = iota
	// IllegalIsFoul records a foul (犯规); the third foul loses (G-2).
	IllegalIsFoul
	// IllegalLoses ends the game at once, as 000 ch.2 §4 treats a move into
	// check, a flying general or a capture of one's own piece.
	IllegalLoses
)

var illegalNames = [...]string{"reject", "foul", "lose"}

// String returns "reject", "foul" or "lose".
func (r IllegalMoveRule) String() string {
	if r < 0 || int(r) >= len(illegalNames) {
		return ""
	}
	return illegalNames[r]
}

// ParseIllegalMoveRule reads "reject", "foul" or "lose".
func ParseIllegalMoveRule(s string) (IllegalMoveRule, bool) {
	for i, n := range illegalNames {
		if n == s {
			return IllegalMoveRule(i), true
		}
	}
	return RejectIllegal, false
}

// MarshalText writes "reject", "foul" or "lose", as an event's stored
// settings have always held it.
func (r IllegalMoveRule) MarshalText() ([]byte, error) {
	if r.String() == "" {
		return nil, fmt.Errorf("unknown illegal-move handling %d (G-2)", r)
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a name MarshalText wrote; "" is the zero value.
func (r *IllegalMoveRule) UnmarshalText(b []byte) error {
	v, ok := ParseIllegalMoveRule(string(b))
	if !ok && len(b) > 0 {
		return fmt.Errorf("unknown illegal-move handling %q (G-2)", b)
	}
	*r = v
	return nil
}

// Defaults of 000 used when a Rules field is zero.
const (
	DefaultDrawOffers     = 3  // D-4 只有三次
	DefaultNoCaptureMoves = 60 // G-3 连续60个回合
	FoulLimit             = 3  // G-2 三次犯规
	RulingRequestCycles   = 5  // G-6 from 5 cycles a player may ask for a ruling
	PendingRulingCycles   = 6  // G-6 at 6 cycles the clocks stop
	MaxNoCaptureMoves     = 200
	MaxDrawOffers         = 100
)

// Rules are a game's event options. The zero value is 000's rule book. They
// are the one rules type: an event's settings hold them (tournament.Rules
// embeds them), validated once when the event is created, and every game of
// the event is set up with them as they are.
type Rules struct {
	Repetition   RepetitionRule
	IllegalMoves IllegalMoveRule
	// DrawOfferLimit limits offers per game (D-4): 0 means 000's three,
	// negative means no limit.
	DrawOfferLimit int
	// NoCaptureMoves is the 自然限着 in rounds (both sides' moves); 0 means 60
	// (G-3, "根据等级酌减").
	NoCaptureMoves int
	// DeadPositionDraw ends a game as a draw as soon as neither side has
	// mating material (G-4); off by default.
	DeadPositionDraw bool
	// OfferLoses makes the draw offers 000 ch.4 forbids an immediate loss
	// (O-2; (15) 运动员违反上述规定时，立即认负) instead of a refusal: an offer by
	// a side without mating material against one with it ((9)), and an
	// offer repeated after the opponent refused ((13) 提议作和经对方拒绝后,
	// 连续提出). Off by default.
	OfferLoses bool
	// DroppedPieceLoses makes a side's second dropped piece in a game a
	// loss (O-2, 000 ch.7 §2 第4条: 每局同一运动员不可有两次，如出现两次运动员
	// 立刻认负). Dropped pieces are recorded by a scribe or an arbiter
	// (RulingDroppedPiece); off, they are only logged. The zero value is
	// off so that stored games and events keep what they held; an event or
	// game created through the API has it on unless it says otherwise (the
	// rule book's reading, O-2).
	DroppedPieceLoses bool
}

// Validate reports a field outside its range.
func (r Rules) Validate() error {
	switch {
	case r.Repetition < 0 || int(r.Repetition) >= len(repetitionNames):
		return fmt.Errorf("rules.repetition: unknown rule set %d (G-6)", r.Repetition)
	case r.IllegalMoves < 0 || int(r.IllegalMoves) >= len(illegalNames):
		return fmt.Errorf("rules.illegalMoves: unknown choice %d (G-2)", r.IllegalMoves)
	case r.DrawOfferLimit > MaxDrawOffers:
		return fmt.Errorf("rules.drawOfferLimit: at most %d (D-4)", MaxDrawOffers)
	case r.NoCaptureMoves < 0 || r.NoCaptureMoves > MaxNoCaptureMoves:
		return fmt.Errorf("rules.noCaptureMoves: 0…%d (G-3)", MaxNoCaptureMoves)
	}
	return nil
}

// drawOfferLimit returns the D-4 limit, or -1 for none.
func (r Rules) drawOfferLimit() int {
	switch {
	case r.DrawOfferLimit == 0:
		return DefaultDrawOffers
	case r.DrawOfferLimit < 0:
		return -1
	}
	return r.DrawOfferLimit
}

// noCapturePlies returns the G-3 count in plies.
func (r Rules) noCapturePlies() int {
	if r.NoCaptureMoves == 0 {
		return 2 * DefaultNoCaptureMoves
	}
	return 2 * r.NoCaptureMoves
}
