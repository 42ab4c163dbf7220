// Package tournament is the event aggregate: settings validated up front,
// registration, officials and the event's life cycle. It is pure: callers pass
// identifiers and the time, and the store persists what it returns.
//
// Refusals are *RuleError, the core's one refusal type rulebook.RuleError,
// with this package's codes; bad settings are *FieldError. Game results are
// result.Result, the core's one result type (shared/result). The event's
// game rules are game.Rules, embedded in Rules, and its scoring a
// standings.Scoring: both typed in Settings, checked once by Normalize.
//
// Where each concept lives:
//
//	tournament.go     Settings, their validation (Normalize), Warnings, Rules
//	registration.go   Tournament, Player, Official, Team; Register, Withdraw
//	people.go         edits and removals before round 1; Entrants
//	pause.go          a Swiss player's pause and return (S-6)
//	entries.go        entries by the players (E-1) and check-in (E-2): the
//	                  terms, the places held, the window, who a round leaves absent
//	options.go        numbering, knockout options, the round-robin order (S-1, S-6)
//	round.go          Round, Pairing, Result: what a paired round stores
//	roundrules.go     which round may be paired, started or changed (S-2, C-1,
//	                  O-1, T-6) and whether the event may be over (MayBeFinished)
//	changes.go        the organiser's manual changes to a round (Round.Apply, O-1)
//	history.go        History: players, rounds and results as the pairing reads them
//	pairing.go        PairNext: the next round by the event's system
//	swiss.go, roundrobin.go, knockout.go, nplusone.go, combined.go, groups.go,
//	challenge.go      one pairing system each (the engines are in shared/pairing)
//	numbers.go        pairing numbers (P-3)
//	standingsinput.go the standings' input from the history (StandingsEvent)
//	groupplaces.go    a groups event's overall places (S-5)
//	teams.go          team events: rosters, lineups, matches, team pairing and
//	                  standings input (T-1…T-7); the team rules are in shared/team;
//	                  teamknockout.go and teamgroups.go the team knockout and groups
//	rating.go         the rating report's input (L-1)
//	names.go          name cleaning for players, teams and events
package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/rating"
	"github.com/xqtour/xqtour/shared/rulebook"
	"github.com/xqtour/xqtour/shared/standings"
)

// Systems, with the API's names (S-1…S-5).
const (
	Swiss             = "swiss"
	RoundRobin        = "roundRobin"
	DoubleRoundRobin  = "doubleRoundRobin"
	Knockout          = "knockout"
	DoubleElimination = "doubleElimination"
	SwissKnockout     = "swissKnockout"
	SwissElimination  = "swissElimination"
	SwissNPlusOne     = "swissNPlusOne"
	Groups            = "groups"
	// ChallengeSystem is the ring (擂台赛, S-8): a holder meets challengers
	// one at a time.
	ChallengeSystem = "challenge"
)

// Systems lists every accepted system name.
var Systems = []string{Swiss, RoundRobin, DoubleRoundRobin, Knockout, DoubleElimination, SwissKnockout, SwissElimination, SwissNPlusOne, Groups, ChallengeSystem}

// First-round methods (P-3).
const (
	FirstRoundPositional = "positional"
	FirstRoundTopBottom  = "topBottom"
	FirstRoundHalves     = "halves"
)

// Rules are the event's rules for its games. The game rules proper are
// game.Rules, the one rules type, embedded so that an event's stored
// settings keep the flat shape they always had (rule sets by name); the
// event adds how late a player may arrive. Settings.Normalize validates them
// once, when the event is created, and every game of the event is set up
// with Rules.Rules as they are.
type Rules struct {
	// Rules: repetition (G-6, default ruling by the arbiters), illegal
	// moves (G-2, default reject), NoCaptureMoves (G-3, default 60 moves,
	// 10…200 for an event), DrawOfferLimit (D-4, default 3, -1 unlimited,
	// at most 50 for an event), DeadPositionDraw (G-4), OfferLoses and
	// DroppedPieceLoses (O-2).
	game.Rules
	// LateForfeitMs is how late a player may arrive before forfeiting (C-6); default 15 minutes.
	LateForfeitMs int64
	// RecordArrivals makes late forfeits automatic in rounds with a start time:
	// each side's arrival is recorded (an arrive request or its first move) and
	// a side not there by the start plus LateForfeitMs forfeits (C-6). Off, an
	// arbiter rules late forfeits.
	RecordArrivals bool
}

