package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
	"github.com/xqtour/xqtour/shared/xiangqi"
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

// tableRound says which round a standings table or crosstable is after:
// ?round=n, a paired round; by default the last round that is complete —
// it and every round before it have all their results — so a table read
// while a round is in play shows no half-played round; with ?live=true the
// last paired round with the results in so far. live reports that the
// round chosen is still in play. 0 is the table before round 1.
func (ev *event) tableRound(c *call) (n int, live bool, err error) {
	t := ev.T
	live, err = boolQuery(c, "live")
	if err != nil {
		return 0, false, err
	}
	done := func(n int) bool {
		r := ev.Round(n)
		return r != nil && tournament.StateOf(ev.H, r, c.nowMs()) == tournament.RoundFinished
	}
	switch s := c.r.URL.Query().Get("round"); {
	case s != "":
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return 0, false, badRequest("invalid_query", "round: want a round number ≥ 1")
		}
		if n > t.Round {
			return 0, false, notFound(fmt.Sprintf("round %d of %s (the event has paired %d)", n, t.ID, t.Round))
		}
		return n, !done(n), nil
	case live:
		return t.Round, t.Round > 0 && !done(t.Round), nil
	}
	for n < t.Round && done(n+1) {
		n++
	}
	return n, false, nil
}

// beforeRound1 empties a table's input of games and byes: the table after
// "round 0", every entrant level, which standings would otherwise read as
// the last round.
func beforeRound1(in standings.Event) standings.Event {
	in.Games, in.Byes = nil, nil
	return in
}

// standingsEvent loads the event with one paginated Query and turns it into
// the standings' input, for the round asked for.
func (a *API) standingsEvent(c *call) (*event, standings.Event, int, bool, error) {
	ev, err := a.loadEvent(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return nil, standings.Event{}, 0, false, err
	}
	n, live, err := ev.tableRound(c)
	if err != nil {
		return nil, standings.Event{}, 0, false, err
	}
	var in standings.Event
	switch group := c.r.URL.Query().Get("group"); {
	case ev.T.Settings.Teams: // the players' tables of a team event are over its board games
		in, err = ev.boardsEvent()
	case group != "":
		in, err = tournament.GroupStandingsEvent(ev.T, ev.H, group) // S-5: one group's table
	default:
		in, err = tournament.StandingsEvent(ev.T, ev.H)
	}
	if n == 0 {
		in = beforeRound1(in)
	}
	return ev, in, n, live, err
}

// GET /tournaments/{tid}/standings — public (K-1, R-1…, S-6, S-7);
// ?round=n is the table after round n, ?format=csv a spreadsheet, ?view= the
// team tables (teams.go: teams, boards, teamsByPlaces; teams is the default
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
	var vw *storedView
	if (view == "" || view == "players") && q.Get("group") == "" {
		if vw, err = a.openTableView(c, "standings"); err != nil {
			return 0, nil, err
		}
		if vw.current() {
			var head standingsOut
			rows, err := viewRows[standingRowOut](vw, pg.offset, pg.limit)
			if err == nil {
				err = vw.head(&head)
			}
			if !errors.Is(err, errViewGone) {
				if err != nil {
					return 0, nil, err
				}
				head.Rows = rows
				return playerTablePage(c, head, pg, vw.rows(), format)
			}
		}
	}
	if vw == nil { // a team event, a team view, a group's table: the response view serves it
		return a.serveViewed(c, "GET /tournaments/{tid}/standings", func() (int, any, error) { return a.standingsFromEvent(c, nil, view, format, pg) })
	}
	return a.standingsFromEvent(c, vw, view, format, pg)
}

// standingsFromEvent answers GET …/standings from the event, storing the
// players' table view vw (when given) or marking the answer for its
// response view.
func (a *API) standingsFromEvent(c *call, vw *storedView, view, format string, pg page) (int, any, error) {
	q := c.r.URL.Query()
	ev, err := a.loadEvent(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return 0, nil, err
	}
	n, live, err := ev.tableRound(c)
	if err != nil {
		return 0, nil, err
	}
	if vw == nil && knownGroup(ev, q.Get("group")) {
		c.keepView(ev.nextStart(c.nowMs()))
	}
	if view == "overall" {
		return overallPlaces(ev, format)
	}
	if ev.T.Settings.Teams || (view != "" && view != "players") {
		return ev.teamStandings(view, format, q.Get("group"), n, live)
	}
	in, err := tournament.StandingsEvent(ev.T, ev.H)
	if group := q.Get("group"); group != "" {
		in, err = tournament.GroupStandingsEvent(ev.T, ev.H, group) // S-5: one group's table
	}
	if err != nil {
		return 0, nil, err
	}
	if n == 0 {
		in = beforeRound1(in)
	}
	table, err := standings.Standings(in, n)
	if err != nil {
		return 0, nil, err
	}
	out := playerTableView(table, n, live)
	all := out.Rows
	out.Rows = nil
	saveTable(vw, ev, n, out, all)
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
		return http.StatusOK, raw{contentType: "text/csv; charset=utf-8", data: standingsCSV(out)}, nil
	}
	return http.StatusOK, standingsPage{out, pageInfo(c, pg, total)}, nil
}

