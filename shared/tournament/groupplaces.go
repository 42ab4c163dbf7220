package tournament

import (
	"fmt"
	"slices"
)

// OverallPlace is a player's final place across a groups event's stages.
type OverallPlace struct {
	Player string
	Place  int
	// From names what decided the place: a same-place final ("F1", "F2", …),
	// the cross finals ("cross"), or the player's group ("A", "B", …) for a
	// player its finals did not take in.
	From string
	// GroupPlace is the player's place in its group.
	GroupPlace int
}

// GroupPlaces are a groups event's overall final places (S-5, 001 §10.1:
// 分成若干组进行循环初赛，从各组选出一定人数进行同名次或交叉决赛):
//   - same-place finals: final F1 decides places 1…|F1| by its table, F2 the
//     next places, and so on;
//   - cross finals: the bracket decides its players' places (the final, the
//     third-place match, then by the round each was knocked out in);
//   - everyone a final did not take in follows by group place; players of
//     equal group place from different groups never met and share a place
//     (R-10 shares places the event does not ask to decide).
//
// The places are known once the finals are complete; before that the answer
// is a *RuleError with code round_unfinished.
func GroupPlaces(t *Tournament, h *History) ([]OverallPlace, error) {
	if t.Settings.System != Groups {
		return nil, &RuleError{Code: "not_groups", Message: fmt.Sprintf("a %s event has no groups", t.Settings.System), Rule: "S-5"}
	}
	groups, g, err := groupStage(t, h)
	if err != nil {
		return nil, err
	}
	unfinished := &RuleError{Code: CodeRoundUnfinished, Message: "the overall places are known once the group stage and the finals are complete", Rule: "S-5"}
	if len(h.Rounds) < g {
		return nil, unfinished
	}
	ranked, err := rankGroups(t, h, groups)
	if err != nil {
		return nil, err
	}
	groupPlace := map[string]int{}
	groupOf := map[string]string{}
	for i, members := range ranked {
		for j, id := range members {
			groupPlace[id], groupOf[id] = j+1, groups[i].name
		}
	}
	var out []OverallPlace
	placed := map[string]bool{}
	switch t.Settings.Groups.Finals {
	case FinalsCross:
		b, _, err := bracket(t, h, len(h.Rounds))
		if err != nil {
			return nil, err
		}
		places, err := b.Places()
		if err != nil {
			return nil, unfinished
		}
		for _, p := range places {
			out = append(out, OverallPlace{Player: p.Player, Place: p.Place, From: "cross", GroupPlace: groupPlace[p.Player]})
			placed[p.Player] = true
		}
	default:
		finals, f, err := samePlaceFinals(t, h, groups, g)
		if err != nil {
			return nil, err
		}
		if len(h.Rounds) < g+f {
			return nil, unfinished
		}
		for _, fin := range finals {
			order, err := rankGroup(t, h, fin)
			if err != nil {
				return nil, unfinished
			}
			for _, id := range order {
				out = append(out, OverallPlace{Player: id, Place: len(out) + 1, From: fin.name, GroupPlace: groupPlace[id]})
				placed[id] = true
			}
		}
	}
	// The rest by group place, shared across groups, groups in order.
	var rest []string
	for _, members := range ranked {
		for _, id := range members {
			if !placed[id] {
				rest = append(rest, id)
			}
		}
	}
	slices.SortStableFunc(rest, func(a, b string) int { return groupPlace[a] - groupPlace[b] })
	next := len(out) + 1
	for i, id := range rest {
		place := next + i
		if i > 0 && groupPlace[id] == groupPlace[rest[i-1]] {
			place = out[len(out)-1].Place
		}
		out = append(out, OverallPlace{Player: id, Place: place, From: groupOf[id], GroupPlace: groupPlace[id]})
	}
	return out, nil
}
