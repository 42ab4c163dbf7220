package standings

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/result"
)

// Errors returned by this package; each is wrapped with the offending name.
var (
	// ErrUnknownScoring: ParseScoring was given a name it does not know.
	ErrUnknownScoring = errors.New("unknown scoring")
	// ErrUnknownCriterion: a chain names a tie-break this package does not have.
	ErrUnknownCriterion = errors.New("unknown tie-break criterion")
	// ErrUnknownSystem: DefaultChain was given a system name outside the API's.
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

// MaxScoringPoints bounds the points of one game in any scoring.
const MaxScoringPoints = 100

// ParseScoring returns the scoring with the given name; "" is the default
// 2-1-0 (the OpenAPI document: settings not given take the rule book's defaults). Besides
// the named presets, 001 §13.3 (可根据比赛需要调整双方胜、负、和的记分标准 …
// 等) allows any points: "W-D-L" (such as "4-2-0") gives a win W, a draw D
// and a loss L; "W-R/B-L" (such as "3-1/2-0") gives a draw R to red and B
// to black. Each is 0…MaxScoringPoints, a loss less than a win and a draw
// neither more than a win nor less than a loss.
func ParseScoring(name string) (Scoring, error) {
	switch name {
	case "", Scoring210:
		return DefaultScoring, nil
	case Scoring310:
		return Scoring{Name: Scoring310, Win: 3, Loss: 0, DrawRed: 1, DrawBlack: 1}, nil
	case Scoring30RedBlack:
		return Scoring{Name: Scoring30RedBlack, Win: 3, Loss: 0, DrawRed: 1, DrawBlack: 2}, nil
	}
	return parsePoints(name)
}

// parsePoints reads "W-D-L" or "W-R/B-L" (K-1, 001 §13.3).
func parsePoints(name string) (Scoring, error) {
	bad := func(why string) (Scoring, error) {
		return Scoring{}, fmt.Errorf("%w: %q: %s (want %s, %s, %s, or any \"win-draw-loss\" points such as \"4-2-0\", or \"win-red/black-loss\" such as \"3-1/2-0\")",
			ErrUnknownScoring, name, why, Scoring210, Scoring310, Scoring30RedBlack)
	}
	parts := strings.Split(name, "-")
	if len(parts) != 3 {
		return bad("three parts separated by -")
	}
	num := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && n >= 0 && n <= MaxScoringPoints && strconv.Itoa(n) == s
	}
	var sc Scoring
	var ok1, ok2, ok3, ok4 bool
	sc.Win, ok1 = num(parts[0])
	sc.Loss, ok2 = num(parts[2])
	red, black, colour := strings.Cut(parts[1], "/")
	sc.DrawRed, ok3 = num(red)
	sc.DrawBlack, ok4 = sc.DrawRed, ok3
	if colour {
		sc.DrawBlack, ok4 = num(black)
	}
	switch {
	case !ok1 || !ok2 || !ok3 || !ok4:
		return bad(fmt.Sprintf("points are whole numbers from 0 to %d", MaxScoringPoints))
	case sc.Loss >= sc.Win:
		return bad("a win must be worth more than a loss")
	case min(sc.DrawRed, sc.DrawBlack) < sc.Loss || max(sc.DrawRed, sc.DrawBlack) > sc.Win:
		return bad("a draw is worth no more than a win and no less than a loss")
	}
	sc.Name = name
	return sc, nil
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
