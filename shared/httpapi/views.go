package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/viewcache"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Materialised views: the public tables (a round's pairings with results,
// standings, crosstable) of an individual event are kept as views
// (shared/service/viewcache: stored under V#<tid>, current by the event's
// stamp; what a view holds, its head and its rows in chunks, and which
// view a table query names are there too). Here is how a view is rendered
// and read back as this API's answers.
//
// A view is named round#<nnnn>, standings#<nnnn|last|live>,
// crosstable#<…>, rounds (the round list) or finished (whether the event
// is over). It is built by the first read that finds it missing or stale,
// from the event read after the view's stamp. A round's view whose only
// change is results is patched from that round's result items instead
// (patchRound).

// storedView is one request's materialised view: what was read, and how to
// store it again when it was not current. A nil *storedView (a request the views
// do not serve: a team event, a table of one group…) does nothing.
type storedView struct {
	a *API
	c *call
	v *viewcache.View
	// t is the event item read with the view's head.
	t *tournament.Tournament
	// startsAt is what saveView records as the view's round start.
	startsAt int64
}

// openView reads, in one round trip, the event item, the event's stamp and
// the head of view name. It returns nil (no view: the caller reads the
// event) for an unknown event and a team event.
func (a *API) openView(c *call, tid, name string) (*storedView, error) {
	return a.openViewOf(c, tid, name, false)
}

// openViewOf is openView, also for a team event when teams is set (a
// response view depends on every write and on the clock until the next
// round's start, which is when lineups are drawn on read).
func (a *API) openViewOf(c *call, tid, name string, teams bool) (*storedView, error) {
	v, err := a.views.Open(c.ctx(), tid, name, teams)
	if err != nil || v == nil {
		return nil, err
	}
	return &storedView{a: a, c: c, v: v, t: v.Event}, nil
}

// current reports whether the stored view may be served now.
func (v *storedView) current() bool { return v != nil && v.v.Current(v.c.nowMs()) }

// head decodes the stored response head into out.
func (v *storedView) head(out any) error { return v.v.Head(out) }

// rows counts the rows of the stored view.
func (v *storedView) rows() int { return v.v.Rows() }

// errViewGone: a chunk of the view's build is missing (a newer build
// replaced it meanwhile, or TTL removed it): the caller reads the event.
var errViewGone = viewcache.ErrGone

// viewRows reads the rows [offset, offset+limit) of a current view (limit
// < 0: to the end): viewcache.ReadRows.
func viewRows[R any](v *storedView, offset, limit int) ([]R, error) {
	return viewcache.ReadRows[R](v.c.ctx(), v.v, offset, limit)
}

// tableDeps are the counters of a table after round n.
func tableDeps(n int) []string { return viewcache.TableDeps(n) }

// saveView stores the response built from the event (read after v's
// stamp): head is the response without rows, deps the counters it depends
// on. A failure costs only a later read the event's read again: logged.
func saveView[R any](v *storedView, head any, rows []R, deps []string, pending *viewcache.Pending) {
	if v == nil {
		return
	}
	v.save(viewcache.RowsBuild(head, rows, deps, pending, v.startsAt))
}

// save stores build b of the view (or logs err, b's encoding failing): a
// failure costs only a later read the event's read again.
func (v *storedView) save(b viewcache.Build, err error) {
	if err == nil {
		err = v.v.Save(v.c.ctx(), v.c.now, b)
	}
	if err != nil {
		v.a.log.Warn("view not stored", "tournament", v.t.ID, "view", v.v.Name(), "err", err.Error())
	}
}

// openTableView opens the materialised view of a players' table (kind
// "standings" or "crosstable") that the request's ?round= and ?live= ask
// for (viewcache.TableName); a malformed query gets no view (the event's
// read reports it).
func (a *API) openTableView(c *call, kind string) (*storedView, error) {
	q := c.r.URL.Query()
	name, ok := viewcache.TableName(kind, q.Get("round"), q.Get("live"))
	if !ok {
		return nil, nil
	}
	return a.openView(c, c.r.PathValue("tid"), name)
}

// saveTable stores a players' table after round n of ev (head without its
// rows, and the rows) as the view v was opened for (viewcache.TableBuild).
func saveTable[R any](v *storedView, ev *event, n int, head any, rows []R) {
	if v == nil {
		return
	}
	v.save(viewcache.TableBuild(v.v, ev.Event, n, head, rows))
}

// roundViewName is the view of round n's pairings and results.
func roundViewName(n int) string { return fmt.Sprintf("round#%04d", n) }

