package xiangqi

import (
	"errors"
	"fmt"
)

// ErrIllegalMove is wrapped by every *IllegalMoveError.
var ErrIllegalMove = errors.New("illegal move")

// IllegalMoveError says why a move was refused. Rule is the rule (shared/RULES.md) it
// breaks ("B-6", "B-10", …); Reason is a sentence for the player, such as
// "horse at h0 is blocked at h1".
type IllegalMoveError struct {
	Move   Move
	Rule   string
	Reason string
	// SelfHarm marks the kinds of B-10 that 000 ch.2 §4 counts against the
	// mover (应推棋认负): capturing one's own piece, leaving one's own general
	// in check, making the generals face. Only these may be fouls or losses
	// (G-2); any other illegal move is simply refused.
	SelfHarm bool
}

// Error returns "illegal move h0h2: <reason> (<rule>)".
func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("%v %v: %s (%s)", ErrIllegalMove, e.Move, e.Reason, e.Rule)
}

// Unwrap returns ErrIllegalMove so errors.Is(err, ErrIllegalMove) holds.
func (e *IllegalMoveError) Unwrap() error { return ErrIllegalMove }

// Status is how the game stands for the side to move. The values are stable
// and safe to store.
type Status uint8

// The statuses. G-1: checkmate and stalemate (困毙) both lose for the side to move.
const (
	Ongoing   Status = 0
	Checkmate Status = 1
	Stalemate Status = 2
)

// String returns "ongoing", "checkmate" or "stalemate".
func (s Status) String() string {
	switch s {
	case Ongoing:
		return "ongoing"
	case Checkmate:
		return "checkmate"
	case Stalemate:
		return "stalemate"
	}
	return "invalid"
}

// Status reports whether the side to move has a legal move, and if not
// whether it is in check. Both Checkmate and Stalemate lose for it (G-1).
func (p *Position) Status() Status {
	var ml moveList
	p.genLegal(&ml)
	if ml.n > 0 {
		return Ongoing
	}
	if p.InCheck() {
		return Checkmate
	}
	return Stalemate
}

// IsLegal reports whether the side to move may play m.
func (p *Position) IsLegal(m Move) bool { return p.whyIllegal(m) == nil }

// Play plays m after checking it, or returns an *IllegalMoveError naming the
// rule m breaks and leaves the position unchanged.
func (p *Position) Play(m Move) error {
	if err := p.whyIllegal(m); err != nil {
		return err
	}
	p.MakeMove(m)
	return nil
}

// GivesCheck reports whether the legal move m would put the opponent in check.
func (p *Position) GivesCheck(m Move) bool {
	from, to := sq256[m.From()], sq256[m.To()]
	u := p.makeMove(from, to)
	check := p.InCheck()
	p.unmakeMove(from, to, u)
	return check
}

