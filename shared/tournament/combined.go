package tournament

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/pairing/combined"
)

// Elimination is the last-place elimination of a swissElimination event
// (积分末位淘汰制, S-4, 001 §10.4.1.4): once the event is past halfway, the
// lowest-ranked players leave after each round until Keep remain.
type Elimination struct {
	// FromRound is the first round after which players leave; default
	// combined.PastHalfway(Rounds) (赛程过半: 5 of 9, 6 of 10).
	FromRound int
	// PerRound is how many of the lowest-ranked leave after each such
	// round; default 1, the rule book naming no number ("若干名").
	PerRound int
	// Keep is the field nobody is dropped below; default 0. Whatever it
	// says, at least two players stay, so the last round can be paired.
	Keep int
}

// Finals of a groups event (S-5, 001 §10.1).
const (
	// FinalsSamePlace: the k-th placed of every group play a round robin
	// for places (k-1)·groups+1 on (同名次决赛); with two groups, one game.
	FinalsSamePlace = "samePlace"
	// FinalsCross: the cross elimination (交叉淘汰, S-3, 001 §10.3): the top
	// Qualifiers of each group in a knockout bracket that crosses the groups
	// — with two groups of two, A1-B2 and B1-A2 — then the final and the
	// third-place match, as knockout matches (combined.CrossElimination).
	FinalsCross = "cross"
)

// GroupStage is the seeded-groups system (S-5): players split by rating into
// Count round-robin groups (snake seeding), then the finals.
type GroupStage struct {
	// Count is the number of groups; default 2.
	Count int
	// Finals is FinalsSamePlace (default) or FinalsCross (a power of two of
	// groups: 2, 4, 8 or 16).
	Finals string
	// Qualifiers is how many of each group enter the cross elimination;
	// default 2. Only FinalsCross has it.
	Qualifiers int
}

// CrossQualifiers is how many of each group enter the cross elimination
// (S-3, S-5): the setting, or the two that events stored before the
// setting always took.
func (g GroupStage) CrossQualifiers() int {
	if g.Qualifiers == 0 {
		return 2
	}
	return g.Qualifiers
}

// normalizeCombined fills and checks the settings of the combined systems
// (S-4 elimination, S-5 groups); other systems must leave them unset.
func (s *Settings) normalizeCombined() error {
	if s.System != SwissElimination {
		if s.Elimination != (Elimination{}) {
			return &FieldError{Field: "elimination", Message: "only a swissElimination event drops players", Rule: "S-4"}
		}
	} else {
		e := &s.Elimination
		if s.Rounds < 2 {
			return &FieldError{Field: "rounds", Message: "a swissElimination event needs at least 2 rounds", Rule: "S-4"}
		}
		if e.FromRound == 0 {
			e.FromRound = combined.PastHalfway(s.Rounds)
		}
		if e.PerRound == 0 {
			e.PerRound = 1
		}
		if e.FromRound < 1 || e.FromRound >= s.Rounds {
			return &FieldError{Field: "elimination.fromRound", Message: fmt.Sprintf("must be between 1 and %d: players leave after a round before the last", s.Rounds-1), Rule: "S-4"}
		}
		if e.PerRound < 1 || e.PerRound > 10000 {
			return &FieldError{Field: "elimination.perRound", Message: "must be between 1 and 10000", Rule: "S-4"}
		}
		if e.Keep < 0 || e.Keep > MaxPlayers { // no event keeps more players than it may hold
			return &FieldError{Field: "elimination.keep", Message: fmt.Sprintf("must be between 0 and %d", MaxPlayers), Rule: "S-4"}
		}
	}
	if s.System != Groups {
		if s.Groups != (GroupStage{}) {
			return &FieldError{Field: "groups", Message: "only a groups event has groups", Rule: "S-5"}
		}
		return nil
	}
	g := &s.Groups
	if g.Count == 0 {
		g.Count = 2
	}
	if g.Finals == "" {
		g.Finals = FinalsSamePlace
	}
	if g.Count < 2 || g.Count > 26 {
		return &FieldError{Field: "groups.count", Message: "must be between 2 and 26 (groups A to Z)", Rule: "S-5"}
	}
	switch g.Finals {
	case FinalsSamePlace:
	case FinalsCross:
		if g.Count&(g.Count-1) != 0 {
			return &FieldError{Field: "groups.finals", Message: fmt.Sprintf("the cross elimination crosses groups in pairs through the bracket: 2, 4, 8 or 16 groups, not %d; use samePlace", g.Count), Rule: "S-3"}
		}
		if g.Qualifiers == 0 {
			g.Qualifiers = 2
		}
		if g.Qualifiers < 1 || g.Qualifiers > 32 {
			return &FieldError{Field: "groups.qualifiers", Message: "must be between 1 and 32 per group", Rule: "S-3"}
		}
	default:
		return &FieldError{Field: "groups.finals", Message: fmt.Sprintf("unknown finals %q (want samePlace or cross)", g.Finals), Rule: "S-5"}
	}
	if g.Finals != FinalsCross && g.Qualifiers != 0 {
		return &FieldError{Field: "groups.qualifiers", Message: "only the cross elimination takes qualifiers; same-place finals take every group place", Rule: "S-5"}
	}
	return nil
}

