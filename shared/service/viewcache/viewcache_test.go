package viewcache_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/viewcache"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
	"github.com/xqtour/xqtour/shared/tournament"
)

var at = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// newEvent is a cache over a fresh embedded store whose writes advance
// the views' stamps, and an event in it.
func newEvent(t *testing.T) (*store.Store, *viewcache.Cache, string) {
	t.Helper()
	st, _, _ := storetest.Start(t)
	st.StampWrites(viewcache.Stamp)
	tid := service.NewID('t')
	ev, err := tournament.New(tid, tournament.Settings{Name: "Views Open", Rounds: 5}, "hash", at.UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	put(t, st, service.EncodeItem(&store.Record{PK: store.TournamentPK(tid), SK: store.MetaSK, Kind: store.KindTournament}, ev))
	return st, viewcache.New(st), tid
}

func put(t *testing.T, st *store.Store, rec *store.Record) {
	t.Helper()
	if err := st.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
}

// open reads view name of tid and follows its stamp, as a read about to
// build it does.
func open(t *testing.T, c *viewcache.Cache, tid, name string) *viewcache.View {
	t.Helper()
	v, err := c.Read(t.Context(), tid, name)
	if err != nil || v == nil {
		t.Fatalf("read %s: %v %v", name, v, err)
	}
	if err := v.Follow(t.Context()); err != nil {
		t.Fatal(err)
	}
	return v
}

func build(head string, chunks ...string) viewcache.Build {
	b := viewcache.Build{Head: []byte(head), Rows: len(chunks), Deps: viewcache.TableDeps(1)}
	for _, c := range chunks {
		b.Chunks = append(b.Chunks, viewcache.Compress([]byte(c)))
	}
	return b
}

// A view saved is read back, head and chunks, and served until a write it
// depends on, or its age, makes it stale; an unknown event has no view.
func TestViewCache_SavedUntilAWrite(t *testing.T) {
	st, c, tid := newEvent(t)
	if v, err := c.Read(t.Context(), "tnosuchevent00000", "standings#last"); v != nil || err != nil {
		t.Fatalf("an unknown event's view: %v %v", v, err)
	}
	v := open(t, c, tid, "standings#last")
	if v.Current(at.UnixMilli()) {
		t.Fatal("a view never built is current")
	}
	if v.Event.Settings.Name != "Views Open" {
		t.Errorf("the event read with the view is %+v", v.Event)
	}
	if err := v.Save(t.Context(), at, build(`{"round":1}`, `[1,2]`, `[3]`)); err != nil {
		t.Fatal(err)
	}
	v = open(t, c, tid, "standings#last")
	if !v.Current(at.UnixMilli()) {
		t.Fatal("the view just saved is not current")
	}
	var head struct{ Round int }
	if err := v.Head(&head); err != nil || head.Round != 1 || v.Rows() != 2 || v.Chunks() != 2 {
		t.Fatalf("head %+v (%v), %d rows in %d chunks", head, err, v.Rows(), v.Chunks())
	}
	chunks, err := v.Read(t.Context(), 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if body, err := viewcache.Decompress(chunks[0]); err != nil || string(body) != "[3]" {
		t.Fatalf("chunk 1 reads %q (%v)", body, err)
	}
	if v.Current(at.Add(viewcache.MaxAge + time.Second).UnixMilli()) {
		t.Error("a view older than MaxAge is current")
	}
	put(t, st, &store.Record{PK: store.TournamentPK(tid), SK: store.ResultSK(1, 1), Kind: store.KindResult, Doc: []byte(`{}`)})
	if v = open(t, c, tid, "standings#last"); v.Current(at.UnixMilli()) {
		t.Error("the view is current after a result of a round it depends on")
	}
	if !v.Unchanged(viewcache.EventCounter, viewcache.RoundCounter(1)) || v.Unchanged(viewcache.ResultsCounter(1)) {
		t.Error("Unchanged does not tell the result's counter from the others")
	}
}

// The default table stays current while the round after it is paired but
// incomplete, and goes stale once as many results came in as it missed.
func TestViewCache_PendingRound(t *testing.T) {
	st, c, tid := newEvent(t)
	v := open(t, c, tid, "standings#last")
	b := build(`{}`)
	b.Deps, b.Pending = viewcache.TableDeps(0), &viewcache.Pending{Round: 1, Missing: 2}
	if err := v.Save(t.Context(), at, b); err != nil {
		t.Fatal(err)
	}
	for table := 1; table <= 2; table++ {
		if v = open(t, c, tid, "standings#last"); !v.Current(at.UnixMilli()) {
			t.Fatalf("stale with %d of 2 results", table-1)
		}
		put(t, st, &store.Record{PK: store.TournamentPK(tid), SK: store.ResultSK(1, table), Kind: store.KindResult, Doc: []byte(`{}`)})
	}
	if v = open(t, c, tid, "standings#last"); v.Current(at.UnixMilli()) {
		t.Error("current once the pending round has every result")
	}
}

// Of two builds from the same read, the first stored wins: the second is
// no failure, its chunks are gone and the winner's are read.
func TestViewCache_RacingBuilds(t *testing.T) {
	st, c, tid := newEvent(t)
	first, second := open(t, c, tid, "round#0001"), open(t, c, tid, "round#0001")
	if err := first.Save(t.Context(), at, build(`{"by":"first"}`, `[1]`)); err != nil {
		t.Fatal(err)
	}
	if err := second.Save(t.Context(), at, build(`{"by":"second"}`, `[2]`)); err != nil {
		t.Fatalf("the losing build: %v", err)
	}
	v := open(t, c, tid, "round#0001")
	var head struct{ By string }
	if err := v.Head(&head); err != nil || head.By != "first" {
		t.Fatalf("the stored head is %+v (%v)", head, err)
	}
	if _, err := v.Read(t.Context(), 0, 1); err != nil {
		t.Fatalf("the winner's chunk: %v", err)
	}
	recs, err := st.Query(t.Context(), store.ViewPK(tid), store.ViewSK("round#0001")+"#", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Errorf("%d chunk items stored, want the winner's one: %v", len(recs), keys(recs))
	}
	// A rebuild replaces the build, and the chunks of the one replaced go.
	if err := v.Save(t.Context(), at, build(`{"by":"rebuild"}`, `[3]`, `[4]`)); err != nil {
		t.Fatal(err)
	}
	if recs, _ = st.Query(t.Context(), store.ViewPK(tid), store.ViewSK("round#0001")+"#", 0); len(recs) != 2 {
		t.Errorf("%d chunk items after the rebuild, want its 2: %v", len(recs), keys(recs))
	}
	if _, err := v.Read(t.Context(), 0, 1); err != viewcache.ErrGone {
		t.Errorf("a replaced build's chunk reads %v, want ErrGone", err)
	}
}

func keys(recs []*store.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = fmt.Sprintf("%s/%s", r.PK, r.SK)
	}
	return out
}
