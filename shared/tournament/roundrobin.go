package tournament

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/pairing/roundrobin"
)

// schedule is the round-robin programme of the event; RoundRobinOrder says
// who holds each number (S-1).
func schedule(t *Tournament, players int) (roundrobin.Schedule, error) {
	cycles := 1
	if t.Settings.System == DoubleRoundRobin {
		cycles = 2
	}
	return roundrobin.NewSchedule(players, roundrobin.Options{Cycles: cycles, GamesPerPairing: t.Settings.GamesPerMatch})
}

func pairRoundRobin(t *Tournament, h *History, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	field := len(RoundRobinOrder(t, h.Players)) // S-6: without those who left before round 1
	if field < 2 {
		return nil, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d player(s); a round robin needs at least 2", field), Rule: "S-1"}
	}
	s, err := schedule(t, field)
	if err != nil {
		return nil, fmt.Errorf("pair round %d: %w", n, err)
	}
	if n > len(s.Rounds) {
		return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("all %d rounds of the round-robin table are paired", len(s.Rounds)), Rule: "S-1"}
	}
	// A round robin's table is fixed, so an open game changes no pairing; the
	// organiser still confirms it and the round lists it, as P-12 asks of a Swiss.
	unfinished, err := checkUnfinished(h, o)
	if err != nil {
		return nil, err
	}
	r := roundRobinRound(t, h, s, n, gameID)
	r.UnfinishedAsDraws = unfinished
	return r, nil
}

// roundRobinRound lays out round n of the schedule: one pairing per game,
// tables numbered match by match. Pairings with a withdrawn player are not
// played (S-6: the standings annul them or score them as forfeits); the odd
// field's rest is the round's bye (S-7: no score, no game, no colour).
// Numbers are the event's numbering (RoundRobinOrder).
func roundRobinRound(t *Tournament, h *History, s roundrobin.Schedule, n int, gameID GameIDFunc) *Round {
	sr := s.Rounds[n-1]
	order := RoundRobinOrder(t, h.Players)
	numbered := ""
	if nb := t.Settings.Numbering; nb != "" && nb != NumberingRegistration {
		numbered = "; numbers by " + nb
	}
	g := max(s.GamesPerPairing, 1)
	r := &Round{}
	colour := "roundRobinTable"
	if sr.Cycle%2 == 0 {
		colour = "secondCycleSwapped"
	}
	for _, pp := range sr.Pairings {
		red, black := order[pp.Red-1], order[pp.Black-1]
		if red.Status == Withdrawn || black.Status == Withdrawn {
			continue
		}
		for i, game := range pp.Games {
			table := (pp.Table-1)*g + i + 1
			p := Pairing{Table: table, Red: order[game.Red-1].ID, Black: order[game.Black-1].ID, GameID: gameID(n, table, i+1)}
			if g > 1 {
				p.Match, p.Board = fmt.Sprintf("M%d", pp.Table), i+1
			}
			cr := colour
			if i > 0 {
				cr = "alternate"
			}
			r.Pairings = append(r.Pairings, p)
			r.Explanations = append(r.Explanations, Explanation{
				Opponent:       fmt.Sprintf("round-robin table, round %d: no. %d v no. %d (S-1, first listed has red%s)", n, pp.Red, pp.Black, numbered),
				OpponentReason: "roundRobinTable", ColourReason: cr})
		}
	}
	if sr.Rest != 0 && sr.Rest <= len(order) {
		r.Byes = []string{order[sr.Rest-1].ID}
	}
	return r
}
