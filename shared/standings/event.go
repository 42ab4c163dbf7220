package standings

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/result"
)

// Player is a registered player.
type Player struct {
	ID     string
	Name   string
	Number int // the player's number in the event (draw order, crosstable)
}

// Game is one pairing's game: Result is from red's side (result.None while
// playing, which is ignored). Fouls are those recorded against each side in
// this game.
type Game struct {
	Round      int
	Red        string
	Black      string
	Result     result.Result
	RedFouls   int
	BlackFouls int
}

// Bye is a player left unpaired in a round (S-7).
type Bye struct {
	Round  int
	Player string
	// Missed, when set, marks a round a Swiss late entrant missed before
	// joining rather than a bye the pairing gave: it scores as the event
	// says (MissedZero, MissedDraw, MissedWin) and, like a bye, is neither a
	// game, a win nor a colour, and counts for 对手分 at the S-7 bye value
	// (a round scored zero counts nothing there, like a paused round).
	Missed Missed
}

// Missed is how a round a late entrant missed scores (the organisers'
// "missed rounds scored as the event says").
type Missed string

// How missed rounds score.
const (
	// MissedNone is an ordinary bye (S-7).
	MissedNone Missed = ""
	// MissedZero scores nothing.
	MissedZero Missed = "zero"
	// MissedDraw scores a draw (K-1; the red side's draw value when the
	// scoring gives the colours different draws).
	MissedDraw Missed = "draw"
	// MissedWin scores a win, as a bye does (S-7).
	MissedWin Missed = "win"
)

// Withdrawal is a player leaving the event after playing round AfterRound
// (0: before play). S-6 decides what happens to the results.
type Withdrawal struct {
	Player     string
	AfterRound int
}

// Event is everything the individual table is computed from.
type Event struct {
	// System is an API system name (see DefaultChain); it decides how byes
	// score (S-7) and whether S-6's round-robin withdrawal rule applies.
	System string
	// Rounds is the number of rounds the event will have. It decides the
	// S-7 bye value (fewer than 7 rounds) and the first cycle of a double
	// round robin (rounds 1…Rounds/2).
	Rounds int
	// Players, in any order. len(Players) is the S-7 player count and, less
	// one, the number of opponents due in a round robin (S-6).
	Players []Player
	// Games of every round. For S-6, a round robin's whole schedule may be
	// given with "" results: after a withdrawal those games become forfeits.
	Games       []Game
	Byes        []Bye
	Withdrawals []Withdrawal
	// Scoring; the zero value is K-1's default 2-1-0.
	Scoring Scoring
	// Chain; nil is DefaultChain(System).
	Chain Chain
	// PlayoffPlaces is how many top places a play-off decides when players
	// are still tied: 0 is the rule book's default, the title only;
	// NoPlayoff lets every place be shared.
	PlayoffPlaces int
	// Final, when set, is an N+1 event's final (S-4, 001 §10.4.3.1): from
	// its round on, its two players take 1st and 2nd by its result and
	// everyone else is ranked from 3rd down by the table.
	Final *Final
}

// Final is the game for 1st and 2nd place of an N+1 event (S-4).
type Final struct {
	Round int
	// Players are the finalists, in any order.
	Players [2]string
}

// entry is one player's game (or bye) as this package scores it.
type entry struct {
	round    int
	opp      int // entity index; -1 for a bye
	black    bool
	res      int8 // +1 win, 0 draw, -1 loss
	pts      int
	oppPts   int // the opponent's points in this game
	fouls    int
	forfeit  bool
	void     bool // double forfeit (C-6 双方弃权): no game, colour or opponent; a loss for both
	bye      bool // Swiss bye: scores a win (S-7)
	missed   bool // a late entrant's missed round: a bye scored as the event says
	rest     bool // round-robin bye: nothing (S-7)
	annulled bool // S-6: shown in the crosstable only
	pending  bool // still playing: shown in the crosstable only
	result   result.Result
}

// counts reports whether the entry takes part in the table.
func (e *entry) counts() bool { return !e.annulled && !e.pending && !e.rest }

// isGame reports whether the entry is a game against an opponent that
// counts (not a bye, rest, annulled or pending game).
func (e *entry) isGame() bool { return e.counts() && !e.bye && !e.void }

// prepared is an event's results as they stand after round n.
type prepared struct {
	ev        *Event
	n         int // the table is after round n
	scoring   Scoring
	entries   [][]entry // by player, by round
	annulled  []bool    // S-6: player's results annulled
	withdrawn []bool
	cycleEnd  int // last round of the first cycle (double round robin)
	cycles    int
}

func (ev *Event) index() (map[string]int, error) {
	idx := make(map[string]int, len(ev.Players))
	for i, p := range ev.Players {
		if _, dup := idx[p.ID]; dup {
			return nil, fmt.Errorf("%w: %q registered twice", ErrUnknownPlayer, p.ID)
		}
		idx[p.ID] = i
	}
	return idx, nil
}

