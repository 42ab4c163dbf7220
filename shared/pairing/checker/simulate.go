package checker

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// Event describes a simulated Swiss event. Results come from a seeded
// PRNG, so an event is reproducible from its Seed.
type Event struct {
	Players, Rounds int
	Seed            uint64
	First           swiss.FirstRound
	// Churn turns on withdrawals, one-round pauses, late entries and
	// games still unfinished when the next round is paired (P-12).
	Churn bool
	// Clubs > 0 spreads players over that many clubs and avoids club
	// mates (P-5); Forbidden adds that many forbidden pairs.
	Clubs, Forbidden int
	// Withdraw and Pause are the chances, in per mille for each active
	// player and round, of a withdrawal and of a one-round pause when
	// Churn is on; zero means 10 and 15.
	Withdraw, Pause int
	// Check runs Check after every round.
	Check bool
}

// Report is what a simulated event produced.
type Report struct {
	RoundsPaired int
	// Stopped is set when a round had no complete pairing at all (small
	// fields late in long events); CheckImpossible confirmed it.
	Stopped    bool
	Violations []Violation
	// ThreeInRow and PlusThree count pairs whose colours give three in a
	// row or +3 (allowed when unavoidable, and in the last round).
	ThreeInRow, PlusThree int
	// FinalOver1 counts players who ended with colours more than one apart
	// although they played every round of an odd-round event.
	FinalOver1 int
	// ThirdFloats counts floats that took a player the same way a third
	// time or more (P-6 allows them only when unavoidable). Earlier floats
	// of a player alone in its score group are not counted (appendix 3
	// §1.9) and not recorded in the history.
	ThirdFloats int
	// ThirdFloatsAlone counts those of them where the player was alone in
	// the score group this round (a forced float, not counted either).
	ThirdFloatsAlone int
	// Players is the final state, ready to pair one more round.
	Players []swiss.Player
}

const (
	win, draw = 2, 1 // K-1 points
)

// Simulate runs a whole event, pairing each round with swiss.Pair.
func Simulate(ev Event) (Report, error) {
	r := rand.New(rand.NewPCG(ev.Seed, ev.Seed^0x9e3779b97f4a7c15))
	n := ev.Players
	ps := make([]swiss.Player, n)
	ratings := make([]int, n)
	for i := range ratings {
		ratings[i] = 1200 + r.IntN(1400)
	}
	// P-3: numbers by rating, strongest first.
	sortDesc(ratings)
	for i := range ps {
		ps[i] = swiss.Player{Number: i + 1, Rating: ratings[i]}
		if ev.Clubs > 0 {
			ps[i].Club = fmt.Sprintf("club%d", r.IntN(ev.Clubs))
		}
		if ev.Churn && i >= n-n/20 && n >= 20 {
			ps[i].Status = swiss.NotJoined
		}
	}
	var forbidden [][2]int
	for i := 0; i < ev.Forbidden; i++ {
		a, b := 1+r.IntN(n), 1+r.IntN(n)
		if a != b {
			forbidden = append(forbidden, [2]int{a, b})
		}
	}
	withdraw, pause := ev.Withdraw, ev.Pause
	if withdraw == 0 && pause == 0 {
		withdraw, pause = 10, 15
	}
	var rep Report
	type pend struct{ red, black, redPts, blackPts int }
	var pending []pend
	idx := func(num int) *swiss.Player { return &ps[num-1] }
	for round := 1; round <= ev.Rounds; round++ {
		if ev.Churn && round > 1 {
			for i := range ps {
				p := &ps[i]
				switch p.Status {
				case swiss.NotJoined:
					if round >= 3 || r.IntN(2) == 0 {
						p.Status = swiss.Active // late entry joins; missed rounds score 0
					}
				case swiss.Paused:
					p.Status = swiss.Active
				case swiss.Active:
					switch x := r.IntN(1000); {
					case x < withdraw:
						p.Status = swiss.Withdrawn
					case x < withdraw+pause:
						p.Status = swiss.Paused
					}
				}
			}
		}
		in := swiss.Input{Players: clonePlayers(ps), Rounds: ev.Rounds, Round: round, First: ev.First,
			DrawPoints: draw, Forbidden: forbidden, AvoidSameClub: ev.Clubs > 0}
		out, err := swiss.Pair(in)
		if errors.Is(err, swiss.ErrNoPairing) {
			if ev.Check {
				rep.Violations = append(rep.Violations, tag(round, CheckImpossible(in))...)
			}
			rep.Stopped = true
			break
		}
		if err != nil {
			return rep, err
		}
		rep.RoundsPaired++
		if ev.Check {
			rep.Violations = append(rep.Violations, tag(round, Check(in, out))...)
		}
		// Score-group sizes as the pairing saw them (P-12 included).
		pscore := map[int]int{}
		groupSize := map[int]int{}
		for _, p := range in.Players {
			if p.Status != swiss.Active || p.Number == out.Bye {
				continue
			}
			sc := p.Score
			for _, h := range p.History {
				if h.Pending {
					sc += draw
				}
			}
			pscore[p.Number] = sc
			groupSize[sc]++
		}
		// Games left unfinished when this round was paired now end (P-12:
		// the pairing stands whatever the result).
		for _, g := range pending {
			idx(g.red).Score += g.redPts
			idx(g.black).Score += g.blackPts
			for _, num := range []int{g.red, g.black} {
				h := idx(num).History
				h[len(h)-1].Pending = false
			}
		}
		pending = pending[:0]
		// Record the round.
		rec := make(map[int]swiss.RoundRecord, n)
		for _, b := range out.Boards {
			red, black := idx(b.Red), idx(b.Black)
			for _, pf := range []struct {
				p *swiss.Player
				f swiss.Float
			}{{red, b.RedFloat}, {black, b.BlackFloat}} {
				if pf.f != swiss.NoFloat && floats(pf.p, pf.f) >= 2 {
					rep.ThirdFloats++
					if groupSize[pscore[pf.p.Number]] == 1 {
						rep.ThirdFloatsAlone++
					}
				}
			}
			if threeIn(red, swiss.Red) || threeIn(black, swiss.Black) {
				rep.ThreeInRow++
			}
			if diff(red)+1 >= 3 || diff(black)-1 <= -3 {
				rep.PlusThree++
			}
			p := 1 / (1 + math.Pow(10, float64(black.Rating-red.Rating)/400))
			x := r.Float64()
			rp, bp := 0, win
			switch {
			case x < 0.3:
				rp, bp = draw, draw
			case x < 0.3+0.7*p:
				rp, bp = win, 0
			}
			unfinished := ev.Churn && r.IntN(50) == 0 && round < ev.Rounds
			// Appendix 3 §1.9: a float forced on a player alone in its
			// score group is not counted (P-6), so it is not recorded.
			counted := func(num int, f swiss.Float) swiss.Float {
				if groupSize[pscore[num]] == 1 {
					return swiss.NoFloat
				}
				return f
			}
			rec[b.Red] = swiss.RoundRecord{Side: swiss.Red, Opponent: b.Black, Float: counted(b.Red, b.RedFloat), Pending: unfinished}
			rec[b.Black] = swiss.RoundRecord{Side: swiss.Black, Opponent: b.Red, Float: counted(b.Black, b.BlackFloat), Pending: unfinished}
			if unfinished {
				pending = append(pending, pend{b.Red, b.Black, rp, bp})
			} else {
				red.Score += rp
				black.Score += bp
			}
		}
		if out.Bye != 0 {
			rec[out.Bye] = swiss.RoundRecord{Side: swiss.Bye}
			idx(out.Bye).Score += win // S-7: a bye scores as a win
		}
		for i := range ps {
			ps[i].History = append(ps[i].History, rec[ps[i].Number])
		}
	}
	for _, g := range pending {
		idx(g.red).Score += g.redPts
		idx(g.black).Score += g.blackPts
		for _, num := range []int{g.red, g.black} {
			h := idx(num).History
			h[len(h)-1].Pending = false
		}
	}
	if ev.Rounds%2 == 1 && !rep.Stopped {
		for _, p := range ps {
			games := 0
			for _, h := range p.History {
				if h.Side == swiss.Red || h.Side == swiss.Black {
					games++
				}
			}
			if games == ev.Rounds && abs(diff(&p)) > 1 {
				rep.FinalOver1++
			}
		}
	}
	rep.Players = ps
	return rep, nil
}

