package httpapi

import (
	"net/http"
	"slices"
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

// matchOut is one match of a team round.
type matchOut struct {
	Match           string          `json:"match"`
	Number          int             `json:"number"`
	Home            string          `json:"home"`
	Away            string          `json:"away"`
	HomeName        string          `json:"homeName"`
	AwayName        string          `json:"awayName"`
	Set             bool            `json:"set"`
	HomeBoardPoints *int            `json:"homeBoardPoints"`
	AwayBoardPoints *int            `json:"awayBoardPoints"`
	HomeMatchPoints *int            `json:"homeMatchPoints"`
	AwayMatchPoints *int            `json:"awayMatchPoints"`
	Explanation     *explanationOut `json:"explanation,omitempty"`
	// Tie, Rapid, Winner and DecidedBy describe a team knockout's match (S-3).
	Tie        string `json:"tie,omitempty"`
	Rapid      bool   `json:"rapid,omitempty"`
	Winner     string `json:"winner,omitempty"`
	WinnerName string `json:"winnerName,omitempty"`
	DecidedBy  string `json:"decidedBy,omitempty"`
	// Group names a team groups event's group or same-place final (S-5).
	Group string `json:"group,omitempty"`
}

// roundView is the round as clients see it; a team round adds its matches
// with their scores once decided (T-7).
func (ev *event) roundView(r *tournament.Round, explain bool, now int64) roundOut {
	out := roundView(r, ev.H, ev.Numbers(), explain, now)
	if !ev.T.Settings.Teams {
		return out
	}
	te, err := ev.Teams()
	if err != nil {
		return out
	}
	if out.Bye != nil {
		if tm := te.TH.Team(*out.Bye); tm != nil {
			out.ByeName = &tm.Name
		}
	}
	out.Matches = []matchOut{}
	for _, m := range r.Matches {
		mo := matchOut{Match: m.ID, Number: m.Number, Home: m.Home, Away: m.Away, Set: tournament.MatchSet(r, m), Group: m.Group}
		if tm := te.TH.Team(m.Home); tm != nil {
			mo.HomeName = tm.Name
		}
		if tm := te.TH.Team(m.Away); tm != nil {
			mo.AwayName = tm.Name
		}
		if ms, ok := te.TH.MatchScore(ev.T, r, m); ok {
			mo.HomeBoardPoints, mo.AwayBoardPoints = &ms.Home.BoardPoints, &ms.Away.BoardPoints
			mo.HomeMatchPoints, mo.AwayMatchPoints = &ms.Home.MatchPoints, &ms.Away.MatchPoints
		}
		if explain {
			mo.Explanation = explanationView(m.Explanation)
		}
		tieView(ev, te, r, m, &mo)
		out.Matches = append(out.Matches, mo)
	}
	return out
}

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

type rosterPlayerOut struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Rating int    `json:"rating"`
	Club   string `json:"club,omitempty"`
	Board  int    `json:"board"`
}

type teamOut struct {
	ID          string            `json:"id"`
	Number      int               `json:"number"`
	Name        string            `json:"name"`
	Status      string            `json:"status"`
	JoinedRound int               `json:"joinedRound"`
	Withdrawn   *int              `json:"withdrawnAfter,omitempty"`
	Members     []rosterPlayerOut `json:"members"`
	Substitutes []rosterPlayerOut `json:"substitutes"`
}

// teamView shows the roster; board is the roster number (board order):
// under T-1 the fixed board, under T-2 the order every lineup keeps.
func teamView(tm *tournament.Team, player func(id string) *tournament.Player) teamOut {
	out := teamOut{ID: tm.ID, Number: tm.Number, Name: tm.Name, Status: string(tm.Status), JoinedRound: tm.JoinedRound,
		Members: []rosterPlayerOut{}, Substitutes: []rosterPlayerOut{}}
	if tm.Status == tournament.Withdrawn {
		out.Withdrawn = &tm.WithdrawnAfter
	}
	for i, id := range tm.Roster {
		po := rosterPlayerOut{ID: id, Board: i + 1}
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

// playerByID looks players up by id, for teamView.
func playerByID(players []*tournament.Player) func(id string) *tournament.Player {
	byID := make(map[string]*tournament.Player, len(players))
	for _, p := range players {
		byID[p.ID] = p
	}
	return func(id string) *tournament.Player { return byID[id] }
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
	byID := map[string]*tournament.Player{}
	for i := range reg.Players {
		byID[reg.Players[i].ID] = &reg.Players[i]
	}
	tokens := []playerTokenOut{}
	for _, t := range reg.Tokens {
		tokens = append(tokens, playerTokenOut{ID: t.ID, Name: t.Name, Token: t.Token})
	}
	return http.StatusCreated, map[string]any{"id": reg.Team.ID, "token": reg.Token, "team": teamView(&reg.Team, func(id string) *tournament.Player { return byID[id] }),
		"playerTokens": tokens}, nil
}

// GET /tournaments/{tid}/teams — public; in team-number order.
func (a *API) listTeams(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	t, _, err := a.svc.Tournament(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := []teamOut{}
	c.keepView(0) // the teams' and players' items alone
	if !t.Settings.Teams {
		return http.StatusOK, map[string]any{"teams": out}, nil
	}
	teams, err := a.svc.Teams(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	players, err := a.svc.Players(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	for _, tm := range teams {
		out = append(out, teamView(tm, playerByID(players)))
	}
	return http.StatusOK, map[string]any{"teams": out}, nil
}

// POST /tournaments/{tid}/teams/{mid}/withdraw — organiser (S-6, Swiss only).
func (a *API) withdrawTeam(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	view := func(w service.TeamWithdrawn) (any, error) {
		return map[string]any{"team": teamView(w.Team, playerByID(w.Players))}, nil
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
	if _, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), cmd); err != nil {
		return 0, nil, err
	}
	te, r, due, written := cmd.Event, cmd.Round, cmd.Due, cmd.Written
	if err := a.svc.EnsureGamesAfterCommit(c.ctx(), te.T, r, te.H, nil, c.nowMs()); err != nil {
		return 0, nil, err
	}
	out := []lineupOut{}
	for _, l := range append(due, written...) {
		out = append(out, lineupView(l))
	}
	return http.StatusOK, map[string]any{"round": (&event{te.Event}).roundView(r, false, c.nowMs()), "lineups": out}, nil
}
