package notation

import (
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Chinese is the traditional notation of N-4 (炮二平五, 馬8進7): piece, the
// mover's file, 進 (forward), 退 (back) or 平 (sideways), then the points moved
// along a file (帥 車 砲 兵) or the file landed on (仕 相 馬, and every 平).
// Red writes Chinese numerals, black Arabic digits.
//
// Pieces of one kind on one file, as the common practice (2011 rules, xqbase
// "中国象棋着法表示") writes them:
//   - two: 前/後 replaces the file and goes first — 前車進一, 後馬退7;
//   - three soldiers: 前/中/後 — 中兵平四;
//   - four or five soldiers: their place from the front, 一…五, for both
//     colours — 二兵平四, 三卒進1;
//   - soldiers paired on two files: the position word, then the file, and no
//     piece name — 前七進一, 後3平4;
//   - 仕/相 never: of two on a file the one that can retreat is always the front
//     one, so 仕四進五 is never ambiguous.
//
// Parse reads simplified and traditional characters and the usual variants
// (马/馬/傌, 车/車/俥, 炮/砲/包, 相/象, 仕/士, 帅/帥/将/將, 兵/卒, 进/進, 后/後)
// for either side, full-width digits for black, spaces anywhere, and 前兵七進一
// for 前七進一. It accepts the plain file form for one of two tandem pieces
// when only one of them can make the move. It refuses Arabic digits from red
// and Chinese numerals from black: they mark whose move a text is, and reading
// a stale red move as black's would play something else.
type Chinese struct {
	Script Script // characters to write; Parse reads both
}

// Name returns "chinese" (simplified characters) or "chinese-traditional".
func (n Chinese) Name() string {
	if n.Script == Traditional {
		return "chinese-traditional"
	}
	return "chinese"
}

// Format writes m, such as 炮二平五 or 馬8進7.
func (n Chinese) Format(p *xiangqi.Position, m xiangqi.Move) (string, error) {
	if !p.IsLegal(m) {
		return "", formatError(n.Name(), p, m)
	}
	sc := n.Script.norm()
	b := newBoard(p)
	c := b.side
	from := m.From()
	k := b.at[from].Kind()
	piece := pieceChars[sc][c][k]
	group := b.onFile(k, from.File())
	idx := indexOf(group, from)
	var sb strings.Builder
	switch {
	case len(group) == 1 || k == xiangqi.General || k == xiangqi.Advisor || k == xiangqi.Elephant:
		sb.WriteRune(piece)
		sb.WriteString(number(c, ownFile(c, from.File())))
	case k == xiangqi.Soldier && len(b.tandemFiles(k)) >= 2:
		sb.WriteRune(positionWord(sc, idx, len(group)))
		sb.WriteString(number(c, ownFile(c, from.File())))
	case len(group) <= 3:
		sb.WriteRune(positionWord(sc, idx, len(group)))
		sb.WriteRune(piece)
	default:
		sb.WriteRune(chineseNumerals[idx+1])
		sb.WriteRune(piece)
	}
	dir, num := relMove(c, k, m)
	sb.WriteRune(dirChars[sc][dir])
	sb.WriteString(number(c, num))
	return sb.String(), nil
}

// positionWord is 前/後 for two pieces, 前/中/後 for three.
func positionWord(sc Script, idx, size int) rune {
	switch {
	case idx == 0:
		return frontChar
	case idx == size-1:
		return rearChar[sc]
	}
	return middleChar
}

// chineseToken is one character of a Chinese move, classified.
type chineseToken struct {
	r     rune
	kind  xiangqi.Kind // a piece character
	num   int          // a numeral 1…9 (0 stands for none)
	cn    bool         // num is a Chinese numeral (red's), not a digit (black's)
	dir   byte         // 進 退 平
	place int          // 前 中 後
}

func tokenizeChinese(s string) ([]chineseToken, string) {
	var out []chineseToken
	for _, r := range compact(s) {
		t := chineseToken{r: r}
		if k, ok := readPiece[r]; ok {
			t.kind = k
		} else if v, ok := readNumeral(r); ok && v > 0 {
			t.num = v
			_, digit := readDigit(r)
			t.cn = !digit
		} else if d, ok := readDir[r]; ok {
			t.dir = d
		} else if pl, ok := readPos[r]; ok {
			t.place = pl
		} else {
			return nil, fmt.Sprintf("unknown character %s", describe(r))
		}
		out = append(out, t)
	}
	return out, ""
}

// Parse reads a move such as 炮二平五, 马8进7, 前車進一 or 後3平4.
func (n Chinese) Parse(p *xiangqi.Position, s string) (xiangqi.Move, error) {
	name := n.Name()
	fail := func(shaped bool, format string, args ...any) (xiangqi.Move, error) {
		return xiangqi.NoMove, &ParseError{Notation: name, Input: s, Reason: fmt.Sprintf(format, args...), shaped: shaped}
	}
	toks, bad := tokenizeChinese(s)
	if bad != "" {
		return fail(false, "%s; want a move such as 炮二平五 or 馬8進7", bad)
	}
	if len(toks) < 4 || len(toks) > 5 {
		return fail(false, "want four characters such as 炮二平五 or 馬8進7")
	}
	last, act := toks[len(toks)-1], toks[len(toks)-2]
	if act.dir == 0 {
		return fail(false, "%s is not 進, 退 or 平", describe(act.r))
	}
	if last.num == 0 {
		return fail(false, "the last character %s is not a number", describe(last.r))
	}
	head := toks[:len(toks)-2]
	b := newBoard(p)
	c := b.side
	// The numerals say whose move it is (red 二, black 2); reading one side's
	// text as the other's would play a different move, so refuse it.
	for i, t := range toks {
		if t.num == 0 || (i == 0 && len(head) == 2 && head[1].kind != 0) {
			continue // 二兵: a place from the front, not a file
		}
		if c == xiangqi.Red && !t.cn {
			return fail(true, "red is to move and writes Chinese numerals (炮二平五), not %s", describe(t.r))
		}
		if c == xiangqi.Black && t.cn {
			return fail(true, "black is to move and writes Arabic digits (炮8平5), not %s", describe(t.r))
		}
	}
	var kind xiangqi.Kind
	var pieces []xiangqi.Square
	var which string // names the pieces in messages
	rear := string(rearChar[n.Script.norm()])
	switch {
	case len(head) == 2 && head[0].kind != 0 && head[1].num != 0:
		// 炮二: piece and file.
		kind = head[0].kind
		file := head[1].num
		pieces = b.onFile(kind, boardFile(c, file))
		which = fmt.Sprintf("%s on file %d", kindName(kind), file)
		if len(pieces) == 0 {
			return fail(true, "no %s on file %d", kindName(kind), file)
		}
	case len(head) == 2 && head[0].place != 0 && head[1].kind != 0:
		// 前車: position word and piece.
		kind = head[1].kind
		files := b.tandemFiles(kind)
		if len(files) == 0 {
			return fail(true, "%s marks one of several %s on one file, and no two stand together", describe(head[0].r), kindPlural(kind))
		}
		var why string
		for _, f := range files {
			var sq xiangqi.Square
			if sq, why = pick(b.onFile(kind, f), head[0].place, 0); why == "" {
				pieces = append(pieces, sq)
			}
		}
		if len(pieces) == 0 {
			return fail(true, "%s", why)
		}
		which = fmt.Sprintf("%c%c", head[0].r, head[1].r)
	case len(head) == 2 && head[0].num != 0 && head[1].kind != 0:
		// 二兵: place from the front, for four or five soldiers.
		kind = head[1].kind
		files := b.tandemFiles(kind)
		for _, f := range files {
			if sq, why := pick(b.onFile(kind, f), 0, head[0].num); why == "" {
				pieces = append(pieces, sq)
			}
		}
		if len(pieces) == 0 {
			return fail(true, "no file has %d %s or more", head[0].num, kindPlural(kind))
		}
		which = fmt.Sprintf("%s number %d", kindName(kind), head[0].num)
	case (len(head) == 2 && head[0].place != 0 && head[1].num != 0) ||
		(len(head) == 3 && head[0].place != 0 && head[1].kind != 0 && head[2].num != 0):
		// 前七 or 前兵七: position word and file, for soldiers paired on two files.
		kind = xiangqi.Soldier
		if len(head) == 3 {
			kind = head[1].kind
		}
		file := head[len(head)-1].num
		group := b.onFile(kind, boardFile(c, file))
		if len(group) < 2 {
			return fail(true, "%s needs two %s or more on file %d", describe(head[0].r), kindPlural(kind), file)
		}
		sq, why := pick(group, head[0].place, 0)
		if why != "" {
			return fail(true, "%s", why)
		}
		pieces = []xiangqi.Square{sq}
		which = fmt.Sprintf("%s on file %d", kindName(kind), file)
	default:
		return fail(false, "want piece and file (炮二), or 前/中/%s and piece (前車), then 進/退/平 and a number", rear)
	}

	var cands []candidate
	var reasons []string
	for _, from := range pieces {
		to, why := relTarget(c, kind, from, act.dir, last.num)
		if why != "" {
			reasons = append(reasons, why)
			continue
		}
		cd := b.try(from, to)
		if cd.why != "" {
			reasons = append(reasons, cd.why)
		}
		cands = append(cands, cd)
	}
	ok := legalOnes(cands)
	switch {
	case len(ok) == 1:
		return xiangqi.NewMove(ok[0].from, ok[0].to), nil
	case len(ok) > 1:
		err := ambiguous(head, pieces, kind, c, rear, ok)
		err.Notation, err.Input = name, s
		return xiangqi.NoMove, err
	}
	if len(pieces) == 1 && len(cands) == 1 {
		return xiangqi.NoMove, &ParseError{Notation: name, Input: s, Reason: reasons[0], Err: cands[0].err, shaped: true}
	}
	if len(pieces) == 1 {
		return fail(true, "%s", reasons[0])
	}
	return fail(true, "no %s can play that: %s", which, strings.Join(reasons, "; "))
}

// pick returns the piece of group (front first) that a position word (前 中
// 後) or a place from the front (1…5) names.
func pick(group []xiangqi.Square, place, nth int) (xiangqi.Square, string) {
	switch {
	case nth > 0:
		if nth > len(group) {
			return xiangqi.NoSquare, fmt.Sprintf("number %d from the front, but the file has %d", nth, len(group))
		}
		return group[nth-1], ""
	case place == posFront:
		return group[0], ""
	case place == posRear:
		return group[len(group)-1], ""
	case place == posMiddle && len(group)%2 == 1:
		return group[len(group)/2], ""
	}
	return xiangqi.NoSquare, fmt.Sprintf("中 needs three pieces on the file, and it has %d", len(group))
}

// ambiguous is the error for a text that more than one legal move fits; it
// names them (in ICCS) so that a person can tell which was meant.
func ambiguous(head []chineseToken, pieces []xiangqi.Square, kind xiangqi.Kind, c xiangqi.Color, rear string, ok []candidate) *ParseError {
	var reason string
	switch {
	case head[0].kind != 0 && len(pieces) == 2:
		reason = fmt.Sprintf("two %s on file %d: say 前 or %s", kindPlural(kind), head[1].num, rear)
	case head[0].kind != 0:
		reason = fmt.Sprintf("%d %s on file %d: say 前, 中 or %s", len(pieces), kindPlural(kind), head[1].num, rear)
	default:
		reason = fmt.Sprintf("%s stand together on more than one file: say which, such as 前%s", kindPlural(kind),
			number(c, ownFile(c, ok[0].from.File())))
	}
	cands := iccsOf(ok)
	reason += " (it could be " + strings.Join(cands, " or ") + ")"
	return &ParseError{Reason: reason, Candidates: cands, shaped: true}
}
