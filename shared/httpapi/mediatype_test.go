package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// A POST body must be JSON: a form (curl -d without a header) or text is 415
// and changes nothing; application/json (with a charset) and a +json type
// are read, as is a body sent without Content-Type; a POST without a body
// needs no header.
func TestPostBodyMustBeJSON(t *testing.T) {
	s := apitest.New(t)
	body := `{"name":"Typed","rounds":3}`
	for _, ct := range []string{"application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x", "nonsense/"} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: body, Header: map[string]string{"Content-Type": ct}, Invalid: true})
		if r.Status != http.StatusUnsupportedMediaType || r.ErrorCode() != "unsupported_media_type" || !strings.Contains(string(r.Body), "application/json") {
			t.Errorf("Content-Type %s: %d %s", ct, r.Status, r.Body)
		}
	}
	if n := countItems(t, s, "T#"); n != 0 {
		t.Fatalf("a refused body created %d events", n)
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "application/merge-patch+json"} {
		s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: body, Header: map[string]string{"Content-Type": ct}, Invalid: true}).Want(t, http.StatusCreated)
	}
	// Without Content-Type (a raw client), and a bodiless POST with a form type.
	req, _ := http.NewRequest("POST", s.URL+"/tournaments", strings.NewReader(body))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("a JSON body without Content-Type: %d", res.StatusCode)
	}
	pg := pairTwo(t, s, `{"name":"Bodiless","rounds":3}`)
	s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + pg.ev.ID + "/rounds/1/start", Token: pg.ev.Token,
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}).Want(t, http.StatusOK)
}

// A BASE ending in "/" makes paths like //tournaments: served as the route,
// never a redirect (which a client follows as a GET, losing the body).
func TestRepeatedSlashesServeTheRoute(t *testing.T) {
	s := apitest.New(t)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("POST", s.URL+"//tournaments", strings.NewReader(`{"name":"Slashes","rounds":3}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("POST //tournaments: %d %s", res.StatusCode, b)
	}
	ev := newEvent(t, s, `{"name":"Read","rounds":3}`)
	res, err = noRedirect.Get(s.URL + "//tournaments//" + ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET //tournaments//%s: %d", ev.ID, res.StatusCode)
	}
}

// A Lambda function's handler (what aws-lambda-go-api-proxy serves) collapses
// the slashes too.
func TestRepeatedSlashesServeTheRouteInALambdaFunction(t *testing.T) {
	s := apitest.New(t)
	h := httpapi.New(s.Store).FunctionHandler(httpapi.FnTournaments)
	req := httptest.NewRequest("POST", "//tournaments", strings.NewReader(`{"name":"Lambda","rounds":3}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("POST //tournaments to the Tournaments function: %d %s", rec.Code, rec.Body)
	}
}
