package tournament_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/xqtour/xqtour/shared/rating"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// L-1: the hand-worked report of testdata/rating (the arithmetic is in its
// README): a forfeit counts for nobody, games against an unrated player
// change no rating, and the unrated player earns a first rating from
// performance after minGames games.
func TestRatingReport_L1_Testdata(t *testing.T) {
	var in struct {
		Rating  struct{ MinGames int }
		Players []struct {
			ID     string
			Rating int
		}
		Games []struct {
			Round      int
			Red, Black string
			Result     result.Result // the API's string in the file
		}
	}
	var want []struct {
		ID                           string
		Old, Games, Halves, K        int
		Change, New, OpponentAverage int
		Expected                     float64
		First                        bool
	}
	for name, v := range map[string]any{"swiss6.input": &in, "swiss6.golden": &want} {
		b, err := os.ReadFile("testdata/rating/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	tm := &tournament.Tournament{Settings: tournament.Settings{Rating: rating.Params{MinGames: in.Rating.MinGames}}}
	var ev standings.Event
	ratings := map[string]int{}
	for _, p := range in.Players {
		ev.Players = append(ev.Players, standings.Player{ID: p.ID})
		ratings[p.ID] = p.Rating
	}
	for _, g := range in.Games {
		ev.Games = append(ev.Games, standings.Game{Round: g.Round, Red: g.Red, Black: g.Black, Result: g.Result})
	}
	got, err := tournament.RatingReport(tm, ev, ratings)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Old != w.Old || g.Games != w.Games || g.Halves != w.Halves || g.K != w.K || g.Change != w.Change ||
			g.New != w.New || g.OpponentAverage != w.OpponentAverage || g.Expected != w.Expected || g.First != w.First {
			t.Errorf("line %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}
