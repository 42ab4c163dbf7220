package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/xqtour/xqtour/shared/pairing/combined"
	"github.com/xqtour/xqtour/shared/pairing/knockout"
	"github.com/xqtour/xqtour/shared/result"
)

// knockoutEntrants lists the bracket's entrants best seed first: seeded
// players, then by rating, then by number. Only players who withdrew before
// the first round are left out, so the bracket rebuilds the same every time.
func knockoutEntrants(h *History) []string {
	var ps []*Player
	for _, p := range h.Players {
		if p.Status == Withdrawn && p.WithdrawnAfter == 0 {
			continue
		}
		ps = append(ps, p)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Seeded != b.Seeded {
			return a.Seeded
		}
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		return a.Number < b.Number
	})
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids
}

// lot is the seeded generator of one match's colour lot (S-3): the same
// event, round and match always draw the same.
func lot(tid string, round int, match string) *rand.Rand {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d/%s", tid, round, match)))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])))
}

// outcome is a result as the knockout engine reads it. A double forfeit
// (C-6) advances neither player: the engine sees a draw, so the match goes
// on to its next game or play-off.
func outcome(r result.Result) knockout.Outcome {
	switch r {
	case result.RedWins, result.RedByForfeit:
		return knockout.RedWins
	case result.BlackWins, result.BlackByForfeit:
		return knockout.BlackWins
	}
	return knockout.Draw
}

// bracket rebuilds the event's bracket and replays rounds 1…upto with their
// results; it returns the matches of round upto+1. A stateless service pairs
// a knockout this way (S-3): the bracket is never stored.
func bracket(t *Tournament, h *History, upto int) (*knockout.Bracket, []knockout.Match, error) {
	var (
		b     *knockout.Bracket
		err   error
		first = knockoutStart(t, h) // the bracket's first round
	)
	switch {
	case t.Settings.System == Groups:
		b, err = crossBracket(t, h)
	case t.Settings.System == SwissKnockout:
		var ranked []string
		if ranked, err = rankAfter(t, h, first-1); err != nil {
			return nil, nil, err
		}
		if b, err = combined.SwissKnockout(ranked, finalsStage(t)); errors.Is(err, combined.ErrField) {
			return nil, nil, &RuleError{Code: CodeTooFewPlayers, Message: err.Error(), Rule: "S-4"}
		}
	case len(knockoutEntrants(h)) < 2:
		return nil, nil, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d entrant(s); a knockout needs at least 2", len(knockoutEntrants(h))), Rule: "S-3"}
	case t.Settings.System == DoubleElimination:
		b, err = knockout.NewDouble(knockoutEntrants(h), gfReset(t))
	case t.Settings.Knockout.Placings > 0:
		b, err = knockout.NewSingleWithPlacings(knockoutEntrants(h), t.Settings.Knockout.Placings)
	default:
		b, err = knockout.NewSingle(knockoutEntrants(h), t.Settings.Knockout.ThirdPlace)
	}
	if err != nil {
		return nil, nil, err
	}
	matches, err := b.NextRound(nil)
	if err != nil {
		return nil, nil, err
	}
	format := knockoutFormat(t)
	for _, r := range h.Rounds[first-1 : upto] {
		var results []knockout.Result
		for _, m := range matches {
			d, games, err := decideMatch(h, r, m, format)
			if err != nil {
				return nil, nil, err
			}
			if !d.Done {
				return nil, nil, matchPending(r, m, d, len(games))
			}
			results = append(results, knockout.Result{Match: m.ID, Winner: d.Winner})
		}
		if matches, err = b.NextRound(results); err != nil {
			return nil, nil, fmt.Errorf("replay round %d: %w", r.Number, err)
		}
	}
	return b, matches, nil
}

// knockoutStart is the first round of the event's knockout stage: 1 for a
// knockout, the round after the Swiss for a Swiss followed by a knockout
// (S-4), the round after the group stage for cross finals (S-5).
func knockoutStart(t *Tournament, h *History) int {
	switch t.Settings.System {
	case SwissKnockout:
		return t.Settings.Rounds + 1
	case Groups:
		return groupStageRounds(t, h) + 1
	}
	return 1
}

// knockoutRound reports whether round n is played as knockout matches.
func knockoutRound(t *Tournament, h *History, n int) bool {
	switch t.Settings.System {
	case Knockout, DoubleElimination:
		return true
	case SwissKnockout:
		return n > t.Settings.Rounds
	case Groups:
		return t.Settings.Groups.Finals == FinalsCross && n >= knockoutStart(t, h)
	}
	return false
}

// knockoutFormat is the event's match format (S-3): GamesPerMatch regular
// games, then two-game mini-matches of additional rapid games at the
// event's tie-break preset while level.
func knockoutFormat(t *Tournament) knockout.Format {
	f := knockout.Format{Games: max(t.Settings.GamesPerMatch, 1), TieBreak: []knockout.TieBreakStage{{TimeControl: tieBreakControl(t), Games: 2}}}
	if t.Settings.KnockoutInEffect().Colours == ColoursLoserTakesRed {
		f.Colours = knockout.LoserTakesRed
	}
	return f
}

