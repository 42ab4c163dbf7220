package httpapi

import (
	"net/http"
	"strconv"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/standings"
)

type teamRowOut struct {
	Rank        int           `json:"rank"`
	TeamID      string        `json:"teamId"`
	Name        string        `json:"name"`
	Number      int           `json:"number"`
	MatchPoints int           `json:"matchPoints"`
	BoardPoints int           `json:"boardPoints"`
	Tiebreaks   []tiebreakOut `json:"tiebreaks"`
	Matches     int           `json:"matches"`
	MatchWins   int           `json:"matchWins"`
	MatchDraws  int           `json:"matchDraws"`
	MatchLosses int           `json:"matchLosses"`
	BoardGames  int           `json:"boardGames"`
	BoardWins   int           `json:"boardWins"`
	BoardDraws  int           `json:"boardDraws"`
	BoardLosses int           `json:"boardLosses"`
	BlackGames  int           `json:"blackGames"`
	BlackWins   int           `json:"blackWins"`
	Fouls       int           `json:"fouls"`
	Byes        int           `json:"byes"`
	Shared      bool          `json:"shared,omitempty"`
	Playoff     bool          `json:"playoff,omitempty"`
}

type teamStandingsOut struct {
	Round   int          `json:"round"`
	Live    bool         `json:"live"`
	View    string       `json:"view"`
	Scoring string       `json:"scoring"`
	Chain   []string     `json:"chain"`
	Rows    []teamRowOut `json:"rows"`
}

// teamStandings serves the team views of GET /tournaments/{tid}/standings
// (service.Tables):
//   - teams (a team event's default): match points, then the event's team
//     chain (T-7, R-5…R-8), one group's with ?group= (S-5);
//   - boards (or players) in a team event: the members' individual table over
//     their board games;
//   - teamsByPlaces (R-9, T-5): teams ranked by their members' places in the
//     individual table — a team event's teams over the boards table, or, in an
//     individual event, the clubs (players without a club are left out).
func teamStandings(tb *service.Tables, view, format string) (int, any, error) {
	var (
		table standings.TeamTable
		err   error
	)
	switch view {
	case "", "teams":
		view = "teams"
		table, err = tb.Teams()
	case "boards", "players":
		ind, err := tb.Boards()
		if err != nil {
			return 0, nil, err
		}
		out := playerTableView(ind, tb.Round, tb.Live)
		if format == "csv" {
			return http.StatusOK, standingsCSV(out), nil
		}
		return http.StatusOK, out, nil
	case "teamsByPlaces":
		table, err = tb.ByPlaces()
	}
	if err != nil {
		return 0, nil, err
	}
	out := teamStandingsOut{Round: tb.Round, Live: tb.Live, View: view, Scoring: tb.Ev.T.Settings.Scoring.Name, Chain: table.Chain.Strings(), Rows: []teamRowOut{}}
	for _, r := range table.Rows {
		row := teamRowOut{Rank: r.Rank, TeamID: r.TeamID, Name: r.Name, Number: r.Number, MatchPoints: r.MatchPoints, BoardPoints: r.BoardPoints,
			Tiebreaks: tiebreaksView(r.Tiebreaks), Matches: r.Matches, MatchWins: r.MatchWins, MatchDraws: r.MatchDraws, MatchLosses: r.MatchLosses,
			BoardGames: r.BoardGames, BoardWins: r.BoardWins, BoardDraws: r.BoardDraws, BoardLosses: r.BoardLosses,
			BlackGames: r.BlackGames, BlackWins: r.BlackWins, Fouls: r.Fouls, Byes: r.Byes, Shared: r.Shared, Playoff: r.Playoff}
		out.Rows = append(out.Rows, row)
	}
	if format == "csv" {
		return http.StatusOK, teamStandingsCSV(out), nil
	}
	return http.StatusOK, out, nil
}

