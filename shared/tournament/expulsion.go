package tournament

import (
	"fmt"
	"strings"
)

// Expulsion states (O-2, 000 ch.3 裁判长 7: "除名"的纪律处分，须经裁判组慎重研究后，
// 由裁判长具文报请竞赛组织机构进行审核。获得批准方可执行).
const (
	ExpulsionProposed = "proposed" // the chief arbiter has reported it; nothing is executed yet
	ExpulsionApproved = "approved" // the organiser approved: the player has left the event
	ExpulsionRejected = "rejected" // the organiser did not approve: the player plays on
)

// MaxExpulsionNoteBytes bounds a proposal's or a decision's written reason.
const MaxExpulsionNoteBytes = 500

// Expulsion is a player's expulsion (除名): who proposed it, at which game,
// why, and what the organising body decided. It is kept on the player.
type Expulsion struct {
	Status string
	// ProposedBy is the chief arbiter's official id, or the event's id when
	// the organiser acted as chief arbiter.
	ProposedBy string
	ProposedAt int64
	// GameID is the game at which it was proposed; empty when none.
	GameID string
	Note   string
	// DecidedBy, DecidedAt and DecisionNote are the organiser's decision.
	DecidedBy    string
	DecidedAt    int64
	DecisionNote string
}

// ProposeExpulsion records the chief arbiter's written proposal to expel p
// (裁判长具文报请): nothing is executed until the organiser approves. by is the
// official's id. A proposal already pending or approved is refused; a
// rejected one may be proposed again.
func (t *Tournament) ProposeExpulsion(p *Player, by, gameID, note string, now int64) error {
	if err := checkExpulsionNote("note", note); err != nil {
		return err
	}
	switch {
	case p.Expulsion != nil && p.Expulsion.Status == ExpulsionProposed:
		return &RuleError{Code: "expulsion_pending", Rule: "O-2",
			Message: fmt.Sprintf("player %d's expulsion, proposed by %s, awaits the organiser's decision", p.Number, p.Expulsion.ProposedBy)}
	case p.Expulsion != nil && p.Expulsion.Status == ExpulsionApproved:
		return &RuleError{Code: "already_expelled", Rule: "O-2", Message: fmt.Sprintf("player %d has already been expelled", p.Number)}
	case p.Status == Withdrawn:
		return &RuleError{Code: "already_withdrawn", Rule: "S-6", Message: fmt.Sprintf("player %d has already withdrawn", p.Number)}
	}
	p.Expulsion = &Expulsion{Status: ExpulsionProposed, ProposedBy: by, ProposedAt: now, GameID: gameID, Note: note}
	return nil
}

// DecideExpulsion is the organiser's decision on a pending proposal (审核).
// Approved, the player leaves the event as a withdrawal does (S-6): not
// paired from the next round, an unfinished game lost, a round robin's
// results kept or annulled as S-6 says. Rejected, the player plays on.
func (t *Tournament) DecideExpulsion(p *Player, approve bool, by, note string, now int64) error {
	if err := checkExpulsionNote("note", note); err != nil {
		return err
	}
	if p.Expulsion == nil || p.Expulsion.Status != ExpulsionProposed {
		return &RuleError{Code: "no_expulsion_proposed", Rule: "O-2",
			Message: fmt.Sprintf("no expulsion of player %d awaits a decision: the chief arbiter proposes one first (penalty expulsion)", p.Number)}
	}
	e := *p.Expulsion
	e.DecidedBy, e.DecidedAt, e.DecisionNote = by, now, note
	e.Status = ExpulsionRejected
	if approve {
		if err := t.Withdraw(p); err != nil {
			return err
		}
		e.Status = ExpulsionApproved
	}
	p.Expulsion = &e
	return nil
}

// Expel is the organiser acting as chief arbiter: the proposal and its
// approval in one ruling.
func (t *Tournament) Expel(p *Player, by, gameID, note string, now int64) error {
	if err := t.ProposeExpulsion(p, by, gameID, note, now); err != nil {
		return err
	}
	return t.DecideExpulsion(p, true, by, note, now)
}

func checkExpulsionNote(field, note string) error {
	switch {
	case strings.TrimSpace(note) == "":
		return &FieldError{Field: field, Message: "an expulsion is reported in writing: say why (000 ch.3 裁判长 7 具文)", Rule: "O-2"}
	case len(note) > MaxExpulsionNoteBytes:
		return &FieldError{Field: field, Message: fmt.Sprintf("at most %d bytes", MaxExpulsionNoteBytes), Rule: "O-2"}
	}
	return nil
}
