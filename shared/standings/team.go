package standings

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Team is a registered team.
type Team struct {
	ID     string
	Name   string
	Number int
}

// BoardResult is one board of a team match.
type BoardResult struct {
	// Result is from red's side; result.None while playing.
	Result result.Result
	// FirstColor is the colour of the first-listed team's player; read only
	// when the match has ExplicitColours.
	FirstColor  xiangqi.Color
	FirstFouls  int
	SecondFouls int
	// FirstPlayer and SecondPlayer are the players' ids, optional: only
	// BoardGames reads them.
	FirstPlayer  string
	SecondPlayer string
	// Round is the round the board game was played in when it is not the
	// match's (a T-4 meeting played over several rounds); 0: the match's.
	// Only BoardGames reads it.
	Round int
}

// Match is a team match: one game per board.
type Match struct {
	Round  int
	First  string // team listed first (T-6)
	Second string
	Boards []BoardResult
	// ExplicitColours: each board says its colours. Otherwise T-6 holds: the
	// first-listed team is red on odd boards and black on even boards.
	ExplicitColours bool
}

// TeamBye is a team left unpaired in a Swiss round (S-7).
type TeamBye struct {
	Round int
	Team  string
}

// TeamEvent is everything the team table is computed from.
type TeamEvent struct {
	System  string // API system name; see DefaultTeamChain
	Rounds  int    // planned rounds: the S-7 bye value (fewer than 7 rounds)
	Teams   []Team
	Matches []Match
	Byes    []TeamBye
	// Boards per match. A Swiss bye scores a match win (S-7, seed 001 §14.4:
	// 团体成绩按胜场计分) and, as every board of it would score for a player's
	// bye, Boards × a win in board points; it is no board game and no board win.
	Boards  int
	Scoring Scoring // zero value: 2-1-0 (K-1)
	Chain   Chain   // nil: DefaultTeamChain(System, ByBoardPoints)
	// ByBoardPoints picks R-8 (rank by board points) for a team Swiss.
	ByBoardPoints bool
	// PlayoffPlaces as in Event. In a team double round robin the
	// default is a play-off for every place still tied (R-6, seed 001 §14.6:
	// 以附加赛区分).
	PlayoffPlaces int
}

// TeamRow is one team's line.
type TeamRow struct {
	Rank    int
	Shared  bool
	Playoff bool
	TeamID  string
	Name    string
	Number  int
	// MatchPoints (场分) and BoardPoints (局分) per T-7; zero in R-9 tables.
	MatchPoints int
	BoardPoints int
	// Tiebreaks are the chain's criteria after a leading MatchPoints.
	Tiebreaks   []Tiebreak
	Matches     int
	MatchWins   int
	MatchDraws  int
	MatchLosses int
	BoardGames  int
	BoardWins   int
	BoardDraws  int
	BoardLosses int
	BlackGames  int
	BlackWins   int
	Fouls       int
	Byes        int
}

// TeamTable is the team standings after a round.
type TeamTable struct {
	Round    int
	Chain    Chain
	Rows     []TeamRow
	ByeValue Tiebreak // S-7 team 对手分 value of a bye, doubled
}

// teamMatch is one team's side of a decided match.
type teamMatch struct {
	round   int
	opp     int // -1: bye
	mp      int
	bp      int
	bwins   int
	bdraws  int
	blosses int
	boards  int
	black   int
	bblackW int
	fouls   int
}

type teamCalc struct {
	ev       *TeamEvent
	n        int
	sc       Scoring
	matches  [][]teamMatch
	mp, bp   []int
	byeNum   int
	prevRank []int
	mark     []bool
}

