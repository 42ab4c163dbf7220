// Package combined holds the combined systems of S-4 and S-5: a Swiss
// followed by a knockout, the Swiss with last-place elimination, the N+1
// system, and seeded round-robin groups with same-place or cross finals.
// Each function takes standings as a ranked list of player ids (best first),
// as the standings package produces them, and returns who plays whom; the
// games themselves are paired by the knockout, roundrobin and Swiss
// packages.
package combined

import (
	"errors"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/pairing/knockout"
)

// ErrField reports a field too small or malformed for the system asked for.
var ErrField = errors.New("combined: field does not fit the system")

// KnockoutStage is the knockout after a Swiss (S-4, 001 §10.4.1).
type KnockoutStage int8

// The two knockout stages of 001 §10.4.1.
const (
	// TopTwo: one round — 1st v 2nd for the title, 3rd v 4th for bronze
	// (10.4.1.1).
	TopTwo KnockoutStage = iota + 1
	// TopFour: two rounds — 1st v 4th and 2nd v 3rd, then the winners play
	// the final and the losers for third place (10.4.1.2).
	TopFour
)

// SwissKnockout builds the knockout stage from the Swiss standings. Colours
// of its slow games are drawn by lot (10.4.1.3: knockout.DrawFirstRed). A
// TopTwo field of 2 or 3 plays only the final.
func SwissKnockout(ranked []string, stage KnockoutStage) (*knockout.Bracket, error) {
	switch stage {
	case TopTwo:
		if len(ranked) < 2 {
			return nil, fmt.Errorf("swiss then knockout, top two, %d players: %w", len(ranked), ErrField)
		}
		pairs := [][2]string{{ranked[0], ranked[1]}}
		if len(ranked) >= 4 {
			pairs = append(pairs, [2]string{ranked[2], ranked[3]})
		}
		return knockout.NewPlacings(pairs)
	case TopFour:
		if len(ranked) < 4 {
			return nil, fmt.Errorf("swiss then knockout, top four, %d players: %w", len(ranked), ErrField)
		}
		return knockout.NewSingle(ranked[:4], true)
	}
	return nil, fmt.Errorf("knockout stage %d: %w", stage, ErrField)
}

// Elimination is the Swiss with last-place elimination (积分末位淘汰制,
// S-4, 001 §10.4.1.4): once the event is past halfway, after each round the
// PerRound lowest-ranked players leave, until Keep remain for the last of
// Rounds rounds.
type Elimination struct {
	Rounds    int // rounds of the event
	FromRound int // first round after which players are dropped
	PerRound  int
	Keep      int
}

// PastHalfway is the first round after which more than half of rounds are
// played (赛程过半): 5 of 9, 6 of 10. It is the default FromRound.
func PastHalfway(rounds int) int { return rounds/2 + 1 }

// Eliminated returns who leaves after round, given the active players
// ranked after it (best first): the tail of ranked, in ranked order. Nobody
// leaves after a round before FromRound, after the last round, or below
// Keep.
func (e Elimination) Eliminated(round int, ranked []string) ([]string, error) {
	if e.Rounds < 1 || e.FromRound < 1 || e.PerRound < 0 || e.Keep < 0 || round < 1 {
		return nil, fmt.Errorf("elimination %+v after round %d: %w", e, round, ErrField)
	}
	if round < e.FromRound || round >= e.Rounds {
		return nil, nil
	}
	n := min(e.PerRound, len(ranked)-e.Keep)
	if n <= 0 {
		return nil, nil
	}
	return slices.Clone(ranked[len(ranked)-n:]), nil
}
