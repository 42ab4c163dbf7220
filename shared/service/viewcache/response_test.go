package viewcache_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/service/viewcache"
)

// A response view is named by the query as its route reads it: numbers
// written one way, the parameters the route does not read left out, the
// language kept apart; a page a `next` link does not name is not kept.
func TestResponseKey(t *testing.T) {
	key := func(query string, lang string) (string, bool) {
		t.Helper()
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		return viewcache.ResponseKey("games#", q, []string{"format", "limit", "offset", "round"}, lang, 1000)
	}
	one, ok := key("round=1", "en")
	if !ok {
		t.Fatal("?round=1 is not kept")
	}
	for _, same := range []string{"round=01", "round=1&ignored=2"} {
		if k, ok := key(same, "en"); !ok || k != one {
			t.Errorf("?%s: %q %v, want ?round=1's %q", same, k, ok, one)
		}
	}
	for _, other := range []string{"round=2", "round=1&format=pgn", "", "round=1&offset=1000"} {
		if k, ok := key(other, "en"); !ok || k == one {
			t.Errorf("?%s: %q %v, want a view of its own", other, k, ok)
		}
	}
	if k, _ := key("round=1", "zh"); k == one {
		t.Error("two languages share one view")
	}
	for _, page := range []string{"offset=10", "offset=x", "offset=100000", "limit=10", "offset=1000&limit=999"} {
		if k, ok := key(page, "en"); ok {
			t.Errorf("?%s is kept as %q: no next link names it", page, k)
		}
	}
	if k, ok := key("offset=99000&limit=1000", "en"); !ok || k == "" {
		t.Error("the last kept page is not kept")
	}
}

// A kept answer is served, with its head, while the view is current and
// before its head's Until; a head of another shape, an answer whose
// pieces are gone, or a view never built is no answer.
func TestResponse(t *testing.T) {
	_, c, tid := newEvent(t)
	name := viewcache.ResponseName("players#", "lang=en")
	now := at.UnixMilli()
	if _, _, ok, err := open(t, c, tid, name).Response(t.Context(), now); ok || err != nil {
		t.Fatalf("a view never built: %v %v", ok, err)
	}
	next := "/tournaments/" + tid + "/players?offset=1000"
	save := func(head any, body string) {
		t.Helper()
		b, err := viewcache.WholeBuild(head, []byte(body), 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := open(t, c, tid, name).Save(t.Context(), at, b); err != nil {
			t.Fatal(err)
		}
	}
	save(viewcache.ResponseHead{ContentType: "application/json", Next: &next, Cache: "public, max-age=60", Until: now + 1000}, `{"players":[]}`)
	v := open(t, c, tid, name)
	head, body, ok, err := v.Response(t.Context(), now)
	if err != nil || !ok || string(body) != `{"players":[]}` || head.ContentType != "application/json" || head.Next == nil || *head.Next != next || head.Cache != "public, max-age=60" {
		t.Fatalf("the kept answer: %+v %q %v %v", head, body, ok, err)
	}
	if _, _, ok, err := v.Response(t.Context(), now+1000); ok || err != nil {
		t.Errorf("served at its Until: %v %v", ok, err)
	}
	if _, _, ok, _ := v.Response(t.Context(), at.Add(viewcache.MaxAge+time.Second).UnixMilli()); ok {
		t.Error("served past MaxAge")
	}

	save(`"a string, no head"`, `{}`)
	if _, _, ok, err := open(t, c, tid, name).Response(t.Context(), now); ok || err != nil {
		t.Errorf("a head of another shape served: %v %v", ok, err)
	}

	save(viewcache.ResponseHead{ContentType: "text/plain"}, "first")
	stale := open(t, c, tid, name)
	save(viewcache.ResponseHead{ContentType: "text/plain"}, "second") // drops the first build's pieces
	if _, body, ok, err := stale.Response(t.Context(), now); ok || err != nil {
		t.Errorf("a build replaced meanwhile served %q: %v %v", body, ok, err)
	}
	if _, body, ok, err := open(t, c, tid, name).Response(t.Context(), now); !ok || err != nil || string(body) != "second" {
		t.Errorf("the build that replaced it: %q %v %v", body, ok, err)
	}
}