// TeamStandings ranks the teams after round n (n ≤ 0: the last round with a
// match or bye). A match counts once all its boards are decided (T-7 needs
// every board to say who won the match).
func TeamStandings(ev TeamEvent, n int) (TeamTable, error) {
	chain := ev.Chain
	if chain == nil {
		c, err := DefaultTeamChain(ev.System, ev.ByBoardPoints)
		if err != nil {
			return TeamTable{}, err
		}
		chain = c
	} else if _, err := ParseTeamChain(chain.Strings()); err != nil {
		return TeamTable{}, err
	}
	idx := make(map[string]int, len(ev.Teams))
	for i, t := range ev.Teams {
		if _, dup := idx[t.ID]; dup {
			return TeamTable{}, fmt.Errorf("%w: %q registered twice", ErrUnknownTeam, t.ID)
		}
		idx[t.ID] = i
	}
	if n <= 0 {
		for _, m := range ev.Matches {
			n = max(n, m.Round)
		}
		for _, b := range ev.Byes {
			n = max(n, b.Round)
		}
	}
	start := n
	if slices.Contains(chain, PreviousRound) && n > 1 {
		start = 1
	}
	var prev []int
	var tab TeamTable
	for r := start; r <= n; r++ {
		tc, err := newTeamCalc(&ev, idx, r, prev)
		if err != nil {
			return TeamTable{}, err
		}
		var rk ranking
		tab, rk = tc.rank(chain)
		prev = rk.rank
	}
	return tab, nil
}

func newTeamCalc(ev *TeamEvent, idx map[string]int, n int, prev []int) (*teamCalc, error) {
	nt := len(ev.Teams)
	tc := &teamCalc{ev: ev, n: n, sc: ev.Scoring, matches: make([][]teamMatch, nt),
		mp: make([]int, nt), bp: make([]int, nt), prevRank: prev, mark: make([]bool, nt)}
	if tc.sc == (Scoring{}) {
		tc.sc = DefaultScoring
	}
	for _, m := range ev.Matches {
		if m.Round < 1 || m.Round > n {
			continue
		}
		f, okf := idx[m.First]
		s, oks := idx[m.Second]
		if !okf || !oks {
			return nil, fmt.Errorf("round %d match %s-%s: %w", m.Round, m.First, m.Second, ErrUnknownTeam)
		}
		a := teamMatch{round: m.Round, opp: s}
		b := teamMatch{round: m.Round, opp: f}
		pending := false
		for i, bd := range m.Boards {
			firstColor := m.firstColor(i)
			o, err := parseResult(bd.Result)
			if err != nil {
				return nil, fmt.Errorf("round %d match %s-%s board %d: %w", m.Round, m.First, m.Second, i+1, err)
			}
			if o.pending {
				pending = true
				break
			}
			fo, so := o.red, o.black
			if firstColor == xiangqi.Black {
				fo, so = o.black, o.red
			}
			a.addBoard(tc.sc, fo, firstColor == xiangqi.Black, bd.FirstFouls)
			b.addBoard(tc.sc, so, firstColor == xiangqi.Red, bd.SecondFouls)
		}
		if pending {
			continue
		}
		// T-7 (seed 001 §13.2): more board points 2, equal 1, fewer 0.
		a.mp = 2*boolInt(a.bp > b.bp) + boolInt(a.bp == b.bp)
		b.mp = 2*boolInt(b.bp > a.bp) + boolInt(a.bp == b.bp)
		tc.matches[f] = append(tc.matches[f], a)
		tc.matches[s] = append(tc.matches[s], b)
	}
	for _, by := range ev.Byes {
		if by.Round < 1 || by.Round > n {
			continue
		}
		t, ok := idx[by.Team]
		if !ok {
			return nil, fmt.Errorf("round %d bye: %w: %q", by.Round, ErrUnknownTeam, by.Team)
		}
		if !swissLike(ev.System) {
			continue // S-7: a round-robin bye is a rest
		}
		tc.matches[t] = append(tc.matches[t], teamMatch{round: by.Round, opp: -1, mp: 2, bp: ev.Boards * tc.sc.Win})
	}
	for t, ms := range tc.matches {
		for _, m := range ms {
			tc.mp[t] += m.mp
			tc.bp[t] += m.bp
		}
	}
	rounds := ev.Rounds
	if rounds == 0 {
		rounds = n
	}
	// S-7 for teams: the bye's 对手分 from the lowest non-zero match points.
	tc.byeNum = byeOpponentScore(tc.mp, teamOrder(ev.Teams), rounds, nt, swissLike(ev.System))
	return tc, nil
}

// firstColor is the first-listed team's colour on board i (0-based): T-6
// (seed 001 §12.2–12.3), red on odd boards, unless the match says otherwise.
func (m *Match) firstColor(i int) xiangqi.Color {
	if m.ExplicitColours {
		return m.Boards[i].FirstColor
	}
	if (i+1)%2 == 0 {
		return xiangqi.Black
	}
	return xiangqi.Red
}

