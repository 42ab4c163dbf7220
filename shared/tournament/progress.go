package tournament

import (
	"errors"
	"fmt"
	"time"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
)

// Where an event and its rounds stand, decided here once: the HTTP layer
// shows these, it does not work them out.

// RoundState is where a paired round stands.
type RoundState string

// The states of a round.
const (
	// RoundPaired is a round paired, its games not yet under way.
	RoundPaired RoundState = "paired"
	// RoundStarted is a round whose clocks run (C-1: manual changes are over).
	RoundStarted RoundState = "started"
	// RoundFinished is a round every game of which has a result.
	RoundFinished RoundState = "finished"
)

// UnderWay reports whether round r's games are under way at now: it was
// started or its start time has passed (Round.Started, C-1), or a game of
// it already has a result (an over-the-board result recorded meanwhile).
func UnderWay(h *History, r *Round, now int64) bool {
	if r.Started(now) {
		return true
	}
	for _, p := range r.Pairings {
		if _, ok := h.Result(r.Number, p); ok {
			return true
		}
	}
	return false
}

// StateOf is where round r stands at now: a team round whose matches
// still wait for lineups is not finished, whatever its set boards say.
func StateOf(h *History, r *Round, now int64) RoundState {
	done := AllMatchesSet(r)
	for _, p := range r.Pairings {
		if _, ok := h.Result(r.Number, p); !ok {
			done = false
		}
	}
	switch {
	case done && (len(r.Pairings) > 0 || len(r.Matches) > 0):
		return RoundFinished
	case UnderWay(h, r, now):
		return RoundStarted
	}
	return RoundPaired
}

// AllMatchesSet reports whether every match of a team round has its
// lineups set, so its boards are paired (T-3); an individual round has none.
func AllMatchesSet(r *Round) bool {
	for _, m := range r.Matches {
		if !MatchSet(r, m) {
			return false
		}
	}
	return true
}

// noGameIDs names no game: Over pairs only to learn whether a next round
// exists, and stores nothing.
func noGameIDs(int, int, int) string { return "" }

// Over reports whether individual event t is over: every round its system
// has is paired (the next pairing would be refused with event_complete —
// the last Swiss round, the whole round-robin table, a decided bracket)
// and every game has a result.
func Over(t *Tournament, h *History) bool {
	if t.Round == 0 || len(h.Unfinished()) > 0 {
		return false
	}
	_, err := PairNext(t, h, PairOptions{UnfinishedAsDraws: true}, noGameIDs)
	return complete(err)
}

// TeamsOver is Over for a team event.
func TeamsOver(t *Tournament, th *TeamHistory) bool {
	if t.Round == 0 || len(th.History.Unfinished()) > 0 {
		return false
	}
	// A match whose lineups are still awaited has no board games yet, so
	// nothing is unfinished; the event is not over for that.
	for _, r := range th.History.Rounds {
		if r.Number == t.Round && !AllMatchesSet(r) {
			return false
		}
	}
	_, err := PairNextTeams(t, th, PairOptions{UnfinishedAsDraws: true}, noGameIDs)
	return complete(err)
}

// complete reports whether a pairing was refused because the event has no
// next round.
func complete(err error) bool {
	var re *RuleError
	return errors.As(err, &re) && re.Code == CodeEventComplete
}

// MarkPaired is the event once round n is stored: running, n rounds
// paired, and kept for good (no expiry: the event is played).
func (t *Tournament) MarkPaired(n int) { t.Round, t.Status, t.ExpiresAt = n, Running, 0 }

// Finish is the event once it is over (Over): its status reads finished.
func (t *Tournament) Finish() { t.Status = Finished }

// RoundStartWindow bounds a round's startsAt around the time of pairing (in
// ms before it; a year after). The games' clocks run from it (C-6), so a
// start years off — a typo — would make every game of the round lost on
// time at its first read, or give the players clocks that do not run.
const RoundStartWindow = 24 * 60 * 60 * 1000

// CheckRoundStart refuses a round start outside the window around now
// (both Unix ms), as a malformed field: startsAt, C-6.
func CheckRoundStart(startsAt, now int64) error {
	if startsAt < now-RoundStartWindow || startsAt > time.UnixMilli(now).AddDate(1, 0, 0).UnixMilli() {
		return &FieldError{Field: "startsAt", Rule: "C-6",
			Message: "a round starts between a day before it is paired and a year after (the games' clocks run from it)"}
	}
	return nil
}

// ChallengeControl is the time control of a challenge ring that names none
// (S-8): the world control (000 ch.7 §1: 擂台赛的限时规定应有所放松，采用世界性比赛时限).
func ChallengeControl() clock.Control {
	c, _ := clock.Preset("world")
	return c
}

// EventControl is the time control of a new event of system: tc as the
// request gave it, or when it gave none (given false) a challenge ring's
// default, ChallengeControl (S-8); any other system's tc is then untimed.
func EventControl(system string, tc clock.Control, given bool) clock.Control {
	if !given && system == ChallengeSystem {
		return ChallengeControl()
	}
	return tc
}

// StandaloneRules is a standalone game's rules from the options given
// (repetitionNamed: whether the request named a repetition rule set),
// validated as an event's are, defaults included. G-6: a standalone game
// has no arbiter, so the ruling by three arbiters would leave a repetition
// pending for ever (a losing side could force that with perpetual check).
// Its default is automatic: perpetual check loses, any other repetition is
// a draw at the third occurrence; asking for the ruling is refused.
func StandaloneRules(tc clock.Control, r Rules, repetitionNamed bool) (game.Rules, error) {
	switch {
	case !repetitionNamed:
		r.Repetition = game.PerpetualCheckLoses
	case r.Repetition == game.ArbiterRuling:
		return game.Rules{}, &FieldError{Field: "rules.repetition", Rule: "G-6",
			Message: fmt.Sprintf("a standalone game has no arbiter to rule on a repetition; use %q (the default) or %q", game.PerpetualCheckLoses, game.ThreefoldDraw)}
	}
	settings := Settings{Name: "game", Rounds: 1, TimeControl: tc, Rules: r}
	if err := settings.Normalize(); err != nil {
		return game.Rules{}, err
	}
	return settings.Rules.Rules, nil
}

// CodeForbidden is a refusal of who asks, not of what: the caller may not
// do this (the HTTP layer answers it 403).
const CodeForbidden = game.CodeForbidden

// LineupTeam is the team a lineup request is for (T-2, T-3): a captain
// sets their own team's lineup only (named, when given, must be it) and
// never draws missing ones; the organiser names the team, or asks for the
// missing lineups to be drawn. captainOf is the caller's team when the
// caller is a captain, "" for the organiser.
func LineupTeam(captainOf, named string, drawMissing bool) (string, error) {
	switch {
	case captainOf != "" && drawMissing:
		return "", &RuleError{Code: CodeForbidden, Message: "only the organiser draws missing lineups"}
	case captainOf != "" && named == "":
		return captainOf, nil
	case captainOf != "" && named != captainOf:
		return "", &RuleError{Code: CodeForbidden, Message: "a captain sets the lineup of their own team only"}
	case captainOf == "" && named == "" && !drawMissing:
		return "", &FieldError{Field: "team", Message: "the organiser names the team"}
	}
	return named, nil
}
