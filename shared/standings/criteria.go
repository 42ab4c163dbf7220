package standings

import (
	"fmt"
	"strconv"
	"strings"
)

// Criterion is one ranking criterion, named by a stable camelCase id that
// is safe to store in event settings and shown in the API's tiebreaks.
type Criterion string

// Individual criteria (R-1…R-4; seed 001 §14.1–14.3). Unless said
// otherwise more is better, and a bye counts for none of them except
// points, 对手分 and 累进分 (S-7).
const (
	// Points is the score (K-1 scoring; a Swiss bye scores a win, S-7).
	Points Criterion = "points"
	// SmallPoints is 小分 (R-1, seed 001 §14.1): the scores of the opponents
	// beaten plus half the scores of the opponents drawn. In a double round
	// robin it is the sum of the two cycles' 小分 (R-2, 两次单循环小分之和):
	// each cycle counts its opponents' scores in that cycle. Kept doubled.
	SmallPoints Criterion = "smallPoints"
	// Wins is the number of games won (胜局), forfeits won included.
	Wins Criterion = "wins"
	// DirectEncounter is 直胜: points in the games among the
	// players still tied at that point — a mini-table when three or more are
	// tied.
	DirectEncounter Criterion = "directEncounter"
	// Fouls is the number of fouls recorded against the player (犯规); fewer is better.
	Fouls Criterion = "fouls"
	// BlackGames is the number of games played as black (后走局数, R-1).
	BlackGames Criterion = "blackGames"
	// BlackInMutualGame ranks first, of exactly two tied players, the one who
	// had black in their own game (对局时后走, R-1). With any other number of
	// tied players it does not separate them; the value is the number of
	// black games against the other tied player.
	BlackInMutualGame Criterion = "blackInMutualGame"
	// BlackWins is the number of games won as black (后手胜局, R-1).
	BlackWins Criterion = "blackWins"

	// FirstCyclePoints is the score in the first cycle of a double round
	// robin (R-2: 第一个循环的积分); the first cycle is rounds 1…Rounds/2.
	FirstCyclePoints Criterion = "firstCyclePoints"
	// FirstCycleSmallPoints is 小分 of the first cycle alone.
	FirstCycleSmallPoints Criterion = "firstCycleSmallPoints"
	// FirstCycleWins is the wins of the first cycle.
	FirstCycleWins Criterion = "firstCycleWins"
	// FirstCycleDirectEncounter is 直胜 over the first cycle's games.
	FirstCycleDirectEncounter Criterion = "firstCycleDirectEncounter"
	// FirstCycleFouls is the fouls of the first cycle; fewer is better.
	FirstCycleFouls Criterion = "firstCycleFouls"
	// FirstCycleBlackGames is the games as black in the first cycle.
	FirstCycleBlackGames Criterion = "firstCycleBlackGames"
	// FirstCycleBlackInMutualGame is 对局时后走 in the first cycle.
	FirstCycleBlackInMutualGame Criterion = "firstCycleBlackInMutualGame"
	// FirstCycleBlackWins is the wins as black in the first cycle.
	FirstCycleBlackWins Criterion = "firstCycleBlackWins"

	// MatchPoints is 场分. For individuals (R-3, seed 001 §14.2) all the games
	// between two players form a match: more game points 2, equal 1, fewer 0.
	// For teams (R-5…R-7) it is the T-7 match points.
	MatchPoints Criterion = "matchPoints"
	// GamePoints is 局分总和, the sum of the game points: the same number
	// as Points, named as the rule book names it in a match event.
	GamePoints Criterion = "gamePoints"

	// OpponentScore is 对手分 (R-4a, seed 001 §14.3.1): the sum of the scores
	// of all opponents played, each as it stands in this table; a Swiss bye
	// counts as an opponent with the lowest non-zero score, or half of it in
	// an event of fewer than 7 rounds or fewer than 16 players (S-7, seed 001
	// §14.4). For teams the sum of the opponents' match points, byes
	// likewise. Kept doubled.
	OpponentScore Criterion = "opponentScore"
	// Cumulative is 累进分 (R-4b, seed 001 §14.3.2): the sum of the running
	// score after each round.
	Cumulative Criterion = "cumulative"
	// CumulativeCuts stands for the R-4b tail "then 累进分 without round 1,
	// without rounds 1–2, …": it expands to cumulativeCut1 … cumulativeCutN-1
	// for a table after round N. cumulativeCutK is 累进分 less the running
	// scores of rounds 1…K (去除第一轮得分).
	CumulativeCuts Criterion = "cumulativeCuts"
	// PreviousRound is the place in the table after the previous round,
	// ranked with this same chain — so a tie there goes back to the round
	// before, and so on (R-4a 比较前一轮成绩，以此类推; R-7 比较前一轮名次).
	// Lower is better; before round 1 everyone is first.
	PreviousRound Criterion = "previousRound"
)

