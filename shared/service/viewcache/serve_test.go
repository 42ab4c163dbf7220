package viewcache_test

import (
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/viewcache"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

type pageHead struct{ Round int }

// Open gives no view for an unknown event, nor for a team event unless a
// response view asks; it follows the stamp, so a build from the event read
// after it is current. Page serves a current view's rows and head, and
// says to read the event when the view is stale or its chunks are gone.
func TestOpenAndPage(t *testing.T) {
	st, c, tid := newEvent(t)
	now := at.UnixMilli()
	if v, err := c.Open(t.Context(), service.NewID('t'), "standings#last", false); v != nil || err != nil {
		t.Fatalf("an unknown event's view: %v %v", v, err)
	}
	v, err := c.Open(t.Context(), tid, "standings#last", false)
	if err != nil || v == nil {
		t.Fatal(v, err)
	}
	if _, _, ok, err := viewcache.Page[pageHead, int](t.Context(), v, now, 0, -1); ok || err != nil {
		t.Fatalf("a view never built serves a page: %v", err)
	}
	rows := make([]int, viewcache.ChunkRows+3)
	for i := range rows {
		rows[i] = i
	}
	b, err := viewcache.RowsBuild(pageHead{Round: 2}, rows, viewcache.TableDeps(2), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Save(t.Context(), at, b); err != nil {
		t.Fatal(err)
	}
	v, _ = c.Open(t.Context(), tid, "standings#last", false)
	head, got, ok, err := viewcache.Page[pageHead, int](t.Context(), v, now, viewcache.ChunkRows-1, 3)
	if err != nil || !ok || head.Round != 2 || len(got) != 3 || got[0] != viewcache.ChunkRows-1 || got[2] != viewcache.ChunkRows+1 {
		t.Fatalf("page across two chunks: %+v %v %v %v", head, got, ok, err)
	}
	if _, _, ok, _ := viewcache.Page[pageHead, int](t.Context(), v, at.Add(viewcache.MaxAge+time.Second).UnixMilli(), 0, 1); ok {
		t.Error("a view past MaxAge serves a page")
	}
	if err := st.Delete(t.Context(), store.ViewPK(tid), store.ViewChunkSK("standings#last", chunkBuild(t, st, tid), 1)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := viewcache.Page[pageHead, int](t.Context(), v, now, viewcache.ChunkRows, 1); ok || err != nil {
		t.Errorf("a page of a chunk gone: ok %v, %v; want the event read instead", ok, err)
	}
	if _, _, ok, err := viewcache.Page[pageHead, int](t.Context(), nil, now, 0, 1); ok || err != nil {
		t.Errorf("no view: ok %v %v", ok, err)
	}

	team := service.NewID('t')
	ev, err := tournament.New(team, tournament.Settings{Name: "Teams Open", Rounds: 5, Teams: true, Boards: 4}, "hash", now)
	if err != nil {
		t.Fatal(err)
	}
	put(t, st, service.EncodeItem(&store.Record{PK: store.TournamentPK(team), SK: store.MetaSK, Kind: store.KindTournament}, ev))
	if v, err := c.Open(t.Context(), team, "standings#last", false); v != nil || err != nil {
		t.Errorf("a team event's table view: %v %v", v, err)
	}
	if v, err := c.Open(t.Context(), team, "resp#teams", true); v == nil || err != nil {
		t.Errorf("a team event's response view: %v %v", v, err)
	}
}

// chunkBuild is the build id of the chunks stored under tid's standings#last.
func chunkBuild(t *testing.T, st *store.Store, tid string) string {
	t.Helper()
	recs, err := st.Query(t.Context(), store.ViewPK(tid), store.ViewSK("standings#last")+"#", 0)
	if err != nil || len(recs) == 0 {
		t.Fatalf("chunks: %d %v", len(recs), err)
	}
	sk := recs[0].SK // D#<view>#<build>#<nnn>
	end := len(sk) - len("#000")
	start := len(store.ViewSK("standings#last")) + 1
	return sk[start:end]
}

// A round's view with only new results is patchable; one whose round item
// or event changed is rebuilt. Started reads the round start it recorded.
func TestPatchableAndStarted(t *testing.T) {
	st, c, tid := newEvent(t)
	now := at.UnixMilli()
	v := open(t, c, tid, "round#0001")
	if v.Patchable(now, 1) || v.Started(now) {
		t.Fatal("a view never built is patchable or started")
	}
	b := build(`{}`, `[]`)
	b.Deps, b.StartsAt = viewcache.RoundDeps(1), now+1000
	if err := v.Save(t.Context(), at, b); err != nil {
		t.Fatal(err)
	}
	v = open(t, c, tid, "round#0001")
	if v.Started(now) || !v.Started(now+1000) {
		t.Errorf("started at %d: %v, at %d: %v", now, v.Started(now), now+1000, v.Started(now+1000))
	}
	put(t, st, &store.Record{PK: store.TournamentPK(tid), SK: store.ResultSK(1, 1), Kind: store.KindResult, Doc: []byte(`{}`)})
	if v = open(t, c, tid, "round#0001"); v.Current(now) || !v.Patchable(now, 1) {
		t.Fatalf("after a result: current %v, patchable %v", v.Current(now), v.Patchable(now, 1))
	}
	if v.Patchable(at.Add(viewcache.MaxAge+time.Second).UnixMilli(), 1) {
		t.Error("a view past MaxAge is patchable")
	}
	put(t, st, &store.Record{PK: store.TournamentPK(tid), SK: store.RoundSK(1), Kind: store.KindRound, Doc: []byte(`{}`)})
	if v = open(t, c, tid, "round#0001"); v.Patchable(now, 1) {
		t.Error("patchable after its round item changed")
	}
}