// BoardGames lists the board games of a team event as individual games,
// colours per T-6, for a players' table over a team event (the `boards`
// view: Standings on an Event built from them). Boards without both
// player ids are left out.
func BoardGames(ev TeamEvent) []Game {
	var out []Game
	for i := range ev.Matches {
		m := &ev.Matches[i]
		for b, bd := range m.Boards {
			if bd.FirstPlayer == "" || bd.SecondPlayer == "" {
				continue
			}
			g := Game{Round: cmp.Or(bd.Round, m.Round), Red: bd.FirstPlayer, Black: bd.SecondPlayer, Result: bd.Result,
				RedFouls: bd.FirstFouls, BlackFouls: bd.SecondFouls}
			if m.firstColor(b) == xiangqi.Black {
				g.Red, g.Black, g.RedFouls, g.BlackFouls = g.Black, g.Red, g.BlackFouls, g.RedFouls
			}
			out = append(out, g)
		}
	}
	return out
}

func (m *teamMatch) addBoard(sc Scoring, o int8, black bool, fouls int) {
	m.boards++
	m.bp += sc.points(o, black)
	m.fouls += fouls
	switch o {
	case 1:
		m.bwins++
	case 0:
		m.bdraws++
	default:
		m.blosses++
	}
	if black {
		m.black++
		if o == 1 {
			m.bblackW++
		}
	}
}

func (tc *teamCalc) sum(f func(m *teamMatch) int) []int {
	out := make([]int, len(tc.matches))
	for t, ms := range tc.matches {
		for k := range ms {
			out[t] += f(&ms[k])
		}
	}
	return out
}

func (tc *teamCalc) eval(c Criterion) critEval {
	ce := critEval{name: c, denom: 1}
	switch c {
	case MatchPoints:
		ce.global = tc.mp
	case BoardPoints:
		ce.global = tc.bp
	case MatchWins:
		// A bye scores a match win's points but is no match (S-7).
		ce.global = tc.sum(func(m *teamMatch) int { return boolInt(m.opp >= 0 && m.mp == 2) })
	case BoardWins:
		ce.global = tc.sum(func(m *teamMatch) int { return m.bwins })
	case Fouls:
		ce.lower = true
		ce.global = tc.sum(func(m *teamMatch) int { return m.fouls })
	case BlackGames:
		ce.global = tc.sum(func(m *teamMatch) int { return m.black })
	case BlackWins:
		ce.global = tc.sum(func(m *teamMatch) int { return m.bblackW })
	case OpponentScore:
		ce.denom = 2
		ce.global = tc.sum(func(m *teamMatch) int {
			if m.opp < 0 {
				return tc.byeNum
			}
			return 2 * tc.mp[m.opp]
		})
	case DirectEncounter:
		// R-5 直胜: match points in the matches among the tied teams.
		ce.local = func(group, out []int) {
			for _, g := range group {
				tc.mark[g] = true
			}
			for gi, g := range group {
				out[gi] = 0
				for _, m := range tc.matches[g] {
					if m.opp >= 0 && tc.mark[m.opp] {
						out[gi] += m.mp
					}
				}
			}
			for _, g := range group {
				tc.mark[g] = false
			}
		}
	case PreviousRound:
		ce.lower, ce.global = true, previousPlaces(tc.prevRank, len(tc.matches))
	}
	return ce
}