// Settings is what the organiser chooses when creating an event.
type Settings struct {
	Name   string
	System string
	// Rounds is the number of rounds; for round robins it is derived from the field when 0.
	Rounds int
	// Teams marks a team event (T-*); Boards and Substitutes then size the rosters.
	Teams       bool
	Boards      int
	Substitutes int
	// TeamFormat is the lineup system of a team event, a team.Format name
	// (T-1…T-4); default fixedBoards, or boardsWithSubstitutes when the
	// event allows substitutes.
	TeamFormat string
	// AllPlayAllSittings plays each round (轮次) of a T-4 meeting as a round
	// of the event (002 团体循环对抗赛秩序表（8-8）: 第一轮 … 第八轮 one after
	// the other): a meeting of teams of n members takes n event rounds.
	// Normalize sets it for every allPlayAll event created; events stored
	// before it played a meeting's n×n games in one round and keep that.
	AllPlayAllSittings bool
	// KeepEntryOrder keeps each team's own board order instead of sorting
	// its roster by rating (T-1 demands rating order of national events only).
	KeepEntryOrder bool
	// Scoring is the event's K-1 scoring; the zero value is the default,
	// 2-1-0. It is stored by its name.
	Scoring standings.Scoring
	// Tiebreaks is the chain of criterion names; empty takes the system's chain (R-1…R-9).
	Tiebreaks []string
	// TimeControl for every game of the event (C-2).
	TimeControl clock.Control
	Rules       Rules
	// FirstRound is the Swiss first-round method (P-3).
	FirstRound string
	// AvoidSameClub keeps club mates apart where possible (P-5).
	AvoidSameClub bool
	// GamesPerMatch is the games per pairing in round robins and knockouts (S-1, S-3); default 1.
	// An individual round robin of two or more games a match ranks by R-3
	// (场分 first, 001 §14.2) unless RankByGamePoints.
	GamesPerMatch int
	// RankByGamePoints ranks a multi-game individual round robin by the
	// game points added up (局分累计, 000 ch.7 §2 第5条) with the round
	// robin's chain instead of R-3's 场分 first.
	RankByGamePoints bool
	// Playoff asks for a play-off for the title; it is the default
	// now and the flag is kept for events and clients that send it.
	Playoff bool
	// ShareTitle lets a tie for first place be shared (R-10, 000 ch.7 §2
	// 3.6: 冠军或不宜并列的名次，应安排加赛或在赛前补充细则中作出明确规定);
	// without it such a tie is marked as needing a play-off.
	ShareTitle bool
	// PlacesCounted is how many members of each team the teams-by-places
	// table sums (T-5, R-9 as settled): teams of unequal size are compared
	// on the same number, a missing member counting as the last place + 1;
	// 0 counts as many as the largest team has.
	PlacesCounted int
	// StartsAt is the first round's start, Unix ms (0: unset); late arrival counts from each round's start (C-6).
	StartsAt int64
	// Elimination sets the last-place elimination of a swissElimination event (S-4).
	Elimination Elimination
	// Groups sets the seeded groups of a groups event (S-5).
	Groups GroupStage
	// Numbering says who holds which number of a round-robin table (S-1):
	// NumberingRegistration (default), NumberingRating or NumberingDraw.
	Numbering string
	// Knockout holds the knockout matches' options (S-3, S-4).
	Knockout KnockoutOptions
	// LateEntries says until when a Swiss takes late entries and how the
	// rounds they missed score (S-2; the organisers' "late entries").
	LateEntries LateEntries
	// Rating holds the parameters of the event's rating report (L-1); the
	// zero value takes rating.Defaults.
	Rating rating.Params
	// ChallengeDraw says who holds the ring after a drawn challenge (S-8):
	// ChallengeDrawHolder (default) or ChallengeDrawChallenger.
	ChallengeDraw string
	// ChallengeTeam, when 2 or more, makes the first that many players
	// registered the defending team (S-8, 000 ch.5 item 7 守擂方可是个人，也可是
	// 团体): they defend in registration order, each until beaten; 0 is an
	// individual defender.
	ChallengeTeam int
	// BroadcastDelaySeconds holds public reads of the event's games (the
	// game, its record, the live channels) that many seconds behind the
	// play, so moves shown to spectators cannot be relayed back into the
	// hall; the event's own tokens read them live. 0 (default) shows them
	// live. Fixed before round 1: every game copies it when it is made.
	BroadcastDelaySeconds int
	// SignedResults makes a game's result count for the event (its round
	// complete, the standings) only once its scoresheet is signed by both
	// players and the scribe, or closed by an arbiter (O-3: 签字认可,为对局
	// 结束). Every game copies it when it is made. Off by default: the result
	// counts when it is recorded.
	SignedResults bool
	// CheckIn pairs each round only the players who checked in for it
	// (E-2); the others are listed in the round as absent.
	CheckIn bool `json:",omitempty"`
}

