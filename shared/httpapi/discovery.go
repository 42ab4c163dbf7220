package httpapi

import (
	"net/http"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Discovery: what a client that holds only a token, or only an event id,
// needs to find its way — who the token is (GET /me), the rounds of an event
// and where each stands (GET /tournaments/{tid}/rounds), and the event's
// officials (GET /tournaments/{tid}/officials, organiser).

// roundSummaryOut is one round of GET /tournaments/{tid}/rounds.
type roundSummaryOut struct {
	Round         int     `json:"round"`
	Status        string  `json:"status"`
	PairedAt      string  `json:"pairedAt"`
	StartsAt      *string `json:"startsAt,omitempty"`
	Games         int     `json:"games"`
	FinishedGames int     `json:"finishedGames"`
	Matches       *int    `json:"matches,omitempty"`
	Stage         string  `json:"stage,omitempty"`
}

func (ev *event) roundSummary(r *tournament.Round, now int64) roundSummaryOut {
	out := roundSummaryOut{Round: r.Number, Status: string(tournament.StateOf(ev.H, r, now)), PairedAt: rfc3339(r.PairedAt),
		Games: len(r.Pairings), Stage: r.Stage}
	if r.StartsAt != 0 {
		s := rfc3339(r.StartsAt)
		out.StartsAt = &s
	}
	out.FinishedGames = ev.H.Finished(r)
	if ev.T.Settings.Teams {
		m := len(r.Matches)
		out.Matches = &m
	}
	return out
}

// GET /tournaments/{tid}/rounds — public: every paired round with its status
// and game counts, oldest first, and how many rounds the event plans.
func (a *API) listRounds(c *call) (int, any, error) {
	vw, cached, err := a.cachedRounds(c)
	if err != nil || cached != nil {
		return http.StatusOK, cached, err
	}
	ev, err := a.loadEvent(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return 0, nil, err
	}
	out := roundListOut{TournamentID: ev.T.ID, Paired: ev.T.Round, Planned: ev.T.Settings.Rounds, Rounds: make([]roundSummaryOut, 0, len(ev.H.Rounds))}
	for _, r := range ev.H.Rounds {
		out.Rounds = append(out.Rounds, ev.roundSummary(r, c.nowMs()))
	}
	saveView(vw, out, []int(nil), tableDeps(ev.T.Round), nil)
	return http.StatusOK, out, nil
}

// roundListOut is GET /tournaments/{tid}/rounds.
type roundListOut struct {
	TournamentID string            `json:"tournamentId"`
	Paired       int               `json:"paired"`
	Planned      int               `json:"planned"`
	Rounds       []roundSummaryOut `json:"rounds"`
}

// GET /tournaments/{tid}/officials — organiser (O-1): the arbiters and
// scribes with their tables (service.OfficialsByRole); their tokens were
// shown once and are not kept.
func (a *API) listOfficials(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if _, _, err := a.organiserEvent(c, tid); err != nil {
		return 0, nil, err
	}
	officials, err := a.svc.OfficialsByRole(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := make([]officialOut, 0, len(officials))
	for _, o := range officials {
		out = append(out, officialView(o))
	}
	return http.StatusOK, map[string]any{"officials": out}, nil
}

func officialView(o *tournament.Official) officialOut {
	return officialOut{ID: o.ID, Role: o.Role, Name: o.Name, Tables: o.Tables}
}

// meGameOut is a player's game as GET /me shows it: where, against whom, in
// which colour, and its result once there is one.
type meGameOut struct {
	Round        int     `json:"round"`
	Table        int     `json:"table"`
	GameID       string  `json:"gameId"`
	Colour       string  `json:"colour"`
	Opponent     string  `json:"opponent"`
	OpponentName string  `json:"opponentName"`
	RoundStatus  string  `json:"roundStatus"`
	StartsAt     *string `json:"startsAt,omitempty"`
	// Result is null: the games GET /me names are unfinished ones.
	Result *string `json:"result"`
}

// GET /me — any token: who it speaks for and where to go next. A player
// gets the event and its current game (a round under way) and next game (a
// round paired but not yet started); a scribe its tables and their games in
// the latest round; a captain the team; the organiser and an arbiter the
// event; a standalone game's seat token the game and the colour.
func (a *API) me(c *call) (int, any, error) {
	p, err := a.authenticate(c, nil)
	if err != nil {
		return 0, nil, err
	}
	out := map[string]any{"role": p.Role, "id": p.ID}
	if strings.HasPrefix(p.Scope, "g") { // a standalone game's seat
		out["gameId"], out["colour"] = p.Scope, p.ID
		return http.StatusOK, out, nil
	}
	me, err := a.svc.Me(c.ctx(), p)
	if err != nil {
		return 0, nil, err
	}
	ev := &event{me.Event}
	out["tournament"] = tournamentView(ev.T)
	switch {
	case p.Role == roleOrganiser:
		out["name"] = ev.T.Settings.Name
	case me.Player != nil:
		pl := me.Player
		out["name"], out["player"] = pl.Name, playerView(pl, ev.Numbers()[pl.ID])
		out["currentGame"], out["nextGame"] = ev.meGame(me.Current), ev.meGame(me.Next)
	case me.Official != nil:
		o := me.Official
		out["name"], out["official"] = o.Name, officialView(o)
		if p.Role == roleScribe {
			out["tables"] = append([]int{}, o.Tables...)
			out["games"] = ev.scribeGames(me.Latest, o, c.nowMs())
		}
	case me.Team != nil:
		out["name"], out["team"] = me.Team.Name, service.RosterOf(me.Team, ev.H.Player)
	}
	return http.StatusOK, out, nil
}

// meGame is a player's game (tournament.PlayerGames) as GET /me shows it;
// nil is none.
func (ev *event) meGame(pg *tournament.PlayerGame) *meGameOut {
	if pg == nil {
		return nil
	}
	r, p := pg.Round, pg.Pairing
	g := &meGameOut{Round: r.Number, Table: p.Table, GameID: p.GameID, Colour: "red", Opponent: pg.Opponent, RoundStatus: string(pg.State)}
	if pg.Black {
		g.Colour = "black"
	}
	if o := ev.H.Player(g.Opponent); o != nil {
		g.OpponentName = o.Name
	}
	if r.StartsAt != 0 {
		s := rfc3339(r.StartsAt)
		g.StartsAt = &s
	}
	return g
}

// scribeGames lists the games of round r (the latest, service.Me) at the
// scribe's tables (every table when the scribe is not limited), as the
// round view shows them.
func (ev *event) scribeGames(r *tournament.Round, o *tournament.Official, now int64) []service.PairingView {
	out := []service.PairingView{}
	if r == nil {
		return out
	}
	for _, po := range service.RoundViewOf(r, ev.H, ev.Numbers(), false, now).Pairings {
		if o.Covers(po.Table) {
			out = append(out, po)
		}
	}
	return out
}
