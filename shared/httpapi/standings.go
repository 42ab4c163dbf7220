package httpapi

import (
	"net/http"
	"strconv"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/viewcache"
)

type tiebreakOut struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

type standingRowOut struct {
	Rank       int           `json:"rank"`
	PlayerID   string        `json:"playerId"`
	Name       string        `json:"name"`
	Number     int           `json:"number"`
	Points     int           `json:"points"`
	Tiebreaks  []tiebreakOut `json:"tiebreaks"`
	Games      int           `json:"games"`
	Wins       int           `json:"wins"`
	Draws      int           `json:"draws"`
	Losses     int           `json:"losses"`
	BlackGames int           `json:"blackGames"`
	BlackWins  int           `json:"blackWins"`
	Fouls      int           `json:"fouls"`
	Byes       int           `json:"byes"`
	Forfeits   int           `json:"forfeits"`
	Withdrawn  bool          `json:"withdrawn,omitempty"`
	Shared     bool          `json:"shared,omitempty"`
	Playoff    bool          `json:"playoff,omitempty"`
}

type standingsOut struct {
	Round    int              `json:"round"`
	Live     bool             `json:"live"`
	Scoring  string           `json:"scoring"`
	Chain    []string         `json:"chain"`
	Rows     []standingRowOut `json:"rows"`
	Annulled []string         `json:"annulled"`
}

// tables loads the event and its tables after the round the request asks
// for (service.TableQuery): ?round=n, a paired round; by default the last
// complete round; with ?live=true the round in play. group is the ?group=
// the route reads, "" for one that has none.
func (a *API) tables(c *call, group string) (*event, *service.Tables, error) {
	ev, err := a.loadEvent(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return nil, nil, err
	}
	q := service.TableQuery{Group: group}
	if q.Live, err = boolQuery(c, "live"); err != nil {
		return nil, nil, err
	}
	if q.Round, err = roundQuery(c); err != nil {
		return nil, nil, err
	}
	tb, err := ev.Tables(q, c.nowMs())
	return ev, tb, err
}

// roundQuery reads ?round=, a round number ≥ 1; 0 when the query has none.
func roundQuery(c *call) (int, error) {
	s := c.r.URL.Query().Get("round")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, badRequest("invalid_query", "round: want a round number ≥ 1")
	}
	return n, nil
}

// GET /tournaments/{tid}/standings — public (K-1, R-1…, S-6, S-7);
// ?round=n is the table after round n, ?format=csv a spreadsheet, ?view= the
// team tables (teamstandings.go: teams, boards, teamsByPlaces; teams is the default
// of a team event), ?group= one group's or same-place final's table of a
// groups event (S-5); ?offset= and ?limit= page the players' table. The
// players' table of an individual event is served from its materialised
// view (views.go) while that is current.
func (a *API) getStandings(c *call) (int, any, error) {
	q := c.r.URL.Query()
	view := q.Get("view")
	switch view {
	case "", "players", "teams", "boards", "teamsByPlaces", "overall":
	default:
		return 0, nil, badRequest("invalid_query", `view: want "players", "teams", "boards", "teamsByPlaces" or "overall"`)
	}
	format, err := formatQuery(c, "json", "csv")
	if err != nil {
		return 0, nil, err
	}
	pg, err := pageQuery(c, format)
	if err != nil {
		return 0, nil, err
	}
	return servePlayerTable(a, c, "standings", (view == "" || view == "players") && q.Get("group") == "", pg,
		func(head standingsOut, rows []standingRowOut, total int) (int, any, error) {
			head.Rows = rows
			return playerTablePage(c, head, pg, total, format)
		},
		func(vw *storedView) (int, any, error) { return a.standingsFromEvent(c, vw, view, format, pg) })
}

// servePlayerTable answers a players' table route (GET …/standings or
// …/crosstable, kind) from its materialised view while that is current
// (page renders the view's head and rows of total); otherwise fromEvent
// answers from the event, storing the table view when the request has one
// (tableView: a players' table, not one group's) or, for a team event, a
// team view, a group's table, through the response view.
func servePlayerTable[H, R any](a *API, c *call, kind string, tableView bool, pg page,
	page func(head H, rows []R, total int) (int, any, error), fromEvent func(vw *storedView) (int, any, error)) (int, any, error) {
	var vw *storedView
	if tableView {
		var err error
		if vw, err = a.openTableView(c, kind); err != nil {
			return 0, nil, err
		}
	}
	if vw == nil { // a team event, a team view, a group's table: the response view serves it
		return a.serveViewed(c, "GET /tournaments/{tid}/"+kind, func() (int, any, error) { return fromEvent(nil) })
	}
	head, rows, ok, err := viewcache.Page[H, R](c.ctx(), vw.v, c.nowMs(), pg.offset, pg.limit)
	if err != nil {
		return 0, nil, err
	}
	if ok {
		return page(head, rows, vw.rows())
	}
	return fromEvent(vw)
}