// matchPending says why a match holds up the next round: a game still being
// played, or additional games that do not exist yet.
func matchPending(r *Round, m knockout.Match, d knockout.Decision, games int) error {
	if d.NeedsTieBreak && d.Next.Number > games {
		return &RuleError{Code: CodeMatchUndecided, Rule: "S-3", Message: fmt.Sprintf(
			"match %s of round %d is level after %d game(s) and needs additional rapid games; reading the round creates game %d", m.ID, r.Number, d.Next.Number-1, d.Next.Number)}
	}
	return &RuleError{Code: CodeRoundUnfinished, Message: fmt.Sprintf("match %s of round %d is still being played", m.ID, r.Number), Rule: "S-3"}
}

// decideMatch reads a stored match game by game (S-3) until it is decided or
// a game has no result yet; played says how many games it read.
func decideMatch(h *History, r *Round, m knockout.Match, f knockout.Format) (d knockout.Decision, ps []Pairing, err error) {
	for _, p := range r.Pairings {
		if p.Match == m.ID {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Board < ps[j].Board })
	if len(ps) == 0 {
		return d, nil, fmt.Errorf("round %d has no game of match %s", r.Number, m.ID)
	}
	aRed := ps[0].Red == m.A
	var outs []knockout.Outcome
	if d, err = f.Decide(m.A, m.B, aRed, nil); err != nil {
		return d, ps, err
	}
	for _, p := range ps {
		if d.Done {
			break
		}
		res, ok := h.Result(r.Number, p)
		if !ok {
			break
		}
		outs = append(outs, outcome(res.Result))
		if d, err = f.Decide(m.A, m.B, aRed, outs); err != nil {
			return d, ps, fmt.Errorf("round %d match %s: %w", r.Number, m.ID, err)
		}
	}
	return d, ps, nil
}

// pairKnockout pairs the next round of the bracket: the first game of each
// match, colours by lot (S-3). Further games — the rest of a multi-game match
// and additional rapid games while level — are added one at a time by
// NextGames as results come in, with colours alternating.
func pairKnockout(t *Tournament, h *History, n int, gameID GameIDFunc) (*Round, error) {
	b, matches, err := bracket(t, h, n-1)
	if err != nil {
		var re *RuleError
		if errors.As(err, &re) {
			return nil, err
		}
		return nil, fmt.Errorf("pair round %d: %w", n, err)
	}
	if len(matches) == 0 {
		return nil, &RuleError{Code: CodeEventComplete, Message: "the bracket is finished", Rule: "S-3"}
	}
	f := knockoutFormat(t)
	r := &Round{Byes: b.Byes()}
	for i, m := range matches {
		d, err := f.Decide(m.A, m.B, knockout.DrawFirstRed(lot(t.ID, n, m.ID)), nil)
		if err != nil {
			return nil, fmt.Errorf("pair round %d: %w", n, err)
		}
		table := i + 1
		r.Pairings = append(r.Pairings, Pairing{Table: table, Red: d.Next.Red, Black: d.Next.Black, GameID: gameID(n, table, 1), Match: m.ID, Board: 1})
		r.Explanations = append(r.Explanations, Explanation{
			Opponent:       fmt.Sprintf("bracket match %s: upper slot v lower slot (S-3)", m.ID),
			OpponentReason: "bracket", ColourReason: "lot"})
	}
	return r, nil
}

// NextGames returns the games the latest round of a knockout needs now, with
// their explanations: for every match whose games so far all have results
// but which is not decided, the next game — the next regular game of a
// multi-game match or an additional rapid game (附加快棋) while level (S-3) —
// on a new table. It returns nothing for other systems.
func NextGames(t *Tournament, h *History, gameID GameIDFunc) ([]Pairing, []Explanation, error) {
	n := t.Round
	if n < 1 || len(h.Rounds) != n || !knockoutRound(t, h, n) {
		return nil, nil, nil
	}
	_, matches, err := bracket(t, h, n-1)
	if err != nil {
		return nil, nil, err
	}
	r := h.Rounds[n-1]
	table := 0
	for _, p := range r.Pairings {
		table = max(table, p.Table)
	}
	f := knockoutFormat(t)
	var ps []Pairing
	var ex []Explanation
	for _, m := range matches {
		d, games, err := decideMatch(h, r, m, f)
		if err != nil {
			return nil, nil, err
		}
		if d.Done || d.Next.Number != len(games)+1 {
			continue // decided, or a game is still being played
		}
		table++
		ps = append(ps, Pairing{Table: table, Red: d.Next.Red, Black: d.Next.Black, GameID: gameID(n, table, d.Next.Number), Match: m.ID, Board: d.Next.Number})
		why := fmt.Sprintf("match %s, game %d of the regular %d (S-3)", m.ID, d.Next.Number, f.Games)
		if d.NeedsTieBreak {
			// The rapid games come in two-game mini-matches (S-3): the text
			// names the mini-match and the game in it, so a reader is told
			// "rapid match 1, game 2" rather than the match's game count.
			k := d.Next.Number - f.Games
			why = fmt.Sprintf("match %s level after %d game(s): additional rapid game %d (rapid match %d game %d) at %s (附加快棋, S-3)",
				m.ID, d.Next.Number-1, d.Next.Number, (k+1)/2, (k-1)%2+1, d.Next.TimeControl)
		}
		colour := "alternate"
		if f.Colours == knockout.LoserTakesRed {
			colour = "loserTakesRed"
		}
		ex = append(ex, Explanation{Opponent: why, OpponentReason: "bracket", ColourReason: colour})
	}
	return ps, ex, nil
}
