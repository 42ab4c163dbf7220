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

// A record whose tags hold a control character (ESC, CR, DEL, U+0085 NEL,
// a bidi override) is refused as a name holding one is: that game is not
// imported, the answer says which tag and character, and the tags never
// reach a PGN export. A file with CRLF line ends is read as before.
func TestImportedPGNTagsRefuseControlCharacters(t *testing.T) {
	s := apitest.New(t)
	const moves = "1. 炮二平五 马8进7 1-0\n"
	for _, tc := range []struct{ tag, char string }{
		{`[Red "Li` + "\x1b[31m" + `"]`, "U+001B"},
		{`[Event "Open` + "\r" + `[Result \"0-1\"]"]`, "U+000D"},
		{`[Black "Wang` + "\u0085" + `x"]`, "U+0085"},
		{`[Site "a` + "\x7f" + `"]`, "U+007F"},
		{`[Black "` + "\u202e" + `gnaW"]`, "U+202E"},
	} {
		out := importPGN(t, s, tc.tag+"\n"+moves, "application/x-chess-pgn", http.StatusUnprocessableEntity)
		if out.Imported != 0 || len(out.Games) != 1 || out.Games[0].Error == nil || !strings.Contains(out.Games[0].Error.Reason, tc.char) {
			t.Errorf("%q: %+v; want the game refused naming %s", tc.tag, out, tc.char)
		}
	}
	if n := countItems(t, s, "G#"); n != 0 {
		t.Fatalf("refused records stored %d games", n)
	}
	// Two games, one with a bad tag: the other is imported, and its export is clean.
	out := importPGN(t, s, "[Red \"A\x1bB\"]\n"+moves+"\r\n[Red \"Li\"]\r\n[Black \"Wang\"]\r\n"+strings.ReplaceAll(moves, "\n", "\r\n"), "application/x-chess-pgn", http.StatusCreated)
	if out.Imported != 1 || out.Games[0].Error == nil || out.Games[1].ID == "" {
		t.Fatalf("mixed file: %+v", out)
	}
	rec := s.Get("/games/"+out.Games[1].ID+"/record?format=pgn").Want(t, http.StatusOK)
	if !strings.Contains(string(rec.Body), `[Red "Li"]`) || strings.ContainsAny(string(rec.Body), "\x1b\r") {
		t.Fatalf("export of the clean game: %q", rec.Body)
	}
}
