package standings

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/result"
)

// Row is one player's line in the table.
type Row struct {
	Rank int
	// Shared: still tied after the whole chain, so the place is shared.
	Shared bool
	// Playoff: still tied for a place the event decides by play-off.
	Playoff  bool
	PlayerID string
	Name     string
	Number   int
	Points   int
	// Tiebreaks are the chain's criteria in chain order, less a leading
	// Points (R-3's leading matchPoints is listed: Points holds the game
	// points). Criteria that depend on who is tied (directEncounter,
	// blackInMutualGame) hold the value computed among the players still tied
	// with this one when the criterion was reached, 0 when it never was.
	Tiebreaks []Tiebreak
	// Games, Wins, Draws, Losses count games against opponents, single
	// forfeits included (a game, a colour and a meeting as paired); a double
	// forfeit (0-0) is none of these and counts only in Forfeits. Byes
	// counts Swiss byes (S-7: a bye is not a game), not the rounds a late
	// entrant missed (Bye.Missed), which only add points.
	Games      int
	Wins       int
	Draws      int
	Losses     int
	BlackGames int
	BlackWins  int
	Fouls      int
	Byes       int
	Forfeits   int
	Withdrawn  bool
}

// Table is the standings after a round.
type Table struct {
	Round   int
	Chain   Chain // as applied: CumulativeCuts expanded
	Scoring Scoring
	Rows    []Row
	// Annulled lists the players whose results S-6 annulled; they have no row.
	Annulled []string
	// ByeValue is what a Swiss bye counts for 对手分 in this table (S-7),
	// named OpponentScore and kept doubled like it; 0 outside a Swiss.
	ByeValue Tiebreak
}

// Standings ranks the event's players after round n (n ≤ 0: after the last
// round with a game or bye) — the `?round=n` view.
func Standings(ev Event, n int) (Table, error) {
	chain := ev.Chain
	if chain == nil {
		c, err := DefaultChain(ev.System)
		if err != nil {
			return Table{}, err
		}
		chain = c
	} else if _, err := ParseChain(chain.Strings()); err != nil {
		return Table{}, err
	}
	pe, err := parseEvent(&ev)
	if err != nil {
		return Table{}, err
	}
	if n <= 0 {
		n = ev.lastRound()
	}
	// R-4a / R-7: the previous round's place is itself ranked with this
	// chain, so the tables are built forwards from round 1, each feeding its
	// places to the next: one ranking per round, never one per tied group.
	start := n
	if slices.Contains(chain, PreviousRound) && n > 1 {
		start = 1
	}
	var prevRank []int
	var t *tableCalc
	var p *prepared
	for r := start; r <= n; r++ {
		if p == nil || r > p.n {
			p = pe.prepare(pe.segmentEnd(r, n))
		}
		t = newTableCalc(p.view(r), chain, prevRank)
		t.run()
		prevRank = t.rk.rank
	}
	tab := t.table()
	if f := ev.Final; f != nil && n >= f.Round {
		finalPlaces(&tab, *f, ev.Games)
	}
	return tab, nil
}

// finalPlaces applies an N+1 final (S-4, 001 §10.4.3.1: 第N轮结束后排名前2名的
// 棋手…进行冠亚军决赛，其他棋手进行第N+1轮积分编排赛确定第3名及以后名次): the
// final's winner is 1st and its loser 2nd whatever their points; a drawn or
// unfinished final leaves the two in the table's order between them. The
// others keep the table's order and ties from 3rd down.
func finalPlaces(tab *Table, f Final, games []Game) {
	first, second := f.Players[0], f.Players[1]
	pos := map[string]int{}
	for i, r := range tab.Rows {
		pos[r.PlayerID] = i
	}
	if pos[second] < pos[first] {
		first, second = second, first
	}
	for _, g := range games {
		if g.Round != f.Round || !(g.Red == f.Players[0] && g.Black == f.Players[1] || g.Red == f.Players[1] && g.Black == f.Players[0]) {
			continue
		}
		switch g.Result {
		case result.RedWins, result.RedByForfeit:
			first, second = g.Red, g.Black
		case result.BlackWins, result.BlackByForfeit:
			first, second = g.Black, g.Red
		}
	}
	rows := make([]Row, 0, len(tab.Rows))
	for _, id := range []string{first, second} {
		if i, ok := pos[id]; ok {
			r := tab.Rows[i]
			r.Rank, r.Shared, r.Playoff = len(rows)+1, false, false
			rows = append(rows, r)
		}
	}
	top := len(rows)
	var rest []Row
	for _, r := range tab.Rows {
		if r.PlayerID != first && r.PlayerID != second {
			rest = append(rest, r)
		}
	}
	for i, r := range rest {
		// A tie among the others keeps its shared place, counted from 3rd;
		// the title being decided by the final, no play-off is marked.
		lo := i
		for lo > 0 && rest[lo-1].Rank == r.Rank {
			lo--
		}
		r.Rank, r.Playoff = top+lo+1, false
		rows = append(rows, r)
	}
	tab.Rows = rows
}

