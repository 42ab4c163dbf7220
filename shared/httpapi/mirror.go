package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A mirror keeps a live, read-only copy of one event on another stack
// (issue 31: the venue's laptop runs the event, a deployed stack shows it):
//
//   - POST /tournaments/{tid}/mirror on the source (organiser) claims the
//     copy on the target (POST …/mirror/replica, with the target's creation
//     key and the event's key, which proves the event), sends the event whole
//     through the target's own POST /tournaments/import (every check of an
//     import applies), and from then on every committed change, in commit
//     order (mirrorsend.go);
//   - the target applies each change in one transaction, idempotently, and
//     only ever to the event's own items (mirrorapply.go);
//   - the copy is read-only: every write route on the event or one of its
//     games is refused in one place (refuseMirrored, which serve calls for
//     every request), 409 mirror_read_only naming the source;
//   - POST …/mirror/takeover on the target (organiser) makes the copy the
//     event's one writer; the source is told (POST …/mirror/handover, with
//     the same organiser token), or learns it from the target's next answer,
//     and refuses writes from then on through the same refusal.
//
// Items: Y#<id>/RO marks an event or game read-only (on a copy, or on a
// source after a takeover), Y#<tid>/COPY is a copy's state, Y#mirrors/<tid>
// a mirror this stack sends and Y#<tid>/Q#<seq> its changes waiting.

// mirrorMark is a read-only mark (Y#<id>/RO): on a copy, the source its
// writes come from; on a source after a takeover, where the event went.
type mirrorMark struct {
	Tournament string `json:"t"`
	Source     string `json:"source,omitempty"`
	To         string `json:"to,omitempty"`
}

// mirrorIn is a copy's state (Y#<tid>/COPY).
type mirrorIn struct {
	Source       string `json:"source"`
	TokenHash    string `json:"tokenHash"`
	LastSeq      int64  `json:"lastSeq"`
	LastChangeAt int64  `json:"lastChangeAt,omitempty"`
	TakenOver    bool   `json:"takenOver,omitempty"`
	// Games are the games the stream brought (those of the import and of
	// the rounds are found through the event's rounds as well).
	Games []string `json:"games,omitempty"`
}

// mirrorOut is a mirror this stack sends (Y#mirrors/<tid>).
type mirrorOut struct {
	Target string `json:"target"`
	Source string `json:"source"`
	// Token authorises the change stream on the target (which keeps its hash).
	Token string `json:"token"`
	// State: running, stopped or handedOver (the target took the event over).
	State       string `json:"state"`
	SentSeq     int64  `json:"sentSeq"`
	Sent        int64  `json:"sent"`
	StartedAt   int64  `json:"startedAt"`
	LastSentAt  int64  `json:"lastSentAt,omitempty"`
	LastError   string `json:"lastError,omitempty"`
	LastErrorAt int64  `json:"lastErrorAt,omitempty"`
}

// Mirror states (mirrorOut.State).
const (
	mirrorRunning    = "running"
	mirrorStopped    = "stopped"
	mirrorHandedOver = "handedOver"
)

// mirrorStateOut is GET /tournaments/{tid}/mirror's answer.
type mirrorStateOut struct {
	Role        string  `json:"role"` // source or copy
	Target      string  `json:"target,omitempty"`
	Source      string  `json:"source,omitempty"`
	State       string  `json:"state"`
	Sent        int64   `json:"sent"`
	Waiting     int     `json:"waiting"`
	LastSentAt  *string `json:"lastSentAt,omitempty"`
	LastError   string  `json:"lastError,omitempty"`
	LastErrorAt *string `json:"lastErrorAt,omitempty"`
	// LastChangeAt: on a copy, when the last change from the source landed.
	LastChangeAt *string `json:"lastChangeAt,omitempty"`
}

// mirrorRef is GET /tournaments/{tid}'s "mirror" on a copy.
type mirrorRef struct {
	Source       string  `json:"source"`
	LastChangeAt *string `json:"lastChangeAt"`
}

func optTime(ms int64) *string {
	if ms == 0 {
		return nil
	}
	s := rfc3339(ms)
	return &s
}