// tiebreaksView is a row's tie-break values, named by criterion; [] for none.
func tiebreaksView(tbs []standings.Tiebreak) []tiebreakOut {
	out := make([]tiebreakOut, len(tbs))
	for i, tb := range tbs {
		out[i] = tiebreakOut{Name: string(tb.Name), Value: tb.Float64()}
	}
	return out
}

// playerTableView is an individual table as the standings route shows it.
func playerTableView(table standings.Table, n int, live bool) standingsOut {
	out := standingsOut{Round: n, Live: live, Scoring: table.Scoring.Name, Chain: table.Chain.Strings(), Rows: []standingRowOut{}, Annulled: []string{}}
	out.Annulled = append(out.Annulled, table.Annulled...)
	for _, r := range table.Rows {
		row := standingRowOut{Rank: r.Rank, PlayerID: r.PlayerID, Name: r.Name, Number: r.Number, Points: r.Points, Tiebreaks: tiebreaksView(r.Tiebreaks),
			Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, BlackGames: r.BlackGames, BlackWins: r.BlackWins,
			Fouls: r.Fouls, Byes: r.Byes, Forfeits: r.Forfeits, Withdrawn: r.Withdrawn, Shared: r.Shared, Playoff: r.Playoff}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// teamStandingsCSV writes the team table with a header row: the rank and
// team, the chain's criteria in chain order (so a spreadsheet reads the tie
// as the arbiter does), then the counters the chain does not already show.
// Every column name is unique.
func teamStandingsCSV(t teamStandingsOut) raw {
	itoa, btoa := strconv.Itoa, strconv.FormatBool
	type column struct {
		name  string
		value func(r teamRowOut) string
	}
	counters := []column{
		{"matchPoints", func(r teamRowOut) string { return itoa(r.MatchPoints) }},
		{"boardPoints", func(r teamRowOut) string { return itoa(r.BoardPoints) }},
		{"matches", func(r teamRowOut) string { return itoa(r.Matches) }},
		{"matchWins", func(r teamRowOut) string { return itoa(r.MatchWins) }},
		{"matchDraws", func(r teamRowOut) string { return itoa(r.MatchDraws) }},
		{"matchLosses", func(r teamRowOut) string { return itoa(r.MatchLosses) }},
		{"boardGames", func(r teamRowOut) string { return itoa(r.BoardGames) }},
		{"boardWins", func(r teamRowOut) string { return itoa(r.BoardWins) }},
		{"boardDraws", func(r teamRowOut) string { return itoa(r.BoardDraws) }},
		{"boardLosses", func(r teamRowOut) string { return itoa(r.BoardLosses) }},
		{"blackGames", func(r teamRowOut) string { return itoa(r.BlackGames) }},
		{"blackWins", func(r teamRowOut) string { return itoa(r.BlackWins) }},
		{"fouls", func(r teamRowOut) string { return itoa(r.Fouls) }},
		{"byes", func(r teamRowOut) string { return itoa(r.Byes) }},
		{"shared", func(r teamRowOut) string { return btoa(r.Shared) }},
		{"playoff", func(r teamRowOut) string { return btoa(r.Playoff) }},
	}
	header := []string{"rank", "number", "teamId", "name"}
	inChain := map[string]bool{}
	for _, c := range t.Chain {
		header = append(header, c)
		inChain[c] = true
	}
	var rest []column
	for _, c := range counters {
		if !inChain[c.name] {
			rest = append(rest, c)
			header = append(header, c.name)
		}
	}
	recs := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rec := []string{itoa(r.Rank), itoa(r.Number), r.TeamID, r.Name}
		tbs := r.Tiebreaks
		if len(t.Chain) == len(tbs)+1 { // the leading match points is no tie-break
			rec = append(rec, itoa(r.MatchPoints))
		}
		for _, tb := range tbs {
			rec = append(rec, strconv.FormatFloat(tb.Value, 'f', -1, 64))
		}
		for _, c := range rest {
			rec = append(rec, c.value(r))
		}
		recs[i] = rec
	}
	return csvAnswer(header, recs)
}
