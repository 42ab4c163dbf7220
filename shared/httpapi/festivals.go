package httpapi

import (
	"net/http"

	"github.com/xqtour/xqtour/shared/service"
)

// Festivals (E-3): a championship's sections under one organiser and one
// front page (shared/service/festivals.go). A festival token is organiser
// of every section and a festival official's token acts in every section:
// a token of another scope is admitted to an event only after reading the
// event's item and finding the festival there (service.InFestival, which
// requireRole asks, and eventCaller for a command), so nothing but the
// festival's own sections trusts it.

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

// POST /festivals — anyone: a championship; the token is its organiser's, shown once.
func (a *API) createFestival(c *call) (int, any, error) {
	var in festivalIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	f, token, err := a.svc.CreateFestival(c.ctx(), in.Name)
	if err != nil {
		return 0, nil, err
	}
	fid, name := f.ID, f.Name
	return http.StatusCreated, map[string]any{"id": fid, "token": token, "festival": map[string]any{"id": fid, "name": name, "sections": []sectionOut{}}}, nil
}

// sectionOrganiser admits the festival's organiser token to create a
// section of it (E-3): createTournament's check when the body has "festival".
func sectionOrganiser(c *call) service.FestivalAuth {
	return func(f *service.Festival) error {
		tok, scope, id, err := bearer(c.r)
		if err != nil {
			return err
		}
		if scope != f.ID || id != f.ID || !service.TokenMatches(tok, f.TokenHash) {
			return forbidden("a section is created with its festival's organiser token (E-3)")
		}
		return nil
	}
}

// GET /festivals/{fid} — public: the sections with their status, round and links.
func (a *API) getFestival(c *call) (int, any, error) {
	f, err := a.svc.Festival(c.ctx(), c.r.PathValue("fid"))
	if err != nil {
		return 0, nil, err
	}
	events, err := a.svc.FestivalEvents(c.ctx(), f)
	if err != nil {
		return 0, nil, err
	}
	sections := []sectionOut{}
	for _, t := range events {
		s := sectionOut{ID: t.ID, Name: t.Settings.Name, System: t.Settings.System, Teams: t.Settings.Teams, Status: string(t.Status),
			Round: t.Round, Rounds: t.Settings.Rounds, Players: t.Entrants(), Link: "/t/" + t.ID}
		if t.Entries != nil {
			ev := entriesView(t, c.nowMs())
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
	if _, err := festivalBearer(c, fid); err != nil { // before any read: a stranger costs nothing
		return 0, nil, err
	}
	auth := func(f *service.Festival) error { return requireFestivalOrganiser(c, f) }
	res, err := a.svc.AddFestivalOfficial(c.ctx(), fid, auth, service.AddOfficial{Role: in.Role, Name: in.Name, Tables: in.Tables})
	if err != nil {
		return 0, nil, err
	}
	o, token := res.Official, res.Token
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

func requireFestivalOrganiser(c *call, f *service.Festival) error {
	tok, err := festivalBearer(c, f.ID)
	if err != nil {
		return err
	}
	if !service.TokenMatches(tok, f.TokenHash) {
		return errUnknownToken
	}
	return nil
}