// byeOpponentScore is what a Swiss bye counts for 对手分, doubled (S-7,
// seed 001 §14.4): the lowest non-zero score among the ranked entities, half
// of it when the event has fewer than 7 rounds or fewer than 16 entrants
// (players or teams). Outside a Swiss a bye is a rest and counts nothing.
func byeOpponentScore(scores, ranked []int, rounds, entrants int, swiss bool) int {
	if !swiss {
		return 0
	}
	low := 0
	for _, i := range ranked {
		if v := scores[i]; v > 0 && (low == 0 || v < low) {
			low = v
		}
	}
	if rounds < 7 || entrants < 16 {
		return low
	}
	return 2 * low
}

// previousPlaces is the previousRound criterion's value: each entity's
// place after the round before (R-4a, R-7); before round 1 everyone is first.
func previousPlaces(prev []int, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
		if prev != nil {
			out[i] = prev[i]
		}
	}
	return out
}

// tableCalc ranks one prepared table.
type tableCalc struct {
	p        *prepared
	chain    Chain // expanded
	prevRank []int
	ents     []int // ranked entities: every player whose results stand
	st       playerStats
	byeNum   int // S-7 bye value for 对手分, doubled
	mark     []bool
	rk       ranking
	crits    []critEval
	cum      [][]int // [player][r] running score after round r, r = 0…n
}

type playerStats struct {
	points, games, wins, draws, losses, blackGames, blackWins, fouls, byes, forfeits []int
}

func newTableCalc(p *prepared, chain Chain, prevRank []int) *tableCalc {
	np := len(p.ev.Players)
	t := &tableCalc{p: p, prevRank: prevRank, mark: make([]bool, np)}
	for _, c := range chain {
		if c == CumulativeCuts {
			for k := 1; k < p.n; k++ {
				t.chain = append(t.chain, Criterion(fmt.Sprintf("%s%d", cumulativeCutPrefix, k)))
			}
			continue
		}
		t.chain = append(t.chain, c)
	}
	for i := range np {
		if !p.annulled[i] {
			t.ents = append(t.ents, i)
		}
	}
	// Ties left shared are shown in number order.
	slices.SortStableFunc(t.ents, func(a, b int) int {
		return cmp.Compare(p.ev.Players[a].Number, p.ev.Players[b].Number)
	})
	s := &t.st
	for _, a := range []*[]int{&s.points, &s.games, &s.wins, &s.draws, &s.losses, &s.blackGames, &s.blackWins, &s.fouls, &s.byes, &s.forfeits} {
		*a = make([]int, np)
	}
	for i, es := range p.entries {
		for k := range es {
			e := &es[k]
			if !e.counts() {
				continue
			}
			s.points[i] += e.pts
			s.fouls[i] += e.fouls
			if e.bye {
				if !e.missed {
					s.byes[i]++
				}
				continue
			}
			if e.void {
				s.forfeits[i]++ // a double forfeit: no game, colour or opponent
				continue
			}
			s.games[i]++
			if e.forfeit {
				s.forfeits[i]++
			}
			switch e.res {
			case 1:
				s.wins[i]++
			case 0:
				s.draws[i]++
			default:
				s.losses[i]++
			}
			if e.black {
				s.blackGames[i]++
				if e.res == 1 {
					s.blackWins[i]++
				}
			}
		}
	}
	rounds := p.ev.Rounds
	if rounds == 0 {
		rounds = p.ev.lastRound()
	}
	t.byeNum = byeOpponentScore(s.points, t.ents, rounds, np, swissLike(p.ev.System))
	return t
}

