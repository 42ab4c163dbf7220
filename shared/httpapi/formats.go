package httpapi

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
)

// Formats: every route that takes ?format= reads it here, so an unknown
// format is a 400 naming the formats the route has, never a silent JSON.

// formatQuery returns ?format=, the first of allowed when it is absent.
func formatQuery(c *call, allowed ...string) (string, error) {
	f := c.r.URL.Query().Get("format")
	if f == "" {
		return allowed[0], nil
	}
	if !slices.Contains(allowed, f) {
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = quote(a)
		}
		return "", badRequest("invalid_query", "format: unknown format "+quote(f)+"; want one of "+join(quoted))
	}
	return f, nil
}

const (
	csvType = "text/csv; charset=utf-8"
	pgnType = "application/x-chess-pgn; charset=utf-8"
)

// csvAnswer is a spreadsheet answer: the header row, then the rows. It is
// the one way the API writes CSV: every cell goes through csvText, so no
// cell a caller controls (names, clubs as a clubs table's team ids,
// groups, reasons…) can reach a spreadsheet as a formula, in tables
// written today or added later.
func csvAnswer(header []string, rows [][]string) raw {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	for _, row := range append([][]string{header}, rows...) {
		safe := make([]string, len(row))
		for i, cell := range row {
			safe[i] = csvText(cell)
		}
		_ = w.Write(safe) // a bytes.Buffer does not fail
	}
	w.Flush()
	return raw{contentType: csvType, data: buf.Bytes()}
}

// csvText keeps a cell a spreadsheet would run as a formula (one starting
// with =, +, -, @, tab or CR: CSV injection, as OWASP describes it) as text,
// with the quote spreadsheets read as "text follows"; the JSON views keep
// the text as entered. A plain number (a rating change of -12, a score of
// +1.5) is a number, not a formula, and stays one.
func csvText(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) || plainNumber(s) {
		return s
	}
	return "'" + s
}

// plainNumber reports whether s is a signed decimal: digits with at most one point.
func plainNumber(s string) bool {
	digits, point := 0, false
	for i, r := range s {
		switch {
		case i == 0 && (r == '-' || r == '+'):
		case r >= '0' && r <= '9':
			digits++
		case r == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

// roundCSV writes a round's pairings, one row a table, then one row a bye
// (table "bye", the player in red).
func roundCSV(r roundOut) raw {
	// The numbers come last, so the columns before them keep their places.
	header := []string{"round", "table", "red", "redName", "black", "blackName", "gameId", "result", "reason", "match", "board", "group", "redNumber", "blackNumber"}
	round := strconv.Itoa(r.Round)
	var recs [][]string
	for _, p := range r.Pairings {
		res := ""
		if p.Result != nil {
			res = *p.Result
		}
		board := ""
		if p.Board > 0 {
			board = strconv.Itoa(p.Board)
		}
		recs = append(recs, []string{round, strconv.Itoa(p.Table), p.Red, p.RedName, p.Black, p.BlackName, p.GameID, res, p.Reason, p.Match, board, p.Group,
			numberText(p.RedNumber), numberText(p.BlackNumber)})
	}
	for _, b := range r.Byes {
		recs = append(recs, []string{round, "bye", b, "", "", "", "", "", "", "", "", "", "", ""})
	}
	return csvAnswer(header, recs)
}

// numberText is a player's number for a CSV cell, empty when unknown.
func numberText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// crosstableCSV writes one row a player: number, id, name, points, then one
// column a round, "round.<n>", reading "<opponent number><r|b> <result>"
// (4r 1-0: red against number 4, won), or the cell's mark alone (bye, rest,
// missed), with a mark after the result when there is one (forfeit,
// annulled, playing).
func crosstableCSV(rows []crossRowOut) raw {
	header := []string{"number", "playerId", "name", "points"}
	rounds := 0
	for _, r := range rows {
		for _, cell := range r.Cells {
			rounds = max(rounds, cell.Round)
		}
	}
	for n := 1; n <= rounds; n++ {
		header = append(header, "round."+strconv.Itoa(n))
	}
	recs := make([][]string, len(rows))
	for i, r := range rows {
		rec := []string{strconv.Itoa(r.Number), r.PlayerID, r.Name, strconv.Itoa(r.Points)}
		cells := make([]string, rounds)
		for _, cell := range r.Cells {
			if cell.Round < 1 || cell.Round > rounds {
				continue
			}
			var text string
			if cell.Opponent != nil {
				text = fmt.Sprintf("%d%c %s", cell.OpponentNumber, cell.Colour[0], cell.Result)
				if cell.Mark != "" {
					text += " " + cell.Mark
				}
			} else {
				text = cell.Mark
			}
			cells[cell.Round-1] = strings.TrimSpace(text)
		}
		recs[i] = append(rec, cells...)
	}
	return csvAnswer(header, recs)
}

// GET /tournaments/{tid}/games — public: every game of the event (or of
// ?round=n) in round and table order; ?format=pgn is all of them as one PGN
// file, the games in that order, each with the event, round and names;
// ?offset= and ?limit= page either (a PGN page names the next in a Link header).
func (a *API) listEventGames(c *call) (int, any, error) {
	format, err := formatQuery(c, "json", "pgn")
	if err != nil {
		return 0, nil, err
	}
	pg, err := pageQuery(c, format)
	if err != nil {
		return 0, nil, err
	}
	ev, rows, err := a.eventGameRows(c)
	if err != nil {
		return 0, nil, err
	}
	// A page of at most 1,000 rows (?offset=, ?limit=): an 11-round event
	// of 10,000 players has 55,000, far over a Lambda response as one list.
	total := len(rows)
	rows, paging := pageSlice(rows, pg), pageInfo(c, pg, total)
	if format == "json" {
		c.keepView(ev.nextStart(c.nowMs()))
		return http.StatusOK, eventGamesOut{TournamentID: ev.T.ID, Games: rows, pageOut: paging}, nil
	}
	// The export is public: a game under the broadcast delay is written as
	// it stood the delay ago (delay.go), and a page holding one is not
	// kept, since the clock alone will change it.
	refs := make([]service.RecordRef, len(rows))
	for i, g := range rows {
		refs[i] = service.RecordRef{GameID: g.GameID, Round: g.Round, Red: g.RedName, Black: g.BlackName, Result: g.Result != nil}
	}
	pgn, finished, err := a.svc.EventRecords(c.ctx(), ev.T.Settings.Name, refs, c.nowMs())
	if err != nil {
		return 0, nil, err
	}
	if finished {
		c.keepView(ev.nextStart(c.nowMs()))
	}
	return http.StatusOK, raw{contentType: pgnType, data: pgn, next: paging.Next}, nil
}

// eventGameRows reads the event and its games of ?round=n (every round
// by default) as the games list shows them (service.Event.GameViews): the
// rows GET …/games pages over.
func (a *API) eventGameRows(c *call) (*event, []service.EventGame, error) {
	only, err := roundQuery(c)
	if err != nil {
		return nil, nil, err
	}
	ev, err := a.loadEvent(c.ctx(), c.r.PathValue("tid"))
	if err != nil {
		return nil, nil, err
	}
	rows, err := ev.GameViews(only)
	return ev, rows, err
}

// eventGamesOut is GET /tournaments/{tid}/games (one page of it).
type eventGamesOut struct {
	TournamentID string              `json:"tournamentId"`
	Games        []service.EventGame `json:"games"`
	pageOut
}