// refuseMirrored is the one place a write to a read-only event is refused:
// authenticate calls it once a token is proven, and every write route on an
// event or a game takes a token (the mirror's own routes excepted: they are
// how a copy is claimed, fed, taken over and asked about). A POST naming
// an event or a game (its path's tid or gid) that carries a read-only mark
// is 409 mirror_read_only, naming where the event is written. It costs an
// authenticated POST one small strongly consistent read of the mark, and a
// caller without a valid token nothing.
func (a *API) refuseMirrored(c *call) error {
	if c.mirrorChecked || c.r.Method != http.MethodPost || strings.Contains(c.r.Pattern, "/tournaments/{tid}/mirror") {
		return nil
	}
	c.mirrorChecked = true
	if held, err := a.mayHoldMarks(c); err != nil || !held {
		return err
	}
	id := c.r.PathValue("tid")
	if id == "" {
		id = c.r.PathValue("gid")
	}
	if id == "" {
		return nil
	}
	rec, err := a.store.Get(c.ctx(), store.MirrorPK(id), store.ReadOnlySK)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	var m mirrorMark
	if err := json.Unmarshal(rec.Doc, &m); err != nil {
		return fmt.Errorf("decode mirror mark of %s: %w", id, err)
	}
	if m.To != "" {
		return &Error{Status: http.StatusConflict, Code: "mirror_read_only",
			Message: "tournament " + m.Tournament + " was taken over by its mirror at " + m.To + ": it is written there now, and read-only here"}
	}
	return &Error{Status: http.StatusConflict, Code: "mirror_read_only",
		Message: "tournament " + m.Tournament + " is a read-only mirror of " + m.Source + ": make changes there, or take this copy over (POST /tournaments/" + m.Tournament + "/mirror/takeover)"}
}

// A stack that never held a read-only mark (most stacks: no mirror was
// ever sent to them, nor taken over from them) should not pay a read per
// write for the refusal. The flag item Y#marks/RO is written before the
// first mark ever is; an API reads it at most once per marksTTL of its clock
// while it is absent, and never again once it has seen it. The first claim
// of a copy on a stack waits marksTTL after writing the flag before it
// answers, so every process of the stack (each Lambda instance) has read it
// again before the copy's first item exists; the source's own marks (a
// takeover) are written by the same process that then refuses (the local
// stack).
const marksTTL = 10 * time.Second

// markCache is what an API knows of the flag.
type markCache struct {
	mu        sync.Mutex
	seen      bool
	checkedAt time.Time // when it was last found absent
}

// mayHoldMarks reports whether the table may hold a read-only mark.
func (a *API) mayHoldMarks(c *call) (bool, error) {
	a.marks.mu.Lock()
	seen, at := a.marks.seen, a.marks.checkedAt
	a.marks.mu.Unlock()
	if seen {
		return true, nil
	}
	if now := a.now(); !at.IsZero() && !now.Before(at) && now.Sub(at) < marksTTL {
		return false, nil
	}
	_, err := a.store.Get(c.ctx(), store.MarksPK, store.ReadOnlySK)
	a.marks.mu.Lock()
	defer a.marks.mu.Unlock()
	switch {
	case errors.Is(err, store.ErrNotFound):
		a.marks.checkedAt = a.now()
		return false, nil
	case err != nil:
		return false, err
	}
	a.marks.seen = true
	return true, nil
}

// holdMarks is called before the first read-only mark is written: it
// writes the flag, and the first time ever on this table waits until every
// process's view of its absence has expired (wait: a copy's claim).
func (a *API) holdMarks(c *call, wait bool) error {
	a.marks.mu.Lock()
	a.marks.seen = true
	a.marks.mu.Unlock()
	if _, err := a.store.Get(c.ctx(), store.MarksPK, store.ReadOnlySK); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if err := a.store.Replace(c.ctx(), &store.Record{PK: store.MarksPK, SK: store.ReadOnlySK, Kind: store.KindReadOnly, Doc: []byte("{}"), Version: 1}); err != nil {
		return err
	}
	if wait {
		time.Sleep(marksTTL + 250*time.Millisecond)
	}
	return nil
}

