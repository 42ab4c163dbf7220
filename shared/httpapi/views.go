package httpapi

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Materialised views: the public tables (a round's pairings with results,
// standings, crosstable) of an individual event are kept as documents under
// the event's view partition V#<tid>, so a read costs what it returns, not
// the event's whole history (a 10,000-player event after six rounds is
// ~16 MB, ~4,000 read units, in its own partition).
//
//	PK       SK                          holds
//	V#<tid>  STAMP                       counters advanced after every write to T#<tid> (eventStamp)
//	V#<tid>  D#<view>                    a view's head: the counters it was built from, the response without its rows
//	V#<tid>  D#<view>#<build>#<nnn>      rows viewChunkRows at a time, gzipped JSON, of one build
//
// <view> is round#<nnnn>, standings#<nnnn|last|live>, crosstable#<…>,
// rounds (the round list) or finished (whether the event is over).
//
// A view is built by the first read that finds it missing or stale: that
// read reads the stamp (creating it, the event's first such read), then the
// event (one Query, as every read did before), answers from it and stores
// the view with the counters it read. A round's view whose only change is
// results is patched from that round's result items instead (patchRound).
// Since counters advance only after the write they count, a view built
// from counters c has seen every write counted in c; a reader serves it only
// while the stamp still reads c for every counter the view depends on, so a
// result written while a view is being built leaves the view stale, never
// served. Building is idempotent: chunks are written under fresh keys (a
// random build id) that must not exist, and the head under the version read,
// so of two racing builds one head wins and the other's chunks are deleted.
// A view older than viewMaxAge is rebuilt regardless: that bounds what a
// counter lost after its write (the process died between the two) can cost.

const (
	// viewChunkRows rows of a table per chunk item: a 500-row crosstable of
	// 11 rounds is ~600 KB of JSON, some 50 KB gzipped, well inside an item.
	viewChunkRows = 500
	// viewMaxAge is how long a view is served without a rebuild at most.
	viewMaxAge = 5 * time.Minute
	// viewTTL is when DynamoDB may delete a view nobody read (it is rebuilt on demand).
	viewTTL = 7 * 24 * time.Hour
)

func roundCounter(n int) string   { return fmt.Sprintf("p%04d", n) }
func resultsCounter(n int) string { return fmt.Sprintf("x%04d", n) }
func correctCounter(n int) string { return fmt.Sprintf("c%04d", n) }

// eventStamp is the store's StampFunc: which counters of the event's stamp
// a write to its partition advances. A round item (pairings, changes, its
// start) advances p<n>; a result item x<n> when it is created, c<n> when it
// is rewritten (a correction); everything else — the event item, players,
// officials, teams, lineups — advances g. A view of rounds 1…n depends on g
// and those rounds' counters.
func eventStamp(pk, sk string, created bool) (string, []string) {
	tid, ok := store.TournamentOf(pk)
	if !ok {
		return "", nil
	}
	n, ok := store.RoundOf(sk)
	switch {
	case ok && store.SKPrefix(sk) == store.RoundPrefix:
		return store.ViewPK(tid), []string{roundCounter(n)}
	case ok && store.SKPrefix(sk) == store.ResultPrefix && created:
		return store.ViewPK(tid), []string{resultsCounter(n)}
	case ok && store.SKPrefix(sk) == store.ResultPrefix:
		return store.ViewPK(tid), []string{correctCounter(n)}
	}
	return store.ViewPK(tid), []string{"g"}
}

// viewDoc is a view's head item.
type viewDoc struct {
	Build string `json:"build"`
	Epoch string `json:"epoch"`
	// Deps are the counters the view was built from.
	Deps map[string]int64 `json:"deps"`
	// Pending, for the default table (the last complete round), is the
	// round after it: the view stays current until that round may be complete.
	Pending *viewPending `json:"pending,omitempty"`
	BuiltAt int64        `json:"builtAt"`
	// StartsAt is a round's start (ms), for its started flag at read time.
	StartsAt int64 `json:"startsAt,omitempty"`
	// Head is the response without its rows; Rows counts them, in Chunks items.
	Head   json.RawMessage `json:"head"`
	Rows   int             `json:"rows"`
	Chunks int             `json:"chunks"`
}

// viewPending is the round whose completion would move the default table on:
// its round item's counter and its created results when the view was built,
// and how many of its games had no result then.
type viewPending struct {
	Round   int   `json:"round"`
	Paired  int64 `json:"paired"`
	Results int64 `json:"results"`
	Missing int   `json:"missing"`
}

// storedView is one request's materialised view: what was read, and how to
// store it again when it was not current. A nil *storedView (a request the views
// do not serve: a team event, a table of one group…) does nothing.
type storedView struct {
	a     *API
	c     *call
	tid   string
	name  string
	t     *tournament.Tournament
	stamp store.Stamp
	rec   *store.Record
	doc   *viewDoc
	// startsAt is what saveView records as the doc's StartsAt.
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
	metaKey, headKey := store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}, store.Key{PK: store.ViewPK(tid), SK: store.ViewSK(name)}
	recs, st, err := a.store.GetWithStamp(c.ctx(), store.ViewPK(tid), metaKey, headKey)
	if err != nil {
		return nil, err
	}
	meta := recs[metaKey]
	if meta == nil {
		return nil, nil
	}
	var t tournament.Tournament
	if err := service.DecodeItem(meta, &t); err != nil {
		return nil, fmt.Errorf("decode tournament %s: %w", tid, err)
	}
	if t.Settings.Teams && !teams {
		return nil, nil // lineups are drawn on read (T-3): a team event's tables are read whole
	}
	if st.Epoch == "" { // no reader has made the event's stamp yet: make it before the event is read
		if st, err = a.store.CreateStamp(c.ctx(), store.ViewPK(tid)); err != nil {
			return nil, err
		}
	}
	v := &storedView{a: a, c: c, tid: tid, name: name, t: &t, stamp: st, rec: recs[headKey]}
	if v.rec != nil {
		var doc viewDoc
		if json.Unmarshal(v.rec.Doc, &doc) == nil {
			v.doc = &doc
		}
	}
	return v, nil
}

