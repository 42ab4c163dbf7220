package notation

import (
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// YZ3 is 一字三数 (N-1, N-2; 000 ch.6): one character for the piece, then
// three Arabic digits in the mover's own coordinates — the file the piece
// stands on, then the file and rank it goes to, rank 10 written 0: 馬325,
// 砲253 (= 炮二平五), 馬873 (black, = 馬8進7), 車220.
//
// N-2: when two pieces of one kind (車 馬 砲 象 相 士 仕) stand on one file
// and both can legally reach the point, the file digit gives way to 進 or 退,
// the direction this piece moves ("车炮的进、退无需数格了写横标码就是了"): of
// two such pieces one always advances and the other retreats. Soldiers never
// need it: the point alone tells them apart (three red soldiers on 54, 56,
// 59: 兵550 front, 兵555 rear, 兵557 middle, 兵549 front sideways).
//
// Parse reads either script and full-width digits, and 進/退 whenever it picks
// exactly one legal move.
type YZ3 struct {
	Script Script // characters to write; Parse reads both
}

// Name returns "yz3" (simplified characters) or "yz3-traditional".
func (n YZ3) Name() string {
	if n.Script == Traditional {
		return "yz3-traditional"
	}
	return "yz3"
}

// Format writes m, such as 馬325 or 車進20.
func (n YZ3) Format(p *xiangqi.Position, m xiangqi.Move) (string, error) {
	if !p.IsLegal(m) {
		return "", formatError(n.Name(), p, m)
	}
	sc := n.Script.norm()
	b := newBoard(p)
	c := b.side
	from, to := m.From(), m.To()
	k := b.at[from].Kind()
	var sb strings.Builder
	sb.WriteRune(pieceChars[sc][c][k])
	if b.bothReach(k, m) {
		sb.WriteRune(dirChars[sc][byte(dirOf(c, m))])
	} else {
		sb.WriteByte(byte('0' + ownFile(c, from.File())))
	}
	sb.WriteString(point(c, to))
	return sb.String(), nil
}

// bothReach reports N-2's case: m's piece shares its file with another of its
// kind that can legally move to the same point.
func (b *board) bothReach(k xiangqi.Kind, m xiangqi.Move) bool {
	if k == xiangqi.Soldier {
		return false
	}
	for _, s := range b.onFile(k, m.From().File()) {
		if s != m.From() && b.isLegal(xiangqi.NewMove(s, m.To())) {
			return true
		}
	}
	return false
}

// dirOf is dirForward or dirBackward by the rank m moves towards.
func dirOf(c xiangqi.Color, m xiangqi.Move) byte {
	switch forward(c, m.From().Rank(), m.To().Rank()) {
	case 1:
		return dirForward
	case -1:
		return dirBackward
	}
	return dirSideways
}

// point writes a square as c's file and rank digits, rank 10 as 0 (B-1).
func point(c xiangqi.Color, s xiangqi.Square) string {
	return string([]byte{byte('0' + ownFile(c, s.File())), byte('0' + ownRank(c, s.Rank())%10)})
}

// readPoint reads c's file and rank digits; rank 0 is rank 10.
func readPoint(c xiangqi.Color, file, rank int) (xiangqi.Square, string) {
	if file < 1 || file > 9 {
		return xiangqi.NoSquare, fmt.Sprintf("file %d does not exist: files are 1…9", file)
	}
	if rank == 0 {
		rank = 10
	}
	return xiangqi.NewSquare(boardFile(c, file), boardRank(c, rank)), ""
}

// Parse reads a move such as 马325, 炮253, 車220, 兵550 or 车进20.
func (n YZ3) Parse(p *xiangqi.Position, s string) (xiangqi.Move, error) {
	name := n.Name()
	fail := func(shaped bool, format string, args ...any) (xiangqi.Move, error) {
		return xiangqi.NoMove, &ParseError{Notation: name, Input: s, Reason: fmt.Sprintf(format, args...), shaped: shaped}
	}
	rs := []rune(compact(s))
	if len(rs) != 4 {
		return fail(false, "want a piece and three digits such as 炮253")
	}
	kind, ok := readPiece[rs[0]]
	if !ok {
		return fail(false, "unknown piece character %s", describe(rs[0]))
	}
	tf, ok1 := readDigit(rs[2])
	tr, ok2 := readDigit(rs[3])
	if !ok1 || !ok2 {
		return fail(false, "the last two characters must be the digits of the point, such as 25")
	}
	b := newBoard(p)
	c := b.side
	to, why := readPoint(c, tf, tr)
	if why != "" {
		return fail(true, "%s", why)
	}
	target := fmt.Sprintf("%d%d", tf, tr)
	piece := kindName(kind)

	var froms []xiangqi.Square
	var dir byte
	if d, isDir := readDir[rs[1]]; isDir && d != dirSideways {
		// N-2: 進/退 replaces the file of two pieces on one file.
		dir = d
		for s := xiangqi.Square(0); s < 90; s++ {
			if b.own(s, kind) {
				froms = append(froms, s)
			}
		}
	} else if ff, isDigit := readDigit(rs[1]); isDigit {
		if ff < 1 || ff > 9 {
			return fail(true, "file %d does not exist: files are 1…9", ff)
		}
		froms = b.onFile(kind, boardFile(c, ff))
		if len(froms) == 0 {
			return fail(true, "no %s on file %d", piece, ff)
		}
	} else {
		return fail(false, "second character %s: want the file the piece stands on, or 进/退", describe(rs[1]))
	}

	var legal []candidate
	var tried []candidate
	for _, from := range froms {
		if dir != 0 && dirOf(c, xiangqi.NewMove(from, to)) != dir {
			continue
		}
		cd := b.try(from, to)
		tried = append(tried, cd)
		if cd.why == "" {
			legal = append(legal, cd)
		}
	}
	switch {
	case len(legal) == 1:
		return xiangqi.NewMove(legal[0].from, legal[0].to), nil
	case len(legal) > 1:
		sc := n.Script.norm()
		pc := pieceChars[sc][c][kind]
		return fail(true, "two %s on file %c can reach %s: say %c%c%s or %c%c%s", kindPlural(kind), rs[1], target,
			pc, dirChars[sc][dirForward], target, pc, dirChars[sc][dirBackward], target)
	case len(tried) == 1 && dir == 0:
		return xiangqi.NoMove, &ParseError{Notation: name, Input: s,
			Reason: fmt.Sprintf("no %s on file %c can reach %s: %s", piece, rs[1], target, tried[0].why), Err: tried[0].err, shaped: true}
	case dir != 0:
		return fail(true, "no %s can %s to %s", piece, map[byte]string{dirForward: "advance", dirBackward: "retreat"}[dir], target)
	}
	return fail(true, "no %s on file %c can reach %s", piece, rs[1], target)
}

// norm maps an unknown Script to Simplified, the default.
func (s Script) norm() Script {
	if s == Traditional {
		return Traditional
	}
	return Simplified
}
