package tournament

import (
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/standings"
)

// A team groups event (S-5 for teams, the team combined system: 000 ch.5
// 混合赛 — 某阶段用淘汰，某阶段用循环 — and 000 ch.7 §2 1.3 分组循环制, which
// names teams as well as players) is paired as the individual one: the teams,
// best seed first by their members' mean rating, are split into round-robin
// groups by snake seeding, every pairing of a group is a team match (the team
// listed first in the round-robin table is home, T-6), and the finals follow
// — same-place finals as further round robins of team matches, or the cross
// elimination (S-3) as team knockout matches (teamknockout.go: home by lot,
// level matches broken by the event's teamTieBreak). Each group is ranked by
// the team table (T-7, R-5 or the event's team chain) over its own matches.

// rankTeamGroup ranks one group (or same-place final) of a team groups event
// by the team table over its matches; every match must be decided.
func (th *TeamHistory) rankTeamGroup(t *Tournament, name string, members []string) ([]string, error) {
	ev, err := th.teamGroupEvent(t, name, members)
	if err != nil {
		return nil, err
	}
	for _, r := range th.Rounds {
		for _, m := range r.Matches {
			if _, ok := th.MatchScore(t, r, m); m.Group == name && !ok {
				return nil, &RuleError{Code: CodeRoundUnfinished, Message: fmt.Sprintf("match %s of round %d (group %s) is unfinished; the finals are drawn from the group tables", m.ID, r.Number, name), Rule: "S-5"}
			}
		}
	}
	table, err := standings.TeamStandings(ev, 0)
	if err != nil {
		return nil, fmt.Errorf("team table of group %s: %w", name, err)
	}
	out := make([]string, 0, len(table.Rows))
	for _, row := range table.Rows {
		out = append(out, row.TeamID)
	}
	return out, nil
}

// teamGroupEvent is the team table's input of one group: its teams and the
// matches naming it; a rest scores nothing (S-7).
func (th *TeamHistory) teamGroupEvent(t *Tournament, name string, members []string) (standings.TeamEvent, error) {
	all, err := TeamStandingsEvent(t, th)
	if err != nil {
		return all, err
	}
	ev := standings.TeamEvent{System: Groups, Boards: all.Boards, Scoring: all.Scoring, Chain: all.Chain, PlayoffPlaces: all.PlayoffPlaces}
	for _, tm := range all.Teams {
		if slices.Contains(members, tm.ID) {
			ev.Teams = append(ev.Teams, tm)
		}
	}
	inGroup := map[[2]int]bool{} // round, match number
	for _, r := range th.Rounds {
		for _, m := range r.Matches {
			if m.Group == name {
				inGroup[[2]int{r.Number, m.Number}] = true
			}
		}
	}
	i := 0
	for _, r := range th.Rounds {
		for _, m := range r.Matches {
			if len(matchPairings(r, m)) == 0 || m.Rapid {
				continue // as TeamStandingsEvent skips them, in the same order
			}
			if inGroup[[2]int{r.Number, m.Number}] {
				ev.Matches = append(ev.Matches, all.Matches[i])
			}
			i++
		}
	}
	ev.Rounds = len(slices.Compact(roundsOf(ev.Matches)))
	return ev, nil
}

func roundsOf(ms []standings.Match) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.Round
	}
	slices.Sort(out)
	return out
}

// TeamGroupStandingsEvent is the team table's input of one group or
// same-place final of a team groups event (S-5); unknown groups are a
// *RuleError.
func TeamGroupStandingsEvent(t *Tournament, th *TeamHistory, name string) (standings.TeamEvent, error) {
	if t.Settings.System != Groups {
		return standings.TeamEvent{}, &RuleError{Code: "not_groups", Message: fmt.Sprintf("a %s event has no groups", t.Settings.System), Rule: "S-5"}
	}
	tt, h := teamPairingHistory(t, th)
	groups, g, err := groupStage(tt, h)
	if err != nil {
		return standings.TeamEvent{}, err
	}
	if len(name) > 1 && name[0] == 'F' && slices.Contains(GroupNames(tt, h), name) {
		if groups, _, err = samePlaceFinals(tt, h, groups, g); err != nil {
			return standings.TeamEvent{}, err
		}
	}
	for _, grp := range groups {
		if grp.name == name {
			return th.teamGroupEvent(t, name, grp.members)
		}
	}
	return standings.TeamEvent{}, &RuleError{Code: "unknown_group", Message: fmt.Sprintf("the event has no group %q (groups so far: %v)", name, GroupNames(tt, h)), Rule: "S-5"}
}

// TeamOverallPlaces are a team event's final places by team: a team
// knockout's bracket places, or a team groups event's places across the
// group stage and the finals (S-5, as GroupPlaces for players).
func TeamOverallPlaces(t *Tournament, th *TeamHistory) ([]OverallPlace, error) {
	if t.Settings.System == Groups {
		tt, h := teamPairingHistory(t, th)
		return GroupPlaces(tt, h)
	}
	return TeamKnockoutPlaces(t, th)
}
