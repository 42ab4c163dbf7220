package tournament

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/pairing/roundrobin"
)

// Which round may be paired, started or changed, and when the last one is:
// the checks the HTTP layer asks before it reads or writes a round.

// Refusal codes of requests on an event's rounds; each comes as a *RuleError
// naming its rule.
const (
	// CodeRoundOutOfOrder: a round other than the next was asked to be paired (S-2).
	CodeRoundOutOfOrder = "round_out_of_order"
	// CodeRoundNotPaired: the round named is not paired yet (S-2).
	CodeRoundNotPaired = "round_not_paired"
	// CodeTeamRound: a team round's matches and board colours follow T-6, not
	// manual changes.
	CodeTeamRound = "team_round"
	// CodeRoundClosed: a later round is paired, so this one no longer changes (O-1).
	CodeRoundClosed = "round_closed"
	// CodeRoundStarted: the round has started, so manual changes are over (O-1).
	CodeRoundStarted = "round_started"
)

// CheckNextRound refuses to pair round n unless it is the next one: rounds
// are paired one after another (S-2). A caller asking again for a round
// already paired (n ≤ t.Round) reads it back instead of asking here.
func (t *Tournament) CheckNextRound(n int) error {
	if next := t.Round + 1; n != next {
		return &RuleError{Code: CodeRoundOutOfOrder, Message: fmt.Sprintf("round %d is the next to pair, not %d", next, n), Rule: "S-2"}
	}
	return nil
}

// CheckPaired refuses to act on round n before it is paired (S-2).
func (t *Tournament) CheckPaired(n int) error {
	if n < 1 || n > t.Round {
		return &RuleError{Code: CodeRoundNotPaired, Message: fmt.Sprintf("round %d is not paired yet (the event is at round %d); pair it first", n, t.Round), Rule: "S-2"}
	}
	return nil
}

// Started reports whether the round's clocks run by now: it was started, or
// its start time has passed (C-1).
func (r *Round) Started(now int64) bool { return r.StartsAt != 0 && now >= r.StartsAt }

// CheckChange says whether round r may take an organiser's manual change
// (Round.Apply) at now, judged from the event: not in a team event, whose
// matches and board colours T-6 fixes; only the latest round (O-1); and only
// before the round starts (O-1) — before its start time and before any of
// its tables has a result. The caller then asks CheckGamesUnbegun of the
// round's games.
func (t *Tournament) CheckChange(r *Round, h *History, now int64) error {
	switch {
	case t.Settings.Teams:
		return &RuleError{Code: CodeTeamRound, Message: "a team round's matches and board colours follow T-6; change lineups before the match instead", Rule: "T-6"}
	case r.Number != t.Round:
		return &RuleError{Code: CodeRoundClosed, Message: fmt.Sprintf("round %d is followed by round %d; only the latest round may change", r.Number, t.Round), Rule: "O-1"}
	case r.Started(now):
		return roundStarted(r.Number, "its start time has passed")
	}
	for _, p := range r.Pairings {
		if _, ok := h.Result(r.Number, p); ok {
			return roundStarted(r.Number, fmt.Sprintf("table %d has a result", p.Table))
		}
	}
	return nil
}

// CheckGamesUnbegun refuses a manual change to round r once one of its games
// has begun (O-1): begun reports it for a pairing, from its stored game (a
// move, an end or a log entry).
func (r *Round) CheckGamesUnbegun(begun func(Pairing) bool) error {
	for _, p := range r.Pairings {
		if begun(p) {
			return roundStarted(r.Number, fmt.Sprintf("the game of table %d has begun", p.Table))
		}
	}
	return nil
}

func roundStarted(n int, why string) error {
	return &RuleError{Code: CodeRoundStarted, Message: fmt.Sprintf("round %d has started (%s); manual changes are made before a round starts", n, why), Rule: "O-1"}
}

// MayBeFinished says, from the event alone, whether the event could be over,
// so that a caller loads its rounds and results to decide only then: a
// running Swiss-based event once its last round is paired (a swissKnockout's
// final after it), a round robin once the last round of its table is, a
// closed challenge ring (S-8) once its rounds are; an open ring never ends
// by itself, and a knockout's bracket or a groups event's finals are decided
// by their games, so those may be over at any round.
func (t *Tournament) MayBeFinished() bool {
	if t.Status != Running {
		return false
	}
	switch t.Settings.System {
	case Swiss, SwissElimination, SwissNPlusOne:
		return t.Round >= t.Settings.Rounds
	case SwissKnockout:
		return t.Round > t.Settings.Rounds
	case RoundRobin, DoubleRoundRobin:
		return t.Round >= t.tableRounds()
	case ChallengeSystem:
		return t.Settings.Rounds > 0 && t.Round >= t.Settings.Rounds
	}
	return true
}

// tableRounds is the length of a round robin's table (S-1), roundrobin's
// count for its field: the teams of a team event, otherwise the entrants
// less those who withdrew before round 1 (S-6: they are not in the table).
func (t *Tournament) tableRounds() int {
	field := t.Entrants() - t.WithdrawnBeforeStart
	if t.Settings.Teams {
		field = t.TeamCount
	}
	cycles := 1
	if t.Settings.System == DoubleRoundRobin {
		cycles = 2
	}
	return roundrobin.Rounds(field, cycles)
}

// ResultsKeepPairings reports whether results alone never change a round's
// pairings in the event's system: true of the Swiss systems and the round
// robins; not of a knockout, where a result can call for the next game of
// a match (S-3), nor of the systems with knockout stages. A view of a
// round's pairings may then take in new results without being built again.
func (s Settings) ResultsKeepPairings() bool {
	switch s.System {
	case Swiss, SwissElimination, SwissNPlusOne, RoundRobin, DoubleRoundRobin:
		return true
	}
	return false
}
