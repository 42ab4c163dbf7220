package service_test

import (
	"encoding"
	"reflect"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/rating"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// richEventID is the event of testdata/stored.golden's line that sets
// every field of the event item, captured from the code that marshalled
// tournament.Tournament by its Go field names, before the item had a
// stored shape of its own.
const richEventID = "trichgoldenevent01"

// richEvent is that event as the core holds it: a team knockout with
// every option, its entries open, a festival, a check-in window and the
// organiser's hash and key set.
func richEvent() *tournament.Tournament {
	scoring, err := standings.ParseScoring("3-1/2-0")
	if err != nil {
		panic(err)
	}
	reset := false
	return &tournament.Tournament{
		ID: richEventID,
		Settings: tournament.Settings{
			Name: "Golden Rich Cup", System: tournament.Knockout, Rounds: 4, Teams: true, Boards: 3, Substitutes: 2,
			TeamFormat: "lineupPerMatch", AllPlayAllSittings: true, KeepEntryOrder: true, Scoring: scoring,
			Tiebreaks:   []string{"matchPoints", "boardPoints"},
			TimeControl: clock.Control{Name: "custom", Periods: []clock.Period{{Moves: 40, Ms: 5400000}, {Ms: 900000}}, IncrementMs: 30000},
			Rules: tournament.Rules{Rules: game.Rules{Repetition: game.PerpetualCheckLoses, IllegalMoves: game.IllegalIsFoul, DrawOfferLimit: 5,
				NoCaptureMoves: 80, DeadPositionDraw: true, OfferLoses: true, DroppedPieceLoses: true}, LateForfeitMs: 600000, RecordArrivals: true},
			FirstRound: "positional", AvoidSameClub: true, GamesPerMatch: 2, RankByGamePoints: true, Playoff: true, ShareTitle: true,
			PlacesCounted: 3, StartsAt: 1795856400000,
			Elimination: tournament.Elimination{FromRound: 3, PerRound: 2, Keep: 4},
			Groups:      tournament.GroupStage{Count: 4, Finals: tournament.FinalsCross, Qualifiers: 2},
			Numbering:   "rating",
			Knockout: tournament.KnockoutOptions{ThirdPlace: true, Placings: 8, Reset: &reset, Finalists: 4, TieBreak: "rapid",
				Colours: tournament.ColoursLoserTakesRed, TeamTieBreak: "rapidMatch"},
			LateEntries:           tournament.LateEntries{UntilRound: 2, MissedRounds: standings.MissedDraw},
			Rating:                rating.Params{Bands: []rating.Band{{Below: 2100, K: 25}, {K: 15}}, InitialRating: 1500, MinGames: 4, MaxDiff: 350},
			ChallengeDraw:         "challenger",
			ChallengeTeam:         3,
			BroadcastDelaySeconds: 900,
			SignedResults:         true,
			CheckIn:               true,
		},
		Status: tournament.Running, CreatedAt: 1795856300000,
		OrganiserTokenHash: "892c97c77854381ce0a08ce45b1656831070ab44f968d2a11414f029f2be6a12",
		Key:                "077b53451b89d44bad38b53be4f92b32c598016b3bb780c49bace08b8f9ef648",
		Players:            24, Removed: 2, WithdrawnBeforeStart: 1, Round: 2, TeamCount: 8, Officials: 4, ExpiresAt: 1796856400000,
		Entries:      &tournament.EntryPolicy{Open: true, Capacity: 32, ClosesAt: 1795850000000, Approval: true, Fields: []string{"rating", "club"}, Pending: 3},
		Festival:     "fgoldenfestival01",
		CheckInOpens: &tournament.CheckInWindow{Round: 3, OpensAt: 1795860000000},
	}
}

// The event item stored before it had a shape of its own decodes, through
// the codec, to the very event it was written from.
func TestEventItem_RichDecodesAsStored(t *testing.T) {
	var rec *store.Record
	for _, r := range readStored(t) {
		if r.PK == store.TournamentPK(richEventID) && r.SK == store.MetaSK {
			rec = r
		}
	}
	if rec == nil {
		t.Fatal("testdata/stored.golden holds no line for the rich event")
	}
	var got tournament.Tournament
	if err := service.DecodeItem(rec, &got); err != nil {
		t.Fatal(err)
	}
	if want := richEvent(); !reflect.DeepEqual(&got, want) {
		t.Errorf("the rich event decodes as\n%+v\nwant\n%+v", got, *want)
	}
}

// Every field of the event survives its stored shape, and the rich event
// sets every field (a struct's, not a slice element's; a pointer to a
// value is set when not nil, false being a choice): a field added to
// the core and not to the shape, or to the shape and not here, fails.
func TestEventItem_EveryFieldRoundTrips(t *testing.T) {
	want := richEvent()
	var zero func(path string, v reflect.Value)
	zero = func(path string, v reflect.Value) {
		if m, ok := v.Interface().(encoding.TextMarshaler); ok && v.Kind() == reflect.Struct {
			if b, _ := m.MarshalText(); len(b) == 0 {
				t.Errorf("richEvent leaves %s unset", path)
			}
			return // stored by its name (the scoring)
		}
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if f.IsExported() {
					zero(path+"."+f.Name, v.Field(i))
				}
			}
		case reflect.Pointer:
			switch {
			case v.IsNil():
				t.Errorf("richEvent leaves %s unset", path)
			case v.Elem().Kind() == reflect.Struct:
				zero(path, v.Elem())
			}
		default:
			if v.IsZero() {
				t.Errorf("richEvent leaves %s unset", path)
			}
		}
	}
	zero("Tournament", reflect.ValueOf(want).Elem())
	rec := service.EncodeItem(&store.Record{Kind: store.KindTournament}, want)
	var got tournament.Tournament
	if err := service.DecodeItem(rec, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&got, want) {
		t.Errorf("the rich event comes back as\n%+v\nwant\n%+v", got, *want)
	}
}