// viewedTables is the tables a players' table route reads from the event
// (tables, its ?group= among them); with no table view vw to store, the
// answer is marked for its response view when the group is the event's.
func (a *API) viewedTables(c *call, vw *storedView) (*event, *service.Tables, error) {
	group := c.r.URL.Query().Get("group")
	ev, tb, err := a.tables(c, group)
	if err == nil && vw == nil && knownGroup(ev, group) {
		c.keepView(ev.nextStart(c.nowMs()))
	}
	return ev, tb, err
}

// standingsFromEvent answers GET …/standings from the event, storing the
// players' table view vw (when given) or marking the answer for its
// response view.
func (a *API) standingsFromEvent(c *call, vw *storedView, view, format string, pg page) (int, any, error) {
	ev, tb, err := a.viewedTables(c, vw)
	if err != nil {
		return 0, nil, err
	}
	if view == "overall" {
		return overallPlaces(ev, format)
	}
	if ev.T.Settings.Teams || (view != "" && view != "players") {
		return teamStandings(tb, view, format)
	}
	table, err := tb.Players()
	if err != nil {
		return 0, nil, err
	}
	out := playerTableView(table, tb.Round, tb.Live)
	all := out.Rows
	out.Rows = nil
	saveTable(vw, ev, tb.Round, out, all)
	out.Rows = pageSlice(all, pg)
	return playerTablePage(c, out, pg, len(all), format)
}

// standingsPage is a page of the players' table.
type standingsPage struct {
	standingsOut
	pageOut
}

// playerTablePage answers with one page of a players' table of total rows.
func playerTablePage(c *call, out standingsOut, pg page, total int, format string) (int, any, error) {
	c.settled(!out.Live && c.r.URL.Query().Get("round") != "")
	if format == "csv" {
		return http.StatusOK, standingsCSV(out), nil
	}
	return http.StatusOK, standingsPage{out, pageInfo(c, pg, total)}, nil
}

// standingsCSV writes the table with a header row; tie-break columns are
// named after the chain's criteria, as "tiebreak.<criterion>".
func standingsCSV(t standingsOut) raw {
	header := []string{"rank", "number", "playerId", "name", "points"}
	if len(t.Rows) > 0 {
		for _, tb := range t.Rows[0].Tiebreaks { // prefixed: wins, fouls … are also plain counts
			header = append(header, "tiebreak."+tb.Name)
		}
	}
	header = append(header, "games", "wins", "draws", "losses", "blackGames", "blackWins", "fouls", "byes", "forfeits", "withdrawn", "shared", "playoff")
	itoa, btoa := strconv.Itoa, strconv.FormatBool
	recs := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rec := []string{itoa(r.Rank), itoa(r.Number), r.PlayerID, r.Name, itoa(r.Points)}
		for _, tb := range r.Tiebreaks {
			rec = append(rec, strconv.FormatFloat(tb.Value, 'f', -1, 64))
		}
		rec = append(rec, itoa(r.Games), itoa(r.Wins), itoa(r.Draws), itoa(r.Losses), itoa(r.BlackGames), itoa(r.BlackWins),
			itoa(r.Fouls), itoa(r.Byes), itoa(r.Forfeits), btoa(r.Withdrawn), btoa(r.Shared), btoa(r.Playoff))
		recs[i] = rec
	}
	return csvAnswer(header, recs)
}

type crossCellOut struct {
	Round          int     `json:"round"`
	Opponent       *string `json:"opponent"`
	OpponentNumber int     `json:"opponentNumber,omitempty"`
	Colour         string  `json:"colour,omitempty"`
	Result         string  `json:"result,omitempty"`
	Points         int     `json:"points"`
	Mark           string  `json:"mark,omitempty"`
}

type crossRowOut struct {
	PlayerID string         `json:"playerId"`
	Name     string         `json:"name"`
	Number   int            `json:"number"`
	Points   int            `json:"points"`
	Cells    []crossCellOut `json:"cells"`
}

// crosstableOut is GET /tournaments/{tid}/crosstable (one page of it).
type crosstableOut struct {
	Round int           `json:"round"`
	Live  bool          `json:"live"`
	Rows  []crossRowOut `json:"rows"`
	pageOut
}

// GET /tournaments/{tid}/crosstable — public: per player per round the
// opponent, colour, result and forfeit/bye/rest marks; ?round=n and
// ?live=true as for standings; ?format=csv a spreadsheet; ?offset= and
// ?limit= page it. An individual event's is served from its materialised
// view (views.go) while that is current.
func (a *API) getCrosstable(c *call) (int, any, error) {
	format, err := formatQuery(c, "json", "csv")
	if err != nil {
		return 0, nil, err
	}
	pg, err := pageQuery(c, format)
	if err != nil {
		return 0, nil, err
	}
	return servePlayerTable(a, c, "crosstable", c.r.URL.Query().Get("group") == "", pg,
		func(head crosstableOut, rows []crossRowOut, total int) (int, any, error) {
			head.Rows = rows
			return crosstablePage(c, head, pg, total, format)
		},
		func(vw *storedView) (int, any, error) { return a.crosstableFromEvent(c, vw, format, pg) })
}

