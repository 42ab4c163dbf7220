package notation

import (
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// WXF is the World Xiangqi Federation notation of N-4 exactly as
// Fairy-Stockfish writes it (src/apiutil.h, SAN::move_to_san with
// NOTATION_XIANGQI_WXF), so that records match the engines players use:
//
//   - piece letter K A E H R C P, the mover's file 1…9 counted from its own
//     right, then + (forward), - (back) or = (sideways), then the points moved
//     along a file or the file landed on: "C2=5", "H8+7", "R1-2".
//   - Two pieces of a kind on one file: the file digit becomes + (front) or -
//     (rear), "C+=5", when the other piece, shifted by the same vector, would
//     still stand on the board inside the kind's region (palace for K and A,
//     own half for E); otherwise the file digit stays ("P5+1" when the front
//     pawn is on the last rank). A and E therefore never take +/-.
//   - Three or more pawns on a file, or pairs of pawns on two files: the
//     letter becomes the pawn's place counted from the front and the file
//     digit stays: "25+1" is the second pawn of file 5 advancing.
//
// Parse also reads lower case, "." for "=", N for the horse, B for the
// elephant, G for the general and S for the soldier, and +/- or the file
// digit wherever either picks exactly one legal move.
type WXF struct{}

// Name returns "wxf".
func (WXF) Name() string { return "wxf" }

var wxfLetters = [8]byte{0, 'K', 'A', 'E', 'H', 'R', 'C', 'P'}

var wxfRead = map[byte]xiangqi.Kind{
	'K': xiangqi.General, 'G': xiangqi.General,
	'A': xiangqi.Advisor,
	'E': xiangqi.Elephant, 'B': xiangqi.Elephant,
	'H': xiangqi.Horse, 'N': xiangqi.Horse,
	'R': xiangqi.Chariot,
	'C': xiangqi.Cannon,
	'P': xiangqi.Soldier, 'S': xiangqi.Soldier,
}

// Format writes m as Fairy-Stockfish does.
func (WXF) Format(p *xiangqi.Position, m xiangqi.Move) (string, error) {
	if !p.IsLegal(m) {
		return "", formatError("wxf", p, m)
	}
	b := newBoard(p)
	from := m.From()
	k := b.at[from].Kind()
	group := b.onFile(k, from.File())
	idx := indexOf(group, from)
	multi := len(b.tandemFiles(k)) >= 2

	var out []byte
	threshold := 3
	if multi {
		threshold = 2
	}
	if len(group) >= threshold {
		out = append(out, byte('1'+idx))
	} else {
		out = append(out, wxfLetters[k])
	}
	if len(group) == 2 && !multi && b.shiftFits(k, group[1-idx], m) {
		if idx == 0 {
			out = append(out, '+')
		} else {
			out = append(out, '-')
		}
	} else {
		out = append(out, byte('0'+ownFile(b.side, from.File())))
	}
	dir, n := relMove(b.side, k, m)
	out = append(out, dir, byte('0'+n))
	return string(out), nil
}

// shiftFits reports whether other, moved by the same vector as m, would land
// on the board inside the region kind k may stand on — Fairy-Stockfish's test
// for writing +/- instead of the file.
func (b *board) shiftFits(k xiangqi.Kind, other xiangqi.Square, m xiangqi.Move) bool {
	f := other.File() + m.To().File() - m.From().File()
	r := other.Rank() + m.To().Rank() - m.From().Rank()
	if f < 0 || f > 8 || r < 0 || r > 9 {
		return false
	}
	own := ownRank(b.side, r) // 1…10 from the mover's side
	switch k {
	case xiangqi.General, xiangqi.Advisor:
		return f >= 3 && f <= 5 && own <= 3
	case xiangqi.Elephant:
		return own <= 5
	}
	return true
}

// Parse reads a WXF move such as "C2=5", "H8+7", "C+=5" or "25+1".
func (WXF) Parse(p *xiangqi.Position, s string) (xiangqi.Move, error) {
	t := strings.ToUpper(narrow(compact(s)))
	fail := func(shaped bool, format string, args ...any) (xiangqi.Move, error) {
		return xiangqi.NoMove, &ParseError{Notation: "wxf", Input: s, Reason: fmt.Sprintf(format, args...), shaped: shaped}
	}
	if len(t) == 4 && (t[0] == '+' || t[0] == '-') && wxfRead[t[1]] != 0 {
		// The sign-first tandem spelling of tools derived from the WXF
		// site's format: "+C-2" is "C+-2", "-P+1" is "P-+1".
		t = string([]byte{t[1], t[0], t[2], t[3]})
	}
	if len(t) != 4 {
		return fail(false, "want four characters such as C2=5")
	}
	dir := t[2]
	if dir == '.' {
		dir = dirSideways
	}
	if dir != dirForward && dir != dirBackward && dir != dirSideways {
		return fail(false, "third character %q: want + (forward), - (back) or = (sideways)", t[2])
	}
	if t[3] < '1' || t[3] > '9' {
		return fail(false, "last character %q: want a digit 1…9", t[3])
	}
	n := int(t[3] - '0')
	b := newBoard(p)

	var kind xiangqi.Kind
	var pieces []xiangqi.Square // the pieces t names; the rules pick among them
	var which string            // how t named them, for messages
	switch c0, c1 := t[0], t[1]; {
	case c0 >= '1' && c0 <= '5' && c1 >= '1' && c1 <= '9':
		// Fairy-Stockfish's many-pawn form: place from the front, then file.
		kind = xiangqi.Soldier
		file := int(c1 - '0')
		group := b.onFile(kind, boardFile(b.side, file))
		place := int(c0 - '0')
		if place > len(group) {
			return fail(true, "%s wants pawn number %d from the front of file %d, but the file has %d", t, place, file, len(group))
		}
		pieces = group[place-1 : place]
		which = fmt.Sprintf("pawn number %d of file %d", place, file)
	default:
		k, ok := wxfRead[c0]
		if !ok {
			return fail(false, "unknown piece letter %q: want K, A, E, H, R, C or P", c0)
		}
		kind = k
		switch {
		case c1 >= '1' && c1 <= '9':
			file := int(c1 - '0')
			pieces = b.onFile(kind, boardFile(b.side, file))
			which = fmt.Sprintf("%s on file %d", kindName(kind), file)
			if len(pieces) == 0 {
				return fail(true, "no %s on file %d", kindName(kind), file)
			}
		case c1 == '+' || c1 == '-':
			files := b.tandemFiles(kind)
			if len(files) == 0 {
				return fail(true, "%c marks one of two %s on one file, and no two stand together", c1, kindPlural(kind))
			}
			for _, f := range files {
				group := b.onFile(kind, f)
				if c1 == '+' {
					pieces = append(pieces, group[0])
				} else {
					pieces = append(pieces, group[len(group)-1])
				}
			}
			which = "front " + kindName(kind)
			if c1 == '-' {
				which = "rear " + kindName(kind)
			}
		default:
			return fail(false, "second character %q: want the file 1…9, + (front) or - (rear)", c1)
		}
	}

	var cands []candidate
	var reasons []string
	for _, from := range pieces {
		to, why := relTarget(b.side, kind, from, dir, n)
		if why != "" {
			reasons = append(reasons, why)
			continue
		}
		c := b.try(from, to)
		if c.why != "" {
			reasons = append(reasons, c.why)
		}
		cands = append(cands, c)
	}
	ok := legalOnes(cands)
	switch {
	case len(ok) == 1:
		return xiangqi.NewMove(ok[0].from, ok[0].to), nil
	case len(ok) > 1:
		var reason string
		switch {
		case t[1] == '+' || t[1] == '-':
			reason = fmt.Sprintf("%s stand together on more than one file: write the place and the file, such as 1%c%c%c",
				kindPlural(kind), '0'+ownFile(b.side, ok[0].from.File()), dir, t[3])
		case len(pieces) == 2:
			reason = fmt.Sprintf("two %s on file %c: say + or -", kindPlural(kind), t[1])
		default:
			reason = fmt.Sprintf("%d %s on file %c can play that: say which, such as 2%c%c%c",
				len(pieces), kindPlural(kind), t[1], t[1], dir, t[3])
		}
		cands := iccsOf(ok)
		return xiangqi.NoMove, &ParseError{Notation: "wxf", Input: s, shaped: true, Candidates: cands,
			Reason: reason + " (it could be " + strings.Join(cands, " or ") + ")"}
	}
	if len(pieces) == 1 && len(cands) == 1 {
		return xiangqi.NoMove, &ParseError{Notation: "wxf", Input: s, Reason: reasons[0], Err: cands[0].err, shaped: true}
	}
	if len(pieces) == 1 {
		return fail(true, "%s", reasons[0])
	}
	return fail(true, "no %s can play that: %s", which, strings.Join(reasons, "; "))
}
