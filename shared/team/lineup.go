package team

import (
	"strings"
)

// Lineup is the ids of the players a team fields in one match, by board:
// Lineup[0] plays board 1.
type Lineup []string

// String returns the ids joined by "-", as the rule book writes lineups.
func (l Lineup) String() string { return strings.Join(l, "-") }

// CheckLineup reports whether the team may field l under its format:
//   - T-1: exactly the roster, in roster order;
//   - T-2: Boards players of the roster, keeping roster order (001 §11.2:
//     "台次顺序不能前后颠倒");
//   - T-3: any Boards players of the roster in any order;
//   - T-4: every member, in any order (the numbering A1…An).
//
// The error is a *RuleError naming the format's rule.
func (r Roster) CheckLineup(l Lineup) error {
	s := r.Settings
	rule := s.Format.Rule()
	if len(l) != s.Boards {
		return ruleErr(CodeLineupSize, rule, "%d boards need %d players, got %d", s.Boards, s.Boards, len(l))
	}
	prev := -1
	seen := make(map[string]bool, len(l))
	for b, id := range l {
		i := r.index(id)
		switch {
		case i < 0:
			return ruleErr(CodeUnknownPlayer, rule, "board %d: %q is not on the roster of %s", b+1, id, r.Team)
		case seen[id]:
			return ruleErr(CodeDuplicatePlayer, rule, "board %d: %s already plays a higher board", b+1, id)
		}
		seen[id] = true
		switch s.Format {
		case FixedBoards:
			if i != b {
				return ruleErr(CodeLineupOutOfOrder, rule, "board %d: fixed boards put %s on board %d", b+1, id, i+1)
			}
		case BoardsWithSubstitutes:
			if i < prev {
				return ruleErr(CodeLineupOutOfOrder, rule, "board %d: %s (roster number %d) may not play below %s (roster number %d)",
					b+1, id, i+1, r.Players[prev].ID, prev+1)
			}
		}
		prev = i
	}
	return nil
}

// SubmitLineup checks a lineup the captain sends for a match whose lineup
// deadline is deadlineMs; nowMs is the server's time. Both are Unix
// milliseconds. A lineup is accepted strictly before the deadline (T-3: set
// before the match); afterwards the server uses DrawLineup.
func (r Roster) SubmitLineup(l Lineup, deadlineMs, nowMs int64) error {
	if nowMs >= deadlineMs {
		return ruleErr(CodeLineupDeadlinePassed, r.Settings.Format.Rule(),
			"the lineup deadline passed %d ms ago", nowMs-deadlineMs)
	}
	return r.CheckLineup(l)
}

// Lineups lists every lineup the team may field under T-1 (one: the roster)
// or T-2 (every choice of Boards players keeping roster order), in
// lexicographic order of roster numbers: 4 boards and 2 substitutes give the
// 15 lineups 1-2-3-4, 1-2-3-5, … 3-4-5-6 of 001 §11.2. Under T-3 and T-4 every
// ordering is legal, so it returns a CodeLineupsNotEnumerable error.
func (r Roster) Lineups() ([]Lineup, error) {
	switch r.Settings.Format {
	case FixedBoards, BoardsWithSubstitutes:
		return OrderedLineups(r.IDs(), r.Settings.Boards), nil
	}
	return nil, ruleErr(CodeLineupsNotEnumerable, r.Settings.Format.Rule(),
		"%s allows any ordering; check a lineup with CheckLineup", r.Settings.Format)
}

// OrderedLineups returns every choice of boards ids out of ids keeping their
// order (T-2), in lexicographic order of positions: C(len(ids), boards)
// lineups, none when boards is out of 0…len(ids).
func OrderedLineups(ids []string, boards int) []Lineup {
	n := len(ids)
	if boards < 0 || boards > n {
		return nil
	}
	// pos is the current choice of positions, strictly increasing; the next
	// choice raises the last position that can still rise and resets the
	// ones after it to follow on directly.
	pos := make([]int, boards)
	for i := range pos {
		pos[i] = i
	}
	var out []Lineup
	for {
		l := make(Lineup, boards)
		for i, p := range pos {
			l[i] = ids[p]
		}
		out = append(out, l)
		i := boards - 1
		for i >= 0 && pos[i] == n-boards+i {
			i--
		}
		if i < 0 {
			return out
		}
		pos[i]++
		for j := i + 1; j < boards; j++ {
			pos[j] = pos[j-1] + 1
		}
	}
}