// MaxBroadcastDelaySeconds bounds BroadcastDelaySeconds: an hour.
const MaxBroadcastDelaySeconds = 3600

// LateEntries are a Swiss event's late-entry rules.
type LateEntries struct {
	// UntilRound is the last round a late entrant may join: registration
	// after it is paired is refused; 0 allows joining until the last round.
	UntilRound int
	// MissedRounds is how each round a late entrant missed scores, for the
	// standings and the Swiss score groups alike: standings.MissedZero
	// (default), MissedDraw or MissedWin. A paused player's missed rounds
	// always score zero (S-6).
	MissedRounds standings.Missed
}

// multiGameRoundRobin reports whether the event is an individual round
// robin of two or more games a match.
func (s *Settings) multiGameRoundRobin() bool {
	return !s.Teams && s.GamesPerMatch > 1 && (s.System == RoundRobin || s.System == DoubleRoundRobin)
}

// rankingSystem is the standings' system whose chain ranks the event by
// default: R-3's matchRoundRobin for a multi-game individual round robin
// (001 §14.2 在两局或多局循环制个人比赛中，根据个人场分排列名次), unless the
// event adds up game points instead (000 ch.7 §2 第5条 局分累计).
func (s *Settings) rankingSystem() string {
	if s.multiGameRoundRobin() && !s.RankByGamePoints {
		return standings.SystemMatchRoundRobin
	}
	return s.System
}

// checkRankByGamePoints refuses the 局分累计 option where it means nothing.
func (s *Settings) checkRankByGamePoints() error {
	switch {
	case !s.RankByGamePoints:
		return nil
	case !s.multiGameRoundRobin():
		return &FieldError{Field: "rankByGamePoints", Rule: "R-3",
			Message: "goes with an individual roundRobin or doubleRoundRobin of gamesPerMatch 2 or more (000 ch.7 §2 第5条 局分累计; 001 §14.2 ranks those by 场分)"}
	case len(s.Tiebreaks) > 0:
		return &FieldError{Field: "rankByGamePoints", Rule: "R-11",
			Message: "chooses the default chain; with tiebreaks given, lead them with points instead"}
	}
	return nil
}

// FieldError says which setting is wrong, why, and which rule decided it
// (rulebook.FieldError, the core's one field refusal).
type FieldError = rulebook.FieldError

