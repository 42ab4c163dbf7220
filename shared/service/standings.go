package service

import (
	"cmp"
	"errors"
	"slices"

	"github.com/xqtour/xqtour/shared/rating"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The standings reads: which round a table is after, and every table of a
// loaded event as the core ranks it — the players' table (K-1, R-1…R-4,
// R-10, S-6, S-7), a group's (S-5), a team event's team and boards tables
// (T-7, R-5…R-8), teams and clubs by their members' places (R-9, T-5), the
// crosstable, the rating report (L-1), and the final places of a groups
// event or a knockout (S-3, S-5). The HTTP layer only renders them.

// TableQuery says which table a read asks for.
type TableQuery struct {
	// Round is the round the table is after (≥ 1, a paired round); 0 asks
	// for the default: the last round that is complete — it and every round
	// before it have all their results — so a table read while a round is
	// in play shows no half-played round.
	Round int
	// Live, with no Round, asks for the last paired round with the results
	// in so far.
	Live bool
	// Group names one group's or same-place final's table of a groups event
	// (S-5); "" is the whole event's. The players' tables of a team event,
	// the tables by places, the rating report and the final places
	// ignore it.
	Group string
}

// Tables is a loaded event's tables after one round.
type Tables struct {
	// Ev is the event the tables are of.
	Ev *Event
	// Round is the round the tables are after; 0 is the table before round
	// 1, every entrant level.
	Round int
	// Live reports that Round is still in play.
	Live  bool
	group string
}

// Tables picks the round q asks for (TableQuery) at the instant now; a
// round the event has not paired is not found.
func (ev *Event) Tables(q TableQuery, now int64) (*Tables, error) {
	t := ev.T
	done := func(n int) bool {
		r := ev.Round(n)
		return r != nil && tournament.StateOf(ev.H, r, now) == tournament.RoundFinished
	}
	tb := &Tables{Ev: ev, group: q.Group}
	switch {
	case q.Round > t.Round:
		return nil, command.NotFoundf("round %d of %s (the event has paired %d)", q.Round, t.ID, t.Round)
	case q.Round > 0:
		tb.Round, tb.Live = q.Round, !done(q.Round)
	case q.Live:
		tb.Round, tb.Live = t.Round, t.Round > 0 && !done(t.Round)
	default:
		for tb.Round < t.Round && done(tb.Round+1) {
			tb.Round++
		}
	}
	return tb, nil
}

// Input is the players' table's input: a team event's over its board
// games, else one group's (S-5) when the query names one, else the whole
// event's. Before round 1 it has no games and no byes — which the core
// would otherwise read as the last round.
func (tb *Tables) Input() (standings.Event, error) {
	ev := tb.Ev
	var (
		in  standings.Event
		err error
	)
	switch {
	case ev.T.Settings.Teams:
		in, err = tb.boardsEvent()
	case tb.group != "":
		in, err = tournament.GroupStandingsEvent(ev.T, ev.H, tb.group)
	default:
		in, err = tournament.StandingsEvent(ev.T, ev.H)
	}
	if tb.Round == 0 {
		in.Games, in.Byes = nil, nil
	}
	return in, err
}

// boardsEvent is the individual table's input over a team event's board games.
func (tb *Tables) boardsEvent() (standings.Event, error) {
	te, err := tb.Ev.Teams()
	if err != nil {
		return standings.Event{}, err
	}
	return tournament.BoardsEvent(tb.Ev.T, te.TH)
}

// Players is the players' table (Input) ranked.
func (tb *Tables) Players() (standings.Table, error) {
	in, err := tb.Input()
	if err != nil {
		return standings.Table{}, err
	}
	return standings.Standings(in, tb.Round)
}

// Crosstable is the players' opponents, colours and results per round
// over the same input as Players.
func (tb *Tables) Crosstable() (standings.Crosstable, error) {
	in, err := tb.Input()
	if err != nil {
		return standings.Crosstable{}, err
	}
	return standings.CrossTable(in, tb.Round)
}

// Boards is a team event's members' individual table over their board
// games; an individual event has none.
func (tb *Tables) Boards() (standings.Table, error) {
	if err := tb.Ev.T.CheckTeamTables(); err != nil {
		return standings.Table{}, err
	}
	return tb.Players()
}

// Teams is a team event's team table (T-7, R-5…R-8): match points, then
// the event's team chain; one group's or same-place final's when the query
// names one (S-5).
func (tb *Tables) Teams() (standings.TeamTable, error) {
	t := tb.Ev.T
	if err := t.CheckTeamTables(); err != nil {
		return standings.TeamTable{}, err
	}
	te, err := tb.Ev.Teams()
	if err != nil {
		return standings.TeamTable{}, err
	}
	tev, err := tournament.TeamStandingsEvent(t, te.TH)
	if tb.group != "" {
		tev, err = tournament.TeamGroupStandingsEvent(t, te.TH, tb.group)
	}
	if err != nil {
		return standings.TeamTable{}, err
	}
	if tb.Round == 0 {
		tev.Matches, tev.Byes = nil, nil
	}
	return standings.TeamStandings(tev, tb.Round)
}

// whole is the tables of the whole event, whatever group the query named.
func (tb *Tables) whole() *Tables {
	w := *tb
	w.group = ""
	return &w
}

// RatingRow is one player's line of the rating report.
type RatingRow struct {
	rating.Line
	Name   string
	Number int
}

// Ratings is the event's rating report (L-1, the chief arbiter's 等级分计算)
// over the games of the rounds up to the tables' round — a team event's
// players rated on its board games — in number order (the numbers drawn for
// round 1 in a Swiss, P-3).
func (tb *Tables) Ratings() ([]RatingRow, error) {
	ev := tb.Ev
	in, err := tb.whole().Input()
	if err != nil {
		return nil, err
	}
	ratings := map[string]int{}
	names := map[string]string{}
	for _, p := range ev.H.Players {
		ratings[p.ID], names[p.ID] = p.Rating, p.Name
	}
	games := in.Games[:0:0]
	for _, g := range in.Games {
		if g.Round <= tb.Round {
			games = append(games, g)
		}
	}
	in.Games = games
	lines, err := tournament.RatingReport(ev.T, in, ratings)
	if err != nil {
		return nil, err
	}
	rows := make([]RatingRow, len(lines))
	for i, l := range lines {
		rows[i] = RatingRow{Line: l, Name: names[l.ID], Number: in.Players[i].Number}
	}
	slices.SortStableFunc(rows, func(x, y RatingRow) int { return cmp.Compare(x.Number, y.Number) })
	return rows, nil
}

// ByPlaces ranks teams by their members' places in the individual table
// (R-9, T-5): a team event's teams over its boards table, an individual
// event's clubs over the whole event's table (id and name the club's
// name, numbered in name order; players without a club left out).
func (tb *Tables) ByPlaces() (standings.TeamTable, error) {
	ev := tb.Ev
	ind, err := tb.whole().Players()
	if err != nil {
		return standings.TeamTable{}, err
	}
	var (
		teams   []standings.Team
		members = map[string][]string{}
	)
	if ev.T.Settings.Teams {
		te, err := ev.Teams()
		if err != nil {
			return standings.TeamTable{}, err
		}
		for _, tm := range te.TH.Teams {
			teams = append(teams, standings.Team{ID: tm.ID, Name: tm.Name, Number: tm.Number})
			members[tm.ID] = tm.Roster
		}
	} else {
		teams, members = tournament.Clubs(ev.H.Players)
	}
	return standings.PlacesStandings(ind, teams, members, ev.T.Settings.PlacesCounted, ev.T.Settings.PlayoffPlaces())
}

// Place is one row of an event's final places: a player's, or a team's in
// a team event.
type Place struct {
	tournament.OverallPlace
	// Name and Number are the player's (entry number) or the team's.
	Name   string
	Number int
}

// Places are an event's final places (S-3, S-5).
type Places struct {
	// Teams: the rows name teams. Groups: an individual groups event's
	// places across its group stage and finals, which always name a group
	// place; otherwise a knockout's bracket places (individual or team) or
	// a team groups event's.
	Teams, Groups bool
	Rows          []Place
}

// Places are the final places of a groups event (S-5) or a knockout,
// individual or team (S-3); an event of another system has none.
func (ev *Event) Places() (Places, error) {
	var (
		out    = Places{Teams: ev.T.Settings.Teams, Groups: !ev.T.Settings.Teams && ev.T.Settings.System == tournament.Groups}
		places []tournament.OverallPlace
		err    error
		te     *TeamEvent
	)
	switch {
	case out.Groups:
		places, err = tournament.GroupPlaces(ev.T, ev.H)
	case out.Teams:
		if te, err = ev.Teams(); err == nil {
			places, err = tournament.TeamOverallPlaces(ev.T, te.TH)
		}
	default:
		places, err = tournament.KnockoutPlaces(ev.T, ev.H)
	}
	var re *tournament.RuleError
	if !out.Groups && errors.As(err, &re) && re.Code == tournament.CodeSystemNotSupported {
		return out, &tournament.RuleError{Code: "no_overall_places", Message: "overall places are those of a groups event or a knockout (individual or team)", Rule: re.Rule}
	}
	if err != nil {
		return out, err
	}
	out.Rows = make([]Place, len(places))
	for i, p := range places {
		row := Place{OverallPlace: p}
		if te != nil {
			if tm := te.TH.Team(p.Player); tm != nil {
				row.Name, row.Number = tm.Name, tm.Number
			}
		} else if pl := ev.H.Player(p.Player); pl != nil {
			row.Name, row.Number = pl.Name, pl.Number
		}
		out.Rows[i] = row
	}
	return out, nil
}
