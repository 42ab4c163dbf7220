package service

import (
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The one place event items are read from and written to their documents.
// A core value of a kind with an explicit stored shape (shared/service/items)
// is converted to it field by field, so renaming a core field changes no
// stored byte (the golden test, testdata/stored.golden, holds today's
// bytes); a round's body, whose shape is not spelled out yet, is marshalled
// as the core holds it and guarded by the same test. A round is a staged
// document (shared/store's Record.Body): its head (items.RoundHead: its
// start, whether its games exist) is the item's Doc, the rest its Body, so a
// change of the head writes the head alone.

// DecodeItem reads rec's document into v, a pointer to a core value.
func DecodeItem(rec *store.Record, v any) error {
	switch v := v.(type) {
	case *tournament.Tournament:
		var s items.Tournament
		if err := items.Decode(rec, &s); err != nil {
			return err
		}
		t, err := tournamentOf(s)
		if err != nil {
			return err
		}
		*v = t
	case *tournament.Player:
		var s items.Player
		if err := items.Decode(rec, &s); err != nil {
			return err
		}
		*v = playerOf(s)
	case *tournament.Official:
		var s items.Official
		if err := items.Decode(rec, &s); err != nil {
			return err
		}
		*v = tournament.Official{ID: s.ID, Role: s.Role, Name: s.Name, Tables: s.Tables, TokenHash: s.TokenHash}
	case *tournament.Team:
		var s items.Team
		if err := items.Decode(rec, &s); err != nil {
			return err
		}
		*v = tournament.Team{ID: s.ID, Name: s.Name, Number: s.Number, Members: s.Members, Substitutes: s.Substitutes, Roster: s.Roster,
			Status: tournament.PlayerStatus(s.Status), JoinedRound: s.JoinedRound, WithdrawnAfter: s.WithdrawnAfter, CaptainTokenHash: s.CaptainTokenHash, RegisteredAt: s.RegisteredAt}
	case *tournament.Lineup:
		var s items.Lineup
		if err := items.Decode(rec, &s); err != nil {
			return err
		}
		*v = tournament.Lineup{Round: s.Round, Team: s.Team, Players: s.Players, Drawn: s.Drawn, Seed: s.Seed, By: s.By, At: s.At}
	case *tournament.Round:
		return decodeRound(rec, v)
	case *tournament.Result:
		var s items.Result
		if err := items.Decode(rec, &s); err != nil {
			return err
		}
		*v = tournament.Result{Round: s.Round, Table: s.Table, GameID: s.GameID, Red: s.Red, Black: s.Black, Result: s.Result, Reason: s.Reason,
			RedFouls: s.RedFouls, BlackFouls: s.BlackFouls, EndedAt: s.EndedAt}
	case *Festival:
		var s items.Festival
		if err := items.Decode(rec, &s); err != nil {
			return err
		}
		*v = Festival{ID: s.ID, Name: s.Name, TokenHash: s.TokenHash, CreatedAt: s.CreatedAt, Sections: s.Sections}
		for _, o := range s.Officials {
			v.Officials = append(v.Officials, tournament.Official{ID: o.ID, Role: o.Role, Name: o.Name, Tables: o.Tables, TokenHash: o.TokenHash})
		}
	default:
		return items.Decode(rec, v)
	}
	return nil
}

// EncodeItem puts v, a core value or a pointer to one, into rec's document.
func EncodeItem(rec *store.Record, v any) *store.Record {
	switch x := v.(type) {
	case tournament.Tournament:
		return items.Encode(rec, tournamentShape(&x))
	case *tournament.Tournament:
		return items.Encode(rec, tournamentShape(x))
	case tournament.Player:
		return items.Encode(rec, playerShape(&x))
	case *tournament.Player:
		return items.Encode(rec, playerShape(x))
	case tournament.Official:
		return items.Encode(rec, officialShape(&x))
	case *tournament.Official:
		return items.Encode(rec, officialShape(x))
	case tournament.Team:
		return items.Encode(rec, teamShape(&x))
	case *tournament.Team:
		return items.Encode(rec, teamShape(x))
	case tournament.Lineup:
		return items.Encode(rec, lineupShape(&x))
	case *tournament.Lineup:
		return items.Encode(rec, lineupShape(x))
	case tournament.Round:
		return encodeRound(rec, &x)
	case *tournament.Round:
		return encodeRound(rec, x)
	case tournament.Result:
		return items.Encode(rec, resultShape(&x))
	case *tournament.Result:
		return items.Encode(rec, resultShape(x))
	case *Festival:
		return items.Encode(rec, festivalShape(x))
	}
	return items.Encode(rec, v)
}

// PlayerItem is player p's item in event t: its key, its kind, the event's
// expiry and its stored shape — the one way a new player item is made, by a
// registration, a team's roster or an approved entry.
func PlayerItem(t *tournament.Tournament, p *tournament.Player) *store.Record {
	return EncodeItem(&store.Record{PK: store.TournamentPK(t.ID), SK: store.PlayerSK(p.ID), Kind: store.KindPlayer, Expires: EventTTL(t)}, p)
}

func decodeItem(rec *store.Record, v any) error { return DecodeItem(rec, v) }

func encodeItem(rec *store.Record, v any) *store.Record { return EncodeItem(rec, v) }

func playerShape(p *tournament.Player) items.Player {
	s := items.Player{ID: p.ID, Number: p.Number, Name: p.Name, Rating: p.Rating, Club: p.Club, Seeded: p.Seeded, Status: string(p.Status),
		JoinedRound: p.JoinedRound, WithdrawnAfter: p.WithdrawnAfter, TokenHash: p.TokenHash, RegisteredAt: p.RegisteredAt, CheckedIn: p.CheckedIn}
	if e := p.Expulsion; e != nil {
		s.Expulsion = &items.Expulsion{Status: e.Status, ProposedBy: e.ProposedBy, ProposedAt: e.ProposedAt, GameID: e.GameID, Note: e.Note,
			DecidedBy: e.DecidedBy, DecidedAt: e.DecidedAt, DecisionNote: e.DecisionNote}
	}
	return s
}

func playerOf(s items.Player) tournament.Player {
	p := tournament.Player{ID: s.ID, Number: s.Number, Name: s.Name, Rating: s.Rating, Club: s.Club, Seeded: s.Seeded, Status: tournament.PlayerStatus(s.Status),
		JoinedRound: s.JoinedRound, WithdrawnAfter: s.WithdrawnAfter, TokenHash: s.TokenHash, RegisteredAt: s.RegisteredAt, CheckedIn: s.CheckedIn}
	if e := s.Expulsion; e != nil {
		p.Expulsion = &tournament.Expulsion{Status: e.Status, ProposedBy: e.ProposedBy, ProposedAt: e.ProposedAt, GameID: e.GameID, Note: e.Note,
			DecidedBy: e.DecidedBy, DecidedAt: e.DecidedAt, DecisionNote: e.DecisionNote}
	}
	return p
}

func festivalShape(f *Festival) items.Festival {
	s := items.Festival{ID: f.ID, Name: f.Name, TokenHash: f.TokenHash, CreatedAt: f.CreatedAt, Sections: f.Sections}
	for i := range f.Officials {
		s.Officials = append(s.Officials, officialShape(&f.Officials[i]))
	}
	return s
}

func officialShape(o *tournament.Official) items.Official {
	return items.Official{ID: o.ID, Role: o.Role, Name: o.Name, Tables: o.Tables, TokenHash: o.TokenHash}
}

func teamShape(t *tournament.Team) items.Team {
	return items.Team{ID: t.ID, Name: t.Name, Number: t.Number, Members: t.Members, Substitutes: t.Substitutes, Roster: t.Roster, Status: string(t.Status),
		JoinedRound: t.JoinedRound, WithdrawnAfter: t.WithdrawnAfter, CaptainTokenHash: t.CaptainTokenHash, RegisteredAt: t.RegisteredAt}
}

func lineupShape(l *tournament.Lineup) items.Lineup {
	return items.Lineup{Round: l.Round, Team: l.Team, Players: l.Players, Drawn: l.Drawn, Seed: l.Seed, By: l.By, At: l.At}
}

func resultShape(r *tournament.Result) items.Result {
	return items.Result{Round: r.Round, Table: r.Table, GameID: r.GameID, Red: r.Red, Black: r.Black, Result: r.Result, Reason: r.Reason,
		RedFouls: r.RedFouls, BlackFouls: r.BlackFouls, EndedAt: r.EndedAt}
}

// decodeRound reads a round item: a staged one's body overlaid with its
// head, or one stored whole (before rounds were staged) as it is.
func decodeRound(rec *store.Record, r *tournament.Round) error {
	if rec.Build == "" && rec.Body == nil {
		return items.Decode(rec, r)
	}
	if err := items.Decode(&store.Record{PK: rec.PK, SK: rec.SK, Kind: rec.Kind, Doc: rec.Body}, r); err != nil {
		return err
	}
	var head items.RoundHead
	if err := items.Decode(rec, &head); err != nil {
		return err
	}
	r.StartsAt, r.GamesReady = head.StartsAt, head.GamesReady
	return nil
}

// encodeRound puts round r into rec as a staged document: its head in Doc,
// the rest in Body. The body leaves the head's fields at zero, so starting
// a round, or marking its games made, leaves the body byte for byte as read
// and the store writes the head alone.
func encodeRound(rec *store.Record, r *tournament.Round) *store.Record {
	body := *r
	body.StartsAt, body.GamesReady = 0, false
	items.Encode(rec, &body)
	rec.Body = rec.Doc
	rec.Doc = nil
	doc := items.Encode(&store.Record{Kind: rec.Kind}, items.RoundHead{StartsAt: r.StartsAt, GamesReady: r.GamesReady}).Doc
	rec.Doc = doc
	return rec
}