// current reports whether the stored view may be served: built under this
// stamp's epoch, recently enough, and no counter it depends on has moved.
func (v *storedView) current() bool {
	if v == nil || v.doc == nil || v.doc.Epoch != v.stamp.Epoch {
		return false
	}
	if age := v.c.nowMs() - v.doc.BuiltAt; age < 0 || age > viewMaxAge.Milliseconds() {
		return false
	}
	for name, n := range v.doc.Deps {
		if v.stamp.Get(name) != n {
			return false
		}
	}
	if p := v.doc.Pending; p != nil {
		if v.stamp.Get(roundCounter(p.Round)) != p.Paired {
			return false
		}
		if p.Missing > 0 && v.stamp.Get(resultsCounter(p.Round))-p.Results >= int64(p.Missing) {
			return false // enough results came in to complete the round
		}
	}
	return true
}

// head decodes the stored response head into out.
func (v *storedView) head(out any) error { return json.Unmarshal(v.doc.Head, out) }

// errViewGone: a chunk of the view's build is missing (a newer build
// replaced it meanwhile, or TTL removed it): the caller reads the event.
var errViewGone = errors.New("view chunks gone")

// viewRows reads the rows [offset, offset+limit) of a current view (limit
// < 0: to the end), reading only the chunks that hold them.
func viewRows[R any](v *storedView, offset, limit int) ([]R, error) {
	end := v.doc.Rows
	if limit >= 0 {
		end = min(end, offset+limit)
	}
	if offset >= end {
		return []R{}, nil
	}
	var keys []store.Key
	for i := offset / viewChunkRows; i <= (end-1)/viewChunkRows; i++ {
		keys = append(keys, store.Key{PK: store.ViewPK(v.tid), SK: store.ViewChunkSK(v.name, v.doc.Build, i)})
	}
	recs, err := v.a.store.GetMany(v.c.ctx(), keys...)
	if err != nil {
		return nil, err
	}
	out := make([]R, 0, end-offset)
	first := (offset / viewChunkRows) * viewChunkRows
	for i, k := range keys {
		rec := recs[k]
		if rec == nil {
			return nil, errViewGone
		}
		var rows []R
		if err := gunzipJSON(rec.Doc, &rows); err != nil {
			return nil, fmt.Errorf("decode view %s chunk %d: %w", v.name, i, err)
		}
		for j, r := range rows {
			if at := first + i*viewChunkRows + j; at >= offset && at < end {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// tableDeps are the counters of a table after round n: the event's and
// those of rounds 1…n.
func tableDeps(n int) []string {
	out := []string{"g"}
	for r := 1; r <= n; r++ {
		out = append(out, roundCounter(r), resultsCounter(r), correctCounter(r))
	}
	return out
}

// pendingAfter is the view's Pending for the default table after round n
// of ev: round n+1 when it is paired (it is not complete, or the table
// would be after it).
func (v *storedView) pendingAfter(ev *event, n int) *viewPending {
	r := ev.Round(n + 1)
	if r == nil {
		return nil // pairing it writes the event item: g moves
	}
	p := &viewPending{Round: n + 1, Paired: v.stamp.Get(roundCounter(n + 1)), Results: v.stamp.Get(resultsCounter(n + 1))}
	for _, pr := range r.Pairings {
		if _, ok := ev.H.Result(r.Number, pr); !ok {
			p.Missing++
		}
	}
	return p
}

// saveView stores the response built from the event (read after v's
// stamp): head is the response without rows, deps the counters it depends
// on. A failure costs only a later read the event's read again: logged.
func saveView[R any](v *storedView, head any, rows []R, deps []string, pending *viewPending) {
	if v == nil {
		return
	}
	if err := storeView(v, head, rows, deps, pending); err != nil && !errors.Is(err, store.ErrConflict) {
		v.a.log.Warn("view not stored", "tournament", v.tid, "view", v.name, "err", err.Error())
	}
}

func storeView[R any](v *storedView, head any, rows []R, deps []string, pending *viewPending) error {
	h, err := json.Marshal(head)
	if err != nil {
		return err
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	doc := viewDoc{Build: hex.EncodeToString(b), Epoch: v.stamp.Epoch, Deps: map[string]int64{}, Pending: pending,
		BuiltAt: v.c.nowMs(), StartsAt: v.startsAt, Head: h, Rows: len(rows), Chunks: (len(rows) + viewChunkRows - 1) / viewChunkRows}
	for _, d := range deps {
		doc.Deps[d] = v.stamp.Get(d)
	}
	ctx := v.c.ctx()
	expires := v.c.now.Add(viewTTL).Unix()
	chunks := make([]*store.Record, doc.Chunks)
	for i := range chunks {
		gz, err := gzipJSON(rows[i*viewChunkRows : min(len(rows), (i+1)*viewChunkRows)])
		if err != nil {
			return err
		}
		chunks[i] = &store.Record{PK: store.ViewPK(v.tid), SK: store.ViewChunkSK(v.name, doc.Build, i), Kind: store.KindViewChunk, Doc: gz, Expires: expires}
	}
	if err := putAll(v.a.store, v.c, chunks); err != nil {
		v.dropChunks(doc.Build, doc.Chunks)
		return err
	}
	rec := &store.Record{PK: store.ViewPK(v.tid), SK: store.ViewSK(v.name), Kind: store.KindView, Expires: expires}
	if v.rec != nil {
		rec.Version, rec.Parts = v.rec.Version, v.rec.Parts
	}
	if err := v.a.store.Put(ctx, encode(rec, doc)); err != nil {
		v.dropChunks(doc.Build, doc.Chunks) // another build won
		return err
	}
	if v.doc != nil && v.doc.Build != doc.Build {
		v.dropChunks(v.doc.Build, v.doc.Chunks) // the build replaced; TTL catches what this misses
	}
	return nil
}

// putAll writes new records a few at a time.
func putAll(st *store.Store, c *call, recs []*store.Record) error {
	const writers = 4
	errs := make([]error, len(recs))
	sem := make(chan struct{}, writers)
	var wg sync.WaitGroup
	for i, rec := range recs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = st.Put(c.ctx(), rec)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (v *storedView) dropChunks(build string, n int) {
	for i := range n {
		_ = v.a.store.Delete(v.c.ctx(), store.ViewPK(v.tid), store.ViewChunkSK(v.name, build, i))
	}
}

func gzipJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func gunzipJSON(data []byte, v any) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(zr, 64<<20))
	if err != nil {
		return err
	}
	return json.Unmarshal(body, v)
}

// openTableView opens the materialised view of a players' table (kind
// "standings" or "crosstable") that the request's ?round= and ?live= ask
// for; a malformed query gets no view (the event's read reports it).
func (a *API) openTableView(c *call, kind string) (*storedView, error) {
	q := c.r.URL.Query()
	name := kind + "#last"
	switch s := q.Get("round"); {
	case s != "":
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 9999 {
			return nil, nil
		}
		name = fmt.Sprintf("%s#%04d", kind, n)
	case q.Get("live") == "true":
		name = kind + "#live"
	case q.Get("live") != "" && q.Get("live") != "false":
		return nil, nil
	}
	return a.openView(c, c.r.PathValue("tid"), name)
}

// saveTable stores a players' table after round n of ev (head without its
// rows, and the rows) as the view v was opened for.
func saveTable[H, R any](v *storedView, ev *event, n int, head H, rows []R) {
	if v == nil {
		return
	}
	switch {
	case strings.HasSuffix(v.name, "#last"):
		saveView(v, head, rows, tableDeps(n), v.pendingAfter(ev, n))
	case strings.HasSuffix(v.name, "#live"):
		saveView(v, head, rows, tableDeps(ev.T.Round), nil)
	default:
		saveView(v, head, rows, tableDeps(n), nil)
	}
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
	var out roundOut
	rows, err := viewRows[pairingOut](vw, 0, -1)
	if err == nil {
		err = vw.head(&out)
	}
	if errors.Is(err, errViewGone) {
		return vw, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	out.Pairings = rows
	out.Started = vw.doc.StartsAt != 0 && c.nowMs() >= vw.doc.StartsAt // C-1: it may have started since
	return vw, &out, nil
}

// saveRound stores round r of ev as its view: the pairings with their
// results, everything else of the round view as its head. Only a round
// whose games all exist is kept (a read of any other repairs them first).
func (a *API) saveRound(v *storedView, ev *event, r *tournament.Round) {
	if v == nil || !r.GamesReady || ev.T.Settings.Teams {
		return
	}
	out := ev.roundView(r, false, v.c.nowMs())
	rows := out.Pairings
	out.Pairings, out.Started = nil, false
	v.startsAt = r.StartsAt
	saveView(v, out, rows, []string{"g", roundCounter(r.Number), resultsCounter(r.Number), correctCounter(r.Number)}, nil)
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
		return http.StatusOK, raw{contentType: csvType, data: roundCSV(*out)}, nil
	}
	c.varyLanguage = true
	return http.StatusOK, localizeRound(*out, c.r), nil
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
	if v == nil || v.doc == nil || v.doc.Epoch != v.stamp.Epoch || !patchable(v.t) {
		return nil, nil
	}
	if age := v.c.nowMs() - v.doc.BuiltAt; age < 0 || age > viewMaxAge.Milliseconds() {
		return nil, nil
	}
	for _, d := range []string{"g", roundCounter(n)} {
		if v.doc.Deps[d] != v.stamp.Get(d) {
			return nil, nil
		}
	}
	var out roundOut
	rows, err := viewRows[pairingOut](v, 0, -1)
	if err == nil {
		err = v.head(&out)
	}
	if errors.Is(err, errViewGone) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	recs, err := a.store.Query(v.c.ctx(), store.TournamentPK(v.tid), store.ResultsOfRound(n), 0)
	if err != nil {
		return nil, err
	}
	results := make(map[int]tournament.Result, len(recs))
	for _, rec := range recs {
		var res tournament.Result
		if err := service.DecodeItem(rec, &res); err != nil {
			return nil, fmt.Errorf("decode result %s: %w", rec.SK, err)
		}
		results[res.Table] = res
	}
	for i, p := range rows {
		rows[i].Result, rows[i].Reason = nil, ""
		// As History.Result: a result written for another game of the table is not this pairing's.
		if res, ok := results[p.Table]; ok && (p.GameID == "" || res.GameID == "" || res.GameID == p.GameID) {
			s := res.Result.String()
			rows[i].Result, rows[i].Reason = &s, res.Reason
		}
	}
	v.startsAt = v.doc.StartsAt
	saveView(v, out, rows, []string{"g", roundCounter(n), resultsCounter(n), correctCounter(n)}, nil)
	out.Pairings = rows
	out.Started = v.doc.StartsAt != 0 && v.c.nowMs() >= v.doc.StartsAt
	return &out, nil
}

// patchable reports whether results alone never change a round's pairings
// in t's system: not in a knockout, where a result can call for the next
// game of a match (S-3).
func patchable(t *tournament.Tournament) bool {
	switch t.Settings.System {
	case tournament.Swiss, tournament.SwissElimination, tournament.SwissNPlusOne, tournament.RoundRobin, tournament.DoubleRoundRobin:
		return true
	}
	return false
}
