package game

import (
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// A game's result is result.Result, the one result type of the core
// (shared/result); this file keeps why the game ended.

// winFor returns the played win for c.
func winFor(c xiangqi.Color) result.Result {
	if c == xiangqi.Red {
		return result.RedWins
	}
	return result.BlackWins
}

// Reason says why a game ended; the names are stable and safe to store.
type Reason int8

// The reasons. The first eleven are the API's; the rest name the event options
// and penalties this package adds.
const (
	NoReason         Reason = iota
	Checkmate               // G-1
	Stalemate               // G-1 困毙
	Resignation             // G-2
	Time                    // C-3
	Agreement               // D-3
	NoCapture               // G-3 自然限着
	DeadPosition            // G-4 event option
	RepetitionRuling        // G-6 three arbiters' ruling
	Fouls                   // G-2 three fouls
	Forfeit                 // C-6 late arrival
	ArbiterDecision         // a result recorded or corrected by an official
	Threefold               // threefoldDraw rule set
	PerpetualCheck          // perpetualCheckLoses rule set
	IllegalMove             // G-2/B-10 when the event counts an illegal move as a loss
	Penalty                 // O-2 loss of the game or expulsion
	RecordSays              // the result an imported record gives, its cause not written
	DroppedPiece            // O-2 a second dropped piece in the game (000 ch.7 §2 第4条)
	ForbiddenOffer          // O-2 a forbidden draw offer (000 ch.4 (9), (13), (15) 立即认负)
)

var reasonNames = [...]string{"", "checkmate", "stalemate", "resignation", "time", "agreement",
	"noCapture", "deadPosition", "repetitionRuling", "fouls", "forfeit", "arbiter", "threefold",
	"perpetualCheck", "illegalMove", "penalty", "record", "droppedPiece", "forbiddenOffer"}

// String returns the API name, such as "checkmate"; "" for NoReason.
func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonNames) {
		return ""
	}
	return reasonNames[r]
}

// ReasonNames lists every reason's API name, for messages and schemas.
func ReasonNames() []string { return append([]string(nil), reasonNames[1:]...) }

// ParseReason reads an API reason name; ok is false for anything else.
func ParseReason(s string) (r Reason, ok bool) {
	for i := Checkmate; int(i) < len(reasonNames); i++ {
		if reasonNames[i] == s {
			return i, true
		}
	}
	return NoReason, false
}

// Status is where a game stands.
type Status int8

// The statuses; the names are stable.
const (
	Playing       Status = iota
	PendingRuling        // G-6 待判局面: clocks stopped, waiting for agreement or the arbiters
	Over
)

// String returns "playing", "pendingRuling" or "over".
func (s Status) String() string {
	switch s {
	case PendingRuling:
		return "pendingRuling"
	case Over:
		return "over"
	}
	return "playing"
}
