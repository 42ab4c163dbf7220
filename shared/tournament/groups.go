package tournament

import (
	"errors"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/pairing/combined"
	"github.com/xqtour/xqtour/shared/pairing/knockout"
	"github.com/xqtour/xqtour/shared/pairing/roundrobin"
	"github.com/xqtour/xqtour/shared/standings"
)

// Stages of a groups event (S-5), as Round.Stage names them.
const (
	StageGroups    = "groups"
	StageSamePlace = "samePlace"
	StageCross     = "cross"
)

// rrGroup is one round-robin group of a groups event: the group stage's
// A, B, … or a same-place final F1, F2, …. Members are in seeding order and
// take the round-robin numbers 1, 2, … (S-1: numbers by seeding).
type rrGroup struct {
	name     string
	members  []string
	schedule roundrobin.Schedule
	first    int // the event round its round 1 is played in
}

func newRRGroup(t *Tournament, name string, members []string, first int) (rrGroup, error) {
	s, err := roundrobin.NewSchedule(len(members), roundrobin.Options{Cycles: 1, GamesPerPairing: t.Settings.GamesPerMatch})
	if err != nil {
		return rrGroup{}, fmt.Errorf("group %s: %w", name, err)
	}
	return rrGroup{name: name, members: members, schedule: s, first: first}, nil
}

// groupName is the name of the i-th group (from 0): A, B, ….
func groupName(i int) string { return string(rune('A' + i)) }

// groupStage draws the groups (S-5): the entrants — every player but those
// who withdrew before round 1 — best seed first (seeded, then rating, then
// number) are split by snake seeding (combined.SnakeGroups). Entries close
// at round 1, so the draw is the same every time it is rebuilt. It returns
// the groups and the number of group-stage rounds (the longest schedule).
func groupStage(t *Tournament, h *History) ([]rrGroup, int, error) {
	split, err := combined.SnakeGroups(knockoutEntrants(h), t.Settings.Groups.Count)
	if err != nil {
		return nil, 0, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d entrant(s) cannot fill %d groups of at least 2", len(knockoutEntrants(h)), t.Settings.Groups.Count), Rule: "S-5"}
	}
	groups := make([]rrGroup, len(split))
	rounds := 0
	for i, members := range split {
		if groups[i], err = newRRGroup(t, groupName(i), members, 1); err != nil {
			return nil, 0, err
		}
		rounds = max(rounds, len(groups[i].schedule.Rounds))
	}
	return groups, rounds, nil
}

// groupStageRounds is the number of group-stage rounds, 0 when the groups
// cannot be drawn.
func groupStageRounds(t *Tournament, h *History) int {
	_, g, err := groupStage(t, h)
	if err != nil {
		return 0
	}
	return g
}

// layoutGroups lays out round k of every group's schedule as event round n:
// tables numbered across the groups in group order, each pairing naming its
// group; a group's rest is a bye (S-7: no score, no game, no colour).
// Games with a withdrawn player are not played (S-6), as in a round robin.
func layoutGroups(t *Tournament, h *History, groups []rrGroup, k, n int, gameID GameIDFunc) *Round {
	r := &Round{}
	table := 0
	for _, g := range groups {
		if k > len(g.schedule.Rounds) {
			continue // a smaller group has finished its table
		}
		sr := g.schedule.Rounds[k-1]
		per := max(g.schedule.GamesPerPairing, 1)
		for _, pp := range sr.Pairings {
			red, black := h.Player(g.members[pp.Red-1]), h.Player(g.members[pp.Black-1])
			if red.Status == Withdrawn || black.Status == Withdrawn {
				continue
			}
			first := table + 1
			for i, game := range pp.Games {
				table++
				p := Pairing{Table: table, Red: g.members[game.Red-1], Black: g.members[game.Black-1], GameID: gameID(n, table, i+1), Group: g.name}
				if per > 1 {
					p.Match, p.Board = fmt.Sprintf("%s%d", g.name, first), i+1
				}
				colour := "roundRobinTable"
				if i > 0 {
					colour = "alternate"
				}
				r.Pairings = append(r.Pairings, p)
				r.Explanations = append(r.Explanations, Explanation{
					Opponent:       fmt.Sprintf("group %s, round-robin table round %d: no. %d v no. %d (S-5, S-1: first listed has red)", g.name, k, pp.Red, pp.Black),
					OpponentReason: "roundRobinTable", ColourReason: colour})
			}
		}
		if sr.Rest != 0 && sr.Rest <= len(g.members) {
			r.Byes = append(r.Byes, g.members[sr.Rest-1])
		}
	}
	return r
}

