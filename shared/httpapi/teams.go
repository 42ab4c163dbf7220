package httpapi

import (
	"net/http"
	"strconv"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Team events (T-1…T-7). Each member is registered as a player of the event,
// so the game routes, results, records and standings serve board games
// unchanged. The flow of a round:
//
//  1. POST /tournaments/{tid}/rounds pairs the teams (Swiss by match points,
//     or the round-robin table) into matches, home team listed first (T-6).
//  2. Under fixedBoards (T-1) — and boardsWithSubstitutes when a team has no
//     substitutes — both lineups are known, so the board games exist at once.
//  3. Otherwise each captain (or the organiser) posts the team's lineup for
//     round n; lineups stay private until the match's second lineup arrives,
//     and then the match's board games are created and the match is set. A
//     lineup may be replaced until then, and only before the round's start
//     when it has one. The organiser may at any time ask the server to draw
//     every missing lineup (T-3), seeded by (event, round, team); once the
//     round's start has passed the server draws them itself: the due work's
//     runner at the deadline (service.RunDue), or first the round's start, a
//     captain's lineup or the pairing of the next round — never a read of
//     the round.
//  4. Results are written through the game routes; standings?view=teams adds
//     them up (T-7, R-5…R-8).

type teamPlayerIn struct {
	Name   string `json:"name"`
	Rating int    `json:"rating"`
	Club   string `json:"club"`
}

// teamIn is POST /tournaments/{tid}/teams.
type teamIn struct {
	Name        string         `json:"name"`
	Members     []teamPlayerIn `json:"members"`
	Substitutes []teamPlayerIn `json:"substitutes"`
}

type playerTokenOut struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

// POST /tournaments/{tid}/teams — organiser (T-1, T-2): registers each member
// and substitute as a player and the team with its ordered roster, in one
// transaction with the event's counters. The captain's token and the players'
// tokens are shown once.
func (a *API) registerTeam(c *call) (int, any, error) {
	var in teamIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	entry := func(ps []teamPlayerIn) []tournament.Player {
		var out []tournament.Player
		for _, p := range ps {
			out = append(out, tournament.Player{Name: p.Name, Rating: p.Rating, Club: p.Club})
		}
		return out
	}
	cmd := service.RegisterTeam{Name: in.Name, Members: entry(in.Members), Substitutes: entry(in.Substitutes)}
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), cmd)
	if err != nil {
		return 0, nil, err
	}
	reg := res.(service.TeamRegistered)
	tokens := []playerTokenOut{}
	for _, t := range reg.Tokens {
		tokens = append(tokens, playerTokenOut{ID: t.ID, Name: t.Name, Token: t.Token})
	}
	return http.StatusCreated, map[string]any{"id": reg.Team.ID, "token": reg.Token, "team": reg.Roster(),
		"playerTokens": tokens}, nil
}

// GET /tournaments/{tid}/teams — public; in team-number order
// (service.TeamRosters), none for an individual event.
func (a *API) listTeams(c *call) (int, any, error) {
	teams, err := a.svc.TeamRosters(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return 0, nil, err
	}
	c.keepView(0) // the teams' and players' items alone
	return http.StatusOK, map[string]any{"teams": teams}, nil
}

// POST /tournaments/{tid}/teams/{mid}/withdraw — organiser (S-6, Swiss only).
func (a *API) withdrawTeam(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	view := func(w service.TeamWithdrawn) (any, error) {
		return map[string]any{"team": w.Roster()}, nil
	}
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), service.WithdrawTeam{Team: c.r.PathValue("mid")})
	if err != nil {
		return 0, nil, renderCurrent(err, view)
	}
	out, _ := view(res.(service.TeamWithdrawn))
	return http.StatusOK, out, nil
}

// lineupIn is POST /tournaments/{tid}/rounds/{n}/lineups.
type lineupIn struct {
	Team        string   `json:"team"`
	Lineup      []string `json:"lineup"`
	DrawMissing bool     `json:"drawMissing"`
}

type lineupOut struct {
	Team    string   `json:"team"`
	Players []string `json:"players"`
	Drawn   bool     `json:"drawn"`
	Seed    *string  `json:"seed,omitempty"`
}

func lineupView(l tournament.Lineup) lineupOut {
	out := lineupOut{Team: l.Team, Players: l.Players, Drawn: l.Drawn}
	if l.Drawn {
		s := strconv.FormatUint(l.Seed, 10)
		out.Seed = &s
	}
	return out
}

// POST /tournaments/{tid}/rounds/{n}/lineups — the team's captain or the
// organiser sets a team's lineup for its match in round n (T-2, T-3, T-4);
// the organiser's {"drawMissing": true} draws every lineup still missing
// (T-3). Each write also rewrites the round item under its version, so of two
// captains submitting at once one retries and sees the other's lineup: the
// match is set (its board games created) exactly when its second lineup is
// in. The response is the round (matches, and the board games of set
// matches) and the lineups this request wrote.
func (a *API) submitLineup(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	var in lineupIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	cmd := &service.SubmitLineup{N: n, Team: in.Team, Lineup: in.Lineup, DrawMissing: in.DrawMissing}
	if err := a.svc.ExecLineup(c.ctx(), tid, a.eventCaller(c), cmd, c.nowMs()); err != nil {
		return 0, nil, err
	}
	out := []lineupOut{}
	for _, l := range append(cmd.Due, cmd.Written...) {
		out = append(out, lineupView(l))
	}
	return http.StatusOK, map[string]any{"round": cmd.Event.RoundView(cmd.Round, false, c.nowMs()), "lineups": out}, nil
}
