package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// event is the event aggregate (service.Event) with the HTTP layer's views of it.
type event struct{ *service.Event }

// loadEvent reads event tid whole (service.Service.Load).
func (a *API) loadEvent(ctx context.Context, tid string) (*event, error) {
	ev, err := a.svc.Load(ctx, tid)
	if err != nil {
		return nil, err
	}
	return &event{ev}, nil
}

// pairIn is POST /tournaments/{tid}/rounds.
type pairIn struct {
	// Round, when given, names the round the organiser means to pair: a
	// retry of a round already paired returns it instead of pairing the next.
	Round             *int        `json:"round"`
	UnfinishedAsDraws bool        `json:"unfinishedAsDraws"`
	ForbiddenPairs    [][2]string `json:"forbiddenPairs"`
	StartsAt          *time.Time  `json:"startsAt"`
}

// POST /tournaments/{tid}/rounds — organiser: pair the next round (S-*, P-*).
// The round is published with the event's round counter in one transaction
// (service.PairRound), so round n is paired exactly once; a request that
// loses the race, or names a round already paired, gets the stored round
// with 200. The games are created afterwards under deterministic ids, so a
// retry naming the round repairs a crash between the two steps and
// recreates nothing (service.ExecPair). A round of more tables than a page
// answers its first page (pageRound). An event of more entrants than the deployment's
// PairJobPlayers is paired as a job instead: 202 with the job to poll
// (pairjob.go).
func (a *API) pairRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var in pairIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	if in.Round != nil && *in.Round < 1 {
		return 0, nil, badRequest("invalid_field", "round: want a round number ≥ 1")
	}
	if err := checkRoundStart(in.StartsAt, c.now); err != nil {
		return 0, nil, err
	}
	if n := len(in.ForbiddenPairs); n > service.LimitOf(service.CapForbiddenPair).Max {
		return 0, nil, service.TooMany(service.CapForbiddenPair, n)
	}
	cmd := service.PairRound{Round: in.Round, UnfinishedAsDraws: in.UnfinishedAsDraws, Forbidden: in.ForbiddenPairs}
	if in.StartsAt != nil {
		cmd.StartsAt = in.StartsAt.UnixMilli()
	}
	res, err := a.svc.ExecPair(c.ctx(), tid, a.eventCaller(c), cmd, c.nowMs())
	if err != nil {
		return 0, nil, err
	}
	if q, ok := res.(service.PairJobQueued); ok { // a big event: paired as a job (pairjob.go)
		return a.pairJobAccepted(c, q)
	}
	p := res.(service.Paired)
	status := http.StatusOK
	if p.Created {
		status = http.StatusCreated
	}
	// A round of more tables than a page answers with its first page and
	// the read of the next (GET …/rounds/{n}).
	out := roundOut{RoundView: p.Event.RoundView(p.Round, false, c.nowMs())}
	pageRound(&out, fmt.Sprintf("/tournaments/%s/rounds/%d", tid, p.Round.Number), url.Values{}, page{limit: roundPageTables})
	return status, out, nil
}

// roundPageTables is how many tables a page of a round holds, the default
// and the largest ?limit=: about 2.4 MB of JSON (240 bytes a table), within
// Lambda's 6 MB response with room for explanations. A round of up to
// 10,000 tables — every round of an event of up to 20,000 players — is
// answered whole, as it always was. A variable so a test pages a small round.
var roundPageTables = 10_000

// pageRound cuts out to page p of its tables, read at path with query q,
// unless the round is answered whole (page.pagedWhole).
func pageRound(out *roundOut, path string, q url.Values, p page) {
	total := len(out.Pairings)
	if p.pagedWhole(total) {
		return
	}
	info := pageLink(path, q, p, total)
	out.Pairings, out.pageOut = pageSlice(out.Pairings, p), &info
}

// checkRoundStart refuses a start time outside the window of
// tournament.CheckRoundStart (C-6).
func checkRoundStart(startsAt *time.Time, now time.Time) error {
	if startsAt == nil {
		return nil
	}
	return tournament.CheckRoundStart(startsAt.UnixMilli(), now.UnixMilli())
}

// GET /tournaments/{tid}/rounds/{n} — public; ?explain=true adds why each
// pair, ?format=csv gives the pairings as a spreadsheet.
func (a *API) getRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	explain, err := boolQuery(c, "explain")
	if err != nil {
		return 0, nil, err
	}
	format, err := formatQuery(c, "json", "csv")
	if err != nil {
		return 0, nil, err
	}
	pg, err := pageQueryUpTo(c, format, roundPageTables)
	if err != nil {
		return 0, nil, err
	}
	vw, out, err := a.cachedRound(c, tid, n, explain)
	if err != nil || out != nil {
		if out != nil {
			pageRound(out, c.r.URL.Path, c.r.URL.Query(), pg)
		}
		return roundResponse(c, out, format, err)
	}
	if vw == nil { // explanations, or a team event: no round view; the response view serves it
		return a.serveViewed(c, "GET /tournaments/{tid}/rounds/{n}", func() (int, any, error) { return a.readRound(c, nil, tid, n, explain, format, pg) })
	}
	return a.readRound(c, vw, tid, n, explain, format, pg)
}

