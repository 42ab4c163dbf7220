package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Entries by the players themselves (E-1). The organiser opens the event to
// entries; anyone with its link may then POST an entry and gets, like a
// registration, the player's id and token at once (201), or, when the
// organiser approves entries, the same with status "pending" (202): the
// token opens the player's page from the approval on.
//
// The burst. Every entry numbers the next player and holds a place, so it
// rewrites the event item (its count of players and of pending entries).
// That item is the one place the capacity and the numbering are decided,
// so the entries of one event go through it one at a time: within a
// process they queue on the event's lock (sequenced, retry.go) and never
// race each other; across processes (other Lambda instances) a lost race is
// a conditional-write conflict that retryConflicts runs again on fresh
// items. One entry is one transaction of the event item, the player (or the
// pending entry) and, the first time a name and club is used, its name key
// (E#<tid>/N#<hash>): a likely duplicate is one read, and two identical
// entries racing each other cannot both pass, as the second finds the
// key written or loses the transaction on it. With DynamoDB's ~1,000 writes
// a second to one item and a transaction of three items taking a few ms,
// one event takes a few hundred entries a second; the route's throttle
// (template.yaml, EntryThrottling*) stays below that.

// entryAttempts and entryRuns count entry steps run and entries served, so
// a test can tell how many steps were retries.
var entryAttempts, entryRuns atomic.Int64

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
	var t *tournament.Tournament
	err := command.Sequenced(tid, func() error {
		var (
			meta *store.Record
			err  error
		)
		if t, meta, err = a.organiserEvent(c, tid); err != nil {
			return err
		}
		if err := t.OpenEntries(p, c.nowMs()); err != nil {
			return err
		}
		return a.store.Put(c.ctx(), service.EncodeItem(meta, t))
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"entries": entriesView(t, c.nowMs())}, nil
}

