package tournament_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A result item as the store has always held it — the result as the API's
// string — decodes into the typed result and encodes back to the same bytes,
// so events stored before results were typed read and write unchanged.
func TestResult_StoredShapeDecodes(t *testing.T) {
	const stored = `{"Round":2,"Table":3,"GameID":"gabcdefghijklmnop","Red":"p1","Black":"p2","Result":"1/2-1/2","Reason":"agreement","RedFouls":0,"BlackFouls":1,"EndedAt":1800000000000}`
	var r tournament.Result
	if err := json.Unmarshal([]byte(stored), &r); err != nil {
		t.Fatal(err)
	}
	if r.Result != result.Draw || r.BlackFouls != 1 || r.Round != 2 {
		t.Errorf("decoded %+v", r)
	}
	back, err := json.Marshal(r)
	if err != nil || string(back) != stored {
		t.Errorf("re-encoded as %s, %v; want %s", back, err, stored)
	}
	var bad tournament.Result
	if err := json.Unmarshal([]byte(`{"Round":2,"Result":"1:0"}`), &bad); err == nil {
		t.Errorf("a stored result outside the API's results decoded as %v", bad.Result)
	}
}

// storedEvent is an event item as the store held it before its rules and
// scoring were typed: written by that code (tournament.New, then
// json.Marshal), rule sets and scoring by name, the draw-offer limit -1.
const storedEvent = `{"ID":"tOLD","Settings":{"Name":"Old Open","System":"swiss","Rounds":7,"Teams":false,"Boards":0,"Substitutes":0,"TeamFormat":"","KeepEntryOrder":false,"Scoring":"3-0-redblack","Tiebreaks":["points","opponentScore","wins","fouls","blackGames","blackWins","previousRound"],"TimeControl":{"Name":"","Periods":null,"IncrementMs":0},"Rules":{"Repetition":"threefoldDraw","IllegalMoves":"foul","NoCaptureMoves":60,"DrawOfferLimit":-1,"DeadPositionDraw":true,"LateForfeitMs":900000,"RecordArrivals":true,"OfferLoses":false,"DroppedPieceLoses":true},"FirstRound":"positional","AvoidSameClub":false,"GamesPerMatch":1,"Playoff":false,"ShareTitle":false,"PlacesCounted":0,"StartsAt":0,"Elimination":{"FromRound":0,"PerRound":0,"Keep":0},"Groups":{"Count":0,"Finals":""},"Numbering":"rating","Knockout":{"ThirdPlace":false,"Reset":null,"Finalists":0,"TieBreak":"","Colours":""},"LateEntries":{"UntilRound":0,"MissedRounds":"zero"},"Rating":{"Bands":[{"Below":2000,"K":30},{"Below":2400,"K":20},{"Below":0,"K":10}],"InitialRating":0,"MinGames":5,"MaxDiff":400},"ChallengeDraw":""},"Status":"registration","CreatedAt":1800000000000,"OrganiserTokenHash":"hash","Players":0,"Removed":0,"Round":0,"TeamCount":0,"Officials":0,"ExpiresAt":0}`

// An event stored before the settings held typed rules decodes into them —
// the rule sets, the D-4 limit's -1, the scoring by name — and encodes them
// back as they were stored, so stored events keep their rules and their
// games are set up as before.
func TestSettings_StoredEventDecodes(t *testing.T) {
	var ev tournament.Tournament
	if err := json.Unmarshal([]byte(storedEvent), &ev); err != nil {
		t.Fatal(err)
	}
	want := game.Rules{Repetition: game.ThreefoldDraw, IllegalMoves: game.IllegalIsFoul, NoCaptureMoves: 60, DrawOfferLimit: -1,
		DeadPositionDraw: true, DroppedPieceLoses: true}
	r := ev.Settings.Rules
	if r.Rules != want || r.LateForfeitMs != 15*60*1000 || !r.RecordArrivals {
		t.Errorf("rules decoded as %+v, want %+v", r, want)
	}
	if sc, _ := standings.ParseScoring(standings.Scoring30RedBlack); ev.Settings.Scoring != sc {
		t.Errorf("scoring decoded as %+v, want %+v", ev.Settings.Scoring, sc)
	}
	back, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	// The rules and the scoring encode as they were stored (fields added to
	// the settings since are not this test's business).
	type doc struct{ Settings struct{ Rules, Scoring any } }
	var got, orig doc
	if err := json.Unmarshal(back, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(storedEvent), &orig); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, orig) {
		t.Errorf("re-encoded as %+v, want %+v", got.Settings, orig.Settings)
	}
	// A stored name outside the rule sets is an error, not a silent default.
	for _, bad := range []string{`"Repetition":"threefoldDraw"`, `"IllegalMoves":"foul"`, `"Scoring":"3-0-redblack"`} {
		doc := strings.Replace(storedEvent, bad, bad[:strings.IndexByte(bad, ':')]+`:"sometimes"`, 1)
		var ev tournament.Tournament
		if err := json.Unmarshal([]byte(doc), &ev); err == nil {
			t.Errorf("%s: decoded a stored event with an unknown name", bad)
		}
	}
}