// readRound answers GET …/rounds/{n} from the event (page pg of its
// tables), storing the round view vw (when given, the whole round) or
// marking the answer for its response view.
func (a *API) readRound(c *call, vw *storedView, tid string, n int, explain bool, format string, pg page) (int, any, error) {
	ev, err := a.loadEvent(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	r, steady, err := a.svc.ReadRound(ev.Event, n) // writes nothing: the round as stored
	if err != nil {
		return 0, nil, err
	}
	if steady {
		a.saveRound(vw, ev, r) // its games exist: the view serves the next reads
		c.keepView(ev.nextStart(c.nowMs()))
	}
	out := &roundOut{RoundView: ev.RoundView(r, explain && format != "csv", c.nowMs())}
	pageRound(out, c.r.URL.Path, c.r.URL.Query(), pg)
	return roundResponse(c, out, format, nil)
}

// RunDue does the work due on events' rounds by now (service.RunDue): a
// team round's lineups drawn at its deadline (T-3), a knockout's next games
// whose game command could not make them (S-3). The due work's runner
// calls it on a schedule: functions/duework every minute when deployed,
// the local stack's ticker. An event this stack holds as a read-only
// mirror owes it nothing (its source does the work); its items go.
func (a *API) RunDue(ctx context.Context) (service.DueRun, error) {
	run, err := a.svc.RunDue(ctx, a.now().UnixMilli(), a.mirror.Refusal)
	if run.Found > 0 || err != nil {
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		a.log.Info("due work", "found", run.Found, "done", run.Done, "failed", run.Failed, "left", run.Left, "err", msg)
	}
	return run, err
}

func boolQuery(c *call, name string) (bool, error) {
	switch c.r.URL.Query().Get(name) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, badRequest("invalid_query", name+`: want "true" or "false"`)
}

// changeIn is POST /tournaments/{tid}/rounds/{n}/changes.
type changeIn struct {
	Action string `json:"action"`
	Table  int    `json:"table"`
	Red    string `json:"red"`
	Black  string `json:"black"`
	Player string `json:"player"`
	Note   string `json:"note"`
}

// POST /tournaments/{tid}/rounds/{n}/changes — organiser: swap colours, force
// a pair or move the bye before the round starts; kept in the round's audit
// log. The changed tables keep their game ids: each game, not yet started, is
// rewritten with its new players.
func (a *API) changeRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	var in changeIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	if len(in.Note) > 500 {
		return 0, nil, badRequest("invalid_field", "note: at most 500 characters")
	}
	cmd := service.ChangeRound{N: n, Change: tournament.Change{Action: in.Action, Table: in.Table, Red: in.Red, Black: in.Black, Player: in.Player, Note: in.Note}}
	view := func(ch service.RoundOf) (any, error) {
		return localizeRound(service.RoundViewOf(ch.Round, ch.Event.H, ch.Event.Numbers(), true, c.nowMs()), c.r), nil
	}
	ch, err := a.svc.ExecChange(c.ctx(), tid, a.eventCaller(c), cmd, c.nowMs())
	if err != nil {
		return 0, nil, renderCurrent(err, view)
	}
	out, _ := view(ch)
	return http.StatusOK, out, nil
}

// POST /tournaments/{tid}/rounds/{n}/start — the organiser or an arbiter
// starts a paired round now: its games' clocks start, and late arrival
// counts from now (C-1, C-6). A round whose start time has not come starts
// early. Starting a round that has started changes nothing: 409 with the
// round; a round not yet paired is 422. A team round's lineups due at its
// start are drawn then (service.ExecStart).
func (a *API) startRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	started, err := a.svc.ExecStart(c.ctx(), tid, a.eventCaller(c), n, c.nowMs())
	if err != nil {
		return 0, nil, renderCurrent(err, func(cur service.RoundOf) (any, error) {
			return cur.Event.RoundView(cur.Round, false, c.nowMs()), nil
		})
	}
	return http.StatusOK, started.Event.RoundView(started.Round, false, c.nowMs()), nil
}

// roundOut is a round's answer: the round view (service.RoundView) and,
// on a round of more tables than one page, or when the request named one,
// the tables' total, this page's offset and the next page.
type roundOut struct {
	service.RoundView
	*pageOut
}
