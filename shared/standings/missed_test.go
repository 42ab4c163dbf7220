package standings_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
)

// missedEvent is a two-round Swiss with a late entrant L who missed round 1:
// R1 a-b 1-0, c bye, L missed; R2 a-L drawn, b-c 0-1.
func missedEvent(m standings.Missed) standings.Event {
	return standings.Event{
		System: standings.SystemSwiss, Rounds: 5,
		Players: []standings.Player{{ID: "a", Number: 1}, {ID: "b", Number: 2}, {ID: "c", Number: 3}, {ID: "L", Number: 4}},
		Games: []standings.Game{
			{Round: 1, Red: "a", Black: "b", Result: result.RedWins},
			{Round: 2, Red: "a", Black: "L", Result: result.Draw},
			{Round: 2, Red: "b", Black: "c", Result: result.BlackWins},
		},
		Byes: []standings.Bye{{Round: 1, Player: "c"}, {Round: 1, Player: "L", Missed: m}},
	}
}

func rowOf(t *testing.T, tab standings.Table, id string) standings.Row {
	t.Helper()
	for _, r := range tab.Rows {
		if r.PlayerID == id {
			return r
		}
	}
	t.Fatalf("no row for %s", id)
	return standings.Row{}
}

func tiebreak(r standings.Row, c standings.Criterion) standings.Tiebreak {
	for _, tb := range r.Tiebreaks {
		if tb.Name == c {
			return tb
		}
	}
	return standings.Tiebreak{}
}

// S-7, K-1: a late entrant's missed round scores as the event says and is,
// like a bye, neither a game, a win nor a colour; for 对手分 it counts at the
// S-7 bye value, a round scored zero counting nothing.
func TestStandings_S7_LateEntrantMissedRounds(t *testing.T) {
	tests := []struct {
		missed          standings.Missed
		points          int
		opponentScore2x int // doubled, as the table keeps it
	}{
		// The lowest non-zero score is L's own 2 (draw, draw) — or 3 with a
		// missed win — halved for an event under 7 rounds (S-7); a's 3 points
		// count doubled as 6.
		{standings.MissedDraw, 2, 6 + 2},
		{standings.MissedWin, 3, 6 + 3},
		{standings.MissedZero, 1, 6},
	}
	for _, tt := range tests {
		t.Run(string(tt.missed), func(t *testing.T) {
			ev := missedEvent(tt.missed)
			tab, err := standings.Standings(ev, 2)
			if err != nil {
				t.Fatal(err)
			}
			l := rowOf(t, tab, "L")
			if l.Points != tt.points || l.Games != 1 || l.Draws != 1 || l.Wins != 0 || l.Losses != 0 || l.Byes != 0 || l.BlackGames != 1 {
				t.Errorf("L: %+v, want %d points from one drawn game and no bye", l, tt.points)
			}
			if got := tiebreak(l, standings.OpponentScore); got.Num != tt.opponentScore2x || got.Denom != 2 {
				t.Errorf("L 对手分: %+v, want %d/2", got, tt.opponentScore2x)
			}
			if c := rowOf(t, tab, "c"); c.Byes != 1 || c.Points != 4 {
				t.Errorf("c: %+v, want a bye and 4 points", c)
			}
			ct, err := standings.CrossTable(ev, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range ct.Rows {
				if row.PlayerID != "L" {
					continue
				}
				if len(row.Cells) != 2 || row.Cells[0].Mark != standings.MarkMissed || row.Cells[0].OpponentID != "" || row.Points != tt.points {
					t.Errorf("L's crosstable row: %+v", row)
				}
			}
		})
	}
}

func TestStandings_UnknownMissedScoreRefused(t *testing.T) {
	if _, err := standings.Standings(missedEvent("half"), 2); err == nil {
		t.Fatal("a bye with an unknown missed-round score was accepted")
	}
}