// lastRound is the highest round with a game or bye.
func (ev *Event) lastRound() int {
	n := 0
	for _, g := range ev.Games {
		n = max(n, g.Round)
	}
	for _, b := range ev.Byes {
		n = max(n, b.Round)
	}
	return n
}

func (ev *Event) scoring() Scoring {
	if ev.Scoring == (Scoring{}) {
		return DefaultScoring
	}
	return ev.Scoring
}

// item is one game or bye, checked and parsed once per call.
type item struct {
	round      int
	red        int // the player, for a bye
	black      int // -1 for a bye
	missed     Missed
	o          outcome
	result     result.Result
	redFouls   int
	blackFouls int
}

// parsedEvent is an event whose ids and results have been checked, its
// games and byes in round order, so that the table after any round reads a
// prefix of them.
type parsedEvent struct {
	ev    *Event
	items []item
	wd    []int // by player: AfterRound of a withdrawal, -1 for none
}

func parseEvent(ev *Event) (*parsedEvent, error) {
	idx, err := ev.index()
	if err != nil {
		return nil, err
	}
	pe := &parsedEvent{ev: ev, items: make([]item, 0, len(ev.Games)+len(ev.Byes)), wd: make([]int, len(ev.Players))}
	for i := range pe.wd {
		pe.wd[i] = -1
	}
	for _, w := range ev.Withdrawals {
		i, ok := idx[w.Player]
		if !ok {
			return nil, fmt.Errorf("withdrawal: %w: %q", ErrUnknownPlayer, w.Player)
		}
		pe.wd[i] = max(w.AfterRound, 0)
	}
	for _, g := range ev.Games {
		r, okr := idx[g.Red]
		b, okb := idx[g.Black]
		if !okr || !okb {
			return nil, fmt.Errorf("round %d game %s-%s: %w", g.Round, g.Red, g.Black, ErrUnknownPlayer)
		}
		o, err := parseResult(g.Result)
		if err != nil {
			return nil, fmt.Errorf("round %d game %s-%s: %w", g.Round, g.Red, g.Black, err)
		}
		pe.items = append(pe.items, item{round: g.Round, red: r, black: b, o: o, result: g.Result, redFouls: g.RedFouls, blackFouls: g.BlackFouls})
	}
	for _, by := range ev.Byes {
		i, ok := idx[by.Player]
		if !ok {
			return nil, fmt.Errorf("round %d bye: %w: %q", by.Round, ErrUnknownPlayer, by.Player)
		}
		switch by.Missed {
		case MissedNone, MissedZero, MissedDraw, MissedWin:
		default:
			return nil, fmt.Errorf("round %d bye of %q: unknown missed-round score %q", by.Round, by.Player, by.Missed)
		}
		pe.items = append(pe.items, item{round: by.Round, red: i, black: -1, missed: by.Missed})
	}
	slices.SortStableFunc(pe.items, func(a, b item) int { return cmp.Compare(a.round, b.round) })
	return pe, nil
}

// prepare scores every game and bye of rounds 1…n and applies the
// withdrawals made before round n was played (S-6; seed 000 ch.2 §2).
func (pe *parsedEvent) prepare(n int) *prepared {
	ev := pe.ev
	np := len(ev.Players)
	p := &prepared{
		ev: ev, n: n, scoring: ev.scoring(),
		entries:   make([][]entry, np),
		annulled:  make([]bool, np),
		withdrawn: make([]bool, np),
		cycles:    1,
	}
	if ev.System == SystemDoubleRoundRobin {
		p.cycles = 2
		rounds := ev.Rounds
		if rounds == 0 {
			rounds = ev.lastRound()
		}
		p.cycleEnd = rounds / 2
	}
	for i, a := range pe.wd {
		p.withdrawn[i] = a >= 0 && a < n
	}
	// One backing array for every player's entries: a table is built once
	// per round by the previous-round recursion, so allocations count.
	lo, hi := 0, len(pe.items)
	for lo < hi && pe.items[lo].round < 1 {
		lo++
	}
	for hi > lo && pe.items[hi-1].round > n {
		hi--
	}
	items := pe.items[lo:hi]
	counts := make([]int, np)
	for k := range items {
		counts[items[k].red]++
		if items[k].black >= 0 {
			counts[items[k].black]++
		}
	}
	backing := make([]entry, 0, 2*len(items))
	for i, c := range counts {
		p.entries[i] = backing[len(backing) : len(backing) : len(backing)+c]
		backing = backing[:len(backing)+c]
	}
	swiss := swissLike(ev.System)
	for k := range items {
		it := &items[k]
		if it.black < 0 {
			e := entry{round: it.round, opp: -1}
			switch {
			case swiss && it.missed != MissedNone:
				e.bye, e.missed, e.res = true, true, missedOutcome(it.missed)
				if it.missed != MissedZero {
					e.pts = p.scoring.points(e.res, false)
				}
			case swiss:
				e.bye, e.res, e.pts = true, 1, p.scoring.Win // S-7: scores as a win
			default:
				e.rest = true // S-7: a round-robin bye is a rest
			}
			p.entries[it.red] = append(p.entries[it.red], e)
			continue
		}
		r, b, o, res := it.red, it.black, it.o, it.result
		// S-6 (seed 000 ch.2 §2.2–2.3): a withdrawn player's games not
		// finished count as forfeits he lost, whatever the system — from
		// the withdrawal on, so also a game of the round he was last paired
		// in, the last round included (如他下过的棋有的还未终局…按负局计算).
		gone := func(i int) bool { return p.withdrawn[i] || pe.wd[i] >= 0 && it.round <= pe.wd[i] }
		if o.pending && (gone(r) || gone(b)) {
			wr, wb := gone(r), gone(b)
			switch {
			case wr && wb:
				res = result.DoubleForfeit
			case wr:
				res = result.BlackByForfeit
			default:
				res = result.RedByForfeit
			}
			o, _ = parseResult(res)
		}
		// A double forfeit "0-0" is no game: neither side played, so it is
		// no colour and no meeting (the Swiss pairing reads it the same way).
		void := res == result.DoubleForfeit
		re := entry{round: it.round, opp: b, res: o.red, fouls: it.redFouls, forfeit: o.forfeit, void: void, pending: o.pending, result: res}
		be := entry{round: it.round, opp: r, black: true, res: o.black, fouls: it.blackFouls, forfeit: o.forfeit, void: void, pending: o.pending, result: res}
		if !o.pending {
			re.pts = p.scoring.points(o.red, false)
			be.pts = p.scoring.points(o.black, true)
			re.oppPts, be.oppPts = be.pts, re.pts
		}
		p.entries[r] = append(p.entries[r], re)
		p.entries[b] = append(p.entries[b], be)
	}
	if roundRobinLike(ev.System) {
		p.annulWithdrawals(np)
	}
	return p
}

