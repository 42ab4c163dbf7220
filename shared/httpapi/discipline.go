package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// expulsionOut is a player's expulsion (除名, O-2): the chief arbiter's
// proposal and the organiser's decision, each with who, when and why.
type expulsionOut struct {
	Status       string  `json:"status"`
	ProposedBy   string  `json:"proposedBy"`
	ProposedAt   string  `json:"proposedAt"`
	GameID       string  `json:"gameId,omitempty"`
	Note         string  `json:"note"`
	DecidedBy    string  `json:"decidedBy,omitempty"`
	DecidedAt    *string `json:"decidedAt,omitempty"`
	DecisionNote string  `json:"decisionNote,omitempty"`
}

func expulsionView(e *tournament.Expulsion) *expulsionOut {
	if e == nil {
		return nil
	}
	out := &expulsionOut{Status: e.Status, ProposedBy: e.ProposedBy, ProposedAt: rfc3339(e.ProposedAt), GameID: e.GameID, Note: e.Note,
		DecidedBy: e.DecidedBy, DecisionNote: e.DecisionNote}
	if e.Status != tournament.ExpulsionProposed {
		at := rfc3339(e.DecidedAt)
		out.DecidedAt = &at
	}
	return out
}

// playerExpulsionOut is an expulsion in the event's report, with its player.
type playerExpulsionOut struct {
	Player     string `json:"player"`
	PlayerName string `json:"playerName"`
	Number     int    `json:"number"`
	expulsionOut
}

// GET /tournaments/{tid}/discipline — public: the event's discipline report
// (O-2, 000 ch.3 裁判长 7 无论给予哪种纪律处分，都应及时向竞赛组织机构提交详细的
// 书面报告): every foul, warning, penalty and dropped piece of its games in
// round and table order, each with who gave it, when and why, and every
// expulsion proposed or decided (service.Discipline). ?round= keeps one
// round; ?offset= and ?limit= page over the games read (at most 1,000 a
// page), as GET /tournaments/{tid}/games does.
func (a *API) getDiscipline(c *call) (int, any, error) {
	pg, err := pageQuery(c, "json")
	if err != nil {
		return 0, nil, err
	}
	only, err := roundQuery(c)
	if err != nil {
		return 0, nil, err
	}
	rep, err := a.svc.Discipline(c.ctx(), c.r.PathValue("tid"), only, pg.offset, pg.limit)
	if err != nil {
		return 0, nil, err
	}
	expulsions := make([]playerExpulsionOut, len(rep.Expulsions))
	for i, p := range rep.Expulsions {
		expulsions[i] = playerExpulsionOut{Player: p.ID, PlayerName: p.Name, Number: p.Number, expulsionOut: *expulsionView(p.Expulsion)}
	}
	return http.StatusOK, disciplineReportOut{TournamentID: rep.Event.T.ID, Entries: rep.Entries, Expulsions: expulsions, pageOut: pageInfo(c, pg, rep.Games)}, nil
}

// disciplineReportOut is GET /tournaments/{tid}/discipline; total counts the
// games read, not the entries.
type disciplineReportOut struct {
	TournamentID string                    `json:"tournamentId"`
	Entries      []service.DisciplineEntry `json:"entries"`
	Expulsions   []playerExpulsionOut      `json:"expulsions"`
	pageOut
}

// POST /tournaments/{tid}/players/{pid}/expulsion — the organiser approves or
// rejects the chief arbiter's proposal to expel the player (000 ch.3 裁判长 7:
// 报请竞赛组织机构进行审核。获得批准方可执行). Approved, the player leaves the
// event from the next round as a withdrawal (S-6).
func (a *API) decideExpulsion(c *call) (int, any, error) {
	tid, pid := c.r.PathValue("tid"), c.r.PathValue("pid")
	var in struct {
		Approve *bool  `json:"approve"`
		Note    string `json:"note"`
	}
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	view := func(ch service.PlayerChanged) (any, error) {
		out, err := a.shownPlayer(c.ctx(), ch.T, ch.Player)
		return map[string]any{"player": out, "expulsion": expulsionView(ch.Player.Expulsion)}, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.DecideExpulsion{Player: pid, Approve: in.Approve, Note: in.Note})
	if err != nil {
		return 0, nil, renderCurrent(err, view)
	}
	out, err := view(res.(service.PlayerChanged))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, out, nil
}