// groupEvent is the standings input of one group: its members, its games
// (the pairings naming it) and its rests, ranked as a round robin (R-1, or
// the event's chain).
func groupEvent(t *Tournament, h *History, g rrGroup) (standings.Event, error) {
	ev, err := StandingsEvent(t, h)
	if err != nil {
		return ev, err
	}
	in := map[string]bool{}
	for _, id := range g.members {
		in[id] = true
	}
	out := standings.Event{System: Groups, Rounds: len(g.schedule.Rounds), Scoring: ev.Scoring, Chain: ev.Chain, PlayoffPlaces: ev.PlayoffPlaces}
	for _, p := range ev.Players {
		if in[p.ID] {
			out.Players = append(out.Players, p)
		}
	}
	for _, p := range h.Players {
		if in[p.ID] && p.Status == Withdrawn {
			out.Withdrawals = append(out.Withdrawals, standings.Withdrawal{Player: p.ID, AfterRound: p.WithdrawnAfter})
		}
	}
	rounds := map[int]bool{}
	played := map[[3]int]bool{}
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			if p.Group != g.name {
				continue
			}
			rounds[r.Number] = true
			gm := standings.Game{Round: r.Number, Red: p.Red, Black: p.Black}
			if res, ok := h.Result(r.Number, p); ok {
				gm.Result, gm.RedFouls, gm.BlackFouls = res.Result, res.RedFouls, res.BlackFouls
			}
			out.Games = append(out.Games, gm)
			played[[3]int{r.Number, slices.Index(g.members, p.Red), slices.Index(g.members, p.Black)}] = true
		}
	}
	// S-6: after a withdrawal the group's unplayed games are listed open, so
	// the standings annul the player's results or score them as forfeits.
	if len(out.Withdrawals) > 0 {
		for _, sr := range g.schedule.Rounds {
			n := g.first + sr.Number - 1
			for _, pp := range sr.Pairings {
				for _, game := range pp.Games {
					if !played[[3]int{n, game.Red - 1, game.Black - 1}] {
						out.Games = append(out.Games, standings.Game{Round: n, Red: g.members[game.Red-1], Black: g.members[game.Black-1]})
					}
				}
			}
		}
	}
	for _, b := range ev.Byes {
		if in[b.Player] && rounds[b.Round] {
			out.Byes = append(out.Byes, b)
		}
	}
	return out, nil
}

// rankGroup ranks a group from its games; every game must be finished (a
// stage drawn from standings cannot count an open game as a draw).
func rankGroup(t *Tournament, h *History, g rrGroup) ([]string, error) {
	if h.rankTeams != nil {
		return h.rankTeams(g.name, g.members) // a team groups event: the team table
	}
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			if _, ok := h.Result(r.Number, p); p.Group == g.name && !ok {
				return nil, &RuleError{Code: CodeRoundUnfinished, Message: fmt.Sprintf("table %d of round %d (group %s) is unfinished; the finals are drawn from the group standings", p.Table, r.Number, g.name), Rule: "S-5"}
			}
		}
	}
	ev, err := groupEvent(t, h, g)
	if err != nil {
		return nil, err
	}
	table, err := standings.Standings(ev, 0)
	if err != nil {
		return nil, fmt.Errorf("standings of group %s: %w", g.name, err)
	}
	ranked := make([]string, 0, len(table.Rows))
	for _, row := range table.Rows {
		ranked = append(ranked, row.PlayerID)
	}
	return ranked, nil
}

