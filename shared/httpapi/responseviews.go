package httpapi

import (
	"cmp"
	"net/http"
	"slices"
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
// A view is named by the route, the query as the route reads it and the
// language a round's explanations are written in (viewcache.ResponseKey,
// which keeps only the pages a `next` link names); a table of a group the
// event does not have is not kept either, so what a stranger can make the
// views hold is bounded.

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
	name, ok := viewcache.ResponseKey(cmp.Or(kind, "event")+"#"+c.r.PathValue("n"), c.r.URL.Query(), slices.Sorted(slices.Values(routeQueries[route])),
		explainLanguage(c.r), maxPageRows)
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
	head, body, ok, err := v.v.Response(c.ctx(), c.nowMs())
	if err != nil {
		return 0, nil, err
	}
	if ok {
		// A kept answer is one per language (the key names it): a kept
		// round's explanations are in the reader's language.
		c.varyLanguage = c.varyLanguage || route == "GET /tournaments/{tid}/rounds/{n}"
		c.cache = head.Cache
		return http.StatusOK, raw{contentType: head.ContentType, data: body, next: head.Next}, nil
	}
	status, resp, err := h()
	if err == nil && status == http.StatusOK && c.keep {
		saveResponse(v, resp)
	}
	return status, resp, err
}

// saveResponse keeps resp, built from the event read after v's stamp, as
// v's view; a failure costs only a later read the event's read again.
func saveResponse(v *storedView, resp any) {
	body, contentType := encodeBody(resp)
	head := viewcache.ResponseHead{ContentType: contentType, Cache: v.c.cache, Until: v.c.until}
	if rb, ok := resp.(raw); ok {
		head.Next = rb.next
	}
	v.save(viewcache.WholeBuild(head, body, v.t.Round))
}