// view is the table after an earlier round r of the same withdrawal
// state: each player's entries cut to rounds 1…r. It equals prepare(r)
// whenever no withdrawal takes effect between r and p.n (see
// withdrawalSegments), since a withdrawn player plays no game over the
// board after leaving, so what S-6 counts does not change.
func (p *prepared) view(r int) *prepared {
	if r == p.n {
		return p
	}
	v := *p
	v.n = r
	v.entries = make([][]entry, len(p.entries))
	for i, es := range p.entries {
		k := len(es)
		for k > 0 && es[k-1].round > r {
			k--
		}
		v.entries[i] = es[:k:k]
	}
	return &v
}

// segmentEnd is the last round, from r up to n, at which the same
// withdrawals are in effect as at r: a withdrawal after round a takes
// effect from round a+1.
func (pe *parsedEvent) segmentEnd(r, n int) int {
	end := n
	for _, a := range pe.wd {
		if a >= r && a < end {
			end = a
		}
	}
	return end
}

// annulWithdrawals applies S-6 in a round robin (seed 000 ch.2 §2.2): a
// withdrawn player who has met fewer than half the opponents due has all
// results annulled, from everyone's table; otherwise the results stand and
// the games left are forfeits (already converted in prepare). "Met" counts
// distinct opponents of games played over the board — a forfeit is not a
// game played (弃权). The opponents due (应赛对手数) are the real ones only
// (S-6 as settled, 001 §14.4): every other player still in the event or
// who has played a game over the board; one who left before playing any is
// no opponent anybody was due to meet.
func (p *prepared) annulWithdrawals(np int) {
	played := make([]bool, np)
	for i, es := range p.entries {
		for _, e := range es {
			if e.opp >= 0 && !e.pending && !e.forfeit {
				played[i] = true
				break
			}
		}
	}
	for w := range p.withdrawn {
		if !p.withdrawn[w] {
			continue
		}
		due := 0
		for o := range np {
			if o != w && (!p.withdrawn[o] || played[o]) {
				due++
			}
		}
		met := make(map[int]bool)
		for _, e := range p.entries[w] {
			if e.opp >= 0 && !e.pending && !e.forfeit {
				met[e.opp] = true
			}
		}
		if 2*len(met) >= due {
			continue
		}
		p.annulled[w] = true
		for i := range p.entries[w] {
			p.entries[w][i].annulled = true
		}
	}
	for i := range p.entries {
		for k := range p.entries[i] {
			if o := p.entries[i][k].opp; o >= 0 && p.annulled[o] {
				p.entries[i][k].annulled = true
			}
		}
	}
}

// inCycle reports whether a round belongs to the selected cycle: 0 all, 1
// the first cycle of a double round robin.
func (p *prepared) inCycle(round, cyc int) bool {
	return cyc == 0 || p.cycles == 1 || round <= p.cycleEnd
}

// cycleOf is the cycle (1 or 2) of a round in a double round robin.
func (p *prepared) cycleOf(round int) int {
	if p.cycles == 2 && round > p.cycleEnd {
		return 2
	}
	return 1
}

// missedOutcome is the outcome a missed round is scored as; a round scored
// zero is a loss only for its points, never counted as a lost game.
func missedOutcome(m Missed) int8 {
	switch m {
	case MissedWin:
		return 1
	case MissedDraw:
		return 0
	}
	return -1
}
