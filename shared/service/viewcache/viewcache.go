// Package viewcache keeps an event's rendered views under the event's view
// partition V#<tid>, so a public read costs what it returns, not the
// event's whole history (a 10,000-player event after six rounds is ~16 MB,
// ~4,000 read units, in its own partition). It stores and reads bytes
// under a view's name and build and knows when they are current, encodes
// a table's rows in chunks and a whole response in pieces (rows.go), and
// names the view a table query asks for. A read opens its view (Open),
// serves a page of it while current (Page) or reads the event and saves
// the view again, and brings a round's view behind by its results alone
// up to date from them (Patchable). A response view (response.go) keeps a
// whole answer: which one a request's query names (ResponseKey) and
// whether its kept answer may be served (Response). The rows' shapes and
// how they are rendered are the HTTP layer's (shared/httpapi's views.go
// and responseviews.go).
//
//	PK       SK                          holds
//	V#<tid>  STAMP                       counters advanced after every write to T#<tid> (Stamp)
//	V#<tid>  D#<view>                    a view's head (items.View): the counters it was built from, the response without its rows
//	V#<tid>  D#<view>#<build>#<nnn>      the chunks of one build: gzip bytes
//
// A view is built by the first read that finds it missing or stale: that
// read reads the stamp (creating it, the event's first such read: Follow),
// then the event, answers from it and stores the view with the counters it
// read (Save). Since counters advance only after the write they count, a
// view built from counters c has seen every write counted in c; a reader
// serves it only while the stamp still reads c for every counter the view
// depends on (Current), so a result written while a view is being built
// leaves the view stale, never served. Building is idempotent: chunks are
// written under fresh keys (a random build id) that must not exist, and the
// head under the version read, so of two racing builds one head wins and
// the other's chunks are deleted. A view older than MaxAge is rebuilt
// regardless: that bounds what a counter lost after its write (the process
// died between the two) can cost.
package viewcache

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

const (
	// MaxAge is how long a view is served without a rebuild at most.
	MaxAge = 5 * time.Minute
	// TTL is when DynamoDB may delete a view nobody read (it is rebuilt on demand).
	TTL = 7 * 24 * time.Hour
	// PieceBytes is the largest piece of a gzipped whole response in one
	// chunk item (DynamoDB's item limit is 400 KB).
	PieceBytes = 300 << 10
	// maxBody bounds what a chunk may unzip to.
	maxBody = 64 << 20
)

// EventCounter is the counter every write to the event advances but those
// of its rounds and results: the event item, players, officials, teams, lineups.
const EventCounter = "g"

// RoundCounter is round n's counter: its round item (pairings, changes, start).
func RoundCounter(n int) string { return fmt.Sprintf("p%04d", n) }

// ResultsCounter is round n's count of results created.
func ResultsCounter(n int) string { return fmt.Sprintf("x%04d", n) }

// CorrectCounter is round n's count of results rewritten (corrections).
func CorrectCounter(n int) string { return fmt.Sprintf("c%04d", n) }

// RoundDeps are the counters of round n alone and the event's.
func RoundDeps(n int) []string {
	return []string{EventCounter, RoundCounter(n), ResultsCounter(n), CorrectCounter(n)}
}

// TableDeps are the counters of a table after round n: the event's and
// those of rounds 1…n.
func TableDeps(n int) []string {
	out := []string{EventCounter}
	for r := 1; r <= n; r++ {
		out = append(out, RoundCounter(r), ResultsCounter(r), CorrectCounter(r))
	}
	return out
}

// Stamp is the store's StampFunc: which counters of the event's stamp a
// write to its partition advances. A round item advances RoundCounter; a
// result item ResultsCounter when it is created, CorrectCounter when it is
// rewritten; everything else EventCounter.
func Stamp(pk, sk string, created bool) (string, []string) {
	tid, ok := store.TournamentOf(pk)
	if !ok {
		return "", nil
	}
	n, ok := store.RoundOf(sk)
	switch {
	case ok && store.SKPrefix(sk) == store.RoundPrefix:
		return store.ViewPK(tid), []string{RoundCounter(n)}
	case ok && store.SKPrefix(sk) == store.ResultPrefix && created:
		return store.ViewPK(tid), []string{ResultsCounter(n)}
	case ok && store.SKPrefix(sk) == store.ResultPrefix:
		return store.ViewPK(tid), []string{CorrectCounter(n)}
	}
	return store.ViewPK(tid), []string{EventCounter}
}

// Cache is the views of every event in one store.
type Cache struct{ st *store.Store }

// New is the cache over st; st must advance stamps by Stamp (StampWrites).
func New(st *store.Store) *Cache { return &Cache{st: st} }

