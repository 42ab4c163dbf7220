package tournament

import "fmt"

// PlayerEdit is an organiser's correction of a registration before round 1;
// a nil field stays as it is, an empty Club clears the club.
type PlayerEdit struct {
	Name   *string
	Rating *int
	Club   *string
}

// Codes of the refusals below.
const (
	// CodeRegistrationFixed: round 1 is paired, registrations no longer change.
	CodeRegistrationFixed = "registration_fixed"
	// CodeTeamMember: the player belongs to a team's roster.
	CodeTeamMember = "team_member"
)

// registrationOpen refuses changes to the field once round 1 is paired: the
// first round's order (P-3), the round-robin numbers (S-1) and every later
// pairing read the players as they were then. After that a player leaves by
// withdrawing (S-6).
func (t *Tournament) registrationOpen(what string) error {
	if t.Round > 0 {
		return &RuleError{Code: CodeRegistrationFixed, Message: fmt.Sprintf("round %d is paired: a player can no longer be %s; withdraw the player instead (S-6)", t.Round, what), Rule: "O-1"}
	}
	return nil
}

// EditPlayer applies e to p before round 1 (O-1: the organiser sets up the
// event). A team member's rating is refused: it fixed the roster's board
// order when the team entered (T-1).
func (t *Tournament) EditPlayer(p *Player, e PlayerEdit, teamMember bool) error {
	if e.Name == nil && e.Rating == nil && e.Club == nil {
		return &FieldError{Field: "name", Message: "give at least one of name, rating and club to change"}
	}
	if err := t.registrationOpen("edited"); err != nil {
		return err
	}
	q := *p
	var err error
	if e.Name != nil {
		if q.Name, err = cleanName("name", *e.Name, 120); err != nil {
			return err
		}
	}
	if e.Rating != nil {
		if *e.Rating < 0 || *e.Rating > 4000 {
			return &FieldError{Field: "rating", Message: "must be between 0 and 4000"}
		}
		if teamMember && *e.Rating != p.Rating {
			return &RuleError{Code: CodeTeamMember, Message: "a team member's rating set the roster's board order when the team entered", Rule: "T-1"}
		}
		q.Rating = *e.Rating
	}
	if e.Club != nil {
		q.Club = ""
		if *e.Club != "" {
			if q.Club, err = cleanName("club", *e.Club, 120); err != nil {
				return err
			}
		}
	}
	*p = q
	return nil
}

// RemovePlayer takes a registration back before round 1, as if it had never
// been made. The player's number is not given to anyone else: numbers are
// registration numbers and the pairing numbers are drawn from their order
// (P-3), so a gap changes nothing. A team member leaves with the team only.
func (t *Tournament) RemovePlayer(p *Player, teamMember bool) error {
	if teamMember {
		return &RuleError{Code: CodeTeamMember, Message: fmt.Sprintf("player %d is on a team's roster; the roster is fixed when the team enters", p.Number), Rule: "T-1"}
	}
	if err := t.registrationOpen("removed"); err != nil {
		return err
	}
	t.Removed++
	if p.Status == Withdrawn && t.WithdrawnBeforeStart > 0 { // counted once: removed now, no longer withdrawn
		t.WithdrawnBeforeStart--
	}
	return nil
}

// Entrants counts the registrations still in the event's list: those made
// less those removed before round 1.
func (t *Tournament) Entrants() int { return t.Players - t.Removed }
