package roundrobin

import (
	"errors"
	"fmt"
)

// ErrWithdrawal reports a withdrawal the schedule cannot hold: an unknown
// number or more played matches than scheduled.
var ErrWithdrawal = errors.New("roundrobin: invalid withdrawal")

// Withdrawal is the ruling on a player leaving a round robin (S-6; 000 ch.2
// §2, 001 §14.4).
type Withdrawal struct {
	Number int
	// Due and Played count the player's matches (opponent meetings) in the
	// schedule, rests excluded: 000 ch.2 §2 compares "已赛对手数" with
	// "应赛对手数"; in a double round robin each cycle's meeting counts.
	Due, Played int
	// BeforePlay: the draw was made but no round has started. The organiser
	// may redraw (000 ch.2 §2.1); RedrawAdvised is set when the remaining
	// field is even, where 001 §14.4 says the draw should be redone.
	BeforePlay    bool
	RedrawAdvised bool
	// Annulled: fewer than half the matches were played, so every result of
	// the player is struck out and the remaining games are not played.
	Annulled bool
	// Forfeits are the remaining games when half or more were played: each
	// is a forfeit won by the opponent and marked as such (S-6). A game the
	// player left unfinished counts here too unless the arbiters decide
	// otherwise (000 ch.2 §2.2).
	Forfeits []Fixture
	// Cancelled are the remaining games of an annulled player: nobody plays
	// or scores them; the opponent rests (S-7).
	Cancelled []Fixture
}

// Withdraw rules on number leaving after roundsStarted rounds have begun,
// having played the first played of its matches in schedule order.
func Withdraw(s Schedule, number, roundsStarted, played int) (Withdrawal, error) {
	if number < 1 || number > s.Players || played < 0 || roundsStarted < 0 {
		return Withdrawal{}, fmt.Errorf("withdraw number %d (played %d) from %d players: %w", number, played, s.Players, ErrWithdrawal)
	}
	w := Withdrawal{Number: number, Played: played}
	type match struct{ round, table int }
	var order []match
	for _, rd := range s.Rounds {
		for _, p := range rd.Pairings {
			if p.Red == number || p.Black == number {
				order = append(order, match{rd.Number, p.Table})
			}
		}
	}
	w.Due = len(order)
	if played > w.Due {
		return Withdrawal{}, fmt.Errorf("withdraw number %d: played %d of %d matches: %w", number, played, w.Due, ErrWithdrawal)
	}
	if roundsStarted == 0 && played == 0 {
		w.BeforePlay = true
		w.RedrawAdvised = (s.Players-1)%2 == 0
		return w, nil
	}
	remaining := make(map[match]bool, w.Due-played)
	for _, m := range order[played:] {
		remaining[m] = true
	}
	w.Annulled = 2*played < w.Due
	for _, f := range s.Fixtures(number) {
		if !remaining[match{f.Round, f.Table}] {
			continue
		}
		if w.Annulled {
			w.Cancelled = append(w.Cancelled, f)
		} else {
			w.Forfeits = append(w.Forfeits, f)
		}
	}
	return w, nil
}
