package service_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The discipline report (O-2) of a paired round: each game's entries in
// table order, naming the player the side concerns and the official by
// name (the organiser as "organiser"), a correction of the result left
// out; the expulsion proposed; the games paged, counted over every page; a
// round not yet paired not found.
func TestDiscipline(t *testing.T) {
	e := newEvent(t, service.Options{}, tournament.Settings{Name: "Report Open", Rounds: 3})
	svc, tid, ctx := e.svc, e.tid, t.Context()
	for _, name := range []string{"Wang", "Li", "Zhao", "Chen"} {
		if _, err := svc.Exec(ctx, tid, e.organiser, service.RegisterPlayer{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	official := func(role, name string) string {
		t.Helper()
		res, err := svc.Exec(ctx, tid, e.organiser, service.AddOfficial{Role: role, Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return res.(service.Appointed).Official.ID
	}
	scribe, chief := official(service.Scribe, "Wu"), official(service.ChiefArbiter, "Chief")
	one := 1
	res, err := svc.Exec(ctx, tid, e.organiser, service.PairRound{Round: &one})
	if err != nil {
		t.Fatal(err)
	}
	p := res.(service.Paired)
	if err := svc.EnsureGamesAfterCommit(ctx, p.Event.T, p.Round, p.Event.H, p.Stored, e.now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	table := map[int]tournament.Pairing{}
	for _, pr := range p.Round.Pairings {
		table[pr.Table] = pr
	}
	rule := func(tb int, by game.Actor, r service.GameRuling) {
		t.Helper()
		now := e.now().UnixMilli()
		if _, err := svc.Games.Mutate(ctx, table[tb].GameID, now, func(*games.Item) (game.Actor, error) { return by, nil }, svc.OnGame(ctx, now, r)); err != nil {
			t.Fatal(err)
		}
	}
	byScribe := game.Actor{Role: game.Scribe, ID: scribe}
	byChief := game.Actor{Role: game.ChiefArbiter, ID: chief}
	// Table 2's first, so the report's order is the tables', not the rulings'.
	rule(2, byChief, service.GameRuling{Kind: "penalty", Penalty: "expulsion", Side: "black", Note: "struck the opponent"})
	rule(1, byScribe, service.GameRuling{Kind: "foul", Side: "red", Note: "moved two pieces"})
	rule(1, game.Actor{Role: game.Organiser, ID: tid}, service.GameRuling{Kind: "penalty", Penalty: "warning", Side: "black", Note: "talking"})
	rule(1, byChief, service.GameRuling{Kind: "result", Result: "1/2-1/2", Note: "appeal upheld"}) // a correction, not discipline

	ev, err := svc.Load(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	name := func(id string) string { return ev.H.Player(id).Name }
	rep, err := svc.Discipline(ctx, tid, 0, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		Table              int
		Player, Name, By   string
		Kind, Penalty, Why string
	}
	var got []line
	for _, d := range rep.Entries {
		if d.GameID != table[d.Table].GameID || d.Round != 1 {
			t.Errorf("entry %+v: not table %d's game of round 1", d, d.Table)
		}
		got = append(got, line{d.Table, d.Player, d.PlayerName, d.ByName, d.Kind, d.Penalty, d.Note})
	}
	want := []line{
		{1, table[1].Red, name(table[1].Red), "Wu", "foul", "", "moved two pieces"},
		{1, table[1].Black, name(table[1].Black), "organiser", "penalty", "warning", "talking"},
		{2, table[2].Black, name(table[2].Black), "Chief", "penalty", "expulsion", "struck the opponent"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%+v\nwant\n%+v", got, want)
	}
	if rep.Games != 2 || len(rep.Expulsions) != 1 || rep.Expulsions[0].ID != table[2].Black ||
		rep.Expulsions[0].Expulsion.Status != tournament.ExpulsionProposed || rep.Expulsions[0].Expulsion.GameID != table[2].GameID {
		t.Errorf("games %d, expulsions %+v: want 2 games and table 2's black proposed for expulsion", rep.Games, rep.Expulsions)
	}

	// The second page of one game a page is table 2's, counted over both.
	page, err := svc.Discipline(ctx, tid, 1, 1, 1)
	if err != nil || page.Games != 2 || len(page.Entries) != 1 || page.Entries[0].Table != 2 || len(page.Expulsions) != 1 {
		t.Errorf("page 2 of round 1: %+v %v", page, err)
	}
	past, err := svc.Discipline(ctx, tid, 0, 5, 10)
	if err != nil || past.Games != 2 || past.Entries == nil || len(past.Entries) != 0 {
		t.Errorf("a page past the end: %+v %v, want no entries ([]) of 2 games", past, err)
	}
	if _, err := svc.Discipline(ctx, tid, 2, 0, -1); err == nil {
		t.Error("round 2, not paired: read")
	} else if kind, _ := refusal(t, err); kind != command.NotFound {
		t.Errorf("round 2, not paired: %v", err)
	}
}