// cachedRound serves GET /tournaments/{tid}/rounds/{n} from the round's
// view when it is current: out is the round, or nil with the view to store
// once the event has been read (a request with ?explain=true reads the
// event: explanations are not kept in the view).
func (a *API) cachedRound(c *call, tid string, n int, explain bool) (*storedView, *roundOut, error) {
	if explain {
		return nil, nil, nil
	}
	vw, err := a.openView(c, tid, roundViewName(n))
	if err != nil {
		return nil, nil, err
	}
	if !vw.current() {
		out, err := a.patchRound(vw, n)
		return vw, out, err
	}
	out, rows, ok, err := viewcache.Page[roundOut, service.PairingView](c.ctx(), vw.v, c.nowMs(), 0, -1)
	if err != nil || !ok {
		return vw, nil, err
	}
	out.Pairings, out.Started = rows, vw.v.Started(c.nowMs()) // C-1: it may have started since
	return vw, &out, nil
}

// saveRound stores round r of ev as its view: the pairings with their
// results, everything else of the round view as its head. Only a round
// whose games all exist is kept (a read of any other repairs them first).
func (a *API) saveRound(v *storedView, ev *event, r *tournament.Round) {
	if v == nil || !r.GamesReady || ev.T.Settings.Teams {
		return
	}
	out := ev.RoundView(r, false, v.c.nowMs())
	rows := out.Pairings
	out.Pairings, out.Started = nil, false
	v.startsAt = r.StartsAt
	saveView(v, out, rows, viewcache.RoundDeps(r.Number), nil)
}

// roundResponse answers with the round view out (JSON or CSV); a round whose
// every game has a result is settled for caches.
func roundResponse(c *call, out *roundOut, format string, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	done := len(out.Pairings) > 0
	for _, p := range out.Pairings {
		done = done && p.Result != nil
	}
	c.settled(done)
	if format == "csv" {
		return http.StatusOK, roundCSV(*out), nil
	}
	c.varyLanguage = true
	return http.StatusOK, roundOut{RoundView: localizeRound(out.RoundView, c.r), pageOut: out.pageOut}, nil
}

func ptr[T any](v T) *T { return &v }

// cachedRounds serves GET /tournaments/{tid}/rounds from its view when it
// is current (a round's status moves from paired to started when its start
// time passes, so that is worked out at read time); otherwise it returns
// the view to store once the event has been read.
func (a *API) cachedRounds(c *call) (*storedView, *roundListOut, error) {
	vw, err := a.openView(c, c.r.PathValue("tid"), "rounds")
	if err != nil || !vw.current() {
		return vw, nil, err
	}
	var out roundListOut
	if err := vw.head(&out); err != nil {
		return vw, nil, nil
	}
	for i, r := range out.Rounds {
		if r.Status != string(tournament.RoundPaired) || r.StartsAt == nil {
			continue
		}
		if at, err := time.Parse(time.RFC3339Nano, *r.StartsAt); err == nil && c.nowMs() >= at.UnixMilli() {
			out.Rounds[i].Status = string(tournament.RoundStarted) // C-1: its start time has passed
		}
	}
	return vw, &out, nil
}

// patchRound brings round n's view up to date when nothing but the round's
// results changed since it was built — neither the round item nor the event
// item or players (g): it reads the view's pairings, the round's results
// (one key range of the event: this round's result items, ~200 bytes a
// table, instead of the whole event), sets each pairing's result as the
// round view does, and stores the view again under the counters read before
// the results were. A round played live is polled after every result, so
// this is what most of its reads cost. Knockout systems add games as results
// come in (extendRound) and are rebuilt whole.
func (a *API) patchRound(v *storedView, n int) (*roundOut, error) {
	if v == nil || !v.v.Patchable(v.c.nowMs(), n) {
		return nil, nil
	}
	var out roundOut
	rows, err := viewRows[service.PairingView](v, 0, -1)
	if err == nil {
		err = v.head(&out)
	}
	if errors.Is(err, errViewGone) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	results, err := a.svc.RoundResults(v.c.ctx(), v.t.ID, n)
	if err != nil {
		return nil, err
	}
	for i, p := range rows {
		rows[i].Result, rows[i].Reason = nil, ""
		if res, ok := results[p.Table]; ok && res.Of(p.GameID) { // a result of another game of the table is not this pairing's
			s := res.Result.String()
			rows[i].Result, rows[i].Reason = &s, res.Reason
		}
	}
	v.startsAt = v.v.StartsAt()
	saveView(v, out, rows, viewcache.RoundDeps(n), nil)
	out.Pairings, out.Started = rows, v.v.Started(v.c.nowMs())
	return &out, nil
}
