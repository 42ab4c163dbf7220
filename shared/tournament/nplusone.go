package tournament

import (
	"errors"
	"fmt"

	"github.com/xqtour/xqtour/shared/pairing/combined"
	"github.com/xqtour/xqtour/shared/standings"
)

// rankAfter is the event's ranking after round n (R-4a by default), best
// first, without players who withdrew. Every game up to round n must be
// finished: a stage built on standings cannot count an open game as a draw.
func rankAfter(t *Tournament, h *History, n int) ([]string, error) {
	for _, r := range h.Rounds[:n] {
		for _, p := range r.Pairings {
			if _, ok := h.Result(r.Number, p); !ok {
				return nil, &RuleError{Code: CodeRoundUnfinished, Message: fmt.Sprintf("table %d of round %d is unfinished; the next stage is drawn from the standings after round %d", p.Table, r.Number, n), Rule: "S-4"}
			}
		}
	}
	if h.rankTeamsAfter != nil {
		return h.rankTeamsAfter(n) // teams: the team table (teamknockout.go)
	}
	ev, err := StandingsEvent(t, h)
	if err != nil {
		return nil, err
	}
	table, err := standings.Standings(ev, n)
	if err != nil {
		return nil, fmt.Errorf("standings after round %d: %w", n, err)
	}
	var ranked []string
	for _, row := range table.Rows {
		if !row.Withdrawn && h.Player(row.PlayerID).Status != Withdrawn {
			ranked = append(ranked, row.PlayerID)
		}
	}
	return ranked, nil
}

// pairNPlusOne pairs round N+1 of the N+1 system (S-4, 001 §10.4.3): the top
// two after N rounds play the final on table 1 whether or not they have met,
// with colours balancing their earlier colours (the higher-ranked gets red
// when they cannot decide; the organiser may swap them before the round
// starts); everyone else is paired by the Swiss for places 3 on. The final
// is one slow game with no additional rapid games, so each finalist's total
// after round N+1 is the N+1-round score that 001 §10.4.3.3 has their
// opponents count (combined.NPlusOneOpponentScores): R-4a's 对手分 over the
// table after round N+1 needs no override.
func pairNPlusOne(t *Tournament, h *History, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	if n > t.Settings.Rounds {
		return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("all %d rounds are paired", t.Settings.Rounds), Rule: "S-4"}
	}
	ranked, err := rankAfter(t, h, n-1)
	if err != nil {
		return nil, err
	}
	finalists, _, err := combined.NPlusOneSplit(ranked)
	if err != nil {
		return nil, &RuleError{Code: CodeTooFewPlayers, Message: err.Error(), Rule: "S-4"}
	}
	counts := map[string]combined.ColourCount{}
	for _, r := range h.Rounds[:n-1] {
		for _, p := range r.Pairings {
			c := counts[p.Red]
			c.Red++
			counts[p.Red] = c
			c = counts[p.Black]
			c.Black++
			counts[p.Black] = c
		}
	}
	fc := combined.NPlusOneColours(finalists[0], finalists[1], counts[finalists[0]], counts[finalists[1]])
	colour := "balance"
	if fc.Red == "" {
		fc, colour = fc.Choose(finalists[1], true), "higherRankedChooses"
	}
	// The Swiss pairs the rest with the finalists set aside, as if paused.
	rest := *h
	rest.Players = nil
	for _, p := range h.Players {
		q := *p
		if p.ID == finalists[0] || p.ID == finalists[1] {
			q.Status = Paused
		}
		rest.Players = append(rest.Players, &q)
	}
	shifted := func(round, table, game int) string { return gameID(round, table+1, game) }
	r, err := pairSwiss(t, &rest, n, o, shifted)
	if err != nil {
		var re *RuleError
		if !errors.As(err, &re) || re.Code != CodeTooFewPlayers {
			return nil, err
		}
		r = &Round{} // at most one player besides the finalists: the bye (S-7)
		for _, p := range rest.Players {
			if p.Status == Active && p.JoinedRound <= n {
				r.Byes = append(r.Byes, p.ID)
			}
		}
	}
	for i := range r.Pairings {
		r.Pairings[i].Table++
	}
	r.Pairings = append([]Pairing{{Table: 1, Red: fc.Red, Black: fc.Black, GameID: gameID(n, 1, 1)}}, r.Pairings...)
	r.Explanations = append([]Explanation{{Opponent: fmt.Sprintf("N+1 final: first and second after round %d meet whether or not they have met (S-4)", n-1),
		OpponentReason: "nPlusOneFinal", ColourReason: colour}}, r.Explanations...)
	return r, nil
}