// Normalize fills defaults and validates every setting, returning the first
// problem as a *FieldError naming the field.
func (s *Settings) Normalize() error {
	var err error
	if s.Name, err = cleanName("name", s.Name, 200); err != nil {
		return err
	}
	if s.BroadcastDelaySeconds < 0 || s.BroadcastDelaySeconds > MaxBroadcastDelaySeconds {
		return &FieldError{Field: "broadcastDelaySeconds", Message: fmt.Sprintf("must be between 0 and %d (an hour)", MaxBroadcastDelaySeconds)}
	}
	if s.System == "" {
		s.System = Swiss
	}
	if err := s.checkCheckIn(); err != nil {
		return err
	}
	if !slices.Contains(Systems, s.System) {
		return &FieldError{Field: "system", Message: fmt.Sprintf("unknown system %q (want one of %s)", s.System, strings.Join(Systems, ", ")), Rule: "S-1"}
	}
	if s.Rounds < 0 || s.Rounds > 99 {
		return &FieldError{Field: "rounds", Message: "must be between 1 and 99", Rule: "P-2"}
	}
	if s.Rounds == 0 && isSwiss(s.System) {
		return &FieldError{Field: "rounds", Message: "a Swiss needs its number of rounds", Rule: "P-2"}
	}
	if s.Teams {
		if s.Boards == 0 {
			s.Boards = 4
		}
		if s.Boards < 1 || s.Boards > 16 {
			return &FieldError{Field: "boards", Message: "must be between 1 and 16", Rule: "T-1"}
		}
		if s.Substitutes < 0 || s.Substitutes > 8 {
			return &FieldError{Field: "substitutes", Message: "must be between 0 and 8", Rule: "T-2"}
		}
		if err := s.normalizeTeams(); err != nil {
			return err
		}
	} else if s.Boards != 0 || s.Substitutes != 0 || s.TeamFormat != "" || s.KeepEntryOrder {
		return &FieldError{Field: "boards", Message: "boards and substitutes need \"teams\": true", Rule: "T-1"}
	}
	if s.Scoring.Name == "" {
		s.Scoring = standings.DefaultScoring
	}
	if sc, err := standings.ParseScoring(s.Scoring.Name); err != nil {
		return &FieldError{Field: "scoring", Message: err.Error(), Rule: "K-1"}
	} else if sc != s.Scoring {
		return &FieldError{Field: "scoring", Message: fmt.Sprintf("scoring %+v does not match its name %q", s.Scoring, s.Scoring.Name), Rule: "K-1"}
	}
	if err := s.checkRankByGamePoints(); err != nil {
		return err
	}
	if len(s.Tiebreaks) == 0 {
		var chain standings.Chain
		if s.Teams {
			chain, err = standings.DefaultTeamChain(s.System, false)
		} else {
			chain, err = standings.DefaultChain(s.rankingSystem())
		}
		if err != nil {
			return &FieldError{Field: "system", Message: err.Error(), Rule: "R-1"}
		}
		s.Tiebreaks = chain.Strings()
	} else {
		parse := standings.ParseChain
		if s.Teams {
			parse = standings.ParseTeamChain
		}
		if _, err := parse(s.Tiebreaks); err != nil {
			return &FieldError{Field: "tiebreaks", Message: err.Error(), Rule: "R-11"}
		}
	}
	if err := s.TimeControl.Validate(); err != nil {
		var ce *clock.ControlError
		if errors.As(err, &ce) {
			return &FieldError{Field: "timeControl." + ce.Field, Message: ce.Message, Rule: ce.Rule}
		}
		return &FieldError{Field: "timeControl", Message: err.Error(), Rule: "C-2"}
	}
	if err := s.Rules.normalize(); err != nil {
		return err
	}
	switch s.FirstRound {
	case "":
		s.FirstRound = FirstRoundPositional
	case FirstRoundPositional, FirstRoundTopBottom, FirstRoundHalves:
	default:
		return &FieldError{Field: "firstRound", Message: fmt.Sprintf("unknown method %q (want positional, topBottom or halves)", s.FirstRound), Rule: "P-3"}
	}
	if s.GamesPerMatch == 0 {
		s.GamesPerMatch = 1
	}
	if s.GamesPerMatch < 1 || s.GamesPerMatch > 12 {
		return &FieldError{Field: "gamesPerMatch", Message: "must be between 1 and 12", Rule: "S-1"}
	}
	if s.StartsAt < 0 {
		return &FieldError{Field: "startsAt", Message: "must be a time"}
	}
	if err := s.normalizeCombined(); err != nil {
		return err
	}
	if err := s.normalizeLateEntries(); err != nil {
		return err
	}
	if err := s.normalizeRating(); err != nil {
		return err
	}
	if err := s.normalizeChallenge(); err != nil {
		return err
	}
	if err := s.normalizeTeamKnockout(); err != nil {
		return err
	}
	return s.normalizeOptions()
}

// normalize fills the defaults in and refuses values outside the event's
// ranges. The rule sets arrive typed: the HTTP layer parses their names
// (ParseRepetitionRule, ParseIllegalMoveRule) and refuses unknown ones.
func (r *Rules) normalize() error {
	if r.Repetition.String() == "" {
		return &FieldError{Field: "rules.repetition", Message: fmt.Sprintf("unknown rule set %d", r.Repetition), Rule: "G-6"}
	}
	if r.IllegalMoves.String() == "" {
		return &FieldError{Field: "rules.illegalMoves", Message: fmt.Sprintf("unknown handling %d", r.IllegalMoves), Rule: "G-2"}
	}
	if r.NoCaptureMoves == 0 {
		r.NoCaptureMoves = game.DefaultNoCaptureMoves
	}
	if r.NoCaptureMoves < 10 || r.NoCaptureMoves > 200 {
		return &FieldError{Field: "rules.noCaptureMoves", Message: "must be between 10 and 200 moves", Rule: "G-3"}
	}
	if r.DrawOfferLimit == 0 {
		r.DrawOfferLimit = game.DefaultDrawOffers
	}
	if r.DrawOfferLimit < -1 || r.DrawOfferLimit > 50 {
		return &FieldError{Field: "rules.drawOfferLimit", Message: "must be -1 (unlimited) or 1 to 50", Rule: "D-4"}
	}
	if r.LateForfeitMs == 0 {
		r.LateForfeitMs = 15 * 60 * 1000
	}
	if r.LateForfeitMs < 0 || r.LateForfeitMs > 24*60*60*1000 {
		return &FieldError{Field: "rules.lateForfeitMs", Message: "must be between 1 ms and a day", Rule: "C-6"}
	}
	return nil
}

