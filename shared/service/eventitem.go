package service

import (
	"encoding"
	"fmt"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/rating"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The event item's conversion to and from its stored shape
// (items.Tournament). A slice is converted nil to nil, so an item
// re-encoded holds null where it held null and [] where it held [].

func tournamentShape(t *tournament.Tournament) items.Tournament {
	s := &t.Settings
	out := items.Tournament{ID: t.ID, Status: string(t.Status), CreatedAt: t.CreatedAt, OrganiserTokenHash: t.OrganiserTokenHash, Key: t.Key,
		Players: t.Players, Removed: t.Removed, WithdrawnBeforeStart: t.WithdrawnBeforeStart, Round: t.Round, TeamCount: t.TeamCount,
		Officials: t.Officials, ExpiresAt: t.ExpiresAt, Festival: t.Festival,
		Settings: items.Settings{Name: s.Name, System: s.System, Rounds: s.Rounds, Teams: s.Teams, Boards: s.Boards, Substitutes: s.Substitutes,
			TeamFormat: s.TeamFormat, AllPlayAllSittings: s.AllPlayAllSittings, KeepEntryOrder: s.KeepEntryOrder, Scoring: text(s.Scoring),
			Tiebreaks:   s.Tiebreaks,
			TimeControl: items.TimeControl{Name: s.TimeControl.Name, Periods: convert(s.TimeControl.Periods, periodShape), IncrementMs: s.TimeControl.IncrementMs},
			Rules: items.Rules{Repetition: text(s.Rules.Repetition), IllegalMoves: text(s.Rules.IllegalMoves), DrawOfferLimit: s.Rules.DrawOfferLimit,
				NoCaptureMoves: s.Rules.NoCaptureMoves, DeadPositionDraw: s.Rules.DeadPositionDraw, OfferLoses: s.Rules.OfferLoses,
				DroppedPieceLoses: s.Rules.DroppedPieceLoses, LateForfeitMs: s.Rules.LateForfeitMs, RecordArrivals: s.Rules.RecordArrivals},
			FirstRound: s.FirstRound, AvoidSameClub: s.AvoidSameClub, GamesPerMatch: s.GamesPerMatch, RankByGamePoints: s.RankByGamePoints,
			Playoff: s.Playoff, ShareTitle: s.ShareTitle, PlacesCounted: s.PlacesCounted, StartsAt: s.StartsAt,
			Elimination: items.Elimination{FromRound: s.Elimination.FromRound, PerRound: s.Elimination.PerRound, Keep: s.Elimination.Keep},
			Groups:      items.Groups{Count: s.Groups.Count, Finals: s.Groups.Finals, Qualifiers: s.Groups.Qualifiers},
			Numbering:   s.Numbering,
			Knockout: items.KnockoutOptions{ThirdPlace: s.Knockout.ThirdPlace, Placings: s.Knockout.Placings, Reset: s.Knockout.Reset,
				Finalists: s.Knockout.Finalists, TieBreak: s.Knockout.TieBreak, Colours: s.Knockout.Colours, TeamTieBreak: s.Knockout.TeamTieBreak},
			LateEntries: items.LateEntries{UntilRound: s.LateEntries.UntilRound, MissedRounds: string(s.LateEntries.MissedRounds)},
			Rating: items.RatingParams{Bands: convert(s.Rating.Bands, bandShape), InitialRating: s.Rating.InitialRating,
				MinGames: s.Rating.MinGames, MaxDiff: s.Rating.MaxDiff},
			ChallengeDraw: s.ChallengeDraw, ChallengeTeam: s.ChallengeTeam, BroadcastDelaySeconds: s.BroadcastDelaySeconds,
			SignedResults: s.SignedResults, CheckIn: s.CheckIn}}
	if e := t.Entries; e != nil {
		out.Entries = &items.EntryPolicy{Open: e.Open, Capacity: e.Capacity, ClosesAt: e.ClosesAt, Approval: e.Approval, Fields: e.Fields, Pending: e.Pending}
	}
	if w := t.CheckInOpens; w != nil {
		out.CheckInOpens = &items.CheckInWindow{Round: w.Round, OpensAt: w.OpensAt}
	}
	return out
}

func tournamentOf(in items.Tournament) (tournament.Tournament, error) {
	s := &in.Settings
	t := tournament.Tournament{ID: in.ID, Status: tournament.Status(in.Status), CreatedAt: in.CreatedAt, OrganiserTokenHash: in.OrganiserTokenHash,
		Key: in.Key, Players: in.Players, Removed: in.Removed, WithdrawnBeforeStart: in.WithdrawnBeforeStart, Round: in.Round,
		TeamCount: in.TeamCount, Officials: in.Officials, ExpiresAt: in.ExpiresAt, Festival: in.Festival,
		Settings: tournament.Settings{Name: s.Name, System: s.System, Rounds: s.Rounds, Teams: s.Teams, Boards: s.Boards, Substitutes: s.Substitutes,
			TeamFormat: s.TeamFormat, AllPlayAllSittings: s.AllPlayAllSittings, KeepEntryOrder: s.KeepEntryOrder, Tiebreaks: s.Tiebreaks,
			TimeControl: clock.Control{Name: s.TimeControl.Name, Periods: convert(s.TimeControl.Periods, periodOf), IncrementMs: s.TimeControl.IncrementMs},
			Rules: tournament.Rules{Rules: game.Rules{DrawOfferLimit: s.Rules.DrawOfferLimit, NoCaptureMoves: s.Rules.NoCaptureMoves,
				DeadPositionDraw: s.Rules.DeadPositionDraw, OfferLoses: s.Rules.OfferLoses, DroppedPieceLoses: s.Rules.DroppedPieceLoses},
				LateForfeitMs: s.Rules.LateForfeitMs, RecordArrivals: s.Rules.RecordArrivals},
			FirstRound: s.FirstRound, AvoidSameClub: s.AvoidSameClub, GamesPerMatch: s.GamesPerMatch, RankByGamePoints: s.RankByGamePoints,
			Playoff: s.Playoff, ShareTitle: s.ShareTitle, PlacesCounted: s.PlacesCounted, StartsAt: s.StartsAt,
			Elimination: tournament.Elimination{FromRound: s.Elimination.FromRound, PerRound: s.Elimination.PerRound, Keep: s.Elimination.Keep},
			Groups:      tournament.GroupStage{Count: s.Groups.Count, Finals: s.Groups.Finals, Qualifiers: s.Groups.Qualifiers},
			Numbering:   s.Numbering,
			Knockout: tournament.KnockoutOptions{ThirdPlace: s.Knockout.ThirdPlace, Placings: s.Knockout.Placings, Reset: s.Knockout.Reset,
				Finalists: s.Knockout.Finalists, TieBreak: s.Knockout.TieBreak, Colours: s.Knockout.Colours, TeamTieBreak: s.Knockout.TeamTieBreak},
			LateEntries: tournament.LateEntries{UntilRound: s.LateEntries.UntilRound, MissedRounds: standings.Missed(s.LateEntries.MissedRounds)},
			Rating: rating.Params{Bands: convert(s.Rating.Bands, bandOf), InitialRating: s.Rating.InitialRating,
				MinGames: s.Rating.MinGames, MaxDiff: s.Rating.MaxDiff},
			ChallengeDraw: s.ChallengeDraw, ChallengeTeam: s.ChallengeTeam, BroadcastDelaySeconds: s.BroadcastDelaySeconds,
			SignedResults: s.SignedResults, CheckIn: s.CheckIn}}
	for _, f := range []struct {
		into encoding.TextUnmarshaler
		name string
	}{{&t.Settings.Scoring, s.Scoring}, {&t.Settings.Rules.Repetition, s.Rules.Repetition}, {&t.Settings.Rules.IllegalMoves, s.Rules.IllegalMoves}} {
		if err := f.into.UnmarshalText([]byte(f.name)); err != nil {
			return tournament.Tournament{}, fmt.Errorf("decode tournament %s: %w", in.ID, err)
		}
	}
	if e := in.Entries; e != nil {
		t.Entries = &tournament.EntryPolicy{Open: e.Open, Capacity: e.Capacity, ClosesAt: e.ClosesAt, Approval: e.Approval, Fields: e.Fields, Pending: e.Pending}
	}
	if w := in.CheckInOpens; w != nil {
		t.CheckInOpens = &tournament.CheckInWindow{Round: w.Round, OpensAt: w.OpensAt}
	}
	return t, nil
}

// text is a value's stable name. The names are the settings' own and
// always marshal for a validated event; one that does not is a bug, which
// panics as marshalling the item would have.
func text(v encoding.TextMarshaler) string {
	b, err := v.MarshalText()
	if err != nil {
		panic(fmt.Sprintf("encode tournament: %v", err))
	}
	return string(b)
}

// convert maps a slice element by element, nil to nil.
func convert[A, B any](in []A, f func(A) B) []B {
	if in == nil {
		return nil
	}
	out := make([]B, len(in))
	for i, a := range in {
		out[i] = f(a)
	}
	return out
}

func periodShape(p clock.Period) items.Period  { return items.Period{Moves: p.Moves, Ms: p.Ms} }
func periodOf(p items.Period) clock.Period     { return clock.Period{Moves: p.Moves, Ms: p.Ms} }
func bandShape(b rating.Band) items.RatingBand { return items.RatingBand{Below: b.Below, K: b.K} }
func bandOf(b items.RatingBand) rating.Band    { return rating.Band{Below: b.Below, K: b.K} }
