package tournament

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// History is what an event has stored beyond its settings: its players, the
// rounds paired so far and the results reported. The pairing of the next
// round and the standings are both computed from it.
type History struct {
	Players []*Player
	// Rounds holds rounds 1…k in order.
	Rounds  []*Round
	results map[[2]int]Result
	byID    map[string]*Player
	// rankTeams ranks a group of a team groups event by the team table
	// (teamgroups.go); nil for the players' history.
	rankTeams func(group string, members []string) ([]string, error)
	// rankTeamsAfter ranks a team Swiss-then-knockout's teams by the team
	// table after round n; nil for the players' history.
	rankTeamsAfter func(n int) ([]string, error)
}

// NewHistory indexes what the store returned. Rounds may come in any order;
// results are keyed by round and table.
func NewHistory(players []*Player, rounds []*Round, results []Result) *History {
	h := &History{Players: slices.Clone(players), Rounds: slices.Clone(rounds), results: map[[2]int]Result{}, byID: map[string]*Player{}}
	sort.Slice(h.Players, func(i, j int) bool { return h.Players[i].Number < h.Players[j].Number })
	sort.Slice(h.Rounds, func(i, j int) bool { return h.Rounds[i].Number < h.Rounds[j].Number })
	for _, p := range h.Players {
		h.byID[p.ID] = p
	}
	for _, r := range results {
		h.results[[2]int{r.Round, r.Table}] = r
	}
	return h
}

// Player returns the player with the id, nil when unknown.
func (h *History) Player(id string) *Player { return h.byID[id] }

// Result returns the result of a pairing's game. A result item written for
// another game on that table (one replaced by an organiser's change before the
// round started) does not count.
func (h *History) Result(round int, p Pairing) (Result, bool) {
	r, ok := h.results[[2]int{round, p.Table}]
	if !ok || !r.Of(p.GameID) {
		return Result{}, false
	}
	return r, true
}

// Finished counts round r's games that have a result.
func (h *History) Finished(r *Round) int {
	n := 0
	for _, p := range r.Pairings {
		if _, ok := h.Result(r.Number, p); ok {
			n++
		}
	}
	return n
}

// Unfinished lists the games of paired rounds that have no result yet, in
// round and table order (P-12).
func (h *History) Unfinished() []string {
	var out []string
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			if _, ok := h.Result(r.Number, p); !ok {
				out = append(out, p.GameID)
			}
		}
	}
	return out
}

// unfinishedTables names the games Unfinished lists by round and table, the
// way the pairing list shows them (a refusal's params carry no game ids).
func (h *History) unfinishedTables() []map[string]int {
	out := []map[string]int{}
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			if _, ok := h.Result(r.Number, p); !ok {
				out = append(out, map[string]int{"round": r.Number, "table": p.Table})
			}
		}
	}
	return out
}

// checkUnfinished refuses a pairing while earlier games are open unless the
// organiser said they count as draws (P-12); it returns those games.
func checkUnfinished(h *History, o PairOptions) ([]string, error) {
	unfinished := h.Unfinished()
	if len(unfinished) > 0 && !o.UnfinishedAsDraws {
		return nil, &RuleError{Code: CodeUnfinishedGames, Rule: "P-12", Message: fmt.Sprintf(
			"%d game(s) of earlier rounds are unfinished (%s); pair anyway with \"unfinishedAsDraws\": true to count them as draws for this pairing",
			len(unfinished), strings.Join(unfinished[:min(len(unfinished), 5)], ", ")),
			Params: map[string]any{"count": len(unfinished), "games": h.unfinishedTables(), "option": "unfinishedAsDraws"}}
	}
	return unfinished, nil
}