// Warning is advice about settings that are allowed but against a rule
// book's recommendation; the event is created anyway.
type Warning struct {
	Code    string
	Message string
	Rule    string
}

// Warning codes.
const (
	// WarnSwissRounds: an individual Swiss with fewer than 7 or an even
	// number of rounds (P-2).
	WarnSwissRounds = "swiss_rounds"
)

// Warnings lists what the settings do against the rule books' advice.
// P-2 (002 appendix 3 §1.2: 尽量不要少于七轮 … 个人赛的轮数宜为单数): an
// individual Swiss should have at least 7 rounds, and an odd number so
// colours end at most one apart; fewer or even is allowed with a warning.
func (s Settings) Warnings() []Warning {
	var out []Warning
	if isSwiss(s.System) && !s.Teams && s.Rounds > 0 {
		var why []string
		if s.Rounds < 7 {
			why = append(why, "fewer than 7 rounds leave more to chance (尽量不要少于七轮)")
		}
		if s.Rounds%2 == 0 {
			why = append(why, "an even number of rounds can leave colours two apart (个人赛的轮数宜为单数)")
		}
		if len(why) > 0 {
			out = append(out, Warning{Code: WarnSwissRounds, Rule: "P-2",
				Message: fmt.Sprintf("%d rounds: %s", s.Rounds, strings.Join(why, "; "))})
		}
	}
	return out
}

// PlayoffPlaces is how many top places a play-off decides when still tied
// after the whole chain: the title, unless the event lets it be
// shared.
func (s Settings) PlayoffPlaces() int {
	if s.ShareTitle {
		return standings.NoPlayoff
	}
	return 0
}

func isSwiss(system string) bool {
	switch system {
	case Swiss, SwissKnockout, SwissElimination, SwissNPlusOne:
		return true
	}
	return false
}

// normalizeLateEntries checks the late-entry rules: only an individual Swiss
// pairs a newcomer into the running score groups (S-2); a round robin's
// table, a knockout's bracket and a team event's rosters are fixed.
func (s *Settings) normalizeLateEntries() error {
	l := &s.LateEntries
	if !isSwiss(s.System) || s.Teams {
		if *l != (LateEntries{}) {
			return &FieldError{Field: "lateEntries", Message: "only an individual Swiss event takes late entries", Rule: "S-2"}
		}
		return nil
	}
	switch l.MissedRounds {
	case "":
		l.MissedRounds = standings.MissedZero
	case standings.MissedZero, standings.MissedDraw, standings.MissedWin:
	default:
		return &FieldError{Field: "lateEntries.missedRounds", Message: fmt.Sprintf("unknown score %q (want zero, draw or win)", l.MissedRounds), Rule: "K-1"}
	}
	if l.UntilRound < 0 || l.UntilRound > s.Rounds {
		return &FieldError{Field: "lateEntries.untilRound", Message: fmt.Sprintf("must be between 0 (until the last round) and the %d rounds", s.Rounds), Rule: "S-2"}
	}
	return nil
}

// lateEntryLimit is the last round after whose pairing registration closes.
func (s *Settings) lateEntryLimit() int {
	if s.LateEntries.UntilRound > 0 {
		return s.LateEntries.UntilRound
	}
	return s.Rounds
}

// missedScore is how a late entrant's missed rounds score; MissedNone when
// they score nothing and are left out of the standings, as before the
// setting existed and as a paused player's rounds are (S-6).
func (s *Settings) missedScore() standings.Missed {
	switch m := s.LateEntries.MissedRounds; m {
	case standings.MissedDraw, standings.MissedWin:
		return m
	}
	return standings.MissedNone
}

// CodeBroadcastFixed refuses a change of the broadcast delay once round 1
// is paired: every game copies the delay when it is made, so a change
// then would leave the games made and those to come behind by different
// delays.
const CodeBroadcastFixed = "broadcast_fixed"

// SetBroadcastDelay sets the event's broadcast delay before round 1 is
// paired (O-1: the organiser sets up the event).
func (t *Tournament) SetBroadcastDelay(seconds int) error {
	if t.Round > 0 {
		return &RuleError{Code: CodeBroadcastFixed, Rule: "O-1",
			Message: fmt.Sprintf("round %d is paired: the broadcast delay is fixed (every game made keeps the delay it was made with)", t.Round)}
	}
	if seconds < 0 || seconds > MaxBroadcastDelaySeconds {
		return &FieldError{Field: "broadcastDelaySeconds", Message: fmt.Sprintf("must be between 0 and %d (an hour)", MaxBroadcastDelaySeconds)}
	}
	t.Settings.BroadcastDelaySeconds = seconds
	return nil
}
