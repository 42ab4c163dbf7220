package service

import (
	"context"
	"slices"

	"github.com/xqtour/xqtour/shared/tournament"
)

// TeamRoster is a team of a team event as clients see it: its roster in
// board order, split into members and substitutes, each player named.
type TeamRoster struct {
	ID          string         `json:"id"`
	Number      int            `json:"number"`
	Name        string         `json:"name"`
	Status      string         `json:"status"`
	JoinedRound int            `json:"joinedRound"`
	Withdrawn   *int           `json:"withdrawnAfter,omitempty"`
	Members     []RosterPlayer `json:"members"`
	Substitutes []RosterPlayer `json:"substitutes"`
}

// RosterPlayer is one player of a team's roster; Board is the roster
// number (board order): under T-1 the fixed board, under T-2 the order
// every lineup keeps.
type RosterPlayer struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Rating int    `json:"rating"`
	Club   string `json:"club,omitempty"`
	Board  int    `json:"board"`
}

// RosterOf is team tm's roster with its players found by player (a
// player not found keeps its id and board alone).
func RosterOf(tm *tournament.Team, player func(id string) *tournament.Player) TeamRoster {
	out := TeamRoster{ID: tm.ID, Number: tm.Number, Name: tm.Name, Status: string(tm.Status), JoinedRound: tm.JoinedRound,
		Members: []RosterPlayer{}, Substitutes: []RosterPlayer{}}
	if tm.Status == tournament.Withdrawn {
		out.Withdrawn = &tm.WithdrawnAfter
	}
	for i, id := range tm.Roster {
		po := RosterPlayer{ID: id, Board: i + 1}
		if p := player(id); p != nil {
			po.Name, po.Rating, po.Club = p.Name, p.Rating, p.Club
		}
		if slices.Contains(tm.Substitutes, id) {
			out.Substitutes = append(out.Substitutes, po)
		} else {
			out.Members = append(out.Members, po)
		}
	}
	return out
}

// PlayerByID looks players up by id, for RosterOf.
func PlayerByID(players []*tournament.Player) func(id string) *tournament.Player {
	byID := make(map[string]*tournament.Player, len(players))
	for _, p := range players {
		byID[p.ID] = p
	}
	return func(id string) *tournament.Player { return byID[id] }
}

// Roster is the registered team's roster, its players the ones it registered.
func (r TeamRegistered) Roster() TeamRoster {
	players := make([]*tournament.Player, len(r.Players))
	for i := range r.Players {
		players[i] = &r.Players[i]
	}
	return RosterOf(&r.Team, PlayerByID(players))
}

// Roster is the withdrawn team's roster.
func (w TeamWithdrawn) Roster() TeamRoster { return RosterOf(w.Team, PlayerByID(w.Players)) }

// TeamRosters reads the teams of event tid with their rosters, in
// team-number order: none (an empty list) for an individual event.
func (s *Service) TeamRosters(ctx context.Context, tid string) ([]TeamRoster, error) {
	t, _, err := s.Tournament(ctx, tid)
	if err != nil {
		return nil, err
	}
	out := []TeamRoster{}
	if !t.Settings.Teams {
		return out, nil
	}
	teams, err := s.Teams(ctx, tid)
	if err != nil {
		return nil, err
	}
	players, err := s.Players(ctx, tid)
	if err != nil {
		return nil, err
	}
	player := PlayerByID(players)
	for _, tm := range teams {
		out = append(out, RosterOf(tm, player))
	}
	return out, nil
}

// CaptainRoster is team tm of event tid with its roster, the players read
// from the event: a reissued captain's token shows it.
func (s *Service) CaptainRoster(ctx context.Context, tid string, tm *tournament.Team) (TeamRoster, error) {
	players, err := s.Players(ctx, tid)
	if err != nil {
		return TeamRoster{}, err
	}
	return RosterOf(tm, PlayerByID(players)), nil
}
