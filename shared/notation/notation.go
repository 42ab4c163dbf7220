// Package notation reads and writes xiangqi moves in the notations of shared/RULES.md
// N-1…N-4: ICCS coordinates (h2e2), WXF (C2=5), the traditional Chinese
// notation (炮二平五, 馬8進7), 一字三数 (炮253) and 一字四数 (馬33-25).
//
// Every notation needs the position the move is played from: the Chinese and
// WXF forms count files from the mover's own right and tell tandem pieces
// apart by what else stands on the file. Parse only ever returns a legal move
// of that position.
//
// Where each concept lives: notation.go the Notation interface and ParseAny;
// one file per notation (iccs.go, wxf.go, chinese.go, yz3.go, yz4.go), with
// board.go and chars.go what they share; pgn.go game records and replay.go
// their moves replayed.
package notation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Notation writes a legal move of a position as text and reads it back.
type Notation interface {
	// Name is the registry name, such as "wxf"; ByName(n.Name()) returns n.
	Name() string
	// Format writes m, which must be legal in p.
	Format(p *xiangqi.Position, m xiangqi.Move) (string, error)
	// Parse reads s as a move of p; the move it returns is legal in p.
	// Its errors are *ParseError.
	Parse(p *xiangqi.Position, s string) (xiangqi.Move, error)
}

// ErrUnreadable is wrapped by every *ParseError, so callers can test
// errors.Is(err, ErrUnreadable) without caring which notation failed.
var ErrUnreadable = errors.New("unreadable move")

// ParseError says why a text is not a legal move of the position. Reason is a
// sentence for the player, such as "no horse on file 3 can reach 25".
type ParseError struct {
	Notation string // registry name of the notation that read Input
	Input    string
	Reason   string
	// Err is the rules engine's *xiangqi.IllegalMoveError when the text named
	// a move that the rules refuse (it carries the rule id (shared/RULES.md)), else nil.
	Err error
	// Candidates lists, in ICCS, the legal moves an ambiguous text could
	// mean (two soldiers on a file and no 前/后 or +/-); nil otherwise.
	Candidates []string

	// shaped is set when Input had the shape of the notation and failed on
	// the position; ParseAny reports such an error rather than a shape error.
	shaped bool
}

// Error returns `<notation> "<input>": <reason>`.
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s %q: %s", e.Notation, e.Input, e.Reason)
}

// Unwrap returns ErrUnreadable and, when set, the engine's error.
func (e *ParseError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrUnreadable, e.Err}
	}
	return []error{ErrUnreadable}
}

// Script picks the characters the Chinese-character notations write; Parse
// reads both.
type Script int8

const (
	// Simplified writes red 帅 仕 相 马 车 炮 兵, black 将 士 象 马 车 炮 卒,
	// with 进 退 平 前 中 后, as the rule books and the examples of 000 ch.6
	// do. It is the default (the zero value).
	Simplified Script = iota
	// Traditional writes the piece names of B-2 and 000 ch.2 §1
	// ("棋子名称用繁写字体"): red 帥 仕 相 馬 車 砲 兵, black 將 士 象 馬 車
	// 炮 卒, with 進 退 平 前 中 後; on request.
	Traditional
)

// ParseScript reads "simplified" or "traditional"; "" is the default,
// Simplified.
func ParseScript(s string) (Script, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "simplified":
		return Simplified, true
	case "traditional":
		return Traditional, true
	}
	return Simplified, false
}

// String returns "simplified" or "traditional".
func (s Script) String() string {
	if s.norm() == Traditional {
		return "traditional"
	}
	return "simplified"
}

// WithScript returns n writing in script sc: the Chinese-character notations
// (chinese, yz3, yz4) change their characters, the others are returned as
// they are.
func WithScript(n Notation, sc Script) Notation {
	switch n.(type) {
	case Chinese:
		return Chinese{Script: sc}
	case YZ3:
		return YZ3{Script: sc}
	case YZ4:
		return YZ4{Script: sc}
	}
	return n
}

