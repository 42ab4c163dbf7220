package httpapi

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/service/viewcache"
)

// Response views: the public reads that have no table view of their own —
// the games list and its PGN, a round with ?explain=true, the rating report,
// the team tables, a group's table, the players and teams — keep their whole
// answer, gzipped, under the event's views partition (views.go), so a read
// while nothing changed costs what it returns instead of the event's whole
// history. Such a view depends on every counter of the event's stamp
// (any write to the event makes it stale), on the clock only until the
// next round's start it saw (a round's status and a lineup's draw move
// then), and is rebuilt after viewcache.MaxAge regardless, as every view is.
//
// A view is named by the route, the query as the route reads it (numbers
// written one way, so ?round=01 and ?round=1 share one) and the language a
// round's explanations are written in; a page other than one a `next` link
// names (offset a multiple of the default page, no other limit, within
// maxKeptPages) is not kept, nor a table of a group the event does not
// have, so what a stranger can make the views hold is bounded.

// maxKeptPages bounds the pages of one table kept as views (a page past
// the table's end answers 200 too): 100,000 rows, more than the 55,000
// games of an 11-round, 10,000-player event.
const maxKeptPages = 100

// responseHead is a response view's head: what to answer besides the body.
type responseHead struct {
	ContentType string  `json:"contentType"`
	Next        *string `json:"next,omitempty"`
	Cache       string  `json:"cache,omitempty"`
	// Until is when the answer may change with the clock alone (ms; 0: never).
	Until int64 `json:"until,omitempty"`
}

// keepView marks the request's answer as a pure function of the event's
// stored state until the clock reaches until (ms; 0: never): the response
// view wrapping its handler may keep it.
func (c *call) keepView(until int64) { c.keep, c.until = true, until }

// nextStart is when the clock alone next changes something a read of ev
// shows (viewcache.NextStart).
func (ev *event) nextStart(now int64) int64 { return viewcache.NextStart(ev.Event, now) }

// knownGroup reports whether ?group= is absent or names a group of the
// event (viewcache.KnownGroup).
func knownGroup(ev *event, group string) bool { return viewcache.KnownGroup(ev.Event, group) }

// responseViewName is the view of this request to route kind, or false when
// the request is not one a view keeps.
func responseViewName(c *call, kind string, query []string) (string, bool) {
	q := c.r.URL.Query()
	if s := q.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n%maxPageRows != 0 || n/maxPageRows >= maxKeptPages {
			return "", false
		}
	}
	if s := q.Get("limit"); s != "" && s != strconv.Itoa(maxPageRows) {
		return "", false
	}
	var key strings.Builder
	for _, name := range query {
		v, ok := q[name]
		if !ok {
			continue
		}
		val := v[0]
		if n, err := strconv.Atoi(val); err == nil {
			val = strconv.Itoa(n)
		}
		key.WriteString(name + "=" + val + "&")
	}
	key.WriteString("lang=" + explainLanguage(c.r))
	return viewcache.ResponseName(kind, key.String()), true
}

// viewed serves every request of route ("GET /tournaments/{tid}/games")
// through its response view (serveViewed).
func viewed(route string, h handler) handler {
	return func(a *API, c *call) (int, any, error) {
		return a.serveViewed(c, route, func() (int, any, error) { return h(a, c) })
	}
}

// serveViewed answers a public GET of route from its response view while
// that is current, and otherwise runs h and keeps its answer when h marked
// it (keepView). A handler calls it for the requests no table view serves.
func (a *API) serveViewed(c *call, route string, h func() (int, any, error)) (int, any, error) {
	kind := strings.NewReplacer("GET /tournaments/{tid}", "", "/{n}", "", "/", "").Replace(route)
	name, ok := responseViewName(c, cmp.Or(kind, "event")+"#"+c.r.PathValue("n"), slices.Sorted(slices.Values(routeQueries[route])))
	if !ok {
		return h()
	}
	v, err := a.openViewOf(c, c.r.PathValue("tid"), name, true)
	if err != nil {
		return 0, nil, err
	}
	if v == nil { // no such event: the handler says so
		return h()
	}
	if out, ok, err := v.response(); err != nil || ok {
		// A kept answer is one per language (the key names it): a kept
		// round's explanations are in the reader's language.
		c.varyLanguage = c.varyLanguage || route == "GET /tournaments/{tid}/rounds/{n}"
		return http.StatusOK, out, err
	}
	status, resp, err := h()
	if err == nil && status == http.StatusOK && c.keep {
		saveResponse(v, resp)
	}
	return status, resp, err
}

// response is the kept answer when the view is current.
func (v *storedView) response() (raw, bool, error) {
	if !v.current() {
		return raw{}, false, nil
	}
	var head responseHead
	if err := v.head(&head); err != nil {
		return raw{}, false, nil // a head of another shape: rebuilt
	}
	if head.Until != 0 && v.c.nowMs() >= head.Until {
		return raw{}, false, nil
	}
	body, err := v.v.Whole(v.c.ctx())
	if errors.Is(err, viewcache.ErrGone) {
		return raw{}, false, nil // replaced meanwhile, or expired: rebuilt
	}
	if err != nil {
		return raw{}, false, err
	}
	v.c.cache = head.Cache
	return raw{contentType: head.ContentType, data: body, next: head.Next}, true, nil
}

// saveResponse keeps resp, built from the event read after v's stamp, as
// v's view; a failure costs only a later read the event's read again.
func saveResponse(v *storedView, resp any) {
	body, contentType := encodeBody(resp)
	head := responseHead{ContentType: contentType, Cache: v.c.cache, Until: v.c.until}
	if rb, ok := resp.(raw); ok {
		head.Next = rb.next
	}
	v.save(viewcache.WholeBuild(head, body, v.t.Round))
}