func (tc *teamCalc) rank(chain Chain) (TeamTable, ranking) {
	crits := make([]critEval, len(chain))
	for k, c := range chain {
		crits[k] = tc.eval(c)
	}
	ents := teamOrder(tc.ev.Teams)
	rk := rankEntities(len(tc.ev.Teams), crits, ents)
	places := playoffPlaces(tc.ev.PlayoffPlaces)
	if tc.ev.PlayoffPlaces == 0 && tc.ev.System == SystemDoubleRoundRobin {
		places = len(tc.ev.Teams) // still tied → play-off
	}
	tab := TeamTable{Round: tc.n, Chain: chain, ByeValue: Tiebreak{Name: OpponentScore, Num: tc.byeNum, Denom: 2}}
	first := 0
	if chain[0] == MatchPoints {
		first = 1
	}
	for _, e := range rk.order {
		tm := tc.ev.Teams[e]
		row := TeamRow{Rank: rk.rank[e], Shared: rk.shared(e), Playoff: rk.needsPlayoff(e, places),
			TeamID: tm.ID, Name: tm.Name, Number: tm.Number, MatchPoints: tc.mp[e], BoardPoints: tc.bp[e]}
		for k := first; k < len(chain); k++ {
			row.Tiebreaks = append(row.Tiebreaks, Tiebreak{Name: chain[k], Num: rk.values[k][e], Denom: crits[k].denom})
		}
		for _, m := range tc.matches[e] {
			if m.opp < 0 {
				row.Byes++
				continue
			}
			row.Matches++
			switch m.mp {
			case 2:
				row.MatchWins++
			case 1:
				row.MatchDraws++
			default:
				row.MatchLosses++
			}
			row.BoardGames += m.boards
			row.BoardWins += m.bwins
			row.BoardDraws += m.bdraws
			row.BoardLosses += m.blosses
			row.BlackGames += m.black
			row.BlackWins += m.bblackW
			row.Fouls += m.fouls
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab, rk
}

// teamOrder is the display order among teams left tied: by number.
func teamOrder(teams []Team) []int {
	ents := make([]int, len(teams))
	for i := range ents {
		ents[i] = i
	}
	slices.SortStableFunc(ents, func(a, b int) int { return cmp.Compare(teams[a].Number, teams[b].Number) })
	return ents
}

// PlacesStandings ranks teams by their members' places in an individual
// table (T-5, R-9): the lower sum of places first, then the best individual
// place, the second best, fewer fouls (seed 000 ch.7 §2.3.5), else shared.
// members maps a team id to its players' ids. playoff is as
// Event.PlayoffPlaces.
//
// Teams of unequal size are compared on the same number of members (R-9 as
// settled): counted of them (0: as many as the largest team has), each
// team's best places; a member the team lacks — or one the table does not
// rank (annulled by S-6) — counts as the last place + 1. A one-player club
// 4th thus ranks below a club holding 1st to 3rd.
func PlacesStandings(ind Table, teams []Team, members map[string][]string, counted, playoff int) (TeamTable, error) {
	byID := make(map[string]*Row, len(ind.Rows))
	for i := range ind.Rows {
		byID[ind.Rows[i].PlayerID] = &ind.Rows[i]
	}
	annulled := make(map[string]bool, len(ind.Annulled))
	for _, id := range ind.Annulled {
		annulled[id] = true
	}
	nt := len(teams)
	sum, best, second, fouls := make([]int, nt), make([]int, nt), make([]int, nt), make([]int, nt)
	missing := len(ind.Rows) + 1 // the last place + 1
	if counted <= 0 {
		for _, tm := range teams {
			counted = max(counted, len(members[tm.ID]))
		}
	}
	for t, tm := range teams {
		var places []int
		for _, pid := range members[tm.ID] {
			r, ok := byID[pid]
			if !ok {
				if annulled[pid] {
					continue
				}
				return TeamTable{}, fmt.Errorf("team %s: %w: %q", tm.ID, ErrUnknownPlayer, pid)
			}
			places = append(places, r.Rank)
			fouls[t] += r.Fouls
		}
		slices.Sort(places)
		if len(places) > counted {
			places = places[:counted]
		}
		for len(places) < counted {
			places = append(places, missing)
		}
		best[t], second[t] = missing, missing
		for i, p := range places {
			sum[t] += p
			if i == 0 {
				best[t] = p
			} else if i == 1 {
				second[t] = p
			}
		}
	}
	chain := PlacesChain()
	crits := []critEval{
		{name: PlaceSum, lower: true, denom: 1, global: sum},
		{name: BestPlace, lower: true, denom: 1, global: best},
		{name: SecondBestPlace, lower: true, denom: 1, global: second},
		{name: Fouls, lower: true, denom: 1, global: fouls},
	}
	rk := rankEntities(nt, crits, teamOrder(teams))
	places := playoffPlaces(playoff)
	tab := TeamTable{Round: ind.Round, Chain: chain}
	for _, e := range rk.order {
		tm := teams[e]
		row := TeamRow{Rank: rk.rank[e], Shared: rk.shared(e), Playoff: rk.needsPlayoff(e, places),
			TeamID: tm.ID, Name: tm.Name, Number: tm.Number, Fouls: fouls[e]}
		for k, c := range crits {
			row.Tiebreaks = append(row.Tiebreaks, Tiebreak{Name: c.name, Num: rk.values[k][e], Denom: 1})
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab, nil
}