// POST /tournaments/{tid}/entries/close — organiser: stop taking entries (E-1).
func (a *API) closeEntries(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	var t *tournament.Tournament
	err := command.Sequenced(tid, func() error {
		var (
			meta *store.Record
			err  error
		)
		if t, meta, err = a.organiserEvent(c, tid); err != nil {
			return err
		}
		if err := t.CloseEntries(); err != nil {
			return entryRefusal(err)
		}
		return a.store.Put(c.ctx(), service.EncodeItem(meta, t))
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"entries": entriesView(t, c.nowMs())}, nil
}

// entryIn is POST /tournaments/{tid}/entries.
type entryIn struct {
	Name        string `json:"name"`
	Rating      *int   `json:"rating"`
	Club        string `json:"club"`
	DuplicateOk bool   `json:"duplicateOk"`
}

// pendingEntry is an entry awaiting approval (E#<tid>/P#<pid>).
type pendingEntry struct {
	ID        string
	Name      string
	Rating    int
	Club      string
	TokenHash string
	EnteredAt int64
}

// entryName is a name key (E#<tid>/N#<hash>): the first entry that used it.
type entryName struct{ ID string }

func entryNameHash(name, club string) string {
	sum := sha256.Sum256([]byte(tournament.DuplicateKey(name, club)))
	return hex.EncodeToString(sum[:16])
}

// entryRefusal gives the refusals of entries their statuses: closed is
// 403 (nobody may enter), full is 409 (the event's state, not the request).
func entryRefusal(err error) error {
	var re *tournament.RuleError
	if errors.As(err, &re) {
		switch re.Code {
		case tournament.CodeEntriesClosed:
			return &Error{Status: http.StatusForbidden, Code: re.Code, Message: re.Message, Rule: re.Rule}
		case tournament.CodeEventFull:
			return &Error{Status: http.StatusConflict, Code: re.Code, Message: re.Message, Rule: re.Rule}
		}
	}
	return err
}

// POST /tournaments/{tid}/entries — anyone while the event takes entries (E-1).
func (a *API) enter(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var in entryIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	var (
		token   string
		player  tournament.Player
		pending bool
		t       *tournament.Tournament
	)
	entryRuns.Add(1)
	err := command.Sequenced(tid, func() error {
		entryAttempts.Add(1)
		var (
			meta *store.Record
			err  error
		)
		if t, meta, err = a.svc.Tournament(c.ctx(), tid); err != nil {
			return err
		}
		e, held, err := t.Enter(tournament.Entry{Name: in.Name, Rating: in.Rating, Club: in.Club}, c.nowMs())
		if err != nil {
			return entryRefusal(err)
		}
		pending = held
		nameSK := store.EntryNameSK(entryNameHash(e.Name, e.Club))
		var seen entryName
		nameRec, err := a.svc.Item(c.ctx(), store.EntriesPK(tid), nameSK, "entry name", &seen)
		switch {
		case err == nil && !in.DuplicateOk:
			return &Error{Status: http.StatusUnprocessableEntity, Code: tournament.CodeLikelyDuplicate, Rule: "E-1",
				Message: "an entry with this name and club was already made; if you are another person, send the entry again with \"duplicateOk\": true"}
		case err != nil && !isNotFound(err):
			return err
		}
		pid := service.NewID('p')
		var hash string
		token, hash = service.NewToken(tid, pid)
		rating := 0
		if e.Rating != nil {
			rating = *e.Rating
		}
		writes := []*store.Record{service.EncodeItem(meta, t)}
		if nameRec == nil {
			writes = append(writes, service.EncodeItem(&store.Record{PK: store.EntriesPK(tid), SK: nameSK, Kind: store.KindEntryName, Expires: service.EventTTL(t)}, entryName{ID: pid}))
		}
		if pending {
			player = tournament.Player{ID: pid, Name: e.Name, Rating: rating, Club: e.Club}
			pe := pendingEntry{ID: pid, Name: e.Name, Rating: rating, Club: e.Club, TokenHash: hash, EnteredAt: c.nowMs()}
			writes = append(writes, service.EncodeItem(&store.Record{PK: store.EntriesPK(tid), SK: store.PlayerSK(pid), Kind: store.KindEntry, Expires: service.EventTTL(t)}, pe))
		} else {
			if player, err = t.Register(tournament.Player{ID: pid, Name: e.Name, Rating: rating, Club: e.Club, TokenHash: hash}, c.nowMs()); err != nil {
				return entryRefusal(err)
			}
			writes[0] = service.EncodeItem(meta, t)
			writes = append(writes, service.PlayerItem(t, &player))
		}
		return a.store.Transact(c.ctx(), writes)
	})
	if err != nil {
		return 0, nil, err
	}
	var resp map[string]any
	status := http.StatusCreated
	if pending {
		status = http.StatusAccepted
		resp = map[string]any{"id": player.ID, "token": token, "status": "pending",
			"player": map[string]any{"id": player.ID, "name": player.Name, "rating": player.Rating, "club": nilIfEmpty(player.Club)}}
	} else {
		out, err := a.shownPlayer(c.ctx(), t, &player)
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

func isNotFound(err error) bool { return err != nil && toError(err).Status == http.StatusNotFound }

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
	recs, err := a.store.Query(c.ctx(), store.EntriesPK(tid), store.PlayerPrefix, 0)
	if err != nil {
		return 0, nil, err
	}
	number := tournament.ShownNumbers(t, players)
	var rows []entryRow
	for _, rec := range recs {
		var pe pendingEntry
		if err := json.Unmarshal(rec.Doc, &pe); err != nil {
			return 0, nil, fmt.Errorf("decode entry %s/%s: %w", rec.PK, rec.SK, err)
		}
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
	var (
		player tournament.Player
		t      *tournament.Tournament
	)
	err := command.Sequenced(tid, func() error {
		var (
			meta, rec *store.Record
			pe        pendingEntry
			err       error
		)
		if t, meta, pe, rec, err = a.pendingEntryOf(c, tid, pid); err != nil {
			return err
		}
		if err := t.Approve(); err != nil {
			return err
		}
		if player, err = t.Register(tournament.Player{ID: pe.ID, Name: pe.Name, Rating: pe.Rating, Club: pe.Club, TokenHash: pe.TokenHash}, c.nowMs()); err != nil {
			return entryRefusal(err)
		}
		return a.store.TransactDelete(c.ctx(), []*store.Record{rec}, service.EncodeItem(meta, t), service.PlayerItem(t, &player))
	})
	if err != nil {
		return 0, nil, err
	}
	out, err := a.shownPlayer(c.ctx(), t, &player)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"id": player.ID, "player": out, "approved": true}, nil
}

// pendingEntryOf reads, for the event's organiser, event tid and its pending
// entry pid (E-1): what approving and rejecting an entry both start from.
func (a *API) pendingEntryOf(c *call, tid, pid string) (t *tournament.Tournament, meta *store.Record, pe pendingEntry, rec *store.Record, err error) {
	if t, meta, err = a.organiserEvent(c, tid); err != nil {
		return nil, nil, pe, nil, err
	}
	rec, err = a.svc.Item(c.ctx(), store.EntriesPK(tid), store.PlayerSK(pid), "pending entry "+pid, &pe)
	return t, meta, pe, rec, err
}

// POST /tournaments/{tid}/players/{pid}/reject — organiser: refuse a
// pending entry (E-1). Its place is freed, its token never opens anything,
// and its name key goes with it so the person may enter again.
func (a *API) rejectEntry(c *call) (int, any, error) {
	tid, pid := c.r.PathValue("tid"), c.r.PathValue("pid")
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	var t *tournament.Tournament
	err := command.Sequenced(tid, func() error {
		var (
			meta, rec *store.Record
			pe        pendingEntry
			err       error
		)
		if t, meta, pe, rec, err = a.pendingEntryOf(c, tid, pid); err != nil {
			return err
		}
		if err := t.Reject(); err != nil {
			return err
		}
		deletes := []*store.Record{rec}
		var seen entryName
		nameRec, err := a.svc.Item(c.ctx(), store.EntriesPK(tid), store.EntryNameSK(entryNameHash(pe.Name, pe.Club)), "entry name", &seen)
		switch {
		case err == nil && seen.ID == pid:
			deletes = append(deletes, nameRec)
		case err != nil && !isNotFound(err):
			return err
		}
		return a.store.TransactDelete(c.ctx(), deletes, service.EncodeItem(meta, t))
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"id": pid, "rejected": true, "entries": entriesView(t, c.nowMs())}, nil
}
