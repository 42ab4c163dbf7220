package tournament

import (
	"errors"
	"fmt"
	"slices"
)

// Manual changes an organiser may make to a round before it starts.
const (
	ChangeSwapColours = "swapColours"
	ChangePair        = "pair"
	ChangeBye         = "bye"
)

// CodeInvalidChange refuses a manual change that does not fit the round.
const CodeInvalidChange = "invalid_change"

// Change is one manual change to a paired round: swap the colours of a
// table, force Red to meet Black (their former opponents meet each other, or
// take the bye), or give the bye to Player (the former bye holder takes
// their place).
type Change struct {
	Action     string
	Table      int
	Red, Black string
	Player     string
	Note       string
}

func changeError(format string, args ...any) error {
	return &RuleError{Code: CodeInvalidChange, Message: fmt.Sprintf(format, args...), Rule: "O-1"}
}

// Apply makes the change to the round and records it in the audit log; it
// returns the tables whose players or colours changed. The round is left
// untouched when the change is refused.
func (r *Round) Apply(ch Change, by string, now int64) ([]int, error) {
	find := func(id string) (int, bool) { // index of the player's pairing, or bye
		for i, p := range r.Pairings {
			if p.Red == id || p.Black == id {
				return i, false
			}
		}
		return -1, slices.Contains(r.Byes, id)
	}
	single := func(i int) error {
		if r.Pairings[i].Match != "" {
			return changeError("table %d is part of match %s; the games of a multi-game match change together only by a new pairing", r.Pairings[i].Table, r.Pairings[i].Match)
		}
		return nil
	}
	ps := slices.Clone(r.Pairings)
	byes := slices.Clone(r.Byes)
	var touched []int
	var detail string
	switch ch.Action {
	case ChangeSwapColours:
		i := slices.IndexFunc(ps, func(p Pairing) bool { return p.Table == ch.Table })
		if i < 0 {
			return nil, changeError("round %d has no table %d", r.Number, ch.Table)
		}
		ps[i].Red, ps[i].Black = ps[i].Black, ps[i].Red
		touched = []int{i}
		detail = fmt.Sprintf("table %d: colours swapped, %s now red", ch.Table, ps[i].Red)
	case ChangePair:
		if ch.Red == "" || ch.Black == "" || ch.Red == ch.Black {
			return nil, changeError("a forced pair names two different players, red and black")
		}
		ia, byeA := find(ch.Red)
		ib, byeB := find(ch.Black)
		if ia < 0 && !byeA || ib < 0 && !byeB {
			return nil, changeError("both players must be in round %d (paired or with the bye)", r.Number)
		}
		switch {
		case ia >= 0 && ia == ib:
			ps[ia].Red, ps[ia].Black = ch.Red, ch.Black
			touched = []int{ia}
		case ia >= 0 && ib >= 0:
			if err := errors.Join(single(ia), single(ib)); err != nil {
				return nil, err
			}
			x, y := opponent(ps[ia], ch.Red), opponent(ps[ib], ch.Black)
			xRed := ps[ia].Red == x || ps[ib].Red != y
			ps[ia].Red, ps[ia].Black = ch.Red, ch.Black
			if xRed {
				ps[ib].Red, ps[ib].Black = x, y
			} else {
				ps[ib].Red, ps[ib].Black = y, x
			}
			touched = []int{ia, ib}
		case ia >= 0: // Black had the bye: Red's opponent takes it
			if err := single(ia); err != nil {
				return nil, err
			}
			x := opponent(ps[ia], ch.Red)
			ps[ia].Red, ps[ia].Black = ch.Red, ch.Black
			byes[slices.Index(byes, ch.Black)] = x
			touched = []int{ia}
		case ib >= 0:
			if err := single(ib); err != nil {
				return nil, err
			}
			y := opponent(ps[ib], ch.Black)
			ps[ib].Red, ps[ib].Black = ch.Red, ch.Black
			byes[slices.Index(byes, ch.Red)] = y
			touched = []int{ib}
		default:
			return nil, changeError("both players have a bye; a pair needs a table")
		}
		detail = fmt.Sprintf("forced pair %s (red) v %s (black)", ch.Red, ch.Black)
	case ChangeBye:
		ip, bye := find(ch.Player)
		if bye {
			return nil, changeError("%s already has the bye", ch.Player)
		}
		if ip < 0 {
			return nil, changeError("%s is not paired in round %d", ch.Player, r.Number)
		}
		if len(byes) != 1 {
			return nil, changeError("round %d has %d byes; moving the bye needs exactly one", r.Number, len(byes))
		}
		if err := single(ip); err != nil {
			return nil, err
		}
		z := byes[0]
		if ps[ip].Red == ch.Player {
			ps[ip].Red = z
		} else {
			ps[ip].Black = z
		}
		byes[0] = ch.Player
		touched = []int{ip}
		detail = fmt.Sprintf("bye moved from %s to %s, who takes table %d", z, ch.Player, ps[ip].Table)
	default:
		return nil, &FieldError{Field: "action", Message: fmt.Sprintf("unknown change %q (want swapColours, pair or bye)", ch.Action)}
	}
	if ch.Note != "" {
		detail += "; " + ch.Note
	}
	tables := make([]int, len(touched))
	for k, i := range touched {
		tables[k] = ps[i].Table
		if i < len(r.Explanations) {
			r.Explanations[i] = Explanation{Opponent: "changed by the organiser: " + detail, OpponentReason: "manual", ColourReason: "manual"}
		}
	}
	if len(byes) > 0 && len(r.Explanations) == len(r.Pairings)+1 && !slices.Equal(byes, r.Byes) {
		r.Explanations[len(r.Pairings)] = Explanation{Opponent: "changed by the organiser: " + detail, OpponentReason: ReasonBye, ColourReason: ReasonBye}
	}
	r.Pairings, r.Byes = ps, byes
	r.Audit = append(r.Audit, AuditEntry{At: now, By: by, Action: ch.Action, Detail: detail})
	return tables, nil
}

func opponent(p Pairing, id string) string {
	if p.Red == id {
		return p.Black
	}
	return p.Red
}