// Team criteria (R-5…R-9; seed 001 §14.5–14.9, seed 000 ch.7 §2.3.5). The
// team tables also use MatchPoints, DirectEncounter (match points among the
// tied teams), Fouls, BlackGames, BlackWins, OpponentScore and PreviousRound.
const (
	// BoardPoints is 全队总局分: the K-1 points of all the team's boards.
	BoardPoints Criterion = "boardPoints"
	// MatchWins is 全队胜场, matches won; a team bye scores a match win's
	// points but is no match (S-7), as a player's bye is no game.
	MatchWins Criterion = "matchWins"
	// BoardWins is 全队胜局, board games won.
	BoardWins Criterion = "boardWins"
	// PlaceSum is the sum of the members' places in the individual event
	// (T-5, R-9, seed 001 §14.9); lower is better.
	PlaceSum Criterion = "placeSum"
	// BestPlace is the team's best individual place (R-9: 最高个人名次); lower is better.
	BestPlace Criterion = "bestPlace"
	// SecondBestPlace is the team's second-best individual place (seed 000
	// ch.7 §2.3.5: 次高个人名次); lower is better.
	SecondBestPlace Criterion = "secondBestPlace"
)

// cumulativeCutPrefix is the stem of the numbered criteria cumulativeCutK.
const cumulativeCutPrefix = "cumulativeCut"

// cutOf returns K of cumulativeCutK.
func cutOf(c Criterion) (int, bool) {
	s, ok := strings.CutPrefix(string(c), cumulativeCutPrefix)
	if !ok || s == "" || s[0] == '0' {
		return 0, false
	}
	k, err := strconv.Atoi(s)
	return k, err == nil && k > 0
}

// Chain is an ordered list of ranking criteria: the first is the primary
// score, the rest break ties in order.
type Chain []Criterion

// Strings returns the criterion names, as stored in settings.
func (c Chain) Strings() []string {
	out := make([]string, len(c))
	for i, x := range c {
		out[i] = string(x)
	}
	return out
}

var individualCriteria = map[Criterion]bool{
	Points: true, SmallPoints: true, Wins: true, DirectEncounter: true, Fouls: true,
	BlackGames: true, BlackInMutualGame: true, BlackWins: true,
	FirstCyclePoints: true, FirstCycleSmallPoints: true, FirstCycleWins: true,
	FirstCycleDirectEncounter: true, FirstCycleFouls: true, FirstCycleBlackGames: true,
	FirstCycleBlackInMutualGame: true, FirstCycleBlackWins: true,
	MatchPoints: true, GamePoints: true, OpponentScore: true, Cumulative: true,
	CumulativeCuts: true, PreviousRound: true,
}

var teamCriteria = map[Criterion]bool{
	MatchPoints: true, BoardPoints: true, MatchWins: true, BoardWins: true,
	DirectEncounter: true, Fouls: true, BlackGames: true, BlackWins: true,
	OpponentScore: true, PreviousRound: true,
}

func parseChain(names []string, known map[Criterion]bool, cuts bool) (Chain, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: empty chain", ErrUnknownCriterion)
	}
	out := make(Chain, len(names))
	seen := make(map[Criterion]bool, len(names))
	for i, n := range names {
		c := Criterion(n)
		_, isCut := cutOf(c)
		if !known[c] && !(cuts && isCut) {
			return nil, fmt.Errorf("%w: %q", ErrUnknownCriterion, n)
		}
		if seen[c] {
			return nil, fmt.Errorf("%w: %q listed twice", ErrUnknownCriterion, n)
		}
		seen[c] = true
		out[i] = c
	}
	return out, nil
}

// ParseChain validates a custom individual chain given as criterion names
// (the event's `tiebreaks` setting). Besides the constants above it accepts
// cumulativeCutK for any K ≥ 1. The error names the first unknown criterion.
func ParseChain(names []string) (Chain, error) { return parseChain(names, individualCriteria, true) }

// ParseTeamChain validates a custom team chain (R-5…R-8 criteria).
func ParseTeamChain(names []string) (Chain, error) { return parseChain(names, teamCriteria, false) }

// System names (the OpenAPI document's `system`), plus two names for the chains that a
// system name alone does not pick.
const (
	SystemSwiss             = "swiss"
	SystemRoundRobin        = "roundRobin"
	SystemDoubleRoundRobin  = "doubleRoundRobin"
	SystemKnockout          = "knockout"
	SystemDoubleElimination = "doubleElimination"
	SystemSwissKnockout     = "swissKnockout"
	SystemSwissElimination  = "swissElimination"
	SystemSwissNPlusOne     = "swissNPlusOne"
	SystemGroups            = "groups"
	SystemChallenge         = "challenge"
	// SystemSwissCumulative is a Swiss ranked by the R-4b 累进分 chain.
	SystemSwissCumulative = "swissCumulative"
	// SystemMatchRoundRobin is a round robin of multi-game matches.
	SystemMatchRoundRobin = "matchRoundRobin"
)

