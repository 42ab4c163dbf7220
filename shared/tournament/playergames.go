package tournament

// PlayerGame is one of a player's games: its round, its pairing, where
// the round stands, and the player's side: the opponent's id and whether
// the player has black.
type PlayerGame struct {
	Round    *Round
	Pairing  Pairing
	State    RoundState
	Opponent string
	Black    bool
}

// PlayerGames finds player pid's current game — the earliest unfinished
// one whose round is under way — and the next unfinished one after it,
// each nil when there is none: where a player's own page sends them.
func PlayerGames(h *History, pid string, now int64) (current, next *PlayerGame) {
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			if p.Red != pid && p.Black != pid {
				continue
			}
			if _, ok := h.Result(r.Number, p); ok {
				continue
			}
			g := &PlayerGame{Round: r, Pairing: p, State: StateOf(h, r, now), Opponent: p.Black}
			if p.Black == pid {
				g.Opponent, g.Black = p.Red, true
			}
			switch {
			case current == nil && next == nil && g.State == RoundStarted:
				current = g
			case next == nil:
				next = g
			default:
				return current, next
			}
		}
	}
	return current, next
}
