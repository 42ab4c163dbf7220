package httpapi

import (
	"net/http"
	"strconv"

	"github.com/xqtour/xqtour/shared/rating"
	"github.com/xqtour/xqtour/shared/tournament"
)

// ratingJSON is the rating report's parameters (L-1), in and out.
type ratingJSON struct {
	KBands        []kBandJSON `json:"kBands,omitempty"`
	InitialRating int         `json:"initialRating"`
	MinGames      int         `json:"minGames,omitempty"`
	MaxDiff       int         `json:"maxDiff,omitempty"`
}

// kBandJSON is one K band: K for ratings below Below (0: no upper bound).
type kBandJSON struct {
	Below int `json:"below"`
	K     int `json:"k"`
}

func (r *ratingJSON) params() rating.Params {
	if r == nil {
		return rating.Params{}
	}
	p := rating.Params{InitialRating: r.InitialRating, MinGames: r.MinGames, MaxDiff: r.MaxDiff}
	for _, b := range r.KBands {
		p.Bands = append(p.Bands, rating.Band{Below: b.Below, K: b.K})
	}
	return p
}

func ratingOut(p rating.Params) *ratingJSON {
	p = tournament.RatingParams(p)
	out := &ratingJSON{InitialRating: p.InitialRating, MinGames: p.MinGames, MaxDiff: p.MaxDiff}
	for _, b := range p.Bands {
		out.KBands = append(out.KBands, kBandJSON{Below: b.Below, K: b.K})
	}
	return out
}

// ratingRowOut is one player's line of the rating report.
type ratingRowOut struct {
	PlayerID        string  `json:"playerId"`
	Name            string  `json:"name"`
	Number          int     `json:"number"`
	OldRating       int     `json:"oldRating"`
	NewRating       int     `json:"newRating"`
	Games           int     `json:"games"`
	Score           float64 `json:"score"`
	ExpectedScore   float64 `json:"expectedScore"`
	K               int     `json:"k"`
	Change          int     `json:"change"`
	FirstRating     bool    `json:"firstRating"`
	OpponentAverage int     `json:"opponentAverage"`
}

// GET /tournaments/{tid}/ratings — public: the rating report of the event
// (L-1, the chief arbiter's 等级分计算) after the last complete round, the
// round in play with ?live=true, or ?round=n; ?format=csv for a
// spreadsheet. Players in number order.
func (a *API) getRatings(c *call) (int, any, error) {
	format, err := formatQuery(c, "json", "csv")
	if err != nil {
		return 0, nil, err
	}
	ev, tb, err := a.tables(c, "") // as the standings: the last complete round unless ?live=true
	if err != nil {
		return 0, nil, err
	}
	lines, err := tb.Ratings()
	if err != nil {
		return 0, nil, err
	}
	rows := make([]ratingRowOut, len(lines))
	for i, l := range lines {
		rows[i] = ratingRowOut{PlayerID: l.ID, Name: l.Name, Number: l.Number, OldRating: l.Old, NewRating: l.New,
			Games: l.Games, Score: float64(l.Halves) / 2, ExpectedScore: l.Expected, K: l.K, Change: l.Change,
			FirstRating: l.First, OpponentAverage: l.OpponentAverage}
	}
	c.keepView(ev.nextStart(c.nowMs()))
	if format == "csv" {
		return http.StatusOK, ratingsCSV(rows), nil
	}
	return http.StatusOK, map[string]any{"round": tb.Round, "live": tb.Live, "parameters": ratingOut(ev.T.Settings.Rating), "rows": rows}, nil
}

// ratingsCSV is the rating report as a spreadsheet, one row a player.
func ratingsCSV(rows []ratingRowOut) raw {
	itoa := strconv.Itoa
	ftoa := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	recs := make([][]string, len(rows))
	for i, r := range rows {
		recs[i] = []string{itoa(r.Number), r.PlayerID, r.Name, itoa(r.OldRating), itoa(r.Games), ftoa(r.Score),
			ftoa(r.ExpectedScore), itoa(r.K), itoa(r.Change), itoa(r.NewRating), strconv.FormatBool(r.FirstRating), itoa(r.OpponentAverage)}
	}
	return csvAnswer([]string{"number", "playerId", "name", "oldRating", "games", "score", "expectedScore", "k", "change", "newRating", "firstRating", "opponentAverage"}, recs)
}