// rankGroups ranks every group of the group stage.
func rankGroups(t *Tournament, h *History, groups []rrGroup) ([][]string, error) {
	out := make([][]string, len(groups))
	for i, g := range groups {
		var err error
		if out[i], err = rankGroup(t, h, g); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// samePlaceFinals are the same-place finals (同名次决赛, S-5): the k-th
// placed of every group form final Fk, k up to the smallest group's size,
// each played as a round robin after the group stage.
func samePlaceFinals(t *Tournament, h *History, groups []rrGroup, stageRounds int) ([]rrGroup, int, error) {
	ranked, err := rankGroups(t, h, groups)
	if err != nil {
		return nil, 0, err
	}
	perGroup := len(ranked[0])
	for _, g := range ranked {
		perGroup = min(perGroup, len(g))
	}
	fs, err := combined.SamePlaceFinals(ranked, perGroup)
	if err != nil {
		return nil, 0, fmt.Errorf("same-place finals: %w", err)
	}
	finals := make([]rrGroup, len(fs))
	rounds := 0
	for i, f := range fs {
		if finals[i], err = newRRGroup(t, fmt.Sprintf("F%d", i+1), f.Players, stageRounds+1); err != nil {
			return nil, 0, err
		}
		rounds = max(rounds, len(finals[i].schedule.Rounds))
	}
	return finals, rounds, nil
}

// pairGroups pairs round n of a groups event (S-5): the group stage's round
// robins side by side, then the finals — same-place finals as further round
// robins, or cross finals as knockout matches (S-3) — drawn from the group
// standings once every group game has a result.
func pairGroups(t *Tournament, h *History, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	groups, g, err := groupStage(t, h)
	if err != nil {
		return nil, err
	}
	if n > g && t.Settings.Groups.Finals == FinalsCross {
		r, err := pairKnockout(t, h, n, gameID)
		if err != nil {
			return nil, err
		}
		r.Stage = StageCross
		return r, nil
	}
	stage, k := StageGroups, n
	if n > g {
		var f int
		if groups, f, err = samePlaceFinals(t, h, groups, g); err != nil {
			return nil, err
		}
		if n > g+f {
			return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("the %d group-stage rounds and %d rounds of same-place finals are paired", g, f), Rule: "S-5"}
		}
		stage, k = StageSamePlace, n-g
	}
	// A round robin's table is fixed, so an open game changes no pairing;
	// the organiser still confirms it, as in a round robin (P-12).
	unfinished, err := checkUnfinished(h, o)
	if err != nil {
		return nil, err
	}
	r := layoutGroups(t, h, groups, k, n, gameID)
	r.UnfinishedAsDraws, r.Stage = unfinished, stage
	return r, nil
}

// crossBracket is the cross elimination of a groups event (交叉淘汰, S-3,
// 001 §10.3; S-5): the top Qualifiers (default 2) of each group in a bracket
// crossing the groups — A1-B2 and B1-A2 with two groups of two — then the
// final and the third-place match (combined.CrossElimination).
func crossBracket(t *Tournament, h *History) (*knockout.Bracket, error) {
	groups, _, err := groupStage(t, h)
	if err != nil {
		return nil, err
	}
	ranked, err := rankGroups(t, h, groups)
	if err != nil {
		return nil, err
	}
	q := t.Settings.Groups.CrossQualifiers()
	b, err := combined.CrossElimination(ranked, q, true)
	if errors.Is(err, combined.ErrField) {
		return nil, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d groups with %d qualifiers each: %v", len(ranked), q, err), Rule: "S-3"}
	}
	return b, err
}

// GroupNames lists the groups a groups event has drawn so far, by name: the
// group stage's A, B, … and, once the group stage is complete, the same-place
// finals F1, F2, …; nil for other systems.
func GroupNames(t *Tournament, h *History) []string {
	if t.Settings.System != Groups {
		return nil
	}
	var names []string
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			if p.Group != "" && !slices.Contains(names, p.Group) {
				names = append(names, p.Group)
			}
		}
	}
	return names
}

// GroupStandingsEvent is the standings input of one group or same-place
// final of a groups event (S-5): its members, its games and its rests,
// ranked as a round robin. Unknown groups are a *RuleError.
func GroupStandingsEvent(t *Tournament, h *History, name string) (standings.Event, error) {
	if t.Settings.System != Groups {
		return standings.Event{}, &RuleError{Code: "not_groups", Message: fmt.Sprintf("a %s event has no groups", t.Settings.System), Rule: "S-5"}
	}
	groups, g, err := groupStage(t, h)
	if err != nil {
		return standings.Event{}, err
	}
	if len(name) > 1 && name[0] == 'F' && slices.Contains(GroupNames(t, h), name) {
		if groups, _, err = samePlaceFinals(t, h, groups, g); err != nil {
			return standings.Event{}, err
		}
	}
	for _, g := range groups {
		if g.name == name {
			return groupEvent(t, h, g)
		}
	}
	return standings.Event{}, &RuleError{Code: "unknown_group", Message: fmt.Sprintf("the event has no group %q (groups so far: %v)", name, GroupNames(t, h)), Rule: "S-5"}
}