// mirrorOf is the "mirror" GET /tournaments/{tid} shows on a copy (nil
// elsewhere, and once the copy is taken over).
func (a *API) mirrorOf(c *call, tid string) (*mirrorRef, error) {
	rec, err := a.store.Get(c.ctx(), store.MirrorPK(tid), store.MirrorInSK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var in mirrorIn
	if err := json.Unmarshal(rec.Doc, &in); err != nil {
		return nil, fmt.Errorf("decode mirror state of %s: %w", tid, err)
	}
	if in.TakenOver {
		return nil, nil
	}
	return &mirrorRef{Source: in.Source, LastChangeAt: optTime(in.LastChangeAt)}, nil
}

// tournamentMirrorOut is an event as GET /tournaments/{tid} answers it on a copy.
type tournamentMirrorOut struct {
	tournamentOut
	Mirror *mirrorRef `json:"mirror,omitempty"`
}

// withMirror adds a copy's "mirror" to an event's view.
func (a *API) withMirror(c *call, out tournamentOut) (any, error) {
	m, err := a.mirrorOf(c, out.ID)
	if err != nil || m == nil {
		return out, err
	}
	return tournamentMirrorOut{tournamentOut: out, Mirror: m}, nil
}

// mirrorIn reads a copy's state; nil when tid is no copy here.
func (a *API) loadMirrorIn(c *call, tid string) (*mirrorIn, *store.Record, error) {
	rec, err := a.store.Get(c.ctx(), store.MirrorPK(tid), store.MirrorInSK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	in := new(mirrorIn)
	if err := json.Unmarshal(rec.Doc, in); err != nil {
		return nil, nil, fmt.Errorf("decode mirror state of %s: %w", tid, err)
	}
	return in, rec, nil
}

// loadMirrorOut reads the mirror this stack sends of tid; nil when none.
func (a *API) loadMirrorOut(c *call, tid string) (*mirrorOut, *store.Record, error) {
	rec, err := a.store.Get(c.ctx(), store.MirrorsPK, tid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	out := new(mirrorOut)
	if err := json.Unmarshal(rec.Doc, out); err != nil {
		return nil, nil, fmt.Errorf("decode mirror of %s: %w", tid, err)
	}
	return out, rec, nil
}

// mirrorBody is POST /tournaments/{tid}/mirror's body.
type mirrorBody struct {
	Target      string `json:"target"`
	CreationKey string `json:"creationKey"`
	// Source is this stack's address as the copy names it (and calls it at
	// a takeover); by default the address the request came to.
	Source string `json:"source"`
}

// checkTarget refuses a target that is not an http(s) base URL of another
// server: no credentials, query or fragment, and no link-local address (a
// cloud's instance metadata lives there).
func checkTarget(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", badRequest("invalid_field", "target: want the base URL of the stack to mirror to, e.g. https://xqtour.example.org")
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil && (ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast()) {
		return "", badRequest("invalid_field", "target: "+quote(u.Hostname())+" is not an address a stack is served at")
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/"), nil
}

// baseURL is this stack's address as the caller reached it: what a copy names as its source.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// POST /tournaments/{tid}/mirror — organiser: mirror the event to another
// stack. The copy is claimed and the event sent whole before the answer
// (201), so a target that refuses (its creation key, an event of that id
// there already) is a 502 naming its answer and nothing is left running.
func (a *API) startMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if err := a.refuseCopy(c, tid); err != nil {
		return 0, nil, err
	}
	var body mirrorBody
	if err := c.decode(&body); err != nil {
		return 0, nil, err
	}
	target, err := checkTarget(body.Target)
	if err != nil {
		return 0, nil, err
	}
	if a.mirrors == nil {
		return 0, nil, &Error{Status: http.StatusNotImplemented, Code: "mirror_unavailable",
			Message: "this stack does not send mirrors (the local stack does: make run); it can be a mirror's target"}
	}
	out, rec, err := a.loadMirrorOut(c, tid)
	if err != nil {
		return 0, nil, err
	}
	if out != nil && out.State == mirrorRunning {
		return 0, nil, &Error{Status: http.StatusConflict, Code: "mirror_active", Message: "tournament " + tid + " is mirrored to " + out.Target + " already: stop that mirror first"}
	}
	if out != nil && out.State == mirrorHandedOver {
		return 0, nil, &Error{Status: http.StatusConflict, Code: "mirror_read_only", Message: "tournament " + tid + " was taken over by its mirror at " + out.Target}
	}
	if rec == nil {
		rec = &store.Record{PK: store.MirrorsPK, SK: tid, Kind: store.KindMirrorOut}
	}
	source := baseURL(c.r)
	if body.Source != "" {
		if source, err = checkTarget(body.Source); err != nil {
			return 0, nil, badRequest("invalid_field", "source: want this stack's base URL as the target should name it, e.g. http://192.168.1.20:3000")
		}
	}
	token, _ := service.NewToken("mirror", tid)
	o := mirrorOut{Target: target, Source: source, Token: token, State: mirrorRunning, StartedAt: c.nowMs()}
	if err := a.mirrors.begin(c, tid, rec, &o, body.CreationKey); err != nil {
		return 0, nil, err
	}
	st, err := a.mirrorState(c, tid, &o)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, st, nil
}

// refuseCopy refuses to start a mirror of a copy (its source sends it).
func (a *API) refuseCopy(c *call, tid string) error {
	in, _, err := a.loadMirrorIn(c, tid)
	if err != nil || in == nil || in.TakenOver {
		return err
	}
	return &Error{Status: http.StatusConflict, Code: "mirror_read_only", Message: "tournament " + tid + " is a read-only mirror of " + in.Source + ": mirror it from there"}
}

// mirrorState is a source's mirror as GET …/mirror shows it.
func (a *API) mirrorState(c *call, tid string, o *mirrorOut) (mirrorStateOut, error) {
	waiting, err := a.store.Query(c.ctx(), store.MirrorPK(tid), store.QueuedPrefix, 0)
	if err != nil {
		return mirrorStateOut{}, err
	}
	return mirrorStateOut{Role: "source", Target: o.Target, State: o.State, Sent: o.Sent, Waiting: len(waiting),
		LastSentAt: optTime(o.LastSentAt), LastError: o.LastError, LastErrorAt: optTime(o.LastErrorAt)}, nil
}

// GET /tournaments/{tid}/mirror — organiser: on the source, the mirror's
// state (target, changes sent, waiting, last error); on a copy, its source
// and last change.
func (a *API) getMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if o, _, err := a.loadMirrorOut(c, tid); err != nil {
		return 0, nil, err
	} else if o != nil {
		st, err := a.mirrorState(c, tid, o)
		return http.StatusOK, st, err
	}
	in, _, err := a.loadMirrorIn(c, tid)
	if err != nil {
		return 0, nil, err
	}
	if in == nil {
		return 0, nil, notFound("a mirror of tournament " + tid)
	}
	state := mirrorRunning
	if in.TakenOver {
		state = "takenOver"
	}
	return http.StatusOK, mirrorStateOut{Role: "copy", Source: in.Source, State: state, LastChangeAt: optTime(in.LastChangeAt)}, nil
}

// POST /tournaments/{tid}/mirror/stop — organiser, on the source: stop
// sending; changes not sent yet are dropped. The copy stays, read-only,
// until it is taken over. Stopping a stopped mirror changes nothing.
func (a *API) stopMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if err := c.decode(&struct{}{}); err != nil { // no body, or {}
		return 0, nil, err
	}
	o, err := a.updateMirrorOut(c, tid, func(o *mirrorOut) bool {
		if o.State != mirrorRunning {
			return false
		}
		o.State = mirrorStopped
		return true
	})
	if err != nil {
		return 0, nil, err
	}
	if o == nil {
		return 0, nil, notFound("a mirror of tournament " + tid)
	}
	if a.mirrors != nil {
		a.mirrors.forget(tid)
	}
	a.dropQueue(c, tid)
	st, err := a.mirrorState(c, tid, o)
	return http.StatusOK, st, err
}

// updateMirrorOut changes the mirror this stack sends of tid under its
// version (f reports whether it changed anything), reading it again after a
// lost race; nil when there is none.
func (a *API) updateMirrorOut(c *call, tid string, f func(*mirrorOut) bool) (*mirrorOut, error) {
	for range 5 {
		o, rec, err := a.loadMirrorOut(c, tid)
		if err != nil || o == nil {
			return nil, err
		}
		if !f(o) {
			return o, nil
		}
		rec.Doc, _ = json.Marshal(o)
		if err := a.store.Put(c.ctx(), rec); errors.Is(err, store.ErrConflict) {
			continue
		} else if err != nil {
			return nil, err
		}
		return o, nil
	}
	return nil, &Error{Status: http.StatusConflict, Code: "conflict", Message: "the mirror was changed at the same time: send this again"}
}

// dropQueue deletes the changes waiting to be sent (best effort: a stopped
// mirror's queue is never read again).
func (a *API) dropQueue(c *call, tid string) {
	recs, err := a.store.Query(c.ctx(), store.MirrorPK(tid), store.QueuedPrefix, 0)
	if err != nil {
		return
	}
	for _, r := range recs {
		_ = a.store.Delete(c.ctx(), r.PK, r.SK)
	}
}

// POST /tournaments/{tid}/mirror/handover — organiser, on the source: the
// copy was taken over (its takeover calls this with the organiser's token):
// the mirror ends and the event is read-only here from now on.
func (a *API) handoverMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if err := c.decode(&struct{}{}); err != nil { // no body, or {}
		return 0, nil, err
	}
	o, err := a.handOver(c, tid)
	if err != nil {
		return 0, nil, err
	}
	if o == nil {
		return 0, nil, notFound("a mirror of tournament " + tid)
	}
	st, err := a.mirrorState(c, tid, o)
	return http.StatusOK, st, err
}

