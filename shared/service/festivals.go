package service

import (
	"context"
	"strings"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Festivals (E-3): a championship's sections under one organiser and one
// front page. The festival item (F#<fid>/META) holds its name, its token's
// hash, its sections' ids and its officials; each section is an ordinary
// event whose item names the festival. A festival token is organiser of
// every section and a festival official's token acts in every section:
// a token of another scope is admitted to an event only after reading the
// event's item and finding the festival there (InFestival), so nothing but
// the festival's own sections trusts it.

// FestivalSections caps a festival's sections; the festival item lists
// them, and a championship's men's, women's, juniors' and team sections
// are a handful, not hundreds.
const FestivalSections = 50

// Festival is a championship (E-3).
type Festival struct {
	ID        string
	Name      string
	TokenHash string
	CreatedAt int64
	Sections  []string
	Officials []tournament.Official
}

// FestivalAuth checks the request's token against the festival read: nil
// when the caller is its organiser. The HTTP layer builds it from the
// request's token, so each check answers as the route always has.
type FestivalAuth func(f *Festival) error

// CreateFestival makes a championship named name; its answer holds the
// organiser's token, shown once.
func (s *Service) CreateFestival(ctx context.Context, name string) (*Festival, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return nil, "", command.BadRequest("invalid_field", "name: must be 1 to 200 characters")
	}
	fid := NewID('f')
	token, hash := NewToken(fid, fid)
	f := &Festival{ID: fid, Name: name, TokenHash: hash, CreatedAt: s.now(ctx), Sections: []string{}}
	rec := encodeItem(&store.Record{PK: store.FestivalPK(fid), SK: store.MetaSK, Kind: store.KindFestival}, f)
	// A new id: only DynamoDB's own contention can refuse the write.
	if err := command.Retry(func() error { return s.store.Put(ctx, rec) }); err != nil {
		return nil, "", err
	}
	return f, token, nil
}

// Festival reads festival fid.
func (s *Service) Festival(ctx context.Context, fid string) (*Festival, error) {
	f, _, err := s.festival(ctx, fid)
	return f, err
}

func (s *Service) festival(ctx context.Context, fid string) (*Festival, *store.Record, error) {
	var f Festival
	rec, err := s.get(ctx, store.FestivalPK(fid), store.MetaSK, "festival "+fid, &f)
	return &f, rec, err
}

// InFestival reports whether event tid is a section of festival fid
// (E-3), by the event's item: how a festival's token is admitted to an
// event of another scope. An id of another kind is no section, and costs
// no read; an event that does not exist is not found.
func (s *Service) InFestival(ctx context.Context, fid, tid string) (bool, error) {
	if !ValidID('f', fid) || !ValidID('t', tid) {
		return false, nil
	}
	t, _, err := s.Tournament(ctx, tid)
	if err != nil {
		return false, err
	}
	return t.Festival == fid, nil
}

// FestivalEvents reads the event items of f's sections, in the festival's
// order; a section expired unpaired is absent.
func (s *Service) FestivalEvents(ctx context.Context, f *Festival) ([]*tournament.Tournament, error) {
	keys := make([]store.Key, len(f.Sections))
	for i, tid := range f.Sections {
		keys[i] = store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}
	}
	got, err := s.store.GetMany(ctx, keys...)
	if err != nil {
		return nil, err
	}
	var out []*tournament.Tournament
	for _, k := range keys {
		rec := got[k]
		if rec == nil {
			continue
		}
		t := new(tournament.Tournament)
		if err := decodeItem(rec, t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// AddFestivalOfficial appoints an arbiter, a chief arbiter or a scribe who
// acts in every section of festival fid (E-3); auth admits its organiser.
func (s *Service) AddFestivalOfficial(ctx context.Context, fid string, auth FestivalAuth, c AddOfficial) (Appointed, error) {
	var out Appointed
	err := command.Retry(func() error {
		f, rec, err := s.festival(ctx, fid)
		if err != nil {
			return err
		}
		if err := auth(f); err != nil {
			return err
		}
		if out, err = c.appoint(fid, len(f.Officials)); err != nil {
			return err
		}
		f.Officials = append(f.Officials, out.Official)
		return s.store.Put(ctx, encodeItem(rec, f))
	})
	return out, err
}

// NewEvent is an event to create: its settings and, for a section of a
// festival (E-3), the festival and the check of the caller's token
// against it.
type NewEvent struct {
	Settings tournament.Settings
	Festival string
	Auth     FestivalAuth
}

// EventCreated is CreateEvent's answer: the event and its organiser's
// token, shown once.
type EventCreated struct {
	T     *tournament.Tournament
	Token string
}

// CreateEvent makes an event: its key and id, its organiser's token, its
// expiry unless paired (kept for ever once a round is), and its item —
// written with its festival's item listing it when it is a section.
func (s *Service) CreateEvent(ctx context.Context, e NewEvent) (EventCreated, error) {
	key, tid := NewEventKey()
	token, hash := NewToken(tid, tid)
	t, err := tournament.New(tid, e.Settings, hash, s.now(ctx))
	if err != nil {
		return EventCreated{}, err
	}
	t.Key = key
	t.ExpiresAt = s.EventExpiry(t)
	if e.Festival != "" && !ValidID('f', e.Festival) {
		return EventCreated{}, command.BadRequest("invalid_field", "festival: "+quote(Clip(e.Festival, 40))+" is not a festival id")
	}
	rec := &store.Record{PK: store.TournamentPK(tid), SK: store.MetaSK, Kind: store.KindTournament, Expires: EventTTL(t)}
	// The id is new, so nothing else writes this item: a conditional write
	// lost to DynamoDB's own contention or throttling is retried, and one
	// applied although its answer was lost is recognised by the store.
	err = command.Retry(func() error {
		if e.Festival == "" {
			return s.store.Put(ctx, encodeItem(rec, t))
		}
		f, frec, err := s.festival(ctx, e.Festival)
		if err != nil {
			return err
		}
		if err := e.Auth(f); err != nil {
			return err
		}
		if len(f.Sections) >= FestivalSections {
			return &command.Error{Kind: command.Refused, Code: "limit_exceeded", Message: "a festival holds at most 50 sections", Rule: "E-3"}
		}
		t.Festival = f.ID
		f.Sections = append(f.Sections, t.ID)
		rec.Version = 0
		return s.store.Transact(ctx, []*store.Record{encodeItem(rec, t), encodeItem(frec, f)})
	})
	if err != nil {
		return EventCreated{}, err
	}
	return EventCreated{T: t, Token: token}, nil
}
