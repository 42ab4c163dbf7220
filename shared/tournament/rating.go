package tournament

import (
	"strings"

	"github.com/xqtour/xqtour/shared/rating"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
)

// normalizeRating fills the rating report's defaults field by field, so an
// event may set only its K bands, and validates the result (L-1).
func (s *Settings) normalizeRating() error {
	s.Rating = RatingParams(s.Rating)
	if err := s.Rating.Validate(); err != nil {
		return &FieldError{Field: "rating", Message: strings.TrimPrefix(err.Error(), rating.ErrInvalid.Error()+": "), Rule: "L-1"}
	}
	return nil
}

// RatingParams returns p with rating.Defaults for what it leaves unset: an
// event stored before the setting existed reads the defaults.
func RatingParams(p rating.Params) rating.Params {
	d := rating.Defaults()
	if len(p.Bands) == 0 {
		p.Bands = d.Bands
	}
	if p.MinGames == 0 {
		p.MinGames = d.MinGames
	}
	if p.MaxDiff == 0 {
		p.MaxDiff = d.MaxDiff
	}
	return p
}

// RatingReport is the event's rating report as of its standings input (L-1):
// every player with its rating before the event; the games played over the
// board (forfeits, byes and unfinished games do not count).
func RatingReport(t *Tournament, in standings.Event, ratings map[string]int) ([]rating.Line, error) {
	players := make([]rating.Player, len(in.Players))
	for i, p := range in.Players {
		players[i] = rating.Player{ID: p.ID, Rating: ratings[p.ID]}
	}
	var games []rating.Game
	for _, g := range in.Games {
		var halves int
		switch g.Result {
		case result.RedWins:
			halves = 2
		case result.Draw:
			halves = 1
		case result.BlackWins:
			halves = 0
		default:
			continue
		}
		games = append(games, rating.Game{Red: g.Red, Black: g.Black, RedHalves: halves})
	}
	return rating.Report(RatingParams(t.Settings.Rating), players, games)
}
