package team

import "slices"

// Player is one entry of a team's roster.
type Player struct {
	// ID is the player's id in the event; unique within the roster.
	ID string
	// Name is shown to people only.
	Name string
	// Rating is the latest published rating (等级分); 0 means unrated.
	Rating int
	// Substitute reports whether the team entered the player as a
	// substitute (替补) rather than as one of its Boards members.
	Substitute bool
}

// Rated reports whether the player has a rating.
func (p Player) Rated() bool { return p.Rating > 0 }

// Roster is a team's players in board order: Players[0] is board 1 (under
// T-1 and T-2 the order every lineup keeps; under T-3 and T-4 the team's
// numbering). Members and substitutes share the one order (001 §11.2: the
// substitutes are ranked by the same principle as the members).
type Roster struct {
	Team     string
	Settings Settings
	Players  []Player
}

// NewRoster checks a team's entry against the event's settings and returns
// its roster in board order: members then substitutes, each as given, then
// sorted by RatingOrder — or, with Settings.KeepEntryOrder, kept in that
// order but for unrated players, who go after the rated ones (UnratedLast).
func NewRoster(team string, s Settings, members, substitutes []Player) (Roster, error) {
	if err := s.Validate(); err != nil {
		return Roster{}, err
	}
	rule := s.Format.Rule()
	if len(members) != s.Boards {
		return Roster{}, ruleErr(CodeRosterSize, rule, "%d boards need %d members, got %d", s.Boards, s.Boards, len(members))
	}
	if len(substitutes) > 0 && !s.allowsSubstitutes() {
		return Roster{}, ruleErr(CodeSubstitutesNotAllowed, rule, "%s has no substitutes, got %d", s.Format, len(substitutes))
	}
	if len(substitutes) > s.Substitutes {
		return Roster{}, ruleErr(CodeTooManySubstitutes, rule, "at most %d substitutes, got %d", s.Substitutes, len(substitutes))
	}
	players := make([]Player, 0, len(members)+len(substitutes))
	for _, p := range members {
		p.Substitute = false
		players = append(players, p)
	}
	for _, p := range substitutes {
		p.Substitute = true
		players = append(players, p)
	}
	seen := make(map[string]bool, len(players))
	for _, p := range players {
		switch {
		case p.ID == "":
			return Roster{}, ruleErr(CodeInvalidPlayer, rule, "a player without an id")
		case p.Rating < 0:
			return Roster{}, ruleErr(CodeInvalidPlayer, rule, "player %s has a negative rating %d", p.ID, p.Rating)
		case seen[p.ID]:
			return Roster{}, ruleErr(CodeDuplicatePlayer, rule, "player %s is entered twice", p.ID)
		}
		seen[p.ID] = true
	}
	if s.KeepEntryOrder {
		players = UnratedLast(players)
	} else {
		players = RatingOrder(players)
	}
	return Roster{Team: team, Settings: s, Players: players}, nil
}

// UnratedLast keeps the order given but moves unrated players after every
// rated one (T-1 as settled, 000 ch.7 §2 2.1: 无等级分者排在有等级分棋手的后面
// holds in every event, even where the team orders its rated players itself).
func UnratedLast(players []Player) []Player {
	out := make([]Player, 0, len(players))
	for _, rated := range []bool{true, false} {
		for _, p := range players {
			if p.Rated() == rated {
				out = append(out, p)
			}
		}
	}
	return out
}

// RatingOrder returns the players in T-1 board order (001 §11.1): higher
// rating first, unrated players after all rated ones; players with equal
// ratings, and the unrated among themselves, keep the order given.
func RatingOrder(players []Player) []Player {
	out := slices.Clone(players)
	slices.SortStableFunc(out, func(a, b Player) int {
		switch {
		case a.Rated() != b.Rated():
			if a.Rated() {
				return -1
			}
			return 1
		case a.Rating > b.Rating:
			return -1
		case a.Rating < b.Rating:
			return 1
		}
		return 0
	})
	return out
}

// IDs returns the roster's player ids in board order.
func (r Roster) IDs() []string {
	ids := make([]string, len(r.Players))
	for i, p := range r.Players {
		ids[i] = p.ID
	}
	return ids
}

// Members returns the ids of the players entered as members (not
// substitutes), in board order. It is the lineup a T-2 team fields when its
// captain sets none.
func (r Roster) Members() Lineup {
	var l Lineup
	for _, p := range r.Players {
		if !p.Substitute {
			l = append(l, p.ID)
		}
	}
	return l
}

// index returns the player's position in the roster, or -1.
func (r Roster) index(id string) int {
	return slices.IndexFunc(r.Players, func(p Player) bool { return p.ID == id })
}
