package httpapi

import (
	"maps"
	"net/http"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Entries by the players themselves (E-1): the commands are
// service.OpenEntries, CloseEntries, Enter, ApproveEntry and RejectEntry
// (shared/service/entries.go, where the burst an open event takes is told).
// An entry is 201 with the player's id and token, or 202 "pending" when the
// organiser approves entries.

// entriesOpenIn is POST /tournaments/{tid}/entries/open.
type entriesOpenIn struct {
	Capacity int        `json:"capacity"`
	ClosesAt *time.Time `json:"closesAt"`
	Approval bool       `json:"approval"`
	Fields   []string   `json:"fields"`
}

// entriesOut is an event's entry terms as clients see them.
type entriesOut struct {
	Open bool `json:"open"`
	// Capacity is the cap the organiser set; 0 is none but the event's own.
	Capacity int      `json:"capacity"`
	ClosesAt *string  `json:"closesAt,omitempty"`
	Approval bool     `json:"approval"`
	Fields   []string `json:"fields"`
	Pending  int      `json:"pending"`
	Players  int      `json:"players"`
	// Places is how many places are still free.
	Places int `json:"places"`
}

func entriesView(t *tournament.Tournament, now int64) entriesOut {
	out := entriesOut{Fields: []string{}, Players: t.Entrants(), Places: t.FreePlaces()}
	if p := t.Entries; p != nil {
		out.Open, out.Approval, out.Pending, out.Capacity = t.EntriesOpen(now), p.Approval, p.Pending, p.Capacity
		out.Fields = append(out.Fields, p.Fields...)
		if p.ClosesAt != 0 {
			s := rfc3339(p.ClosesAt)
			out.ClosesAt = &s
		}
	}
	return out
}

// entriesCommand runs an organiser's entry command on the event (decoded
// by the route) and answers with the entry terms it leaves, and extra.
func (a *API) entriesCommand(c *call, cmd service.Command, extra map[string]any) (int, any, error) {
	res, err := a.svc.Exec(c.ctx(), c.r.PathValue("tid"), a.eventCaller(c), cmd)
	if err != nil {
		return 0, nil, err
	}
	out := map[string]any{"entries": entriesView(res.(*tournament.Tournament), c.nowMs())}
	maps.Copy(out, extra)
	return http.StatusOK, out, nil
}

// POST /tournaments/{tid}/entries/open — organiser: take entries (E-1).
func (a *API) openEntries(c *call) (int, any, error) {
	var in entriesOpenIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	p := tournament.EntryPolicy{Capacity: in.Capacity, Approval: in.Approval, Fields: in.Fields}
	if in.ClosesAt != nil {
		p.ClosesAt = in.ClosesAt.UnixMilli()
	}
	return a.entriesCommand(c, service.OpenEntries{Policy: p}, nil)
}

// POST /tournaments/{tid}/entries/close — organiser: stop taking entries (E-1).
func (a *API) closeEntries(c *call) (int, any, error) {
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	return a.entriesCommand(c, service.CloseEntries{}, nil)
}

// entryIn is POST /tournaments/{tid}/entries.
type entryIn struct {
	Name        string `json:"name"`
	Rating      *int   `json:"rating"`
	Club        string `json:"club"`
	DuplicateOk bool   `json:"duplicateOk"`
}

// POST /tournaments/{tid}/entries — anyone while the event takes entries (E-1).
func (a *API) enter(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var in entryIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	// No token is proven on this route, so authenticate never asked: a
	// mirrored copy is refused here, or it would take entries its source
	// never sees.
	if err := a.refuseMirrored(c); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, service.Anyone, service.Enter{Name: in.Name, Rating: in.Rating, Club: in.Club, DuplicateOk: in.DuplicateOk})
	if err != nil {
		return 0, nil, err
	}
	e := res.(service.Entered)
	token, player := e.Token, e.Player
	var resp map[string]any
	status := http.StatusCreated
	if e.Pending {
		status = http.StatusAccepted
		resp = map[string]any{"id": player.ID, "token": token, "status": "pending",
			"player": map[string]any{"id": player.ID, "name": player.Name, "rating": player.Rating, "club": nilIfEmpty(player.Club)}}
	} else {
		out, err := a.shownPlayer(c.ctx(), e.T, &player)
		if err != nil {
			return 0, nil, err
		}
		resp = map[string]any{"id": player.ID, "token": token, "player": out}
	}
	// A browser's entry gets its link as a QR code too, to keep on paper
	// or another phone; a script's (no Origin) costs nothing more.
	if origin := browserOrigin(c); origin != "" {
		if qr := linkQR(origin + "/t/" + tid + "#token=" + token); qr != "" {
			resp["qr"] = qr
		}
	}
	return status, resp, nil
}

// isNotFound reports whether err is answered 404, of either layer.
func isNotFound(err error) bool { return toError(err).Status == http.StatusNotFound }

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// entryRow is one line of the organiser's list of entries.
type entryRow struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Club   *string `json:"club"`
	Rating int     `json:"rating"`
	// Status is "pending" for an entry awaiting approval, else the
	// player's status (active, paused, withdrawn).
	Status string `json:"status"`
	Number int    `json:"number,omitempty"`
	// Duplicates are the other rows with the same name and club (E-1).
	Duplicates []string `json:"duplicates"`
	EnteredAt  *string  `json:"enteredAt,omitempty"`
}

// GET /tournaments/{tid}/entries — organiser: the entry terms, the entries
// awaiting approval and the registered players, likely duplicates flagged.
func (a *API) listEntries(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	t, _, err := a.organiserEvent(c, tid)
	if err != nil {
		return 0, nil, err
	}
	list, err := a.svc.EntryList(c.ctx(), t)
	if err != nil {
		return 0, nil, err
	}
	rows := make([]entryRow, len(list))
	for i, e := range list {
		at := rfc3339(e.EnteredAt)
		rows[i] = entryRow{ID: e.ID, Name: e.Name, Club: clubOf(e.Club), Rating: e.Rating, Status: "pending", Number: e.Number, Duplicates: e.Duplicates, EnteredAt: &at}
		if !e.Pending {
			rows[i].Status = string(e.Player.Status)
		}
	}
	return http.StatusOK, map[string]any{"entries": entriesView(t, c.nowMs()), "rows": rows}, nil
}

func clubOf(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// POST /tournaments/{tid}/players/{pid}/approve — organiser: the pending
// entry becomes a registration with the id and token it was given (E-1).
func (a *API) approveEntry(c *call) (int, any, error) {
	tid, pid := c.r.PathValue("tid"), c.r.PathValue("pid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.ApproveEntry{Player: pid})
	if err != nil {
		return 0, nil, err
	}
	ch := res.(service.PlayerChanged)
	t, player := ch.T, ch.Player
	out, err := a.shownPlayer(c.ctx(), t, player)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"id": player.ID, "player": out, "approved": true}, nil
}

// POST /tournaments/{tid}/players/{pid}/reject — organiser: refuse a
// pending entry (E-1). Its place is freed, its token never opens anything,
// and its name key goes with it so the person may enter again.
func (a *API) rejectEntry(c *call) (int, any, error) {
	pid := c.r.PathValue("pid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	return a.entriesCommand(c, service.RejectEntry{Player: pid}, map[string]any{"id": pid, "rejected": true})
}