// View is one view as a read found it: the event item read with its head,
// the event's stamp, and the head (nil when never built or unreadable).
type View struct {
	c     *Cache
	tid   string
	name  string
	stamp store.Stamp
	rec   *store.Record
	head  *items.View
	// Event is the event item, read in the same round trip as the head.
	Event *tournament.Tournament
}

// ErrGone is a chunk of the view's build missing (a newer build replaced
// it meanwhile, or TTL removed it): the caller builds the view again.
var ErrGone = errors.New("view chunks gone")

// Read reads, in one round trip, event tid's item, its stamp and the head
// of view name; it returns nil for an unknown event. A view about to be
// built must Follow the stamp first.
func (c *Cache) Read(ctx context.Context, tid, name string) (*View, error) {
	metaKey, headKey := store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}, store.Key{PK: store.ViewPK(tid), SK: store.ViewSK(name)}
	recs, st, err := c.st.GetWithStamp(ctx, store.ViewPK(tid), metaKey, headKey)
	if err != nil {
		return nil, err
	}
	meta := recs[metaKey]
	if meta == nil {
		return nil, nil
	}
	v := &View{c: c, tid: tid, name: name, stamp: st, rec: recs[headKey], Event: new(tournament.Tournament)}
	if err := service.DecodeItem(meta, v.Event); err != nil {
		return nil, fmt.Errorf("decode tournament %s: %w", tid, err)
	}
	if v.rec != nil {
		var h items.View
		if items.Decode(v.rec, &h) == nil {
			v.head = &h
		}
	}
	return v, nil
}

// Open reads view name of event tid to serve a request (Read), and
// follows the stamp so that a build from the event read next counts. It
// returns nil (no view: the caller reads the event) for an unknown event,
// and for a team event unless teams is set: lineups are drawn on read
// (T-3), so a team event's tables are read whole, and only a response
// view, which depends on the clock until the next round's start, keeps
// its answers.
func (c *Cache) Open(ctx context.Context, tid, name string, teams bool) (*View, error) {
	v, err := c.Read(ctx, tid, name)
	if err != nil || v == nil {
		return nil, err
	}
	if v.Event.Settings.Teams && !teams {
		return nil, nil
	}
	if err := v.Follow(ctx); err != nil {
		return nil, err
	}
	return v, nil
}

// Follow makes the event's stamp when no reader has made it yet, before
// the event is read to build the view: from then on every write to the
// event advances it.
func (v *View) Follow(ctx context.Context) error {
	if v.stamp.Epoch != "" {
		return nil
	}
	st, err := v.c.st.CreateStamp(ctx, store.ViewPK(v.tid))
	if err == nil {
		v.stamp = st
	}
	return err
}

// Name is the view's name.
func (v *View) Name() string { return v.name }

// Fresh reports whether the view was built under this stamp's epoch and at
// most MaxAge before now (Unix ms).
func (v *View) Fresh(now int64) bool {
	if v == nil || v.head == nil || v.head.Epoch != v.stamp.Epoch {
		return false
	}
	age := now - v.head.BuiltAt
	return age >= 0 && age <= MaxAge.Milliseconds()
}

// Unchanged reports whether none of the counters named moved since the
// view was built.
func (v *View) Unchanged(counters ...string) bool {
	for _, name := range counters {
		if v.head.Deps[name] != v.stamp.Get(name) {
			return false
		}
	}
	return true
}

// Current reports whether the view may be served at now: fresh, no counter
// it depends on moved, and its pending round, if any, not complete.
func (v *View) Current(now int64) bool {
	if !v.Fresh(now) {
		return false
	}
	for name, n := range v.head.Deps {
		if v.stamp.Get(name) != n {
			return false
		}
	}
	if p := v.head.Pending; p != nil {
		if v.stamp.Get(RoundCounter(p.Round)) != p.Paired {
			return false
		}
		if p.Missing > 0 && v.stamp.Get(ResultsCounter(p.Round))-p.Results >= int64(p.Missing) {
			return false // enough results came in to complete the round
		}
	}
	return true
}

// Patchable reports whether round n's view is behind by its results
// alone, so that setting them on its pairings brings it up to date: the
// event's systems leave a round's pairings as its results come in (not a
// knockout, which adds games), the view is fresh, and neither the event
// item nor players nor the round item changed since it was built.
func (v *View) Patchable(now int64, n int) bool {
	return v.Event.Settings.ResultsKeepPairings() && v.Fresh(now) && v.Unchanged(EventCounter, RoundCounter(n))
}

// Started reports whether the round start the view recorded has passed
// at now (C-1: a round may have started since the view was built).
func (v *View) Started(now int64) bool {
	return v.head != nil && v.head.StartsAt != 0 && now >= v.head.StartsAt
}

