// Package result is the one result of a game that every layer shares: the
// game records it, standings score it, team matches add it up, pairings
// read it and the API writes it. It is the API's result ("1-0", "0-1",
// "1/2-1/2", "+-", "-+", "0-0"); Parse is the one reader, and it refuses
// anything else, so an unknown string is stopped where it enters instead of
// being scored one way here and another way there.
//
// A Result writes itself as its API string in any text encoding (JSON
// included), so stored items keep the string form they always had.
package result

import (
	"errors"
	"fmt"
	"strings"
)

// Result is how a game ended, from red's side. The zero value None means
// the game is still being played. The numbering is stable: the game's
// binary record stores it.
type Result int8

// The results. Forfeits are kept apart from played wins so that standings
// can mark them (S-6).
const (
	None           Result = iota // "" while playing; the API's null
	RedWins                      // "1-0"
	BlackWins                    // "0-1"
	Draw                         // "1/2-1/2"
	RedByForfeit                 // "+-": black forfeited
	BlackByForfeit               // "-+": red forfeited
	DoubleForfeit                // "0-0": both forfeited (C-6 双方弃权)
)

var names = [...]string{"", "1-0", "0-1", "1/2-1/2", "+-", "-+", "0-0"}

// ErrUnknown is the error Parse wraps: a string that is not one of the API's
// results.
var ErrUnknown = errors.New("unknown result")

// String returns the API name, such as "1-0"; "" for None and for a value
// outside the results.
func (r Result) String() string {
	if !r.valid() {
		return ""
	}
	return names[r]
}

func (r Result) valid() bool { return r >= None && int(r) < len(names) }

// Names lists every result's API name, for messages and schemas.
func Names() []string { return append([]string(nil), names[1:]...) }

// Parse reads an API result name. Anything else, "" included, is an error
// wrapping ErrUnknown that lists the results.
func Parse(s string) (Result, error) {
	for i := RedWins; int(i) < len(names); i++ {
		if names[i] == s {
			return i, nil
		}
	}
	return None, fmt.Errorf("%w %q: want %s", ErrUnknown, s, strings.Join(quoted(), ", "))
}

func quoted() []string {
	q := Names()
	for i, n := range q {
		q[i] = `"` + n + `"`
	}
	return q
}

// MarshalText writes the API name; None writes "".
func (r Result) MarshalText() ([]byte, error) {
	if !r.valid() {
		return nil, fmt.Errorf("%w: Result(%d)", ErrUnknown, int8(r))
	}
	return []byte(names[r]), nil
}

// UnmarshalText reads what MarshalText wrote: an API name, or "" for None
// (a stored game still being played). Anything else is an error.
func (r *Result) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*r = None
		return nil
	}
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// Decided reports whether the game has a result.
func (r Result) Decided() bool { return r != None && r.valid() }

// Forfeit reports a result decided without the game being played: "+-",
// "-+" and "0-0" (C-6, S-6).
func (r Result) Forfeit() bool {
	return r == RedByForfeit || r == BlackByForfeit || r == DoubleForfeit
}

// Score returns each side's outcome: +1 a win, 0 a draw, -1 a loss. A
// double forfeit is a loss for both (C-6); None (and any value outside the
// results) scores 0, 0 with ok false.
func (r Result) Score() (red, black int, ok bool) {
	switch r {
	case RedWins, RedByForfeit:
		return 1, -1, true
	case BlackWins, BlackByForfeit:
		return -1, 1, true
	case Draw:
		return 0, 0, true
	case DoubleForfeit:
		return -1, -1, true
	}
	return 0, 0, false
}
