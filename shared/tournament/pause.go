package tournament

import "fmt"

// Pause sets a player aside from the next pairings of a Swiss (S-6, the
// organisers' "paused players unpaired, may return"): the results so far
// stand, the rounds missed score nothing and show no game, and Resume brings
// the player back from the next round paired. A round robin's table and a
// knockout's bracket are fixed, so there a player can only withdraw.
func (t *Tournament) Pause(p *Player) error {
	if err := t.pausable(p); err != nil {
		return err
	}
	if p.Status == Paused {
		return &RuleError{Code: "already_paused", Message: fmt.Sprintf("%s (entry no. %d) is already paused", p.Name, p.Number), Rule: "S-6"}
	}
	p.Status = Paused
	return nil
}

// Resume returns a paused player to the pairings from the next round (S-6).
func (t *Tournament) Resume(p *Player) error {
	if err := t.pausable(p); err != nil {
		return err
	}
	if p.Status != Paused {
		return &RuleError{Code: "not_paused", Message: fmt.Sprintf("%s (entry no. %d) is not paused", p.Name, p.Number), Rule: "S-6"}
	}
	p.Status = Active
	return nil
}

func (t *Tournament) pausable(p *Player) error {
	switch {
	case t.Status == Finished:
		return &RuleError{Code: "event_finished", Message: "the event is finished", Rule: "S-6"}
	case t.Settings.Teams:
		return &RuleError{Code: "pause_unsupported", Message: "in a team event the captain's lineup decides who plays; a member is left out of the lineup instead", Rule: "T-2"}
	case !isSwiss(t.Settings.System):
		return &RuleError{Code: "pause_unsupported", Message: fmt.Sprintf("a %s pairs from a fixed table; a player who cannot play withdraws instead", t.Settings.System), Rule: "S-6"}
	case p.Status == Withdrawn:
		return &RuleError{Code: "already_withdrawn", Message: fmt.Sprintf("%s (entry no. %d) has withdrawn", p.Name, p.Number), Rule: "S-6"}
	}
	return nil
}