func tag(round int, vs []Violation) []Violation {
	for i := range vs {
		vs[i].Msg = fmt.Sprintf("round %d: %s", round, vs[i].Msg)
	}
	return vs
}

func clonePlayers(ps []swiss.Player) []swiss.Player {
	out := make([]swiss.Player, len(ps))
	for i, p := range ps {
		out[i] = p
		out[i].History = append([]swiss.RoundRecord(nil), p.History...)
	}
	return out
}

func floats(p *swiss.Player, f swiss.Float) int {
	n := 0
	for _, h := range p.History {
		if h.Float == f {
			n++
		}
	}
	return n
}

func diff(p *swiss.Player) int {
	d := 0
	for _, h := range p.History {
		switch h.Side {
		case swiss.Red:
			d++
		case swiss.Black:
			d--
		}
	}
	return d
}

// threeIn reports whether playing side s now makes three in a row.
func threeIn(p *swiss.Player, s swiss.Side) bool {
	run := 0
	for i := len(p.History) - 1; i >= 0 && run < 2; i-- {
		h := p.History[i].Side
		if h != swiss.Red && h != swiss.Black {
			continue
		}
		if h != s {
			break
		}
		run++
	}
	return run >= 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sortDesc(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] > a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// SmallEvent is the event of the brute-force sweep for a seed: 4…12
// players (small enough for Check to compare every round with the
// optimum over all complete pairings), 3…9 rounds, random results,
// withdrawals and pauses at a few per cent a round, unfinished games
// (P-12), now and then a forbidden pair or club avoidance.
func SmallEvent(seed uint64) Event {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	players := 4 + r.IntN(9)
	ev := Event{
		Players:  players,
		Rounds:   min(3+r.IntN(7), players-1),
		Seed:     seed,
		First:    swiss.FirstRound(r.IntN(3)),
		Churn:    r.IntN(4) != 0,
		Withdraw: 20 + r.IntN(40),
		Pause:    20 + r.IntN(60),
		Check:    true,
	}
	if r.IntN(5) == 0 {
		ev.Forbidden = 1 + r.IntN(2)
	}
	if r.IntN(8) == 0 {
		ev.Clubs = 3 + r.IntN(3)
	}
	return ev
}
