package tournament

import (
	"slices"

	"github.com/xqtour/xqtour/shared/standings"
)

// Clubs are the teams of an individual event's team places: one a
// club its players name, numbered in name order (id and name the club's
// name), with the ids of its players; players of no club belong to none.
func Clubs(players []*Player) ([]standings.Team, map[string][]string) {
	members := map[string][]string{}
	var clubs []string
	for _, p := range players {
		if p.Club == "" {
			continue
		}
		if _, ok := members[p.Club]; !ok {
			clubs = append(clubs, p.Club)
		}
		members[p.Club] = append(members[p.Club], p.ID)
	}
	slices.Sort(clubs)
	var teams []standings.Team
	for i, c := range clubs {
		teams = append(teams, standings.Team{ID: c, Name: c, Number: i + 1})
	}
	return teams, members
}
