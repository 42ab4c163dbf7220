package httpapi

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Festivals (E-3): a championship's sections under one organiser and one
// front page. The festival item (F#<fid>/META) holds its name, its token's
// hash, its sections' ids and its officials; each section is an ordinary
// event whose item names the festival. A festival token is organiser of
// every section and a festival official's token acts in every section: a
// token of another scope is admitted to an event only after reading the
// event's item and finding the festival there (festivalActs), so nothing
// but the festival's own sections trusts it.

// festivalSections caps a festival's sections; the festival item lists
// them, and a championship's men's, women's, juniors' and team sections
// are a handful, not hundreds.
const festivalSections = 50

// Festival is the stored championship.
type Festival struct {
	ID        string
	Name      string
	TokenHash string
	CreatedAt int64
	Sections  []string
	Officials []tournament.Official `json:",omitempty"`
}

// festivalIn is POST /festivals.
type festivalIn struct {
	Name string `json:"name"`
}

// sectionOut is one section on the festival's page.
type sectionOut struct {
	ID      string      `json:"id"`
	Name    string      `json:"name"`
	System  string      `json:"system"`
	Teams   bool        `json:"teams"`
	Status  string      `json:"status"`
	Round   int         `json:"round"`
	Rounds  int         `json:"rounds"`
	Players int         `json:"players"`
	Entries *entriesOut `json:"entries,omitempty"`
	Link    string      `json:"link"`
	Enter   string      `json:"enter,omitempty"`
}

func (a *API) loadFestival(c *call, fid string) (*Festival, *store.Record, error) {
	var f Festival
	rec, err := a.svc.Item(c.ctx(), store.FestivalPK(fid), store.MetaSK, "festival "+fid, &f)
	return &f, rec, err
}

// POST /festivals — anyone: a championship; the token is its organiser's, shown once.
func (a *API) createFestival(c *call) (int, any, error) {
	var in festivalIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	name := strings.TrimSpace(in.Name)
	if name == "" || len(name) > 200 {
		return 0, nil, badRequest("invalid_field", "name: must be 1 to 200 characters")
	}
	fid := service.NewID('f')
	token, hash := service.NewToken(fid, fid)
	f := Festival{ID: fid, Name: name, TokenHash: hash, CreatedAt: c.nowMs(), Sections: []string{}}
	rec := service.EncodeItem(&store.Record{PK: store.FestivalPK(fid), SK: store.MetaSK, Kind: store.KindFestival}, f)
	if err := command.Retry(func() error { return a.store.Put(c.ctx(), rec) }); err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, map[string]any{"id": fid, "token": token, "festival": map[string]any{"id": fid, "name": name, "sections": []sectionOut{}}}, nil
}

// newSection writes a new event that names festival fid as one of its
// sections, with the festival's item listing it, in one transaction; the
// caller's token must be the festival's. It is createTournament's write
// when the body has "festival".
func (a *API) newSection(c *call, fid string, t *tournament.Tournament, rec *store.Record) error {
	if !service.ValidID('f', fid) {
		return badRequest("invalid_field", "festival: "+quote(clip(fid, 40))+" is not a festival id")
	}
	return command.Retry(func() error {
		f, frec, err := a.loadFestival(c, fid)
		if err != nil {
			return err
		}
		tok, scope, id, err := bearer(c.r)
		if err != nil {
			return err
		}
		if scope != fid || id != fid || !tokenMatches(tok, f.TokenHash) {
			return forbidden("a section is created with its festival's organiser token (E-3)")
		}
		if len(f.Sections) >= festivalSections {
			return &Error{Status: http.StatusUnprocessableEntity, Code: "limit_exceeded", Message: "a festival holds at most 50 sections", Rule: "E-3"}
		}
		t.Festival = fid
		f.Sections = append(f.Sections, t.ID)
		rec.Version = 0
		return a.store.Transact(c.ctx(), []*store.Record{service.EncodeItem(rec, t), service.EncodeItem(frec, f)})
	})
}