// The rule book's chains, in its order.
var (
	// chainR1: single round robin (R-1, seed 001 §14.1).
	chainR1 = Chain{Points, SmallPoints, Wins, DirectEncounter, Fouls, BlackGames, BlackInMutualGame, BlackWins}
	// chainR2: double round robin (R-2, seed 001 §14.1 second paragraph).
	chainR2 = Chain{Points, SmallPoints, Wins, DirectEncounter, Fouls, BlackWins,
		FirstCyclePoints, FirstCycleSmallPoints, FirstCycleWins, FirstCycleDirectEncounter,
		FirstCycleFouls, FirstCycleBlackGames, FirstCycleBlackInMutualGame, FirstCycleBlackWins}
	// chainR3: multi-game matches round robin (R-3, seed 001 §14.2).
	chainR3 = Chain{MatchPoints, GamePoints, Wins, DirectEncounter, Fouls, BlackWins}
	// chainR4a: Swiss by 对手分 (R-4a, seed 001 §14.3.1).
	chainR4a = Chain{Points, OpponentScore, Wins, Fouls, BlackGames, BlackWins, PreviousRound}
	// chainR4b: Swiss by 累进分 (R-4b, seed 001 §14.3.2).
	chainR4b = Chain{Points, Cumulative, Wins, Fouls, BlackGames, BlackWins, CumulativeCuts}
	// chainKnockout: a knockout's places come from its bracket; its points
	// table is ordered by points, then wins.
	chainKnockout = Chain{Points, Wins}

	// chainR5: team single round robin (R-5, seed 001 §14.5).
	chainR5 = Chain{MatchPoints, BoardPoints, MatchWins, BoardWins, DirectEncounter, Fouls, BlackGames, BlackWins}
	// chainR6: team double round robin (R-6, seed 001 §14.6), then a play-off.
	chainR6 = Chain{MatchPoints, BoardPoints, MatchWins, BoardWins, DirectEncounter, Fouls}
	// chainR7: team Swiss (R-7, seed 001 §14.7).
	chainR7 = Chain{MatchPoints, OpponentScore, BoardPoints, MatchWins, BoardWins, Fouls, PreviousRound}
	// chainR8: team Swiss ranked by board points (R-8, seed 001 §14.8). The
	// rule book names no tie-breaks for it; we use R-7's, in R-7's order.
	chainR8 = Chain{BoardPoints, MatchPoints, OpponentScore, MatchWins, BoardWins, Fouls, PreviousRound}
	// chainR9: team from individual places (R-9, seed 001 §14.9, completed by
	// seed 000 ch.7 §2.3.5: 最高个人名次, 次高个人名次, 全队犯规).
	chainR9 = Chain{PlaceSum, BestPlace, SecondBestPlace, Fouls}
)

// DefaultChain is the rule book's chain for an individual event of the
// given system (the API's names; "" is a Swiss): R-1 for roundRobin and
// groups, R-2 for doubleRoundRobin, R-3 for matchRoundRobin, R-4a for
// swiss and the Swiss-based combined systems, R-4b for swissCumulative.
func DefaultChain(system string) (Chain, error) {
	var c Chain
	switch system {
	case "", SystemSwiss, SystemSwissKnockout, SystemSwissElimination, SystemSwissNPlusOne:
		c = chainR4a
	case SystemSwissCumulative:
		c = chainR4b
	case SystemRoundRobin, SystemGroups:
		c = chainR1
	case SystemDoubleRoundRobin:
		c = chainR2
	case SystemMatchRoundRobin:
		c = chainR3
	case SystemKnockout, SystemDoubleElimination, SystemChallenge:
		c = chainKnockout
	default:
		return nil, fmt.Errorf("%w: %q", ErrUnknownSystem, system)
	}
	return append(Chain(nil), c...), nil
}

// DefaultTeamChain is the rule book's chain for a team event: R-5 for a
// single round robin (and groups, and the table of a team knockout's
// matches), R-6 for a double one, R-7 for a Swiss;
// byBoardPoints picks the R-8 option instead of R-7.
func DefaultTeamChain(system string, byBoardPoints bool) (Chain, error) {
	var c Chain
	switch system {
	case SystemRoundRobin, SystemGroups, SystemKnockout:
		// A team knockout's places come from its bracket; its table of
		// the matches played reads as a round robin's.
		c = chainR5
	case SystemDoubleRoundRobin:
		c = chainR6
	case "", SystemSwiss, SystemSwissKnockout, SystemSwissElimination, SystemSwissNPlusOne:
		c = chainR7
		if byBoardPoints {
			c = chainR8
		}
	default:
		return nil, fmt.Errorf("%w: %q for teams", ErrUnknownSystem, system)
	}
	return append(Chain(nil), c...), nil
}

// PlacesChain is the R-9 chain for a team ranked by its members' places.
func PlacesChain() Chain { return append(Chain(nil), chainR9...) }

// swissLike reports whether byes score as wins in this system (S-7: in a
// Swiss a bye scores a win; in a round robin it is a rest).
func swissLike(system string) bool {
	switch system {
	case "", SystemSwiss, SystemSwissKnockout, SystemSwissElimination, SystemSwissNPlusOne, SystemSwissCumulative:
		return true
	}
	return false
}

// roundRobinLike reports whether S-6's round-robin withdrawal rule applies.
func roundRobinLike(system string) bool {
	switch system {
	case SystemRoundRobin, SystemDoubleRoundRobin, SystemGroups, SystemMatchRoundRobin:
		return true
	}
	return false
}
