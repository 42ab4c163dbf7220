package httpapi

import (
	"net/http"
	"slices"
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
	out := entriesOut{Fields: []string{}, Players: t.Entrants()}
	places := tournament.MaxPlayers
	if p := t.Entries; p != nil {
		out.Open, out.Approval, out.Pending, out.Capacity = t.EntriesOpen(now), p.Approval, p.Pending, p.Capacity
		out.Fields = append(out.Fields, p.Fields...)
		if p.Capacity > 0 {
			places = p.Capacity
		}
		if p.ClosesAt != 0 {
			s := rfc3339(p.ClosesAt)
			out.ClosesAt = &s
		}
	}
	out.Places = max(0, places-out.Players-out.Pending)
	return out
}

// POST /tournaments/{tid}/entries/open — organiser: take entries (E-1).
func (a *API) openEntries(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var in entriesOpenIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	p := tournament.EntryPolicy{Capacity: in.Capacity, Approval: in.Approval, Fields: in.Fields}
	if in.ClosesAt != nil {
		p.ClosesAt = in.ClosesAt.UnixMilli()
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.OpenEntries{Policy: p})
	if err != nil {
		return 0, nil, err
	}
	t := res.(*tournament.Tournament)
	return http.StatusOK, map[string]any{"entries": entriesView(t, c.nowMs())}, nil
}

// POST /tournaments/{tid}/entries/close — organiser: stop taking entries (E-1).
func (a *API) closeEntries(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.CloseEntries{})
	if err != nil {
		return 0, nil, err
	}
	t := res.(*tournament.Tournament)
	return http.StatusOK, map[string]any{"entries": entriesView(t, c.nowMs())}, nil
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
	players, err := a.svc.Players(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	pending, err := a.svc.PendingEntries(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	number := tournament.ShownNumbers(t, players)
	var rows []entryRow
	for _, pe := range pending {
		at := rfc3339(pe.EnteredAt)
		rows = append(rows, entryRow{ID: pe.ID, Name: pe.Name, Club: clubOf(pe.Club), Rating: pe.Rating, Status: "pending", EnteredAt: &at})
	}
	slices.SortFunc(players, func(x, y *tournament.Player) int { return number[x.ID] - number[y.ID] })
	for _, p := range players {
		at := rfc3339(p.RegisteredAt)
		rows = append(rows, entryRow{ID: p.ID, Name: p.Name, Club: clubOf(p.Club), Rating: p.Rating, Status: string(p.Status), Number: number[p.ID], EnteredAt: &at})
	}
	byKey := map[string][]string{}
	keyOf := func(r entryRow) string {
		club := ""
		if r.Club != nil {
			club = *r.Club
		}
		return tournament.DuplicateKey(r.Name, club)
	}
	for _, r := range rows {
		byKey[keyOf(r)] = append(byKey[keyOf(r)], r.ID)
	}
	for i := range rows {
		rows[i].Duplicates = []string{}
		for _, id := range byKey[keyOf(rows[i])] {
			if id != rows[i].ID {
				rows[i].Duplicates = append(rows[i].Duplicates, id)
			}
		}
	}
	if rows == nil {
		rows = []entryRow{}
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
	tid, pid := c.r.PathValue("tid"), c.r.PathValue("pid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	res, err := a.svc.Exec(c.ctx(), tid, a.eventCaller(c), service.RejectEntry{Player: pid})
	if err != nil {
		return 0, nil, err
	}
	t := res.(*tournament.Tournament)
	return http.StatusOK, map[string]any{"id": pid, "rejected": true, "entries": entriesView(t, c.nowMs())}, nil
}