// handOver makes event tid read-only on this source, its mirror's target
// being its writer now: the event's mark and each game's, then the mirror's
// state. Doing it again changes nothing.
func (a *API) handOver(c *call, tid string) (*mirrorOut, error) {
	o, _, err := a.loadMirrorOut(c, tid)
	if err != nil || o == nil {
		return nil, err
	}
	ev, err := a.loadEvent(c.ctx(), tid)
	if err != nil {
		return nil, err
	}
	if err := a.holdMarks(c, false); err != nil { // this process refuses from now on
		return nil, err
	}
	mark, _ := json.Marshal(mirrorMark{Tournament: tid, To: o.Target})
	for _, id := range append([]string{tid}, eventGames(ev)...) {
		if err := a.store.Replace(c.ctx(), &store.Record{PK: store.MirrorPK(id), SK: store.ReadOnlySK, Kind: store.KindReadOnly, Doc: mark, Version: 1}); err != nil {
			return nil, err
		}
	}
	if a.mirrors != nil {
		a.mirrors.forget(tid)
	}
	o, err = a.updateMirrorOut(c, tid, func(o *mirrorOut) bool {
		if o.State == mirrorHandedOver {
			return false
		}
		o.State = mirrorHandedOver
		return true
	})
	if err == nil {
		a.dropQueue(c, tid)
	}
	return o, err
}