// crosstableFromEvent answers GET …/crosstable from the event, storing the
// crosstable view vw (when given) or marking the answer for its response view.
func (a *API) crosstableFromEvent(c *call, vw *storedView, format string, pg page) (int, any, error) {
	ev, tb, err := a.viewedTables(c, vw)
	if err != nil {
		return 0, nil, err
	}
	ct, err := tb.Crosstable()
	if err != nil {
		return 0, nil, err
	}
	rows := []crossRowOut{}
	for _, r := range ct.Rows {
		row := crossRowOut{PlayerID: r.PlayerID, Name: r.Name, Number: r.Number, Points: r.Points, Cells: []crossCellOut{}}
		for _, cell := range r.Cells {
			co := crossCellOut{Round: cell.Round, Result: cell.Result.String(), Points: cell.Points, Mark: string(cell.Mark)}
			if cell.OpponentID != "" {
				id := cell.OpponentID
				co.Opponent, co.OpponentNumber, co.Colour = &id, cell.OpponentNumber, cell.Color.String()
			}
			row.Cells = append(row.Cells, co)
		}
		rows = append(rows, row)
	}
	out := crosstableOut{Round: tb.Round, Live: tb.Live}
	if !ev.T.Settings.Teams {
		saveTable(vw, ev, tb.Round, out, rows)
	}
	out.Rows = pageSlice(rows, pg)
	return crosstablePage(c, out, pg, len(rows), format)
}

// crosstablePage answers with one page of a crosstable of total rows.
func crosstablePage(c *call, out crosstableOut, pg page, total int, format string) (int, any, error) {
	c.settled(!out.Live && c.r.URL.Query().Get("round") != "")
	if format == "csv" {
		return http.StatusOK, crosstableCSV(out.Rows), nil
	}
	out.pageOut = pageInfo(c, pg, total)
	return http.StatusOK, out, nil
}

type overallRowOut struct {
	Place      int    `json:"place"`
	PlayerID   string `json:"playerId"`
	Name       string `json:"name"`
	Number     int    `json:"number"`
	From       string `json:"from"`
	GroupPlace int    `json:"groupPlace"`
}

type knockoutPlaceOut struct {
	Place    int    `json:"place"`
	PlayerID string `json:"playerId,omitempty"`
	TeamID   string `json:"teamId,omitempty"`
	Name     string `json:"name"`
	Number   int    `json:"number"`
	From     string `json:"from"`
	// GroupPlace is a team's place in its group (team groups events).
	GroupPlace int `json:"groupPlace,omitempty"`
}

// overallPlaces is ?view=overall (service.Event.Places): of a groups event
// the final places across the group stage and the finals (S-5), every row
// with its group place; of a knockout, individual or team, the bracket's
// places (S-3) — the final, the third-place match when played, then by the
// round each went out in — and of a team groups event the places across
// groups and finals. A team event's rows name teams.
func overallPlaces(ev *event, format string) (int, any, error) {
	places, err := ev.Places()
	if err != nil {
		return 0, nil, err
	}
	var (
		rows   any
		header = []string{"place", "number", "id", "name", "from"}
		csv    = make([][]string, len(places.Rows))
	)
	itoa := strconv.Itoa
	if places.Groups {
		out := make([]overallRowOut, len(places.Rows))
		for i, p := range places.Rows {
			out[i] = overallRowOut{Place: p.Place, PlayerID: p.Player, Name: p.Name, Number: p.Number, From: p.From, GroupPlace: p.GroupPlace}
			csv[i] = []string{itoa(p.Place), itoa(p.Number), p.Player, p.Name, p.From, itoa(p.GroupPlace)}
		}
		rows, header = out, []string{"place", "number", "playerId", "name", "from", "groupPlace"}
	} else {
		out := make([]knockoutPlaceOut, len(places.Rows))
		for i, p := range places.Rows {
			out[i] = knockoutPlaceOut{Place: p.Place, PlayerID: p.Player, Name: p.Name, Number: p.Number, From: p.From, GroupPlace: p.GroupPlace}
			if places.Teams {
				out[i].PlayerID, out[i].TeamID = "", p.Player
			}
			csv[i] = []string{itoa(p.Place), itoa(p.Number), p.Player, p.Name, p.From}
		}
		rows = out
	}
	if format == "csv" {
		return http.StatusOK, csvAnswer(header, csv), nil
	}
	return http.StatusOK, map[string]any{"round": ev.T.Round, "view": "overall", "rows": rows}, nil
}