// eliminatedBefore is everyone a swissElimination event has dropped before
// round n, as the rounds paired so far recorded it (S-4).
func eliminatedBefore(h *History, n int) map[string]bool {
	out := map[string]bool{}
	for _, r := range h.Rounds {
		if r.Number < n {
			for _, id := range r.Eliminated {
				out[id] = true
			}
		}
	}
	return out
}

// withStatus is the history with some players set aside as if paused, so a
// pairing skips them while their past games stay as they were.
func withStatus(h *History, aside map[string]bool) *History {
	rest := *h
	rest.Players = make([]*Player, 0, len(h.Players))
	for _, p := range h.Players {
		q := *p
		if aside[p.ID] && q.Status == Active {
			q.Status = Paused
		}
		rest.Players = append(rest.Players, &q)
	}
	return &rest
}

// eliminationField returns who is out of round n of a swissElimination
// event (S-4, 001 §10.4.1.4): everyone dropped before, plus — when round n-1
// is at or past Elimination.FromRound and before the last round — the
// PerRound lowest-ranked, in the standings after round n-1, of those still
// in (never below Keep, nor below two). dropped is that last part.
func eliminationField(t *Tournament, h *History, n int) (out map[string]bool, dropped []string, err error) {
	out = eliminatedBefore(h, n)
	e := t.Settings.Elimination
	el := combined.Elimination{Rounds: t.Settings.Rounds, FromRound: e.FromRound, PerRound: e.PerRound, Keep: max(e.Keep, 2)}
	k := n - 1
	if k < el.FromRound || k >= el.Rounds {
		return out, nil, nil
	}
	ranked, err := rankAfter(t, h, k)
	if err != nil {
		return nil, nil, err
	}
	var still []string
	for _, id := range ranked {
		if !out[id] {
			still = append(still, id)
		}
	}
	if dropped, err = el.Eliminated(k, still); err != nil {
		return nil, nil, fmt.Errorf("pair round %d: %w", n, err)
	}
	for _, id := range dropped {
		out[id] = true
	}
	return out, dropped, nil
}

// pairElimination pairs round n of a Swiss with last-place elimination
// (S-4): the Swiss pairs the players still in (eliminationField). Who left
// is stored on the round, so a later result correction never changes a
// field already paired.
func pairElimination(t *Tournament, h *History, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	if n > t.Settings.Rounds {
		return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("all %d rounds are paired", t.Settings.Rounds), Rule: "P-2"}
	}
	out, dropped, err := eliminationField(t, h, n)
	if err != nil {
		return nil, err
	}
	r, err := pairSwiss(t, withStatus(h, out), n, o, gameID)
	if err != nil {
		return nil, err
	}
	r.Eliminated = dropped
	return r, nil
}