func (t *tableCalc) run() {
	t.crits = make([]critEval, len(t.chain))
	for k, c := range t.chain {
		t.crits[k] = t.eval(c)
	}
	t.rk = rankEntities(len(t.p.ev.Players), t.crits, t.ents)
}

// sum adds f(e) over the player's counting entries in the chosen cycle.
func (t *tableCalc) sum(cyc int, f func(e *entry) int) []int {
	out := make([]int, len(t.p.entries))
	for i, es := range t.p.entries {
		v := 0
		for k := range es {
			if e := &es[k]; e.counts() && t.p.inCycle(e.round, cyc) {
				v += f(e)
			}
		}
		out[i] = v
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// eval builds one criterion for this table; each case cites its rule in
// the Criterion's doc comment.
func (t *tableCalc) eval(c Criterion) critEval {
	ce := critEval{name: c, denom: 1}
	cyc := 0
	switch c {
	case FirstCyclePoints, FirstCycleSmallPoints, FirstCycleWins, FirstCycleDirectEncounter,
		FirstCycleFouls, FirstCycleBlackGames, FirstCycleBlackInMutualGame, FirstCycleBlackWins:
		cyc = 1
	}
	switch c {
	case Points, GamePoints:
		ce.global = t.st.points
	case FirstCyclePoints:
		ce.global = t.sum(cyc, func(e *entry) int { return e.pts })
	case SmallPoints, FirstCycleSmallPoints:
		ce.denom = 2
		ce.global = t.smallPoints(cyc)
	case Wins:
		ce.global = t.st.wins
	case FirstCycleWins:
		ce.global = t.sum(cyc, func(e *entry) int { return boolInt(e.isGame() && e.res == 1) })
	case Fouls:
		ce.lower, ce.global = true, t.st.fouls
	case FirstCycleFouls:
		ce.lower = true
		ce.global = t.sum(cyc, func(e *entry) int { return e.fouls })
	case BlackGames:
		ce.global = t.st.blackGames
	case FirstCycleBlackGames:
		ce.global = t.sum(cyc, func(e *entry) int { return boolInt(e.isGame() && e.black) })
	case BlackWins:
		ce.global = t.st.blackWins
	case FirstCycleBlackWins:
		ce.global = t.sum(cyc, func(e *entry) int { return boolInt(e.isGame() && e.black && e.res == 1) })
	case DirectEncounter, FirstCycleDirectEncounter:
		ce.local = func(group, out []int) { t.directEncounter(cyc, group, out) }
	case BlackInMutualGame, FirstCycleBlackInMutualGame:
		ce.local = func(group, out []int) { t.blackInMutualGame(cyc, group, out) }
	case MatchPoints:
		ce.global = t.matchPoints()
	case OpponentScore:
		ce.denom = 2
		ce.global = t.sum(0, func(e *entry) int {
			switch {
			case e.missed && e.res < 0, e.void:
				return 0 // a missed round scored zero, or a double forfeit, meets nobody
			case e.bye:
				return t.byeNum
			}
			return 2 * t.st.points[e.opp]
		})
	case Cumulative:
		ce.global = t.cumulative(0)
	case PreviousRound:
		ce.lower, ce.global = true, previousPlaces(t.prevRank, len(t.p.entries))
	default:
		k, _ := cutOf(c) // ParseChain let nothing else through
		ce.global = t.cumulative(k)
	}
	return ce
}

// smallPoints is 小分, doubled: 2× a beaten opponent's score plus 1× a drawn
// one's, each cycle counting the opponents' scores in that cycle.
func (t *tableCalc) smallPoints(cyc int) []int {
	np := len(t.p.entries)
	byCycle := [3][]int{nil, make([]int, np), make([]int, np)}
	for i, es := range t.p.entries {
		for k := range es {
			if e := &es[k]; e.counts() {
				byCycle[t.p.cycleOf(e.round)][i] += e.pts
			}
		}
	}
	return t.sum(cyc, func(e *entry) int {
		if e.bye || e.void {
			return 0
		}
		v := byCycle[t.p.cycleOf(e.round)][e.opp]
		switch e.res {
		case 1:
			return 2 * v
		case 0:
			return v
		}
		return 0
	})
}

// directEncounter is the mini-table of the games among the tied group.
func (t *tableCalc) directEncounter(cyc int, group, out []int) {
	for _, g := range group {
		t.mark[g] = true
	}
	for gi, g := range group {
		v := 0
		for k := range t.p.entries[g] {
			e := &t.p.entries[g][k]
			if e.isGame() && t.mark[e.opp] && t.p.inCycle(e.round, cyc) {
				v += e.pts
			}
		}
		out[gi] = v
	}
	for _, g := range group {
		t.mark[g] = false
	}
}

// blackInMutualGame separates exactly two tied players by who was black in
// their game (R-1 对局时后走).
func (t *tableCalc) blackInMutualGame(cyc int, group, out []int) {
	for gi := range out {
		out[gi] = 0
	}
	if len(group) != 2 {
		return
	}
	for gi, g := range group {
		other := group[1-gi]
		for k := range t.p.entries[g] {
			e := &t.p.entries[g][k]
			if e.isGame() && e.opp == other && e.black && t.p.inCycle(e.round, cyc) {
				out[gi]++
			}
		}
	}
}

// matchPoints scores each opponent's games of a cycle as one match:
// more game points 2, equal 1, fewer 0. A double round robin of multi-game
// matches meets each opponent in one match a cycle, so each cycle's games
// are a match of their own.
func (t *tableCalc) matchPoints() []int {
	out := make([]int, len(t.p.entries))
	type tally struct{ mine, theirs int }
	type match struct{ opp, cycle int }
	for i, es := range t.p.entries {
		m := map[match]*tally{}
		for k := range es {
			e := &es[k]
			if !e.isGame() {
				continue
			}
			key := match{e.opp, t.p.cycleOf(e.round)}
			tl := m[key]
			if tl == nil {
				tl = &tally{}
				m[key] = tl
			}
			tl.mine += e.pts
			tl.theirs += e.oppPts
		}
		for _, tl := range m {
			out[i] += 2*boolInt(tl.mine > tl.theirs) + boolInt(tl.mine == tl.theirs)
		}
	}
	return out
}

// cumulative is 累进分 less the running scores of rounds 1…cut (R-4b).
func (t *tableCalc) cumulative(cut int) []int {
	if t.cum == nil {
		n := t.p.n
		t.cum = make([][]int, len(t.p.entries))
		for i, es := range t.p.entries {
			row := make([]int, n+1)
			for k := range es {
				if e := &es[k]; e.counts() {
					row[e.round] += e.pts
				}
			}
			for r := 1; r <= n; r++ {
				row[r] += row[r-1]
			}
			t.cum[i] = row
		}
	}
	out := make([]int, len(t.cum))
	for i, row := range t.cum {
		for r := cut + 1; r < len(row); r++ {
			out[i] += row[r]
		}
	}
	return out
}

func (t *tableCalc) table() Table {
	p := t.p
	tab := Table{
		Round:    p.n,
		Chain:    t.chain,
		Scoring:  p.scoring,
		ByeValue: Tiebreak{Name: OpponentScore, Num: t.byeNum, Denom: 2},
	}
	for i, a := range p.annulled {
		if a {
			tab.Annulled = append(tab.Annulled, p.ev.Players[i].ID)
		}
	}
	places := playoffPlaces(p.ev.PlayoffPlaces)
	first := 0
	if len(t.chain) > 0 && t.chain[0] == Points {
		first = 1
	}
	s := &t.st
	for _, e := range t.rk.order {
		pl := p.ev.Players[e]
		row := Row{
			Rank: t.rk.rank[e], Shared: t.rk.shared(e), Playoff: t.rk.needsPlayoff(e, places),
			PlayerID: pl.ID, Name: pl.Name, Number: pl.Number, Points: s.points[e],
			Games: s.games[e], Wins: s.wins[e], Draws: s.draws[e], Losses: s.losses[e],
			BlackGames: s.blackGames[e], BlackWins: s.blackWins[e], Fouls: s.fouls[e],
			Byes: s.byes[e], Forfeits: s.forfeits[e], Withdrawn: p.withdrawn[e],
		}
		for k := first; k < len(t.chain); k++ {
			row.Tiebreaks = append(row.Tiebreaks, Tiebreak{Name: t.chain[k], Num: t.rk.values[k][e], Denom: t.crits[k].denom})
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab
}