func illegal(m Move, rule, format string, args ...any) *IllegalMoveError {
	return &IllegalMoveError{Move: m, Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// whyIllegal checks m against each movement rule in turn and returns the
// first one it breaks, or nil when m is legal.
func (p *Position) whyIllegal(m Move) *IllegalMoveError {
	fs, ts := m.From(), m.To()
	if !fs.Valid() || !ts.Valid() {
		return illegal(m, "B-1", "square off the board")
	}
	if fs == ts {
		return illegal(m, "B-1", "a move must leave its point")
	}
	from, to := sq256[fs], sq256[ts]
	b := &p.board
	pc := slotPiece[b[from]]
	us := p.side
	if pc == NoPiece {
		return illegal(m, "B-1", "no piece at %v", fs)
	}
	if pc.Color() != us {
		return illegal(m, "B-1", "the %v at %v is %v's; %v is to move", pc.Kind(), fs, pc.Color(), us)
	}
	if dst := slotPiece[b[to]]; dst != NoPiece && dst.Color() == us {
		e := illegal(m, "B-10", "%v at %v cannot capture its own %v at %v", pc.Kind(), fs, dst.Kind(), ts)
		e.SelfHarm = true
		return e
	}
	k := pc.Kind()
	df, dr := ts.File()-fs.File(), ts.Rank()-fs.Rank()
	adf, adr := abs(df), abs(dr)
	name := pieceOn{k, fs}
	switch k {
	case General:
		if adf+adr != 1 {
			return illegal(m, "B-3", "%s moves one point orthogonally", name)
		}
		if !inPalace[us][to] {
			return illegal(m, "B-3", "%s may not leave the palace", name)
		}
	case Advisor:
		if adf != 1 || adr != 1 {
			return illegal(m, "B-4", "%s moves one point diagonally", name)
		}
		if !inPalace[us][to] {
			return illegal(m, "B-4", "%s may not leave the palace", name)
		}
	case Elephant:
		if adf != 2 || adr != 2 {
			return illegal(m, "B-5", "%s moves exactly two points diagonally", name)
		}
		if !ownHalf[us][to] {
			return illegal(m, "B-5", "%s may not cross the river", name)
		}
		if eye := NewSquare(fs.File()+df/2, fs.Rank()+dr/2); p.PieceAt(eye) != NoPiece {
			return illegal(m, "B-5", "%s is blocked at %v (elephant eye)", name, eye)
		}
	case Horse:
		if !(adf == 1 && adr == 2 || adf == 2 && adr == 1) {
			return illegal(m, "B-6", "%s moves one point orthogonally then one diagonally", name)
		}
		leg := NewSquare(fs.File()+df/2, fs.Rank()+dr/2) // the integer halves pick the long leg
		if p.PieceAt(leg) != NoPiece {
			return illegal(m, "B-6", "%s is blocked at %v", name, leg)
		}
	case Chariot, Cannon:
		if df != 0 && dr != 0 {
			return illegal(m, ruleOf(k), "%s moves along a rank or file", name)
		}
		between := p.countBetween(fs, ts)
		capture := p.PieceAt(ts) != NoPiece
		switch {
		case k == Chariot && between > 0:
			return illegal(m, "B-7", "%s cannot jump over pieces", name)
		case k == Cannon && !capture && between > 0:
			return illegal(m, "B-8", "%s cannot jump without capturing", name)
		case k == Cannon && capture && between != 1:
			return illegal(m, "B-8", "%s captures only over exactly one piece, found %d", name, between)
		}
	case Soldier:
		fwd := 1
		if us == Black {
			fwd = -1
		}
		switch {
		case adf+adr != 1:
			return illegal(m, "B-9", "%s moves one point", name)
		case dr == -fwd:
			return illegal(m, "B-9", "%s never moves backwards", name)
		case dr == 0 && ownHalf[us][from]:
			return illegal(m, "B-9", "%s moves sideways only after crossing the river", name)
		}
	}
	g := p.sqOf[16<<us+slotGen]
	if k == General {
		g = to
	}
	v, c := b[from], b[to]
	b[to], b[from] = v, 0
	defer func() { b[from], b[to] = v, c }()
	if p.generalsFace(g, p.sqOf[16<<(us^1)+slotGen]) {
		e := illegal(m, "B-3", "the generals would face each other")
		e.SelfHarm = true
		return e
	}
	if p.attacked(g, us^1) {
		e := illegal(m, "B-10", "leaves the general in check")
		e.SelfHarm = true
		return e
	}
	return nil
}

// pieceOn names a piece in a reason ("horse at h0"); it formats only when an
// error is built, so legal moves cost no allocation.
type pieceOn struct {
	k Kind
	s Square
}

func (p pieceOn) String() string { return p.k.String() + " at " + p.s.String() }

func ruleOf(k Kind) string {
	if k == Chariot {
		return "B-7"
	}
	return "B-8"
}

// countBetween counts the pieces strictly between two points on one line.
func (p *Position) countBetween(a, b Square) int {
	from, to := sq256[a], sq256[b]
	var d uint8
	switch {
	case a.File() == b.File() && a < b:
		d = 16
	case a.File() == b.File():
		d = 240
	case a < b:
		d = 1
	default:
		d = 255
	}
	n := 0
	for t := from + d; t != to; t += d {
		if p.board[t] != 0 {
			n++
		}
	}
	return n
}

// generalsFace reports whether the generals on cells g1 and g2 stand on one file with
// nothing between them (B-3).
func (p *Position) generalsFace(g1, g2 uint8) bool {
	if g1&15 != g2&15 {
		return false
	}
	lo, hi := min(g1, g2), max(g1, g2)
	t := lo + 16
	for p.board[t] == 0 {
		t += 16
	}
	return t == hi
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
