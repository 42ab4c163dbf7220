// Package roundrobin builds round-robin schedules (S-1): the Berger
// order table with the last number fixed, single and double cycles,
// multi-game matches, rests for odd fields (S-7), the assignment of numbers
// by draw or by seeding, and the withdrawal ruling of S-6. It works on slot
// numbers 1…n; callers map numbers to players with a Numbering.
package roundrobin

import (
	"errors"
	"fmt"
)

// ErrPlayers reports a field too small for a round robin.
var ErrPlayers = errors.New("roundrobin: a round robin needs at least 2 players")

// ErrOptions reports a cycle or games-per-pairing count below 1.
var ErrOptions = errors.New("roundrobin: cycles and games per pairing must be at least 1")

// Pair is one line of the order table: First is listed first and has red
// (S-1; 001 §12.1 "表上每轮号码列前者执红棋").
type Pair struct {
	First, Second int
}

// Berger returns the round-robin order table for n players: n-1 rounds for
// even n, n rounds for odd n. For odd n the table is the one for n+1 and the
// slot n+1 is the rest (S-7: no score, no game, no colour); pairs with it are
// kept here so the printed table matches the rule book. The last number is
// fixed and meets the others in the order 1, n/2+1, 2, n/2+2, …; it is listed
// second in odd rounds and first in even rounds, and its pair is the first
// table. For 8: R1 1-8 2-7 3-6 4-5, R2 8-5 6-4 7-3 1-2, R3 2-8 3-1 4-7 5-6.
func Berger(n int) ([][]Pair, error) {
	if n < 2 {
		return nil, fmt.Errorf("berger table for %d: %w", n, ErrPlayers)
	}
	m := n
	if m%2 == 1 {
		m++
	}
	rot := m - 1 // numbers 1…m-1 rotate, m stays fixed
	half := m / 2
	rounds := make([][]Pair, rot)
	for r := range rot {
		a := (r * half) % rot // 0-based index of the number meeting m
		row := make([]Pair, 0, half)
		if r%2 == 0 {
			row = append(row, Pair{a + 1, m})
		} else {
			row = append(row, Pair{m, a + 1})
		}
		for k := 1; k < half; k++ {
			up := (a+k)%rot + 1
			down := ((a-k)%rot+rot)%rot + 1
			row = append(row, Pair{up, down})
		}
		rounds[r] = row
	}
	return rounds, nil
}

// Rounds is how many rounds a schedule of n numbers over cycles cycles has:
// Berger's n-1 rounds per cycle for even n, n for odd n (the rest round, S-7),
// 0 for a field too small. It is len(NewSchedule(n, …).Rounds) without
// building the table.
func Rounds(n, cycles int) int {
	if n < 2 {
		return 0
	}
	return max(cycles, 1) * (n - 1 + n%2)
}

// Game is one game between two numbers with its colours.
type Game struct {
	Red, Black int
}

// Pairing is one table of a round: the match between two numbers, Red being
// the number listed first for this cycle, and the colours of each game of the
// match — alternating inside a multi-game match (001 §12.4, 000 ch.2 §4.4).
type Pairing struct {
	Table      int
	Red, Black int
	Games      []Game
}

// Round is one round of a schedule. Rest is the number that sits out this
// round when the field is odd, else 0 (S-7).
type Round struct {
	Number   int
	Cycle    int
	Pairings []Pairing
	Rest     int
}

// Options shapes a schedule: Cycles 1 (single) or 2 (double; more are
// allowed), GamesPerPairing ≥ 1 games in each match (S-1). Zero values mean 1.
type Options struct {
	Cycles          int
	GamesPerPairing int
}

// Schedule is the whole round-robin programme for Players numbers.
type Schedule struct {
	Players         int
	Cycles          int
	GamesPerPairing int
	Rounds          []Round
}

// NewSchedule builds the schedule for n numbers from the Berger table. In
// every even-numbered cycle the colours of every pairing are swapped (S-1
// double round robin: "second cycle colours swapped").
func NewSchedule(n int, o Options) (Schedule, error) {
	if o.Cycles == 0 {
		o.Cycles = 1
	}
	if o.GamesPerPairing == 0 {
		o.GamesPerPairing = 1
	}
	if o.Cycles < 1 || o.GamesPerPairing < 1 {
		return Schedule{}, fmt.Errorf("schedule for %d players: %w", n, ErrOptions)
	}
	table, err := Berger(n)
	if err != nil {
		return Schedule{}, err
	}
	s := Schedule{Players: n, Cycles: o.Cycles, GamesPerPairing: o.GamesPerPairing}
	s.Rounds = make([]Round, 0, o.Cycles*len(table))
	// one backing array for all games keeps a big schedule to few allocations
	games := make([]Game, 0, o.Cycles*len(table)*(n/2)*o.GamesPerPairing)
	for c := 1; c <= o.Cycles; c++ {
		for _, row := range table {
			rd := Round{Number: len(s.Rounds) + 1, Cycle: c, Pairings: make([]Pairing, 0, n/2)}
			for _, p := range row {
				if p.First > n || p.Second > n { // S-7: the slot n+1 is a rest
					rd.Rest = min(p.First, p.Second)
					continue
				}
				red, black := p.First, p.Second
				if c%2 == 0 {
					red, black = black, red
				}
				pr := Pairing{Table: len(rd.Pairings) + 1, Red: red, Black: black}
				start := len(games)
				for g := range o.GamesPerPairing {
					if g%2 == 0 {
						games = append(games, Game{red, black})
					} else {
						games = append(games, Game{black, red})
					}
				}
				pr.Games = games[start:len(games):len(games)]
				rd.Pairings = append(rd.Pairings, pr)
			}
			s.Rounds = append(s.Rounds, rd)
		}
	}
	return s, nil
}

// Fixture locates one game of a schedule.
type Fixture struct {
	Round, Table, Game int // all 1-based
	Red, Black         int
}

// Fixtures returns every game of number in schedule order (rests excluded).
func (s Schedule) Fixtures(number int) []Fixture {
	var out []Fixture
	for _, rd := range s.Rounds {
		for _, p := range rd.Pairings {
			if p.Red != number && p.Black != number {
				continue
			}
			for g, gm := range p.Games {
				out = append(out, Fixture{Round: rd.Number, Table: p.Table, Game: g + 1, Red: gm.Red, Black: gm.Black})
			}
		}
	}
	return out
}
