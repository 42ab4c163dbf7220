package tournament

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/standings"
)

// StandingsEvent turns the history into the standings' input: every paired
// game with its result ("" while playing), the byes, the withdrawals, and for
// a round robin with a withdrawal the rest of the schedule so that S-6 can
// annul or forfeit the games not played.
func StandingsEvent(t *Tournament, h *History) (standings.Event, error) {
	// a tie for the title needs a play-off unless the event shares it.
	ev := standings.Event{System: t.Settings.System, Rounds: t.Settings.Rounds, Scoring: scoring(t), PlayoffPlaces: t.Settings.PlayoffPlaces()}
	chain, err := standings.ParseChain(t.Settings.Tiebreaks)
	if err != nil {
		return ev, fmt.Errorf("standings: %w", err)
	}
	ev.Chain = chain
	number := ShownNumbers(t, h.Players) // P-3: the drawn numbers once round 1 is paired
	for _, p := range h.Players {
		ev.Players = append(ev.Players, standings.Player{ID: p.ID, Name: p.Name, Number: number[p.ID]})
		// S-6 in a groups event counts the opponents due in the player's own
		// group (GroupStandingsEvent); the whole event's table keeps the
		// results as played rather than apply it over the whole field.
		if p.Status == Withdrawn && t.Settings.System != Groups {
			ev.Withdrawals = append(ev.Withdrawals, standings.Withdrawal{Player: p.ID, AfterRound: p.WithdrawnAfter})
		}
	}
	played := map[[3]int]bool{}
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			g := standings.Game{Round: r.Number, Red: p.Red, Black: p.Black}
			if res, ok := h.Result(r.Number, p); ok {
				g.Result, g.RedFouls, g.BlackFouls = res.Result, res.RedFouls, res.BlackFouls
			}
			ev.Games = append(ev.Games, g)
			played[[3]int{r.Number, h.byID[p.Red].Number, h.byID[p.Black].Number}] = true
		}
		for _, id := range r.Byes {
			ev.Byes = append(ev.Byes, standings.Bye{Round: r.Number, Player: id})
		}
		if m := t.Settings.missedScore(); m != standings.MissedNone {
			for _, p := range h.Players {
				if p.JoinedRound > r.Number {
					ev.Byes = append(ev.Byes, standings.Bye{Round: r.Number, Player: p.ID, Missed: m})
				}
			}
		}
	}
	// S-4 N+1: once round N+1 is paired its table 1 is the final for 1st
	// and 2nd; everyone else is placed from 3rd down.
	if n := t.Settings.Rounds; t.Settings.System == SwissNPlusOne && len(h.Rounds) >= n && len(h.Rounds[n-1].Pairings) > 0 {
		fp := h.Rounds[n-1].Pairings[0]
		ev.Final = &standings.Final{Round: n, Players: [2]string{fp.Red, fp.Black}}
	}
	if t.Settings.System != RoundRobin && t.Settings.System != DoubleRoundRobin {
		return ev, nil
	}
	order := RoundRobinOrder(t, h.Players)
	s, err := schedule(t, len(order))
	if err != nil {
		return ev, nil // fewer than two players: nothing scheduled
	}
	if ev.Rounds == 0 {
		ev.Rounds = len(s.Rounds)
	}
	if len(ev.Withdrawals) == 0 {
		return ev, nil
	}
	for _, sr := range s.Rounds {
		for _, pp := range sr.Pairings {
			for _, g := range pp.Games {
				red, black := order[g.Red-1], order[g.Black-1]
				if !played[[3]int{sr.Number, red.Number, black.Number}] {
					ev.Games = append(ev.Games, standings.Game{Round: sr.Number, Red: red.ID, Black: black.ID})
				}
			}
		}
	}
	return ev, nil
}