// standingsCSV writes the table with a header row; tie-break columns are
// named after the chain's criteria, as "tiebreak.<criterion>".
func standingsCSV(t standingsOut) []byte {
	var buf bytes.Buffer
	w := newCSVWriter(&buf)
	header := []string{"rank", "number", "playerId", "name", "points"}
	if len(t.Rows) > 0 {
		for _, tb := range t.Rows[0].Tiebreaks { // prefixed: wins, fouls … are also plain counts
			header = append(header, "tiebreak."+tb.Name)
		}
	}
	header = append(header, "games", "wins", "draws", "losses", "blackGames", "blackWins", "fouls", "byes", "forfeits", "withdrawn", "shared", "playoff")
	_ = w.Write(header)
	itoa, btoa := strconv.Itoa, strconv.FormatBool
	for _, r := range t.Rows {
		rec := []string{itoa(r.Rank), itoa(r.Number), r.PlayerID, r.Name, itoa(r.Points)}
		for _, tb := range r.Tiebreaks {
			rec = append(rec, strconv.FormatFloat(tb.Value, 'f', -1, 64))
		}
		rec = append(rec, itoa(r.Games), itoa(r.Wins), itoa(r.Draws), itoa(r.Losses), itoa(r.BlackGames), itoa(r.BlackWins),
			itoa(r.Fouls), itoa(r.Byes), itoa(r.Forfeits), btoa(r.Withdrawn), btoa(r.Shared), btoa(r.Playoff))
		_ = w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
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
	var vw *storedView
	if c.r.URL.Query().Get("group") == "" {
		if vw, err = a.openTableView(c, "crosstable"); err != nil {
			return 0, nil, err
		}
		if vw.current() {
			var head crosstableOut
			rows, err := viewRows[crossRowOut](vw, pg.offset, pg.limit)
			if err == nil {
				err = vw.head(&head)
			}
			if !errors.Is(err, errViewGone) {
				if err != nil {
					return 0, nil, err
				}
				head.Rows = rows
				return crosstablePage(c, head, pg, vw.rows(), format)
			}
		}
	}
	if vw == nil { // a team event, a group's table: the response view serves it
		return a.serveViewed(c, "GET /tournaments/{tid}/crosstable", func() (int, any, error) { return a.crosstableFromEvent(c, nil, format, pg) })
	}
	return a.crosstableFromEvent(c, vw, format, pg)
}

// crosstableFromEvent answers GET …/crosstable from the event, storing the
// crosstable view vw (when given) or marking the answer for its response view.
func (a *API) crosstableFromEvent(c *call, vw *storedView, format string, pg page) (int, any, error) {
	ev, in, n, live, err := a.standingsEvent(c)
	if err != nil {
		return 0, nil, err
	}
	if vw == nil && knownGroup(ev, c.r.URL.Query().Get("group")) {
		c.keepView(ev.nextStart(c.nowMs()))
	}
	ct, err := standings.CrossTable(in, n)
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
				co.Opponent, co.OpponentNumber = &id, cell.OpponentNumber
				co.Colour = "red"
				if cell.Color == xiangqi.Black {
					co.Colour = "black"
				}
			}
			row.Cells = append(row.Cells, co)
		}
		rows = append(rows, row)
	}
	out := crosstableOut{Round: n, Live: live}
	if !ev.T.Settings.Teams {
		saveTable(vw, ev, n, out, rows)
	}
	out.Rows = pageSlice(rows, pg)
	return crosstablePage(c, out, pg, len(rows), format)
}

// crosstablePage answers with one page of a crosstable of total rows.
func crosstablePage(c *call, out crosstableOut, pg page, total int, format string) (int, any, error) {
	c.settled(!out.Live && c.r.URL.Query().Get("round") != "")
	if format == "csv" {
		return http.StatusOK, raw{contentType: csvType, data: crosstableCSV(out.Rows)}, nil
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

// overallPlaces is ?view=overall of a groups event (S-5): the final places
// across the group stage and the finals; of a knockout, individual or team,
// the bracket's places (S-3, knockoutPlaces).
func overallPlaces(ev *event, format string) (int, any, error) {
	if ev.T.Settings.Teams || ev.T.Settings.System != tournament.Groups {
		return knockoutPlaces(ev, format)
	}
	places, err := tournament.GroupPlaces(ev.T, ev.H)
	if err != nil {
		return 0, nil, err
	}
	rows := make([]overallRowOut, len(places))
	for i, p := range places {
		pl := ev.H.Player(p.Player)
		rows[i] = overallRowOut{Place: p.Place, PlayerID: p.Player, Name: pl.Name, Number: pl.Number, From: p.From, GroupPlace: p.GroupPlace}
	}
	if format == "csv" {
		var buf bytes.Buffer
		w := newCSVWriter(&buf)
		_ = w.Write([]string{"place", "number", "playerId", "name", "from", "groupPlace"})
		for _, r := range rows {
			_ = w.Write([]string{strconv.Itoa(r.Place), strconv.Itoa(r.Number), r.PlayerID, r.Name, r.From, strconv.Itoa(r.GroupPlace)})
		}
		w.Flush()
		return http.StatusOK, raw{contentType: "text/csv; charset=utf-8", data: buf.Bytes()}, nil
	}
	return http.StatusOK, map[string]any{"round": ev.T.Round, "view": "overall", "rows": rows}, nil
}