// eventGames lists the game ids of an event's rounds.
func eventGames(ev *event) []string {
	var gids []string
	for _, rec := range ev.Rounds {
		var r tournament.Round
		if service.DecodeItem(rec, &r) != nil { // a staged round's pairings are in its body
			continue
		}
		for _, p := range r.Pairings {
			if p.GameID != "" {
				gids = append(gids, p.GameID)
			}
		}
	}
	return gids
}

// POST /tournaments/{tid}/mirror/takeover — organiser, on a copy: the copy
// becomes the event's writer. Its read-only marks go, the source is told
// (with the same organiser token) and refuses writes from then on; a source
// out of reach learns it from the copy's answer to its next change
// (mirror_taken_over). Changes the source had not sent are not here.
func (a *API) takeoverMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if err := c.decode(&struct{}{}); err != nil { // no body, or {}
		return 0, nil, err
	}
	var in *mirrorIn
	for range 5 {
		got, rec, err := a.loadMirrorIn(c, tid)
		if err != nil {
			return 0, nil, err
		}
		if got == nil {
			return 0, nil, &Error{Status: http.StatusConflict, Code: "not_a_mirror", Message: "tournament " + tid + " is no mirror's copy here: it is written here already"}
		}
		in = got
		if in.TakenOver {
			break
		}
		in.TakenOver = true
		rec.Doc, _ = json.Marshal(in)
		if err := a.store.Put(c.ctx(), rec); errors.Is(err, store.ErrConflict) {
			continue // a change landed meanwhile
		} else if err != nil {
			return 0, nil, err
		}
		break
	}
	if in == nil || !in.TakenOver {
		return 0, nil, &Error{Status: http.StatusConflict, Code: "conflict", Message: "changes kept landing: send the takeover again"}
	}
	ev, err := a.loadEvent(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	for _, id := range append(append([]string{tid}, in.Games...), eventGames(ev)...) {
		if err := a.store.Delete(c.ctx(), store.MirrorPK(id), store.ReadOnlySK); err != nil {
			return 0, nil, err
		}
	}
	notified := a.notifySource(c, tid, in.Source)
	return http.StatusOK, map[string]any{"tournamentId": tid, "source": in.Source, "sourceNotified": notified}, nil
}
