package httpapi

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Response views: the public reads that have no table view of their own —
// the games list and its PGN, a round with ?explain=true, the rating report,
// the team tables, a group's table, the players and teams — keep their whole
// answer, gzipped, under the event's views partition (views.go), so a read
// while nothing changed costs what it returns instead of the event's whole
// history. Such a view depends on every counter of the event's stamp
// (any write to the event makes it stale), on the clock only until the
// next round's start it saw (a round's status and a lineup's draw move
// then), and is rebuilt after viewMaxAge regardless, as every view is.
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

// responseChunkBytes is the largest piece of a gzipped answer in one item
// (DynamoDB's item limit is 400 KB).
const responseChunkBytes = 300 << 10

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
// shows: the earliest round start after now (0: none).
func (ev *event) nextStart(now int64) int64 {
	next := int64(0)
	for _, r := range ev.H.Rounds {
		if r.StartsAt > now && (next == 0 || r.StartsAt < next) {
			next = r.StartsAt
		}
	}
	return next
}

// knownGroup reports whether ?group= is absent or names a group of the
// event: some views ignore it, and a view kept per made-up name would let a
// stranger fill the views partition.
func knownGroup(ev *event, group string) bool {
	return group == "" || slices.Contains(tournament.GroupNames(ev.T, ev.H), group)
}

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
	sum := sha256.Sum256([]byte(key.String()))
	return "resp#" + kind + "#" + hex.EncodeToString(sum[:12]), true
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
	keys := make([]store.Key, v.doc.Chunks)
	for i := range keys {
		keys[i] = store.Key{PK: store.ViewPK(v.tid), SK: store.ViewChunkSK(v.name, v.doc.Build, i)}
	}
	recs, err := v.a.store.GetMany(v.c.ctx(), keys...)
	if err != nil {
		return raw{}, false, err
	}
	var gz bytes.Buffer
	for _, k := range keys {
		rec := recs[k]
		if rec == nil {
			return raw{}, false, nil // replaced meanwhile, or expired: rebuilt
		}
		gz.Write(rec.Doc)
	}
	zr, err := gzip.NewReader(&gz)
	if err != nil {
		return raw{}, false, err
	}
	body, err := io.ReadAll(io.LimitReader(zr, 64<<20))
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
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(body)
	_ = zw.Close()
	var pieces [][]byte
	for b := gz.Bytes(); len(b) > 0; {
		n := min(len(b), responseChunkBytes)
		pieces = append(pieces, b[:n])
		b = b[n:]
	}
	if err := storeResponse(v, head, pieces); err != nil && !errors.Is(err, store.ErrConflict) {
		v.a.log.Warn("view not stored", "tournament", v.tid, "view", v.name, "err", err.Error())
	}
}

func storeResponse(v *storedView, head responseHead, pieces [][]byte) error {
	h, err := json.Marshal(head)
	if err != nil {
		return err
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	doc := viewDoc{Build: hex.EncodeToString(b), Epoch: v.stamp.Epoch, Deps: map[string]int64{}, BuiltAt: v.c.nowMs(),
		Head: h, Rows: len(pieces), Chunks: len(pieces)}
	for _, d := range tableDeps(v.t.Round) {
		doc.Deps[d] = v.stamp.Get(d)
	}
	expires := v.c.now.Add(viewTTL).Unix()
	chunks := make([]*store.Record, len(pieces))
	for i, p := range pieces {
		chunks[i] = &store.Record{PK: store.ViewPK(v.tid), SK: store.ViewChunkSK(v.name, doc.Build, i), Kind: store.KindViewChunk, Doc: p, Expires: expires}
	}
	if err := putAll(v.a.store, v.c, chunks); err != nil {
		v.dropChunks(doc.Build, doc.Chunks)
		return err
	}
	rec := &store.Record{PK: store.ViewPK(v.tid), SK: store.ViewSK(v.name), Kind: store.KindView, Expires: expires}
	if v.rec != nil {
		rec.Version, rec.Parts = v.rec.Version, v.rec.Parts
	}
	if err := v.a.store.Put(v.c.ctx(), encode(rec, doc)); err != nil {
		v.dropChunks(doc.Build, doc.Chunks)
		return err
	}
	if v.doc != nil && v.doc.Build != doc.Build {
		v.dropChunks(v.doc.Build, v.doc.Chunks)
	}
	return nil
}
