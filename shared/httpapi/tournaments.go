package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// organiserKnown lets authenticate check an organiser token against the event
// the handler already read.
func organiserKnown(t *tournament.Tournament) func(scope, id string) (credential, bool) {
	return func(scope, id string) (credential, bool) {
		if scope == t.ID && id == t.ID {
			return credential{Principal{Scope: t.ID, ID: t.ID, Role: roleOrganiser}, t.OrganiserTokenHash}, true
		}
		return credential{}, false
	}
}

// POST /tournaments — anyone; the response's token is the organiser's, shown once.
func (a *API) createTournament(c *call) (int, any, error) {
	var in tournamentIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	tc, err := in.TimeControl.Control()
	if err != nil {
		return 0, nil, err
	}
	tc = tournament.EventControl(in.System, tc, in.TimeControl != nil)
	rules, err := in.Rules.rules()
	if err != nil {
		return 0, nil, err
	}
	sc, err := standings.ParseScoring(in.Scoring)
	if err != nil {
		return 0, nil, &tournament.FieldError{Field: "scoring", Message: err.Error(), Rule: "K-1"}
	}
	s := tournament.Settings{
		Name: in.Name, System: in.System, Rounds: in.Rounds, Teams: in.Teams, Boards: in.Boards, Substitutes: in.Substitutes,
		TeamFormat: in.TeamFormat, KeepEntryOrder: in.KeepEntry,
		Scoring: sc, Tiebreaks: in.Tiebreaks, TimeControl: tc, Rules: rules, FirstRound: in.FirstRound,
		AvoidSameClub: in.AvoidSameClub, GamesPerMatch: in.GamesPerMatch, RankByGamePoints: in.RankByGamePoints, Playoff: in.Playoff, ShareTitle: in.ShareTitle, PlacesCounted: in.PlacesCounted,
		CheckIn: in.CheckIn,
	}
	if in.StartsAt != nil {
		s.StartsAt = in.StartsAt.UnixMilli()
	}
	in.combinedSettings(&s)
	// With "festival", a section of a festival, created with its token (E-3).
	res, err := a.svc.CreateEvent(c.ctx(), service.NewEvent{Settings: s, Festival: in.Festival, Auth: sectionOrganiser(c)})
	if err != nil {
		return 0, nil, err
	}
	t, token, tid := res.T, res.Token, res.T.ID
	noteEvent(c.ctx(), tid, "")
	// P-2: settings against the rule book's advice are created with warnings.
	warnings := []warningOut{}
	for _, w := range t.Settings.Warnings() {
		warnings = append(warnings, warningOut{Code: w.Code, Message: w.Message, Rule: w.Rule})
	}
	return http.StatusCreated, map[string]any{"id": tid, "token": token, "tournament": tournamentView(t), "warnings": warnings}, nil
}

// warningOut is one warning of a creation response.
type warningOut struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Rule    string `json:"rule"`
}

// POST /tournaments/{tid}/players — organiser (service.RegisterPlayer).
func (a *API) registerPlayer(c *call) (int, any, error) {
	var in playerIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), service.RegisterPlayer{Name: in.Name, Rating: in.Rating, Club: in.Club, Seeded: in.Seeded})
	if err != nil {
		return 0, nil, err
	}
	reg := res.(service.Registered)
	// A late entrant of a Swiss takes the next free drawn number (P-3).
	out, err := a.shownPlayer(c.ctx(), reg.T, reg.Player)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, map[string]any{"id": reg.Player.ID, "token": reg.Token, "player": out}, nil
}

// GET /tournaments/{tid}/players — public; in number order: the numbers
// drawn for round 1 once an individual Swiss has paired it (P-3), else the
// registration numbers (service.PlayersByNumber).
func (a *API) listPlayers(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	pg, err := pageQueryUpTo(c, "json", playerPageRows)
	if err != nil {
		return 0, nil, err
	}
	players, number, err := a.svc.PlayersByNumber(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := make([]playerOut, len(players))
	for i, p := range players {
		out[i] = playerView(p, number[p.ID])
	}
	c.keepView(0) // the players' items alone: nothing of it moves with the clock
	if pg.pagedWhole(len(out)) {
		return http.StatusOK, map[string]any{"players": out}, nil
	}
	info := pageInfo(c, pg, len(out))
	return http.StatusOK, playersPage{Players: pageSlice(out, pg), pageOut: info}, nil
}

// playerPageRows is how many players a page of GET …/players holds, the
// default and the largest ?limit=: about 3.2 MB of JSON (160 bytes a
// player), within Lambda's 6 MB. An event of up to 20,000 players is
// answered whole, as it always was. A variable so a test pages a small event.
var playerPageRows = 20_000

// playersPage is a page of the players list: the players, their total,
// where the page starts and the next page.
type playersPage struct {
	Players []playerOut `json:"players"`
	pageOut
}

// POST /tournaments/{tid}/players/{pid}/withdraw — organiser (S-6).
func (a *API) withdrawPlayer(c *call) (int, any, error) {
	return a.changePlayer(c, (*tournament.Tournament).Withdraw)
}

// POST /tournaments/{tid}/officials — organiser (service.AddOfficial).
func (a *API) addOfficial(c *call) (int, any, error) {
	var in officialIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), service.AddOfficial{Role: in.Role, Name: in.Name, Tables: in.Tables})
	if err != nil {
		return 0, nil, err
	}
	o := res.(service.Appointed)
	return http.StatusCreated, map[string]any{"id": o.Official.ID, "token": o.Token,
		"official": officialOut{ID: o.Official.ID, Role: o.Official.Role, Name: o.Official.Name, Tables: o.Official.Tables}}, nil
}
