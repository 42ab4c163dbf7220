package tournament

import (
	"testing"

	"github.com/xqtour/xqtour/shared/result"
)

// A player's current game is the earliest unfinished one whose round is
// under way, the next the unfinished one after it; a game with a result is
// neither, and a player with only a paired round has no current game.
func TestPlayerGames(t *testing.T) {
	pair := func(table int, red, black, gid string) Pairing {
		return Pairing{Table: table, Red: red, Black: black, GameID: gid}
	}
	rounds := []*Round{
		{Number: 1, StartsAt: 100, Pairings: []Pairing{pair(1, "p1", "p2", "g1")}},
		{Number: 2, StartsAt: 200, Pairings: []Pairing{pair(1, "p2", "p1", "g2"), pair(2, "p3", "p4", "g3")}},
		{Number: 3, StartsAt: 900, Pairings: []Pairing{pair(1, "p1", "p3", "g4")}},
		{Number: 4, Pairings: []Pairing{pair(1, "p4", "p1", "g5")}},
	}
	h := NewHistory(nil, rounds, []Result{{Round: 1, Table: 1, GameID: "g1", Red: "p1", Black: "p2", Result: result.RedWins}})
	cur, next := PlayerGames(h, "p1", 300)
	if cur == nil || cur.Pairing.GameID != "g2" || cur.State != RoundStarted || next == nil || next.Pairing.GameID != "g4" || next.State != RoundPaired {
		t.Fatalf("p1 at 300: %+v, %+v", cur, next)
	}
	if cur.Opponent != "p2" || !cur.Black || next.Opponent != "p3" || next.Black {
		t.Errorf("p1's sides: black %v against %s, then black %v against %s", cur.Black, cur.Opponent, next.Black, next.Opponent)
	}
	if n := h.Finished(rounds[0]); n != 1 {
		t.Errorf("round 1 has %d finished games, want 1", n)
	}
	if n := h.Finished(rounds[1]); n != 0 {
		t.Errorf("round 2 has %d finished games, want 0", n)
	}
	if cur, next := PlayerGames(h, "p1", 50); cur != nil || next == nil || next.Pairing.GameID != "g2" {
		t.Errorf("p1 before round 2 starts: %+v, %+v", cur, next)
	}
	if cur, next := PlayerGames(h, "p9", 300); cur != nil || next != nil {
		t.Errorf("a player of no game: %+v, %+v", cur, next)
	}
}
