package notation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Replayed is a PGN game played through on the board.
type Replayed struct {
	// Start is the position the moves start from: the [FEN] tag's, else the
	// standard start.
	Start *xiangqi.Position
	Moves []xiangqi.Move
	// Notation names the notation the moves were written in ("iccs", "wxf",
	// "chinese", "yz3" or "yz4"), detected from the first move.
	Notation string
}

// ReplayError says where and why a record stops being a legal game: the
// move, as a scoresheet numbers it, its text, the position it was to be
// played from and the reason.
type ReplayError struct {
	// Ply is the number of moves read before the failing one; for a bad
	// start position it is 0 and Text is empty.
	Ply int
	// Number is the move number (1 for red's and black's first moves).
	Number int
	Side   xiangqi.Color
	Text   string
	Line   int
	FEN    string
	Reason string
	// Rule is the rule id that refused the move or the position, if any.
	Rule string
	// Candidates lists in ICCS the moves an ambiguous text could mean.
	Candidates []string
	Err        error
}

// Error returns "move 12 (black) "炮8平5": <reason>".
func (e *ReplayError) Error() string {
	if e.Text == "" {
		return "start position: " + e.Reason
	}
	return fmt.Sprintf("move %d (%v) %q: %s", e.Number, e.Side, e.Text, e.Reason)
}

// Unwrap returns the notation's or the rules engine's error.
func (e *ReplayError) Unwrap() error { return e.Err }

// Replay plays g's moves from its start position. The notation is detected
// per game: the [Format] tag when it names one, else the first move's; a
// later move that the detected notation cannot read is tried in the others
// (no text means two different moves in two notations), but the error
// reported is the detected notation's.
func (g PGNGame) Replay() (*Replayed, *ReplayError) {
	start := xiangqi.NewPosition()
	if fen := strings.TrimSpace(g.Tag("FEN")); fen != "" {
		p, err := xiangqi.ParseFEN(fen)
		if err != nil {
			re := &ReplayError{FEN: fen, Reason: err.Error(), Err: err, Line: g.Line}
			var fe *xiangqi.FENError
			if errors.As(err, &fe) {
				re.Rule = fe.Rule
			}
			return nil, re
		}
		start = p
	}
	out := &Replayed{Start: start.Clone(), Moves: make([]xiangqi.Move, 0, len(g.Moves))}
	var detected Notation
	if f, ok := ByName(g.Tag("Format")); ok {
		detected = f
	}
	p := start.Clone()
	for i, mt := range g.Moves {
		var m xiangqi.Move
		var err error
		if detected == nil {
			for _, n := range All() {
				if m, err = n.Parse(p, mt.Text); err == nil {
					detected = n
					break
				}
			}
			if detected == nil {
				_, err = ParseAny(p, mt.Text)
			}
		} else if m, err = detected.Parse(p, mt.Text); err != nil {
			if m2, err2 := ParseAny(p, mt.Text); err2 == nil {
				m, err = m2, nil
			}
		}
		if err == nil {
			if err = p.Play(m); err == nil {
				out.Moves = append(out.Moves, m)
				continue
			}
		}
		return nil, replayError(p, i, mt, err)
	}
	if detected != nil {
		out.Notation = detected.Name()
	}
	return out, nil
}

func replayError(p *xiangqi.Position, i int, mt PGNMove, err error) *ReplayError {
	re := &ReplayError{
		Ply:    i,
		Number: p.Ply()/2 + 1,
		Side:   p.SideToMove(),
		Text:   mt.Text,
		Line:   mt.Line,
		FEN:    p.FEN(),
		Reason: err.Error(),
		Err:    err,
	}
	var pe *ParseError
	if errors.As(err, &pe) {
		re.Reason = pe.Reason
		re.Candidates = pe.Candidates
	}
	var ie *xiangqi.IllegalMoveError
	if errors.As(err, &ie) {
		re.Rule = ie.Rule
	}
	return re
}