// The notations with their default settings, in the order ParseAny tries them.
var (
	notationICCS    Notation = ICCS{}
	notationWXF     Notation = WXF{}
	notationYZ4     Notation = YZ4{}
	notationYZ3     Notation = YZ3{}
	notationChinese Notation = Chinese{}
)

// All returns the five notations with their default settings, in the order
// ParseAny tries them.
func All() []Notation {
	return []Notation{notationICCS, notationWXF, notationYZ4, notationYZ3, notationChinese}
}

// ByName returns the notation called name: "iccs", "wxf", "chinese", "yz3" or
// "yz4" (Simplified script), or "chinese-traditional", "yz3-traditional",
// "yz4-traditional"; "chinese-simplified", "yz3-simplified" and
// "yz4-simplified" name the defaults too. Names are matched without regard
// to case.
func ByName(name string) (Notation, bool) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "iccs":
		return notationICCS, true
	case "wxf":
		return notationWXF, true
	case "chinese", "chinese-simplified":
		return notationChinese, true
	case "yz3", "yz3-simplified":
		return notationYZ3, true
	case "yz4", "yz4-simplified":
		return notationYZ4, true
	case "chinese-traditional":
		return Chinese{Script: Traditional}, true
	case "yz3-traditional":
		return YZ3{Script: Traditional}, true
	case "yz4-traditional":
		return YZ4{Script: Traditional}, true
	}
	return nil, false
}

// ParseAny reads s in whichever notation it is written in (the game service
// accepts any notation from clients, N-4). No text is a legal move in two
// notations with different meanings, so the order of trying does not matter.
// When none reads it, the error comes from the notation whose shape s has,
// else it is a *ParseError with Notation "any".
func ParseAny(p *xiangqi.Position, s string) (xiangqi.Move, error) {
	var shaped *ParseError
	for _, n := range All() {
		m, err := n.Parse(p, s)
		if err == nil {
			return m, nil
		}
		var pe *ParseError
		if shaped == nil && errors.As(err, &pe) && pe.shaped {
			shaped = pe
		}
	}
	if shaped != nil {
		return xiangqi.NoMove, shaped
	}
	return xiangqi.NoMove, &ParseError{Notation: "any", Input: s,
		Reason: "not a move in ICCS (h2e2), WXF (C2=5), Chinese (炮二平五), 一字三数 (马325) or 一字四数 (马33-25) notation"}
}

// FormatLine writes moves, played one after another from start, in n. start is
// not changed. The error names the first move that is not legal.
func FormatLine(n Notation, start *xiangqi.Position, moves []xiangqi.Move) ([]string, error) {
	p := start.Clone()
	out := make([]string, 0, len(moves))
	for i, m := range moves {
		s, err := n.Format(p, m)
		if err != nil {
			return out, fmt.Errorf("move %d: %w", i+1, err)
		}
		if err := p.Play(m); err != nil {
			return out, fmt.Errorf("move %d: %w", i+1, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// ParseLine reads texts, played one after another from start, with n, or with
// ParseAny when n is nil. start is not changed. The error names the first text
// that does not read.
func ParseLine(n Notation, start *xiangqi.Position, texts []string) ([]xiangqi.Move, error) {
	p := start.Clone()
	out := make([]xiangqi.Move, 0, len(texts))
	for i, s := range texts {
		var m xiangqi.Move
		var err error
		if n == nil {
			m, err = ParseAny(p, s)
		} else {
			m, err = n.Parse(p, s)
		}
		if err != nil {
			return out, fmt.Errorf("move %d: %w", i+1, err)
		}
		if err := p.Play(m); err != nil {
			return out, fmt.Errorf("move %d: %w", i+1, err)
		}
		out = append(out, m)
	}
	return out, nil
}
