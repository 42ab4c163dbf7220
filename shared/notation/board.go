package notation

import (
	"errors"
	"fmt"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// board is what every notation needs to know about a position: where the
// pieces stand and which moves are legal. It reads the engine only through
// PieceAt, SideToMove and LegalMoves, and Clone/Play for the engine's reason
// why a move is illegal.
type board struct {
	pos   *xiangqi.Position
	side  xiangqi.Color
	at    [90]xiangqi.Piece
	legal []xiangqi.Move
}

func newBoard(p *xiangqi.Position) *board {
	b := &board{pos: p, side: p.SideToMove(), legal: p.LegalMoves()}
	for s := range b.at {
		b.at[s] = p.PieceAt(xiangqi.Square(s))
	}
	return b
}

func (b *board) isLegal(m xiangqi.Move) bool {
	for _, l := range b.legal {
		if l == m {
			return true
		}
	}
	return false
}

// check returns nil when m is legal, else the engine's reason.
func (b *board) check(m xiangqi.Move) error {
	if b.isLegal(m) {
		return nil
	}
	if err := b.pos.Clone().Play(m); err != nil {
		return err
	}
	// The engine's LegalMoves and Play disagree; trust LegalMoves.
	return fmt.Errorf("%v is not among the legal moves", m)
}

// whyNot turns an engine refusal into a short reason for a ParseError.
func whyNot(err error) string {
	var ie *xiangqi.IllegalMoveError
	if errors.As(err, &ie) {
		if ie.Rule != "" {
			return ie.Reason + " (" + ie.Rule + ")"
		}
		return ie.Reason
	}
	return err.Error()
}

// own reports whether s holds a piece of the side to move of kind k.
func (b *board) own(s xiangqi.Square, k xiangqi.Kind) bool {
	pc := b.at[s]
	return pc != xiangqi.NoPiece && pc.Color() == b.side && pc.Kind() == k
}

// onFile returns the side to move's pieces of kind k on board file f (0…8),
// front first: the front piece is the one nearest the opponent.
func (b *board) onFile(k xiangqi.Kind, f int) []xiangqi.Square {
	var out []xiangqi.Square
	for i := 0; i < 10; i++ {
		r := 9 - i // red's front is the highest rank
		if b.side == xiangqi.Black {
			r = i
		}
		if s := xiangqi.NewSquare(f, r); b.own(s, k) {
			out = append(out, s)
		}
	}
	return out
}

// tandemFiles returns the board files on which the side to move has two or
// more pieces of kind k.
func (b *board) tandemFiles(k xiangqi.Kind) []int {
	var out []int
	for f := 0; f < 9; f++ {
		if len(b.onFile(k, f)) >= 2 {
			out = append(out, f)
		}
	}
	return out
}

// indexOf returns the position of s in list, or -1.
func indexOf(list []xiangqi.Square, s xiangqi.Square) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// B-1: each player numbers files 1–9 from their own right and ranks 1–10 from
// their own side. Red's right is file i, black's right is file a.

// ownFile returns c's number (1…9) for board file f (0…8).
func ownFile(c xiangqi.Color, f int) int {
	if c == xiangqi.Red {
		return 9 - f
	}
	return f + 1
}

// boardFile returns the board file (0…8) of c's file number n (1…9).
func boardFile(c xiangqi.Color, n int) int {
	if c == xiangqi.Red {
		return 9 - n
	}
	return n - 1
}

// ownRank returns c's number (1…10) for board rank r (0…9).
func ownRank(c xiangqi.Color, r int) int {
	if c == xiangqi.Red {
		return r + 1
	}
	return 10 - r
}

// boardRank returns the board rank (0…9) of c's rank number n (1…10).
func boardRank(c xiangqi.Color, n int) int {
	if c == xiangqi.Red {
		return n - 1
	}
	return 10 - n
}

// forward returns +1 when rank r2 lies ahead of r1 for c, -1 when behind, 0
// when equal.
func forward(c xiangqi.Color, r1, r2 int) int {
	d := r2 - r1
	if c == xiangqi.Black {
		d = -d
	}
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// straight reports whether k moves along files and ranks (帥 車 炮 兵), so that
// 進/退 counts points; the others (仕 相 馬) name the file they land on.
func straight(k xiangqi.Kind) bool {
	return k == xiangqi.General || k == xiangqi.Chariot || k == xiangqi.Cannon || k == xiangqi.Soldier
}

// Direction of a move relative to the mover: the +, -, = of WXF and the
// 進, 退, 平 of the Chinese notation.
const (
	dirForward  = '+'
	dirBackward = '-'
	dirSideways = '='
)

// relTarget is the common rule of WXF and the Chinese notation: from a piece
// of kind k on from, direction dir and number n (points for straight moves,
// else the mover's file number) name the destination. When no such point
// exists it returns NoSquare and the reason.
func relTarget(c xiangqi.Color, k xiangqi.Kind, from xiangqi.Square, dir byte, n int) (xiangqi.Square, string) {
	f, r := from.File(), from.Rank()
	step := 1
	if c == xiangqi.Black {
		step = -1
	}
	if n < 1 || n > 9 {
		return xiangqi.NoSquare, fmt.Sprintf("%d is not a file or a number of points", n)
	}
	switch dir {
	case dirSideways:
		if !straight(k) {
			return xiangqi.NoSquare, fmt.Sprintf("a %s never moves sideways", kindName(k))
		}
		tf := boardFile(c, n)
		if tf == f {
			return xiangqi.NoSquare, fmt.Sprintf("the %s is already on file %d", kindName(k), n)
		}
		return xiangqi.NewSquare(tf, r), ""
	case dirForward, dirBackward:
		if dir == dirBackward {
			step = -step
		}
		if straight(k) {
			tr := r + step*n
			if tr < 0 || tr > 9 {
				return xiangqi.NoSquare, fmt.Sprintf("%d points would leave the board", n)
			}
			return xiangqi.NewSquare(f, tr), ""
		}
		tf := boardFile(c, n)
		df := tf - f
		if df < 0 {
			df = -df
		}
		var dr int
		switch {
		case k == xiangqi.Advisor && df == 1:
			dr = 1
		case k == xiangqi.Elephant && df == 2:
			dr = 2
		case k == xiangqi.Horse && df == 1:
			dr = 2
		case k == xiangqi.Horse && df == 2:
			dr = 1
		default:
			return xiangqi.NoSquare, fmt.Sprintf("a %s on file %d cannot reach file %d", kindName(k), ownFile(c, f), n)
		}
		tr := r + step*dr
		if tr < 0 || tr > 9 {
			return xiangqi.NoSquare, fmt.Sprintf("the %s would leave the board", kindName(k))
		}
		return xiangqi.NewSquare(tf, tr), ""
	}
	return xiangqi.NoSquare, fmt.Sprintf("unknown direction %q", dir)
}

// relMove describes m in the relative terms of WXF and the Chinese notation.
func relMove(c xiangqi.Color, k xiangqi.Kind, m xiangqi.Move) (dir byte, n int) {
	from, to := m.From(), m.To()
	switch forward(c, from.Rank(), to.Rank()) {
	case 0:
		return dirSideways, ownFile(c, to.File())
	case 1:
		dir = dirForward
	default:
		dir = dirBackward
	}
	if from.File() == to.File() {
		d := to.Rank() - from.Rank()
		if d < 0 {
			d = -d
		}
		return dir, d
	}
	return dir, ownFile(c, to.File())
}

var kindNames = [...]string{"piece", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"}

func kindName(k xiangqi.Kind) string {
	if k < 0 || int(k) >= len(kindNames) {
		return "piece"
	}
	return kindNames[k]
}

func kindPlural(k xiangqi.Kind) string { return kindName(k) + "s" }

// candidate is one piece's try at the move a text describes: the notations
// that name a file or a group of pieces leave the rules to pick the piece.
type candidate struct {
	from, to xiangqi.Square
	why      string // empty when the move is legal
	err      error
}

// try checks from→to; why is empty when it is legal.
func (b *board) try(from, to xiangqi.Square) candidate {
	c := candidate{from: from, to: to}
	if err := b.check(xiangqi.NewMove(from, to)); err != nil {
		c.why, c.err = whyNot(err), err
	}
	return c
}

// legalOnes keeps the legal candidates.
func legalOnes(cs []candidate) []candidate {
	var out []candidate
	for _, c := range cs {
		if c.why == "" {
			out = append(out, c)
		}
	}
	return out
}

// iccsOf lists cs's moves in ICCS, for naming the candidates of an ambiguous
// text.
func iccsOf(cs []candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = xiangqi.NewMove(c.from, c.to).String()
	}
	return out
}
