package xiangqi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidFEN is wrapped by every error ParseFEN returns.
var ErrInvalidFEN = errors.New("invalid FEN")

// FENError says why a FEN was rejected. Rule names the rule (shared/RULES.md) the position
// breaks (such as "B-3"), or is empty for a syntax error.
type FENError struct {
	Rule   string
	Reason string
}

// Error returns "invalid FEN: <reason> (<rule>)".
func (e *FENError) Error() string {
	if e.Rule == "" {
		return ErrInvalidFEN.Error() + ": " + e.Reason
	}
	return ErrInvalidFEN.Error() + ": " + e.Reason + " (" + e.Rule + ")"
}

// Unwrap returns ErrInvalidFEN so errors.Is(err, ErrInvalidFEN) holds.
func (e *FENError) Unwrap() error { return ErrInvalidFEN }

func fenErr(rule, format string, args ...any) error {
	return &FENError{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// maxCounter bounds the FEN clocks so ply arithmetic cannot overflow.
const maxCounter = 1 << 30

var fenKinds = map[byte]Kind{
	'k': General, 'a': Advisor, 'b': Elephant, 'e': Elephant,
	'n': Horse, 'h': Horse, 'r': Chariot, 'c': Cannon, 'p': Soldier,
}

const fenLetters = ".kabnrcp"

// ParseFEN reads a xiangqi FEN: ten ranks from black's back rank (rank 9) to
// red's (rank 0), then the side to move, then optionally "-" "-" (unused
// castling and en-passant fields), the halfmove clock (plies without a
// capture) and the fullmove number. It accepts h/e for horse/elephant and "r"
// for red to move. It rejects positions that cannot arise in a game (B-2…B-10),
// returning a *FENError that wraps ErrInvalidFEN.
func ParseFEN(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return nil, fenErr("", "want at least the board and the side to move, got %d fields", len(fields))
	}
	if len(fields) > 6 {
		return nil, fenErr("", "want at most 6 fields, got %d", len(fields))
	}
	var grid [90]Piece
	rows := strings.Split(fields[0], "/")
	if len(rows) != 10 {
		return nil, fenErr("B-1", "want 10 ranks, got %d", len(rows))
	}
	for i, row := range rows {
		r := 9 - i
		f := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '1' && ch <= '9' {
				f += int(ch - '0')
				if f > 9 {
					break
				}
				continue
			}
			lower := ch | 0x20
			k, ok := fenKinds[lower]
			if !ok || ch < 'A' || ch > 'z' {
				return nil, fenErr("", "rank %d: unknown piece letter %q", r, ch)
			}
			if f >= 9 {
				f++
				break
			}
			c := Black
			if ch < 'a' {
				c = Red
			}
			grid[r*9+f] = MakePiece(c, k)
			f++
		}
		if f != 9 {
			return nil, fenErr("B-1", "rank %d has %d files, want 9", r, f)
		}
	}

	p := &Position{board: emptyBoard}
	switch fields[1] {
	case "w", "r":
		p.side = Red
	case "b":
		p.side = Black
	default:
		return nil, fenErr("", "side to move %q, want w, r or b", fields[1])
	}
	rest := fields[2:]
	for i := 0; i < 2 && len(rest) > 0 && rest[0] == "-"; i++ {
		rest = rest[1:]
	}
	full := 1
	if len(rest) > 0 {
		n, err := strconv.Atoi(rest[0])
		if err != nil || n < 0 || n > maxCounter {
			return nil, fenErr("", "halfmove clock %q, want an integer 0…%d", rest[0], maxCounter)
		}
		p.noCapture = n
		rest = rest[1:]
	}
	if len(rest) > 0 {
		n, err := strconv.Atoi(rest[0])
		if err != nil || n < 1 || n > maxCounter {
			return nil, fenErr("", "fullmove number %q, want an integer 1…%d", rest[0], maxCounter)
		}
		full = n
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return nil, fenErr("", "unexpected field %q", rest[0])
	}
	p.ply = (full-1)*2 + int(p.side)

	if err := p.place(&grid); err != nil {
		return nil, err
	}
	p.hash = p.computeHash()
	return p, nil
}

// place puts the pieces of grid into their slots, checking each placement rule.
func (p *Position) place(grid *[90]Piece) error {
	var used [2][8]int
	for s, pc := range grid {
		if pc == NoPiece {
			continue
		}
		c, k := pc.Color(), pc.Kind()
		sq := Square(s)
		if used[c][k] == kindSlots[k].n {
			if k == General {
				return fenErr("B-2", "%s has more than one general", c)
			}
			return fenErr("B-2", "%s has more than %d %ss", c, kindSlots[k].n, k)
		}
		cl := sq256[s]
		switch {
		case k == General && !inPalace[c][cl]:
			return fenErr("B-3", "%s general on %s is outside its palace", c, sq)
		case k == Advisor && !advisorPt[c][cl]:
			return fenErr("B-4", "%s advisor on %s is off the palace diagonals", c, sq)
		case k == Elephant && !elephantPt[c][cl]:
			return fenErr("B-5", "%s elephant on %s is not on one of its 7 points", c, sq)
		case k == Soldier && c == Red && sq.Rank() < 3,
			k == Soldier && c == Black && sq.Rank() > 6:
			return fenErr("B-9", "%s soldier on %s is behind its starting rank", c, sq)
		case k == Soldier && ownHalf[c][cl] && sq.File()%2 == 1:
			// Sideways steps come only after the river and there is no way back.
			return fenErr("B-9", "%s soldier on %s cannot have left its file before crossing the river", c, sq)
		}
		slot := uint8(16)<<c + uint8(kindSlots[k].first+used[c][k])
		used[c][k]++
		p.board[cl] = slot
		p.sqOf[slot] = cl
	}
	for c := Red; c <= Black; c++ {
		if used[c][General] == 0 {
			return fenErr("B-2", "%s has no general", c)
		}
	}
	if rg, bg := p.sqOf[16+slotGen], p.sqOf[32+slotGen]; p.generalsFace(rg, bg) {
		return fenErr("B-3", "the generals face each other on file %c", 'a'+rg&15-3)
	}
	if p.attacked(p.sqOf[16<<(p.side^1)+slotGen], p.side) {
		return fenErr("B-10", "%s is in check but it is %s's turn", p.side^1, p.side)
	}
	return nil
}

// FEN returns the position in the common xiangqi FEN, with n/b for horse and
// elephant, w/b for the side to move, "- -" for the unused fields, then the
// no-capture count and the fullmove number.
func (p *Position) FEN() string {
	var sb strings.Builder
	sb.Grow(80)
	for r := 9; r >= 0; r-- {
		empty := 0
		for f := 0; f < 9; f++ {
			pc := slotPiece[p.board[cell(f, r)]]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			ch := fenLetters[pc.Kind()]
			if pc.Color() == Red {
				ch -= 'a' - 'A'
			}
			sb.WriteByte(ch)
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	if p.side == Red {
		sb.WriteString(" w - - ")
	} else {
		sb.WriteString(" b - - ")
	}
	sb.WriteString(strconv.Itoa(p.noCapture))
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.ply/2 + 1))
	return sb.String()
}
