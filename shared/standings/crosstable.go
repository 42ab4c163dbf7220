package standings

import (
	"cmp"
	"slices"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Mark says why a crosstable cell is not an ordinary finished game.
type Mark string

// Crosstable marks.
const (
	// MarkNone is an ordinary game finished over the board.
	MarkNone Mark = ""
	// MarkForfeit is a game won or lost by forfeit, shown as such (S-6,
	// seed 000 ch.2 §2.3: 因一方缺席而判的胜负，在比赛成绩表上说明).
	MarkForfeit Mark = "forfeit"
	// MarkBye is a Swiss bye, scored as a win (S-7).
	MarkBye Mark = "bye"
	// MarkRest is a round-robin bye: no game, no score (S-7).
	MarkRest Mark = "rest"
	// MarkMissed is a round a Swiss late entrant missed before joining,
	// scored as the event says (Bye.Missed).
	MarkMissed Mark = "missed"
	// MarkAnnulled is a game S-6 struck out of the table.
	MarkAnnulled Mark = "annulled"
	// MarkPlaying is a game still being played; it does not count yet.
	MarkPlaying Mark = "playing"
)

// Cell is one player's game (or bye) in a round.
type Cell struct {
	Round          int
	OpponentID     string // "" for a bye or rest
	OpponentNumber int
	Color          xiangqi.Color // the player's colour; meaningless for a bye or rest
	// Result is from red's side, as recorded — or as S-6 turned it into a
	// forfeit after a withdrawal.
	Result result.Result
	Points int // what the player scored here; 0 when it does not count
	Mark   Mark
}

// CrossRow is one player's line: every game and bye in round order (a
// multi-game match gives several cells in one round).
type CrossRow struct {
	PlayerID string
	Name     string
	Number   int
	Points   int // total that counts, as in the standings
	Cells    []Cell
}

// Crosstable is every player's opponent, colour and result per round, in
// player-number order.
type Crosstable struct {
	Round int
	Rows  []CrossRow
}

// CrossTable builds the crosstable after round n (n ≤ 0: the last round),
// with the same S-6 and S-7 treatment as Standings.
func CrossTable(ev Event, n int) (Crosstable, error) {
	pe, err := parseEvent(&ev)
	if err != nil {
		return Crosstable{}, err
	}
	if n <= 0 {
		n = ev.lastRound()
	}
	p := pe.prepare(n)
	ct := Crosstable{Round: n}
	for i, pl := range ev.Players {
		row := CrossRow{PlayerID: pl.ID, Name: pl.Name, Number: pl.Number}
		for _, e := range p.entries[i] {
			c := Cell{Round: e.round, Result: e.result, Color: xiangqi.Red}
			if e.black {
				c.Color = xiangqi.Black
			}
			if e.opp >= 0 {
				c.OpponentID = ev.Players[e.opp].ID
				c.OpponentNumber = ev.Players[e.opp].Number
			}
			switch {
			case e.annulled:
				c.Mark = MarkAnnulled
			case e.pending:
				c.Mark = MarkPlaying
			case e.rest:
				c.Mark = MarkRest
			case e.missed:
				c.Mark = MarkMissed
			case e.bye:
				c.Mark = MarkBye
			case e.forfeit:
				c.Mark = MarkForfeit
			}
			if e.counts() {
				c.Points = e.pts
				row.Points += e.pts
			}
			row.Cells = append(row.Cells, c)
		}
		ct.Rows = append(ct.Rows, row)
	}
	slices.SortStableFunc(ct.Rows, func(a, b CrossRow) int { return cmp.Compare(a.Number, b.Number) })
	return ct, nil
}