// Head decodes the stored response head into out.
func (v *View) Head(out any) error { return json.Unmarshal(v.head.Head, out) }

// Rows counts the rows of the view as built.
func (v *View) Rows() int { return v.head.Rows }

// Chunks counts the chunk items of the view as built.
func (v *View) Chunks() int { return v.head.Chunks }

// StartsAt is the round start the view recorded (0: none).
func (v *View) StartsAt() int64 { return v.head.StartsAt }

// Read reads chunks [from, to) of the view as built; a chunk missing, or
// a view never built, is ErrGone.
func (v *View) Read(ctx context.Context, from, to int) ([][]byte, error) {
	if v.head == nil {
		return nil, ErrGone
	}
	keys := make([]store.Key, 0, max(0, to-from))
	for i := from; i < to; i++ {
		keys = append(keys, store.Key{PK: store.ViewPK(v.tid), SK: store.ViewChunkSK(v.name, v.head.Build, i)})
	}
	recs, err := v.c.st.GetMany(ctx, keys...)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(keys))
	for i, k := range keys {
		rec := recs[k]
		if rec == nil {
			return nil, ErrGone
		}
		out[i] = rec.Doc
	}
	return out, nil
}

// Pending is the round whose completion would move a default table on,
// and how many of its games have no result.
type Pending struct{ Round, Missing int }

// Build is one build of a view to store.
type Build struct {
	// Head is the response without its rows, as JSON.
	Head []byte
	// Rows counts the rows Chunks hold (a whole response: its pieces).
	Rows   int
	Chunks [][]byte
	// Deps are the counters the view depends on; their values are the
	// stamp's as read.
	Deps []string
	// Pending, for the default table, is the round after it.
	Pending *Pending
	// StartsAt is the round's start, for its started flag at read time.
	StartsAt int64
}

// Save stores b as the view, built from the event read after the view's
// stamp. Of two racing builds one wins; the other's Save leaves nothing
// behind and is no failure (nil): the view is there.
func (v *View) Save(ctx context.Context, now time.Time, b Build) error {
	if err := v.save(ctx, now, b); !errors.Is(err, store.ErrConflict) {
		return err
	}
	return nil
}

func (v *View) save(ctx context.Context, now time.Time, b Build) error {
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	head := items.View{Build: hex.EncodeToString(id), Epoch: v.stamp.Epoch, Deps: map[string]int64{}, BuiltAt: now.UnixMilli(),
		StartsAt: b.StartsAt, Head: b.Head, Rows: b.Rows, Chunks: len(b.Chunks)}
	for _, d := range b.Deps {
		head.Deps[d] = v.stamp.Get(d)
	}
	if p := b.Pending; p != nil {
		head.Pending = &items.ViewPending{Round: p.Round, Paired: v.stamp.Get(RoundCounter(p.Round)), Results: v.stamp.Get(ResultsCounter(p.Round)), Missing: p.Missing}
	}
	expires := now.Add(TTL).Unix()
	chunks := make([]*store.Record, len(b.Chunks))
	for i, doc := range b.Chunks {
		chunks[i] = &store.Record{PK: store.ViewPK(v.tid), SK: store.ViewChunkSK(v.name, head.Build, i), Kind: store.KindViewChunk, Doc: doc, Expires: expires}
	}
	if err := service.InParallel(len(chunks), func(i int) error { return v.c.st.Put(ctx, chunks[i]) }); err != nil {
		v.drop(ctx, head.Build, head.Chunks)
		return err
	}
	rec := &store.Record{PK: store.ViewPK(v.tid), SK: store.ViewSK(v.name), Kind: store.KindView, Expires: expires}
	if v.rec != nil {
		rec.Version, rec.Parts = v.rec.Version, v.rec.Parts
	}
	if err := v.c.st.Put(ctx, items.Encode(rec, head)); err != nil {
		v.drop(ctx, head.Build, head.Chunks) // another build won
		return err
	}
	if v.head != nil && v.head.Build != head.Build {
		v.drop(ctx, v.head.Build, v.head.Chunks) // the build replaced; TTL catches what this misses
	}
	return nil
}

func (v *View) drop(ctx context.Context, build string, n int) {
	for i := range n {
		_ = v.c.st.Delete(ctx, store.ViewPK(v.tid), store.ViewChunkSK(v.name, build, i))
	}
}

// Compress gzips data at the best compression: views are written once and
// read many times.
func Compress(data []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(data) // a bytes.Buffer does not fail
	_ = zw.Close()
	return buf.Bytes()
}

// Decompress unzips data (one gzip stream, or pieces of one joined), up
// to 64 MB.
func Decompress(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(zr, maxBody))
}

// Pieces splits data into chunks of at most PieceBytes.
func Pieces(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := min(len(data), PieceBytes)
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}
