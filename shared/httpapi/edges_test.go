package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// encoding/json fills a field from a key of any case, so {"name":"a",
// "NAME":"b"} names one field twice and is refused as a duplicate, as
// {"name":"a","name":"b"} is; nothing is registered.
func TestFieldNamesCollidingInCaseAreDuplicates(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Case Open","rounds":3}`)
	before := tableItems(t, s.Store)
	for _, body := range []string{
		`{"name":"a","NAME":"b"}`,
		`{"Name":"a","name":"b"}`,
		`{"name":"Li","club":"x","CLUB":"y"}`,
		"{\"name\":\"Li\",\"seeded\":true,\"\u017feeded\":false}", // ſ folds to s as encoding/json matches it
	} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token, Body: body, Invalid: true})
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "duplicate_field" {
			t.Errorf("%s: %d %s; want 400 duplicate_field", body, r.Status, r.Body)
		}
	}
	if after := tableItems(t, s.Store); after != before {
		t.Fatalf("refused bodies changed the table: %d items, then %d", before, after)
	}
}

// Two Content-Type headers say two things about one body; a request
// carrying them (or one header a proxy folded from two) is refused with
// 400 duplicate_header before anything is read or written.
func TestTwoContentTypeHeadersAreRefused(t *testing.T) {
	s := apitest.New(t)
	for _, cts := range [][]string{
		{"application/json", "text/plain"},
		{"text/plain", "application/json"},
		{"application/json", "application/json"},
		{"application/json, text/plain"},
	} {
		req, err := http.NewRequest("POST", s.URL+"/tournaments", strings.NewReader(`{"name":"Two Types","rounds":3}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header["Content-Type"] = cts
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"duplicate_header"`) {
			t.Errorf("Content-Type %q: %d %s; want 400 duplicate_header", cts, resp.StatusCode, body)
		}
	}
	if n := countItems(t, s, "T#"); n != 0 {
		t.Fatalf("refused requests stored %d event items", n)
	}
	// One header is read as before.
	s.Post("/tournaments", "", `{"name":"One Type","rounds":3}`).Want(t, http.StatusCreated)
}
