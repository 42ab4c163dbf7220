package standings

import (
	"errors"
	"fmt"

	"github.com/xqtour/xqtour/shared/result"
)

// Errors returned by this package; each is wrapped with the offending name.
var (
	// ErrUnknownScoring: ParseScoring was given a name it does not know.
	ErrUnknownScoring = errors.New("unknown scoring")
	// ErrUnknownCriterion: a chain names a tie-break this package does not have.
	ErrUnknownCriterion = errors.New("unknown tie-break criterion")
	// ErrUnknownSystem: DefaultChain was given a system name outside API.md.
	ErrUnknownSystem = errors.New("unknown competition system")
	// ErrBadResult: a game carries a value outside result.Result's results.
	ErrBadResult = errors.New("unknown result")
	// ErrUnknownPlayer: a game, bye, withdrawal or team refers to an id not in the event.
	ErrUnknownPlayer = errors.New("unknown player")
	// ErrUnknownTeam: a match or bye refers to a team not in the event.
	ErrUnknownTeam = errors.New("unknown team")
)

// Scoring is the points a game is worth to each side (K-1, seed 001 §13.1,
// §13.3). A draw may be worth different points to red and to black.
type Scoring struct {
	Name      string // stable name, as accepted by ParseScoring
	Win       int
	Loss      int
	DrawRed   int
	DrawBlack int
}

// Scoring names accepted by ParseScoring.
const (
	// Scoring210 is the default (K-1, seed 001 §13.1): win 2, draw 1, loss 0.
	Scoring210 = "2-1-0"
	// Scoring310 is the K-1 option win 3, draw 1, loss 0 (seed 001 §13.3).
	Scoring310 = "3-1-0"
	// Scoring30RedBlack is the K-1 option win 3, loss 0, a draw worth 1 to red
	// and 2 to black (seed 001 §13.3: 先手方和棋计1分、后手方和棋计2分).
	Scoring30RedBlack = "3-0-redblack"
)

// DefaultScoring is K-1's default, 2/1/0.
var DefaultScoring = Scoring{Name: Scoring210, Win: 2, Loss: 0, DrawRed: 1, DrawBlack: 1}

// MarshalText writes the scoring's name, as an event's stored settings have
// always held it; the zero Scoring writes "", which reads back as the
// default.
func (s Scoring) MarshalText() ([]byte, error) { return []byte(s.Name), nil }

// UnmarshalText reads a name ParseScoring accepts; an unknown one is an
// error wrapping ErrUnknownScoring.
func (s *Scoring) UnmarshalText(b []byte) error {
	sc, err := ParseScoring(string(b))
	if err != nil {
		return err
	}
	*s = sc
	return nil
}

// ParseScoring returns the scoring with the given name; "" is the default
// 2-1-0 (API.md: settings not given take the rule book's defaults).
func ParseScoring(name string) (Scoring, error) {
	switch name {
	case "", Scoring210:
		return DefaultScoring, nil
	case Scoring310:
		return Scoring{Name: Scoring310, Win: 3, Loss: 0, DrawRed: 1, DrawBlack: 1}, nil
	case Scoring30RedBlack:
		return Scoring{Name: Scoring30RedBlack, Win: 3, Loss: 0, DrawRed: 1, DrawBlack: 2}, nil
	}
	return Scoring{}, fmt.Errorf("%w: %q (want %s, %s or %s)", ErrUnknownScoring, name, Scoring210, Scoring310, Scoring30RedBlack)
}

// outcome is a result seen from red's side.
type outcome struct {
	pending bool
	red     int8 // +1 red won, 0 draw, -1 red lost
	black   int8
	forfeit bool
}

// parseResult reads a result from red's side; None is a game still being
// played. A double forfeit is a loss for both sides (result.Score).
func parseResult(r result.Result) (outcome, error) {
	if r == result.None {
		return outcome{pending: true}, nil
	}
	red, black, ok := r.Score()
	if !ok {
		return outcome{}, fmt.Errorf("%w: Result(%d)", ErrBadResult, int(r))
	}
	return outcome{red: int8(red), black: int8(black), forfeit: r.Forfeit()}, nil
}

// points is what a side scores for a win (+1), draw (0) or loss (-1).
func (s Scoring) points(o int8, black bool) int {
	switch {
	case o > 0:
		return s.Win
	case o < 0:
		return s.Loss
	case black:
		return s.DrawBlack
	}
	return s.DrawRed
}