// GET /festivals/{fid} — public: the sections with their status, round and links.
func (a *API) getFestival(c *call) (int, any, error) {
	f, _, err := a.loadFestival(c, c.r.PathValue("fid"))
	if err != nil {
		return 0, nil, err
	}
	keys := make([]store.Key, len(f.Sections))
	for i, tid := range f.Sections {
		keys[i] = store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}
	}
	got, err := a.store.GetMany(c.ctx(), keys...)
	if err != nil {
		return 0, nil, err
	}
	sections := []sectionOut{}
	for _, k := range keys {
		rec := got[k]
		if rec == nil {
			continue // expired unpaired
		}
		var t tournament.Tournament
		if err := service.DecodeItem(rec, &t); err != nil {
			return 0, nil, fmt.Errorf("decode section %s: %w", rec.PK, err)
		}
		s := sectionOut{ID: t.ID, Name: t.Settings.Name, System: t.Settings.System, Teams: t.Settings.Teams, Status: string(t.Status),
			Round: t.Round, Rounds: t.Settings.Rounds, Players: t.Entrants(), Link: "/t/" + t.ID}
		if t.Entries != nil {
			ev := entriesView(&t, c.nowMs())
			s.Entries = &ev
			if ev.Open {
				s.Enter = "/t/" + t.ID + "/enter"
			}
		}
		sections = append(sections, s)
	}
	officials := []officialOut{}
	for _, o := range f.Officials {
		officials = append(officials, officialOut{ID: o.ID, Role: o.Role, Name: o.Name})
	}
	return http.StatusOK, map[string]any{"id": f.ID, "name": f.Name, "createdAt": rfc3339(f.CreatedAt), "sections": sections, "officials": officials, "link": "/f/" + f.ID}, nil
}

// POST /festivals/{fid}/officials — the festival's organiser: an arbiter,
// chief arbiter or scribe who acts in every section (E-3).
func (a *API) addFestivalOfficial(c *call) (int, any, error) {
	fid := c.r.PathValue("fid")
	var in officialIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	var (
		o     tournament.Official
		token string
	)
	if _, err := festivalBearer(c, fid); err != nil { // before any read: a stranger costs nothing
		return 0, nil, err
	}
	err := command.Retry(func() error {
		f, frec, err := a.loadFestival(c, fid)
		if err != nil {
			return err
		}
		if err := requireFestivalOrganiser(c, f); err != nil {
			return err
		}
		if n := len(in.Tables); n > service.LimitOf(service.CapScribeTables).Max {
			return service.TooMany(service.CapScribeTables, n)
		}
		if len(f.Officials) >= service.LimitOf(service.CapOfficials).Max {
			return service.OverLimit(service.CapOfficials)
		}
		oid := service.NewID('o')
		var hash string
		token, hash = service.NewToken(fid, oid)
		if o, err = tournament.NewOfficial(oid, in.Role, in.Name, in.Tables, hash); err != nil {
			return err
		}
		f.Officials = append(f.Officials, o)
		return a.store.Put(c.ctx(), service.EncodeItem(frec, f))
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, map[string]any{"id": o.ID, "token": token,
		"official": officialOut{ID: o.ID, Role: o.Role, Name: o.Name, Tables: o.Tables}}, nil
}

// festivalBearer is the request's token when it is shaped as festival
// fid's organiser's: 401 without a token, 403 with another's.
func festivalBearer(c *call, fid string) (string, error) {
	tok, scope, id, err := bearer(c.r)
	if err != nil {
		return "", err
	}
	if scope != fid || id != fid {
		return "", forbidden("this needs the festival's organiser token")
	}
	return tok, nil
}

func requireFestivalOrganiser(c *call, f *Festival) error {
	tok, err := festivalBearer(c, f.ID)
	if err != nil {
		return err
	}
	if !tokenMatches(tok, f.TokenHash) {
		return errUnknownToken
	}
	return nil
}

// festivalCredential resolves a festival's token: its organiser's or one
// of its officials'.
func (a *API) festivalCredential(c *call, fid, id string) (credential, error) {
	f, _, err := a.loadFestival(c, fid)
	if err != nil {
		return credential{}, err
	}
	if id == fid {
		return credential{Principal{Scope: fid, ID: fid, Role: roleOrganiser}, f.TokenHash}, nil
	}
	i := slices.IndexFunc(f.Officials, func(o tournament.Official) bool { return o.ID == id })
	if i < 0 {
		return credential{}, store.ErrNotFound
	}
	o := f.Officials[i]
	return credential{Principal{Scope: fid, ID: o.ID, Role: o.Role, Tables: o.Tables}, o.TokenHash}, nil
}

// festivalActs reports whether principal p, of a festival, acts in event
// scope: the event is one of the festival's sections (E-3).
func (a *API) festivalActs(c *call, p Principal, scope string) (bool, error) {
	if !service.ValidID('f', p.Scope) || !service.ValidID('t', scope) {
		return false, nil
	}
	t, _, err := a.svc.Tournament(c.ctx(), scope)
	if err != nil {
		return false, err
	}
	return t.Festival == p.Scope, nil
}
