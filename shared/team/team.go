// Package team is the pure core of team events (T-1…T-7, K-1, S-7):
// rosters and their board order, the lineups a team may field in a match,
// the board colours of a team match, the all-play-all schedule between two
// teams, and the board and match points of a match. It knows nothing of
// storage, HTTP or the clock: callers pass the time and the random seed.
//
// Team standings live in shared/standings and team pairings reuse the
// engines in shared/pairing; this package gives them the match results.
// Refusals are *RuleError, the core's one refusal type rulebook.RuleError;
// board results are result.Result, the core's one result type.
//
// Where each concept lives: team.go Settings and formats (T-1, T-2);
// roster.go rosters and their board order (T-1); lineup.go lineups and
// their checks (T-2, T-3); draw.go a drawn lineup; match.go the boards and
// colours of a match and the all-play-all schedule (T-4, T-6); score.go board
// and match points and byes (T-7, K-1, S-7).
package team

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/rulebook"
)

// RuleError is a request the team rules refuse: the core's one refusal
// type, rulebook.RuleError, with one of the codes below and the rule (shared/RULES.md)
// that decided it (such as "T-2"). The HTTP layer maps it to 422.
type RuleError = rulebook.RuleError

// The error codes of RuleError. They are part of the API contract.
const (
	// CodeInvalidSettings: the event's team settings are unusable.
	CodeInvalidSettings = "invalid_settings"
	// CodeInvalidPlayer: a roster entry has no id or a negative rating.
	CodeInvalidPlayer = "invalid_player"
	// CodeDuplicatePlayer: the same player twice in a roster or lineup.
	CodeDuplicatePlayer = "duplicate_player"
	// CodeRosterSize: the roster's members do not fill the event's boards.
	CodeRosterSize = "roster_size"
	// CodeSubstitutesNotAllowed: substitutes entered in a format without them.
	CodeSubstitutesNotAllowed = "substitutes_not_allowed"
	// CodeTooManySubstitutes: more substitutes than the event allows.
	CodeTooManySubstitutes = "too_many_substitutes"
	// CodeLineupSize: a lineup that does not fill exactly the event's boards.
	CodeLineupSize = "lineup_size"
	// CodeUnknownPlayer: a lineup names someone who is not on the roster.
	CodeUnknownPlayer = "unknown_player"
	// CodeLineupOutOfOrder: a lineup that breaks the roster's board order.
	CodeLineupOutOfOrder = "lineup_out_of_order"
	// CodeLineupDeadlinePassed: a lineup submitted at or after its deadline.
	CodeLineupDeadlinePassed = "lineup_deadline_passed"
	// CodeLineupsNotEnumerable: asked to list the lineups of a format in
	// which every ordering is legal.
	CodeLineupsNotEnumerable = "lineups_not_enumerable"
	// CodeAllPlayAllSize: the two teams of an all-play-all differ in size.
	CodeAllPlayAllSize = "all_play_all_size"
	// CodeUnknownResult: a board game without a result (result.None or a
	// value outside the results).
	CodeUnknownResult = "unknown_result"
	// CodeResultCount: results that do not match the match's board games.
	CodeResultCount = "result_count"
)

func ruleErr(code, rule, format string, args ...any) error {
	return &RuleError{Code: code, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// Format is how an event lines its teams up (001 §11).
type Format int

// The team formats. The numbering is internal; store Format.String().
const (
	// FixedBoards is 分台定人 (T-1): the roster's order is the board order,
	// the same in every match, no substitutes.
	FixedBoards Format = iota
	// BoardsWithSubstitutes is 分台换人 (T-2): each match any Boards players
	// of the roster, keeping the roster's order.
	BoardsWithSubstitutes
	// LineupPerMatch is 临时定台 (T-3): before each match the captain sets
	// the board order of the team's players, or the server draws it.
	LineupPerMatch
	// AllPlayAll is 全队轮赛 (T-4): every member of one team meets every
	// member of the other; the team's numbering is set or drawn as in T-3.
	AllPlayAll
)

var formatNames = [...]string{"fixedBoards", "boardsWithSubstitutes", "lineupPerMatch", "allPlayAll"}
var formatRules = [...]string{"T-1", "T-2", "T-3", "T-4"}

// String returns the format's stable name, such as "fixedBoards".
func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f]
}

// Rule returns the rule id (shared/RULES.md) of the format, such as "T-2". An unknown
// format reports "T-1", the first team format, so that every RuleError
// names a rule; Settings.Validate refuses such formats anyway.
func (f Format) Rule() string {
	if f < 0 || int(f) >= len(formatRules) {
		return "T-1"
	}
	return formatRules[f]
}

// ParseFormat reads a name written by Format.String.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if n == s {
			return Format(i), nil
		}
	}
	return 0, ruleErr(CodeInvalidSettings, "T-1", "unknown team format %q", s)
}

// Settings are the event's team settings.
type Settings struct {
	// Format is the lineup system (T-1…T-4).
	Format Format
	// Boards is the number of board games in a match (the number of members
	// every team enters; under T-4 the size of each team).
	Boards int
	// Substitutes is the most substitutes a team may enter besides its
	// Boards members; only BoardsWithSubstitutes and LineupPerMatch have any.
	Substitutes int
	// KeepEntryOrder keeps the team's own board order instead of sorting the
	// roster by rating. 001 §11.1 demands rating order for national events
	// only; elsewhere the team ranks its players by strength itself — but
	// unrated players still come after the rated ones (T-1 as settled, 000
	// ch.7 §2 2.1, in every event).
	KeepEntryOrder bool
}

// Validate reports settings that no roster could satisfy.
func (s Settings) Validate() error {
	switch {
	case s.Format < FixedBoards || s.Format > AllPlayAll:
		return ruleErr(CodeInvalidSettings, "T-1", "unknown team format %d", int(s.Format))
	case s.Boards < 1:
		return ruleErr(CodeInvalidSettings, s.Format.Rule(), "a match needs at least one board, got %d", s.Boards)
	case s.Substitutes < 0:
		return ruleErr(CodeInvalidSettings, s.Format.Rule(), "negative number of substitutes %d", s.Substitutes)
	case s.Substitutes > 0 && !s.allowsSubstitutes():
		return ruleErr(CodeInvalidSettings, s.Format.Rule(), "%s has no substitutes", s.Format)
	}
	return nil
}

// allowsSubstitutes: T-1 fixes the players (001 §11.1 and §11.2 adds
// substitutes as a separate format); T-4 has every member meet every member,
// so a substitute could never take part.
func (s Settings) allowsSubstitutes() bool {
	return s.Format == BoardsWithSubstitutes || s.Format == LineupPerMatch
}
