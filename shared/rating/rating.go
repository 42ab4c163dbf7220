// Package rating computes the rating report a chief arbiter draws up after an
// event (L-1: 000 ch.3, the chief arbiter's duty 6, 棋手等级分计算). The rule
// books name the duty but give no formula, so the package uses the Elo
// formula that rating systems for chess and xiangqi alike are built on:
//
//	expected E = 1 / (1 + 10^((Ropp − Rown)/400)), a difference counted at most MaxDiff;
//	change     = round(K × (S − E)) summed over the player's rated games,
//
// with S = 1 for a win, ½ for a draw and 0 for a loss, and K by rating band
// (a higher rating moves more slowly). Only games played over the board count:
// forfeits, byes and unfinished games do not. A player without a rating
// either starts from InitialRating like everyone else (when the event sets
// one), or — the default — gets a first rating from its performance once it
// has played MinGames games against rated opponents:
//
//	first = average opponent rating + 400 × (wins − losses) / games,
//
// and until then its games change no one's rating.
package rating

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Band gives the K factor of players rated below Below (0: no upper bound).
// Bands are tried in order; the first that fits a rating applies.
type Band struct {
	Below int
	K     int
}

// Params are an event's rating settings.
type Params struct {
	// Bands are the K factors by rating.
	Bands []Band
	// InitialRating, when above 0, is the rating every unrated player starts
	// from, counted like a rating; 0 leaves unrated players to a first
	// rating from performance.
	InitialRating int
	// MinGames is how many games against rated opponents an unrated player
	// needs for a first rating from performance.
	MinGames int
	// MaxDiff caps the rating difference the expected score is computed from.
	MaxDiff int
}

// Defaults are the documented defaults: K 30 below 2000, 20 below 2400, 10
// from 2400; a first rating from performance after 5 games; differences
// counted up to 400.
func Defaults() Params {
	return Params{Bands: []Band{{Below: 2000, K: 30}, {Below: 2400, K: 20}, {K: 10}}, MinGames: 5, MaxDiff: 400}
}

// ErrInvalid is wrapped by every settings error.
var ErrInvalid = errors.New("invalid rating settings")

// Validate checks p: bands ascending with K 1…100 and an open last band,
// ratings and counts in range.
func (p Params) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	if len(p.Bands) == 0 || len(p.Bands) > 10 {
		return bad("give 1 to 10 K bands")
	}
	for i, b := range p.Bands {
		if b.K < 1 || b.K > 100 {
			return bad("band %d: K must be 1…100", i+1)
		}
		last := i == len(p.Bands)-1
		switch {
		case last && b.Below != 0:
			return bad("the last band must have no upper bound (below 0)")
		case !last && (b.Below <= 0 || b.Below > 4000):
			return bad("band %d: below must be 1…4000", i+1)
		case !last && i > 0 && b.Below <= p.Bands[i-1].Below:
			return bad("band %d: bands must rise", i+1)
		}
	}
	if p.InitialRating < 0 || p.InitialRating > 4000 {
		return bad("initialRating must be 0…4000")
	}
	if p.MinGames < 1 || p.MinGames > 100 {
		return bad("minGames must be 1…100")
	}
	if p.MaxDiff < 100 || p.MaxDiff > 1000 {
		return bad("maxDiff must be 100…1000")
	}
	return nil
}

// K returns the K factor of a player rated r.
func (p Params) K(r int) int {
	for _, b := range p.Bands {
		if b.Below == 0 || r < b.Below {
			return b.K
		}
	}
	return p.Bands[len(p.Bands)-1].K
}

// Expected is the expected score, 0…1, of a player rated own against opp.
func (p Params) Expected(own, opp int) float64 {
	d := float64(opp - own)
	if m := float64(p.MaxDiff); d > m {
		d = m
	} else if d < -m {
		d = -m
	}
	return 1 / (1 + math.Pow(10, d/400))
}

// Player is a player's rating before the event; 0 is unrated.
type Player struct {
	ID     string
	Rating int
}

// Game is a game played over the board: Score is red's, in half points (2 a
// win, 1 a draw, 0 a loss).
type Game struct {
	Red, Black string
	RedHalves  int
}

// Line is one player's row of the report.
type Line struct {
	ID string
	// Old is the rating before the event (0: unrated); New after it (0: still
	// unrated, with Games short of MinGames).
	Old, New int
	// Games counts the rated games; Halves the points scored in them (half
	// points); Expected the expected score in those games.
	Games    int
	Halves   int
	Expected float64
	// K is the factor used (0 for a first rating from performance).
	K int
	// Change is New minus the rating the player started from: Old, or
	// InitialRating for an unrated player when the event sets one.
	Change int
	// First marks a first rating (from performance, or from InitialRating).
	First bool
	// OpponentAverage is the rated opponents' average rating (for a first rating).
	OpponentAverage int
}

// Report computes every player's line, in the order of players. Games naming
// unknown players are an error.
func Report(p Params, players []Player, games []Game) ([]Line, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rating := make(map[string]int, len(players))
	for _, pl := range players {
		r := pl.Rating
		if r <= 0 {
			r = p.InitialRating
		}
		rating[pl.ID] = r
	}
	lines := make([]Line, len(players))
	index := make(map[string]int, len(players))
	for i, pl := range players {
		index[pl.ID] = i
		lines[i] = Line{ID: pl.ID, Old: max(pl.Rating, 0)}
	}
	type tally struct {
		expected, change float64
		wins, losses     int
		oppSum           int
	}
	t := make([]tally, len(players))
	for gi, g := range games {
		ri, ok1 := index[g.Red]
		bi, ok2 := index[g.Black]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("game %d: unknown player", gi+1)
		}
		if g.RedHalves < 0 || g.RedHalves > 2 {
			return nil, fmt.Errorf("game %d: red scored %d half points", gi+1, g.RedHalves)
		}
		rr, br := rating[g.Red], rating[g.Black]
		for _, side := range [2]struct {
			i, own, opp, halves int
		}{{ri, rr, br, g.RedHalves}, {bi, br, rr, 2 - g.RedHalves}} {
			if side.opp == 0 { // an unrated opponent changes nothing
				continue
			}
			l, tl := &lines[side.i], &t[side.i]
			l.Games++
			l.Halves += side.halves
			tl.oppSum += side.opp
			switch side.halves {
			case 2:
				tl.wins++
			case 0:
				tl.losses++
			}
			if side.own == 0 {
				continue // performance only
			}
			e := p.Expected(side.own, side.opp)
			tl.expected += e
			tl.change += float64(p.K(side.own)) * (float64(side.halves)/2 - e)
		}
	}
	for i := range lines {
		l, tl := &lines[i], t[i]
		own := rating[l.ID]
		if l.Games > 0 {
			l.OpponentAverage = int(math.Round(float64(tl.oppSum) / float64(l.Games)))
		}
		switch {
		case own > 0:
			l.Expected = round2(tl.expected)
			l.K = p.K(own)
			l.Change = int(math.Round(tl.change))
			l.New = own + l.Change
			l.First = l.Old == 0
		case l.Games >= p.MinGames:
			l.First = true
			l.New = l.OpponentAverage + int(math.Round(400*float64(tl.wins-tl.losses)/float64(l.Games)))
		}
	}
	return lines, nil
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// SortByNew orders lines by new rating, highest first, unrated last, then by
// id: the order a published rating list takes.
func SortByNew(lines []Line) {
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].New != lines[j].New {
			return lines[i].New > lines[j].New
		}
		return lines[i].ID < lines[j].ID
	})
}
