package notation

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// YZ4 is 一字四数 (N-3; 000 ch.6): one character for the piece, the point it
// stands on and the point it goes to, each as the mover's own file and rank
// digits, rank 10 written 0 — 馬33-25, 將41-51, 車21x20. Between the points
// 000 allows "-" for a move (运子) and "x" for a capture (吃子); Format always
// writes one of them, Parse reads them optionally but refuses a mark that
// contradicts the board (x onto an empty point, - onto a piece).
type YZ4 struct {
	Script Script // characters to write; Parse reads both
}

// Name returns "yz4" (simplified characters) or "yz4-traditional".
func (n YZ4) Name() string {
	if n.Script == Traditional {
		return "yz4-traditional"
	}
	return "yz4"
}

// Format writes m, such as 馬33-25 or 車21x20.
func (n YZ4) Format(p *xiangqi.Position, m xiangqi.Move) (string, error) {
	if !p.IsLegal(m) {
		return "", formatError(n.Name(), p, m)
	}
	c := p.SideToMove()
	k := p.PieceAt(m.From()).Kind()
	sep := "-"
	if p.PieceAt(m.To()) != xiangqi.NoPiece {
		sep = "x"
	}
	return string(pieceChars[n.Script.norm()][c][k]) + point(c, m.From()) + sep + point(c, m.To()), nil
}

// Parse reads a move such as 马3325, 马33-25 or 车21x20.
func (n YZ4) Parse(p *xiangqi.Position, s string) (xiangqi.Move, error) {
	name := n.Name()
	fail := func(shaped bool, format string, args ...any) (xiangqi.Move, error) {
		return xiangqi.NoMove, &ParseError{Notation: name, Input: s, Reason: fmt.Sprintf(format, args...), shaped: shaped}
	}
	rs := []rune(compact(s))
	if len(rs) != 5 && len(rs) != 6 {
		return fail(false, "want a piece and two points such as 马33-25")
	}
	kind, ok := readPiece[rs[0]]
	if !ok {
		return fail(false, "unknown piece character %s", describe(rs[0]))
	}
	mark := rune(0)
	if len(rs) == 6 {
		mark = rs[3]
		switch mark {
		case '-', '－', '—':
			mark = '-'
		case 'x', 'X', '×', 'ｘ':
			mark = 'x'
		default:
			return fail(false, "between the points want - (move) or x (capture), not %s", describe(mark))
		}
		rs = append(rs[:3:3], rs[4:]...)
	}
	var d [4]int
	for i := range d {
		v, ok := readDigit(rs[i+1])
		if !ok {
			return fail(false, "want four digits for the two points, such as 33-25")
		}
		d[i] = v
	}
	b := newBoard(p)
	c := b.side
	from, why := readPoint(c, d[0], d[1])
	if why != "" {
		return fail(true, "%s", why)
	}
	to, why := readPoint(c, d[2], d[3])
	if why != "" {
		return fail(true, "%s", why)
	}
	fromName := fmt.Sprintf("%d%d", d[0], d[1])
	toName := fmt.Sprintf("%d%d", d[2], d[3])
	pc := b.at[from]
	switch {
	case pc == xiangqi.NoPiece:
		return fail(true, "no piece on %s", fromName)
	case pc.Color() != c:
		return fail(true, "the %s on %s is %v's, and %v is to move", kindName(pc.Kind()), fromName, pc.Color(), c)
	case pc.Kind() != kind:
		return fail(true, "no %s on %s: it holds a %s", kindName(kind), fromName, kindName(pc.Kind()))
	}
	target := b.at[to]
	switch {
	case mark == 'x' && target == xiangqi.NoPiece:
		return fail(true, "x marks a capture, but %s is empty: write -", toName)
	case mark == '-' && target != xiangqi.NoPiece:
		return fail(true, "- marks a move to an empty point, but %s holds a %s: write x", toName, kindName(target.Kind()))
	}
	m := xiangqi.NewMove(from, to)
	if err := b.check(m); err != nil {
		return xiangqi.NoMove, &ParseError{Notation: name, Input: s, Reason: whyNot(err), Err: err, shaped: true}
	}
	return m, nil
}
