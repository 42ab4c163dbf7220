package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/xqtour/xqtour/shared/service/mirror"
	"github.com/xqtour/xqtour/shared/service/mirror/httptransport"
)

// The mirror's routes: a live, read-only copy of an event on another stack
// (shared/service/mirror holds all of it, and its httptransport the
// requests to the other stack; here are its HTTP shapes and the refusal
// every write passes).

// newMirror is the mirror's service over this API's store, its event's
// export read and paged by the transfers, as GET …/export reads and pages it.
func (a *API) newMirror() *mirror.Service {
	return mirror.New(mirror.Config{Store: a.store, Service: a.svc, Clock: a.now, Log: a.log,
		Transport: httptransport.New(), Transfer: a.transfer})
}

// StartMirrors starts sending this stack's mirrors until ctx ends
// (mirror.Service.StartSending): the local stack does, before it serves.
func (a *API) StartMirrors(ctx context.Context) (*mirror.Sender, error) {
	return a.mirror.StartSending(ctx)
}

// refuseMirrored is where a write to a read-only event is refused:
// authenticate calls it once a token is proven, and every write route on an
// event or a game takes a token but the players' own entry (POST
// /tournaments/{tid}/entries, RoleEntrant), which asks it itself; the
// mirror's own routes are excepted: they are how a copy is claimed, fed,
// taken over and asked about. A POST naming an event or a game (its path's
// tid or gid) is asked of mirror.Refusal; a caller without a valid token
// costs nothing on the routes that take one.
func (a *API) refuseMirrored(c *call) error {
	if c.mirrorChecked || c.r.Method != http.MethodPost || strings.Contains(c.r.Pattern, "/tournaments/{tid}/mirror") {
		return nil
	}
	c.mirrorChecked = true
	id := c.r.PathValue("tid")
	if id == "" {
		id = c.r.PathValue("gid")
	}
	return a.mirror.Refusal(c.ctx(), id)
}

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

// mirrorState renders a mirror's state (a service call's answer).
func mirrorState(st *mirror.State, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, mirrorStateOut{Role: st.Role, Target: st.Target, Source: st.Source, State: st.State, Sent: st.Sent, Waiting: st.Waiting,
		LastSentAt: optTime(st.LastSentAt), LastError: st.LastError, LastErrorAt: optTime(st.LastErrorAt), LastChangeAt: optTime(st.LastChangeAt)}, nil
}

func optTime(ms int64) *string {
	if ms == 0 {
		return nil
	}
	s := rfc3339(ms)
	return &s
}

// mirrorRef is GET /tournaments/{tid}'s "mirror" on a copy; tournamentMirrorOut the event with it.
type mirrorRef struct {
	Source       string  `json:"source"`
	LastChangeAt *string `json:"lastChangeAt"`
}

type tournamentMirrorOut struct {
	tournamentOut
	Mirror *mirrorRef `json:"mirror,omitempty"`
}

// withMirror adds a copy's "mirror" to an event's view.
func (a *API) withMirror(c *call, out tournamentOut) (any, error) {
	m, err := a.mirror.CopyOf(c.ctx(), out.ID)
	if err != nil || m == nil {
		return out, err
	}
	return tournamentMirrorOut{tournamentOut: out, Mirror: &mirrorRef{Source: m.Source, LastChangeAt: optTime(m.LastChangeAt)}}, nil
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
// stack (body: target, creationKey, source); 201 once the copy is claimed and the event sent whole.
func (a *API) startMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if err := a.mirror.RefuseCopy(c.ctx(), tid); err != nil {
		return 0, nil, err
	}
	var body struct {
		Target      string `json:"target"`
		CreationKey string `json:"creationKey"`
		// Source is this stack's address as the copy names it (and calls it
		// at a takeover); by default the address the request came to.
		Source string `json:"source"`
	}
	if err := c.decode(&body); err != nil {
		return 0, nil, err
	}
	target, err := mirror.CheckTarget(body.Target)
	if err != nil {
		return 0, nil, err
	}
	if !a.mirror.Sends() {
		return 0, nil, &Error{Status: http.StatusNotImplemented, Code: "mirror_unavailable",
			Message: "this stack does not send mirrors (the local stack does: make run); it can be a mirror's target"}
	}
	_, st, err := mirrorState(a.mirror.Start(c.ctx(), tid, mirror.Request{Target: target, CreationKey: body.CreationKey, Source: body.Source, Here: baseURL(c.r)}))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, st, nil
}

// GET /tournaments/{tid}/mirror — organiser: the mirror's state, on its source or its copy.
func (a *API) getMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	return mirrorState(a.mirror.StateOf(c.ctx(), tid))
}

// mirrorCommand is a mirror route of the organiser's that takes no body (none, or {}).
func (a *API) mirrorCommand(c *call, run func(ctx context.Context, tid string) (*mirror.State, error)) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	return mirrorState(run(c.ctx(), tid))
}

// POST /tournaments/{tid}/mirror/stop — organiser, on the source: stop sending (mirror.Service.Stop).
func (a *API) stopMirror(c *call) (int, any, error) { return a.mirrorCommand(c, a.mirror.Stop) }

// POST /tournaments/{tid}/mirror/handover — organiser, on the source: the copy was taken over (mirror.Service.Handover).
func (a *API) handoverMirror(c *call) (int, any, error) { return a.mirrorCommand(c, a.mirror.Handover) }

// POST /tournaments/{tid}/mirror/takeover — organiser, on a copy: the copy
// becomes the event's writer, its source told with the same token (mirror.Service.Takeover).
func (a *API) takeoverMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil {
		return 0, nil, err
	}
	if err := c.decode(&struct{}{}); err != nil { // no body, or {}
		return 0, nil, err
	}
	to, err := a.mirror.Takeover(c.ctx(), tid, c.r.Header.Get("Authorization"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"tournamentId": tid, "source": to.Source, "sourceNotified": to.SourceNotified}, nil
}

// POST /tournaments/{tid}/mirror/replica — anyone with this stack's
// creation key and the event's key: claim the copy of event tid (mirror.Service.Claim).
func (a *API) replicaMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var body mirror.Claim
	if err := c.decode(&body); err != nil {
		return 0, nil, err
	}
	existing, err := a.mirror.Claim(c.ctx(), tid, body)
	if err != nil {
		return 0, nil, err
	}
	status := http.StatusCreated
	if existing {
		status = http.StatusOK
	}
	return status, mirror.Claimed{TournamentID: tid, Existing: existing}, nil
}

// POST /tournaments/{tid}/mirror/changes — the mirror's stream (its own
// token): apply a batch of the source's changes (mirror.Service.Apply).
func (a *API) applyMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var body mirror.Batch
	if err := c.decode(&body); err != nil {
		return 0, nil, err
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(c.r.Header.Get("Authorization")), " ")
	switch token = strings.TrimSpace(token); {
	case strings.EqualFold(scheme, "Bearer") && strings.HasPrefix(token, "mirror."+tid+"."):
	case strings.EqualFold(scheme, "Bearer") && strings.Count(token, ".") == 2:
		return 0, nil, forbidden("this route takes the mirror's own token (mirror." + tid + ".…), not an event's or a game's")
	default:
		return 0, nil, &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "a mirror's changes need its token (mirror." + tid + ".…) as Authorization: Bearer"}
	}
	seq, err := a.mirror.Apply(c.ctx(), tid, token, body)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, map[string]int64{"lastSeq": seq}, nil
}
