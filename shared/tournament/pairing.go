package tournament

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
)

// PairOptions are the organiser's choices when asking for the next round.
type PairOptions struct {
	// UnfinishedAsDraws confirms that games still being played count as
	// draws for this pairing (P-12); without it such games refuse the pairing.
	UnfinishedAsDraws bool
	// Forbidden pairs of player ids never meet (P-5).
	Forbidden [][2]string
	// Now is the pairing time, Unix ms.
	Now int64
}

// GameIDFunc names the game of one table of a round: game is the game's
// number inside its match (1 for single games). It must be deterministic so
// a retried pairing names the same games.
type GameIDFunc func(round, table, game int) string

// Pairing refusal codes; each comes as a *RuleError naming its rule.
const (
	CodeUnfinishedGames    = "unfinished_games"
	CodeEventComplete      = "event_complete"
	CodeTooFewPlayers      = "too_few_players"
	CodeNoPairing          = "no_pairing"
	CodeMatchUndecided     = "match_undecided"
	CodeRoundUnfinished    = "round_unfinished"
	CodeSystemNotSupported = "system_not_supported"
)

// PairNext pairs round t.Round+1 from the history. It is deterministic: the
// same event and history give the same round, so a retry recreates nothing.
// Refusals are *RuleError values.
func PairNext(t *Tournament, h *History, o PairOptions, gameID GameIDFunc) (*Round, error) {
	n := t.Round + 1
	if len(h.Rounds) != t.Round {
		return nil, fmt.Errorf("pair round %d: history holds %d rounds, the event says %d", n, len(h.Rounds), t.Round)
	}
	var (
		r   *Round
		err error
	)
	switch t.Settings.System {
	case Swiss:
		r, err = pairSwiss(t, h, n, o, gameID)
	case RoundRobin, DoubleRoundRobin:
		r, err = pairRoundRobin(t, h, n, o, gameID)
	case Knockout, DoubleElimination:
		r, err = pairKnockout(t, h, n, gameID)
	case SwissKnockout:
		if n <= t.Settings.Rounds {
			r, err = pairSwiss(t, h, n, o, gameID)
		} else {
			r, err = pairKnockout(t, h, n, gameID)
		}
	case SwissElimination:
		r, err = pairElimination(t, h, n, o, gameID)
	case Groups:
		r, err = pairGroups(t, h, n, o, gameID)
	case ChallengeSystem:
		r, err = pairChallenge(t, h, n, gameID)
	case SwissNPlusOne:
		if n < t.Settings.Rounds {
			r, err = pairSwiss(t, h, n, o, gameID)
		} else {
			r, err = pairNPlusOne(t, h, n, o, gameID)
		}
	default:
		return nil, &RuleError{Code: CodeSystemNotSupported, Message: fmt.Sprintf("rounds of a %s event are not paired by this service yet", t.Settings.System), Rule: "S-4"}
	}
	if err != nil {
		return nil, err
	}
	r.Number, r.PairedAt = n, o.Now
	if t.Settings.StartsAt > o.Now && n == 1 {
		r.StartsAt = t.Settings.StartsAt
	}
	return r, nil
}

// scoring returns the event's K-1 scoring: the settings hold it typed,
// checked when the event was created and when its stored settings were read;
// the zero value (settings never normalised) is the default.
func scoring(t *Tournament) standings.Scoring {
	if t.Settings.Scoring.Name == "" {
		return standings.DefaultScoring
	}
	return t.Settings.Scoring
}

// points is what red and black score for a result (K-1); forfeits score as
// wins and losses, a double forfeit a loss for both.
func points(sc standings.Scoring, r result.Result) (red, black int) {
	switch r {
	case result.RedWins, result.RedByForfeit:
		return sc.Win, sc.Loss
	case result.BlackWins, result.BlackByForfeit:
		return sc.Loss, sc.Win
	case result.Draw:
		return sc.DrawRed, sc.DrawBlack
	}
	return sc.Loss, sc.Loss // result.DoubleForfeit; callers pass decided results only
}

// missedPoints is what one missed round of a late entrant scores, as the
// standings score it (standings.Bye.Missed).
func missedPoints(sc standings.Scoring, m standings.Missed) int {
	switch m {
	case standings.MissedWin:
		return sc.Win
	case standings.MissedDraw:
		return sc.DrawRed
	}
	return 0
}

// GameControl is the time control of a pairing's game: the event's, except
// for a knockout's additional rapid games, which have their own (S-3, C-2).
func GameControl(t *Tournament, p Pairing) clock.Control {
	if t.Settings.Teams {
		// A team match's boards are numbered 1…Boards: only an additional
		// rapid match of a team knockout plays at the tie-break preset.
		if teamKnockout(t.Settings) && isRapidLeg(p.Match) {
			if c, ok := clock.Preset(tieBreakControl(t)); ok {
				return c
			}
		}
		return t.Settings.TimeControl
	}
	if p.Match != "" && p.Group == "" && (t.Settings.System == Knockout || t.Settings.System == DoubleElimination || t.Settings.System == SwissKnockout || t.Settings.System == Groups) && p.Board > max(t.Settings.GamesPerMatch, 1) {
		if c, ok := clock.Preset(tieBreakControl(t)); ok {
			return c
		}
	}
	return t.Settings.TimeControl
}
