package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
	"github.com/xqtour/xqtour/shared/tournament"
)

// capOf returns the cap named name from the one table of caps.
func capOf(t testing.TB, name string) int {
	for _, l := range service.Limits {
		if l.Name == name {
			return l.Max
		}
	}
	panic("no cap " + name)
}

// wantLimit checks a refusal names the cap: limit_exceeded (or the core's
// event_full) with the cap's name in the message.
func wantLimit(t *testing.T, r *apitest.Resp, status int, name string) {
	t.Helper()
	if r.Status != status || (r.ErrorCode() != "limit_exceeded" && r.ErrorCode() != "event_full") || !strings.Contains(string(r.Body), name) {
		t.Fatalf("past cap %s: %d %s, want %d limit_exceeded naming the cap", name, r.Status, r.Body, status)
	}
}

// parallel runs n requests, eight at a time.
func parallel(n int, do func(i int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() { defer func() { <-sem; wg.Done() }(); do(i) }()
	}
	wg.Wait()
}

// An event takes officialsPerEvent officials, however many requests race
// for the last places, and refuses the next with the cap's name; nothing of
// the refused requests is stored.
func TestCap_OfficialsPerEvent(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Many Officials","rounds":3}`)
	max := capOf(t, "officialsPerEvent")
	var mu sync.Mutex
	created := 0
	parallel(max+8, func(i int) {
		r := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "arbiter", "name": fmt.Sprintf("Arbiter %d", i)})
		mu.Lock()
		defer mu.Unlock()
		switch r.Status {
		case http.StatusCreated:
			created++
		case http.StatusUnprocessableEntity, http.StatusConflict:
		default:
			t.Errorf("official %d: %d %s", i, r.Status, r.Body)
		}
	})
	for created < max { // places lost to races (409) are still free
		s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "scribe", "name": "Late"}).Want(t, http.StatusCreated)
		created++
	}
	wantLimit(t, s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "arbiter", "name": "One too many"}), http.StatusUnprocessableEntity, "officialsPerEvent")
	if n := partitionItems(t, s, "T#"+ev.ID); n != 1+max {
		t.Fatalf("%d items in the event, want the event and %d officials", n, max)
	}
}

// A scribe keeps at most tablesPerScribe tables; one request asking for more is 400.
func TestCap_TablesPerScribe(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Scribes","rounds":3}`)
	max := capOf(t, "tablesPerScribe")
	tables := make([]int, max+1)
	for i := range tables {
		tables[i] = i + 1
	}
	wantLimit(t, s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "scribe", "name": "Busy", "tables": tables}), http.StatusBadRequest, "tablesPerScribe")
	s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "scribe", "name": "Busy", "tables": tables[:max]}).Want(t, http.StatusCreated)
}

// A round keeps at most auditEntriesPerRound manual changes.
func TestCap_AuditEntriesPerRound(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Swaps","rounds":3}`, 2)
	f.pair(t, s, map[string]any{"startsAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}, http.StatusCreated)
	max := capOf(t, "auditEntriesPerRound")
	path := "/tournaments/" + f.ev.ID + "/rounds/1/changes"
	for range max {
		s.Post(path, f.ev.Token, map[string]any{"action": "swapColours", "table": 1}).Want(t, http.StatusOK)
	}
	wantLimit(t, s.Post(path, f.ev.Token, map[string]any{"action": "swapColours", "table": 1}), http.StatusUnprocessableEntity, "auditEntriesPerRound")
	var r roundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r)
	if len(r.Audit) != max {
		t.Fatalf("%d audit entries, want %d", len(r.Audit), max)
	}
}

// A game's log keeps at most logEntriesPerGame rulings, also after the game.
func TestCap_LogEntriesPerGame(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	max := capOf(t, "logEntriesPerGame")
	path := "/games/" + f.gid + "/rulings"
	warning := map[string]any{"kind": "penalty", "penalty": "warning", "side": "red", "note": "talking"}
	s.Post(path, f.org, map[string]any{"kind": "penalty", "penalty": "loss", "side": "red", "note": "phone"}).Want(t, http.StatusOK)
	for range max - 1 {
		s.Post(path, f.arb, warning).Want(t, http.StatusOK)
	}
	wantLimit(t, s.Post(path, f.arb, warning), http.StatusUnprocessableEntity, "logEntriesPerGame")
	wantLimit(t, s.Post("/games/"+f.gid+"/result", f.arb, map[string]any{"result": "1-0"}), http.StatusUnprocessableEntity, "logEntriesPerGame")
}

// A game takes at most movesPerGame plies; the players may still end it.
func TestCap_MovesPerGame(t *testing.T) {
	s := apitest.New(t)
	max := capOf(t, "movesPerGame")
	gid, red, black := httpapi.StoreLongGame(t, s.Store, max)
	st := s.Get("/games/"+gid).Want(t, http.StatusOK).JSON()
	side := map[string]string{"red": red, "black": black}[st["sideToMove"].(string)]
	move := st["legalMoves"].([]any)[0]
	wantLimit(t, s.Post("/games/"+gid+"/moves", side, map[string]any{"move": move, "ply": max}), http.StatusUnprocessableEntity, "movesPerGame")
	over := s.Post("/games/"+gid+"/resign", side, `{}`).Want(t, http.StatusOK).JSON()
	if over["status"] != "over" {
		t.Fatalf("resigning at the cap: %v", over["status"])
	}
}

// A team has at most playersPerTeam players; an event at most teamsPerEvent teams.
func TestCap_TeamsAndTeamPlayers(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Clubs","system":"swiss","rounds":5,"teams":true,"boards":1}`)
	members := []map[string]any{}
	for i := range capOf(t, "playersPerTeam") + 1 {
		members = append(members, map[string]any{"name": fmt.Sprintf("M%d", i)})
	}
	wantLimit(t, s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/teams", Token: ev.Token,
		Body: map[string]any{"name": "Huge", "members": members}, Invalid: true}), http.StatusBadRequest, "playersPerTeam")
	s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, map[string]any{"name": "First", "members": []map[string]any{{"name": "A"}}}).Want(t, http.StatusCreated)
	setEventCount(t, s, ev.ID, func(tt *tournament.Tournament) { tt.TeamCount = capOf(t, "teamsPerEvent") })
	wantLimit(t, s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, map[string]any{"name": "One more", "members": []map[string]any{{"name": "X"}}}),
		http.StatusUnprocessableEntity, "teamsPerEvent")
}

// An event holds at most playersPerEvent players (S-2): with the event
// item's count at the cap the next registration is refused naming it.
func TestCap_PlayersPerEvent(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Mass Open","rounds":9}`)
	setEventCount(t, s, ev.ID, func(tt *tournament.Tournament) { tt.Players = capOf(t, "playersPerEvent") })
	wantLimit(t, s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": "One too many"}), http.StatusUnprocessableEntity, "playersPerEvent")
}

// setEventCount rewrites the event item's counters as if that many had
// registered: registering thousands over HTTP would take minutes.
func setEventCount(t *testing.T, s *apitest.Server, tid string, set func(*tournament.Tournament)) {
	t.Helper()
	rec, err := s.Store.Get(t.Context(), "T#"+tid, "META")
	if err != nil {
		t.Fatal(err)
	}
	var tt tournament.Tournament
	if err := json.Unmarshal(rec.Doc, &tt); err != nil {
		t.Fatal(err)
	}
	set(&tt)
	rec.Doc, _ = json.Marshal(&tt)
	if err := s.Store.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
}

// One pairing request names at most forbiddenPairsPerRequest pairs.
func TestCap_ForbiddenPairsPerRequest(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Families","rounds":3}`, 2)
	pairs := make([][2]string, capOf(t, "forbiddenPairsPerRequest")+1)
	for i := range pairs {
		pairs[i] = [2]string{f.players[0].ID, f.players[1].ID}
	}
	wantLimit(t, s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, map[string]any{"forbiddenPairs": pairs}), http.StatusBadRequest, "forbiddenPairsPerRequest")
}

// Path ids are checked by their form before anything is read: 400 bad_id,
// the value quoted and shortened, no store request at all. A token whose
// parts are no ids is unknown without a read.
func TestIDsCheckedAtTheEdge(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	reads := 0
	var mu sync.Mutex
	s.DB.Intercept(func(string, []byte) embedded.Fault { mu.Lock(); reads++; mu.Unlock(); return embedded.Serve })
	long := strings.Repeat("t", 2100)
	for _, rt := range httpapi.Routes {
		if rt.Function == httpapi.FnWeb {
			continue // pages read nothing: any id gets the page shell (package web's tests)
		}
		for _, param := range []string{"{tid}", "{gid}", "{pid}", "{mid}"} {
			if !strings.Contains(rt.Path, param) {
				continue
			}
			for _, bad := range []string{long, "t\x1b[31mred", "tAAAAAAAAAAAAAAAA", "g1111111111111111"} {
				p := f.path(strings.ReplaceAll(rt.Path, param, strings.ReplaceAll(bad, "\x1b", "%1B")))
				r := s.Do(apitest.Req{Method: rt.Method, Path: p, Token: f.org, Body: `{}`, Invalid: true})
				if r.Status != http.StatusBadRequest || r.ErrorCode() != "bad_id" {
					t.Errorf("%s %s with %s %.20q: %d %s", rt.Method, rt.Path, param, bad, r.Status, r.Body)
				}
				if len(r.Body) > 400 || bytes.ContainsRune(r.Body, 0x1b) {
					t.Errorf("%s %s: the error echoes the id unquoted or whole: %s", rt.Method, rt.Path, r.Body)
				}
			}
		}
	}
	if reads != 0 {
		t.Fatalf("%d store requests for malformed ids, want none", reads)
	}
	forged := strings.Repeat("t", 3000) + ".x." + strings.Repeat("y", 52)
	if r := s.Post("/games/"+f.gid+"/moves", forged, map[string]any{"move": "h2e2", "ply": 0}); r.Status != http.StatusUnauthorized {
		t.Errorf("forged token: %d %s", r.Status, r.Body)
	}
	s.DB.Intercept(nil)
	if reads != 1 {
		t.Fatalf("%d store requests for a move with a forged token, want the game's one", reads)
	}
}

// #11.15: with a creation key, POST /tournaments and POST /games need it
// (401 without, 403 wrong), compared in constant time and never logged;
// every other route is as before. A refused creation stores nothing, not
// even its Idempotency-Key.
func TestCreationKey(t *testing.T) {
	const key = "club-only-5e1f"
	var logs bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&lockedWriter{w: &logs, mu: &mu}, nil))
	s := apitest.New(t, httpapi.WithCreationKey(key), httpapi.WithLogger(logger))
	idem := "9d3b8f3a-1c2e-4f5a-8b7c-6d5e4f3a2b1c"
	made := 0
	for _, path := range []string{"/tournaments", "/games"} {
		body := map[string]any{"name": "Open", "rounds": 3}
		if path == "/games" {
			body = map[string]any{}
		}
		if rt := routeOf(t, "POST", path); !rt.Who.Has(httpapi.RoleAnyone) {
			t.Fatalf("POST %s is for %q", path, rt.Who)
		}
		r := s.Do(apitest.Req{Method: "POST", Path: path, Body: body, Header: map[string]string{"Idempotency-Key": idem}})
		if r.Status != http.StatusUnauthorized || r.ErrorCode() != "creation_key_required" {
			t.Errorf("%s without the key: %d %s", path, r.Status, r.Body)
		}
		r = s.Do(apitest.Req{Method: "POST", Path: path, Body: body, Header: map[string]string{"Idempotency-Key": idem, httpapi.CreationKeyHeader: key + "x"}})
		if r.Status != http.StatusForbidden || r.ErrorCode() != "bad_creation_key" {
			t.Errorf("%s with a wrong key: %d %s", path, r.Status, r.Body)
		}
		if n := tableItems(t, s.Store); n != made {
			t.Fatalf("refused creations stored %d items", n-made)
		}
		made++
		s.Do(apitest.Req{Method: "POST", Path: path, Body: body, Header: map[string]string{httpapi.CreationKeyHeader: key}}).Want(t, http.StatusCreated)
	}
	if r := s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: "[Event \"X\"]\n\n1. h2e2 *\n", Header: map[string]string{"Content-Type": "application/x-chess-pgn"}, Invalid: true}); r.Status != http.StatusUnauthorized {
		t.Errorf("import without the key: %d %s", r.Status, r.Body)
	}
	if r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: `{"format":"xqtour-event","version":1}`, Invalid: true}); r.Status != http.StatusUnauthorized {
		t.Errorf("event import without the key: %d %s", r.Status, r.Body)
	}
	var ev created
	s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"Keyed","rounds":3}`, Header: map[string]string{httpapi.CreationKeyHeader: key}}).Want(t, http.StatusCreated).Decode(t, &ev)
	s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": "Li"}).Want(t, http.StatusCreated)
	s.Get("/tournaments/"+ev.ID).Want(t, http.StatusOK)
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(logs.String(), key) {
		t.Fatal("the creation key is in the logs")
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Idempotency-Key: a nil, time-based (version 1) or wrong-variant UUID is
// 400; upper-case and lower-case spellings are one key.
func TestIdempotencyKeyIsARandomUUID(t *testing.T) {
	s := apitest.New(t)
	for _, key := range []string{"00000000-0000-0000-0000-000000000000", "c232ab00-9414-11ec-b3c8-9f6bdeced846",
		"1f0e3c52-7a1b-4c1e-1d55-2f6a8b0c1d01", "1f0e3c52-7a1b-5c1e-9d55-2f6a8b0c1d01"} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/games", Body: `{}`, Header: map[string]string{"Idempotency-Key": key}, Invalid: true})
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_idempotency_key" {
			t.Errorf("key %s: %d %s", key, r.Status, r.Body)
		}
	}
	first := s.Do(apitest.Req{Method: "POST", Path: "/games", Body: `{}`, Header: map[string]string{"Idempotency-Key": "ab8f3c52-7a1b-4c1e-9d55-2f6a8b0c1d0e"}}).Want(t, http.StatusCreated)
	again := s.Do(apitest.Req{Method: "POST", Path: "/games", Body: `{}`, Header: map[string]string{"Idempotency-Key": "AB8F3C52-7A1B-4C1E-9D55-2F6A8B0C1D0E"}}).Want(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || first.JSON()["id"] != again.JSON()["id"] {
		t.Fatalf("the upper-case spelling was served afresh: %s vs %s", first.JSON()["id"], again.JSON()["id"])
	}
}

// A request whose token fails (unknown, another event's, the wrong role)
// stores no idempotency record.
func TestIdempotencyNothingStoredForFailedAuth(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	other := newEvent(t, s, `{"name":"Elsewhere","rounds":3}`)
	before := partitionItems(t, s, "")
	forged := f.tid + "." + f.tid + "." + strings.Repeat("a", 52)
	for i, tok := range []string{forged, other.Token, f.ptoken} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + f.tid + "/players", Token: tok, Body: `{"name":"X"}`,
			Header: map[string]string{"Idempotency-Key": fmt.Sprintf("5e5e5e5e-0000-4000-8000-00000000000%d", i)}})
		if r.Status != http.StatusUnauthorized && r.Status != http.StatusForbidden {
			t.Fatalf("token %d: %d %s", i, r.Status, r.Body)
		}
	}
	if after := partitionItems(t, s, ""); after != before {
		t.Fatalf("refused callers left %d items", after-before)
	}
}

// partitionItems counts the items of one partition, or of the table ("").
func partitionItems(t *testing.T, s *apitest.Server, pk string) int {
	t.Helper()
	recs, err := s.Store.Export(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if pk == "" || r.PK == pk {
			n++
		}
	}
	return n
}

// The organiser's routes that read a whole event check the token against
// the event item first: a stranger's request reads one item, no Query.
func TestAuthBeforeEventWideReads(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":2}`, 4, 2, 0)
	te.pair(t, s, map[string]any{}, http.StatusCreated)
	other := newEvent(t, s, `{"name":"Elsewhere","rounds":3}`)
	var mu sync.Mutex
	ops := map[string]int{}
	s.DB.Intercept(func(op string, _ []byte) embedded.Fault { mu.Lock(); ops[op]++; mu.Unlock(); return embedded.Serve })
	for _, p := range []string{"/rounds", "/rounds/1/changes", "/rounds/1/lineups"} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + te.ev.ID + p, Token: other.Token, Body: `{}`, Invalid: true})
		if r.Status != http.StatusForbidden {
			t.Errorf("%s with another event's token: %d %s", p, r.Status, r.Body)
		}
	}
	s.DB.Intercept(nil)
	if ops["Query"] != 0 {
		t.Fatalf("refused callers cost %v", ops)
	}
}

// Public reads of an event's rounds and standings query key ranges that
// leave out its officials: their items are never read.
func TestPublicReadsSkipOfficials(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Watched","rounds":3}`, 4)
	for i := range 20 {
		s.Post("/tournaments/"+f.ev.ID+"/officials", f.ev.Token, map[string]any{"role": "scribe", "name": fmt.Sprintf("S%d", i), "tables": []int{1, 2}}).Want(t, http.StatusCreated)
	}
	f.pair(t, s, map[string]any{}, http.StatusCreated)
	var mu sync.Mutex
	var queries []string
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		if op == "Query" {
			mu.Lock()
			queries = append(queries, string(body))
			mu.Unlock()
		}
		return embedded.Serve
	})
	for _, p := range []string{"/standings", "/crosstable", "/rounds/1"} {
		s.Get("/tournaments/"+f.ev.ID+p).Want(t, http.StatusOK)
	}
	s.DB.Intercept(nil)
	if len(queries) == 0 {
		t.Fatal("no Query seen")
	}
	for _, q := range queries {
		if !strings.Contains(q, "SK") {
			t.Errorf("a Query reads the whole partition: %s", q)
		}
	}
}

// Every response says nosniff; public GETs may be cached a few seconds,
// everything else (POST answers carry tokens) never.
func TestHeaders_NosniffAndCaching(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	for _, rt := range httpapi.Routes {
		if rt.Function == httpapi.FnWeb {
			continue // the web client's shell and assets have their own cache policy (package web's tests)
		}
		r := s.Do(apitest.Req{Method: rt.Method, Path: f.path(rt.Path), Token: f.token(rt.Who), Body: `{}`, Invalid: true})
		if r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: no nosniff", rt.Method, rt.Path)
		}
		cc := r.Header.Get("Cache-Control")
		switch {
		case rt.Method == "GET" && rt.Who.Has(httpapi.RolePublic) && r.Status == http.StatusOK:
			if !strings.HasPrefix(cc, "public, max-age=") {
				t.Errorf("%s %s: Cache-Control %q, want public, max-age=…", rt.Method, rt.Path, cc)
			}
		case cc != "no-store":
			t.Errorf("%s %s (%d): Cache-Control %q, want no-store", rt.Method, rt.Path, r.Status, cc)
		}
	}
	r := s.Do(apitest.Req{Method: "GET", Path: "/no/%1B[2Jsuch", Invalid: true})
	if r.Header.Get("X-Content-Type-Options") != "nosniff" || bytes.ContainsRune(r.Body, 0x1b) || !strings.Contains(string(r.Body), `\\x1b`) {
		t.Fatalf("unknown route: %s %s", r.Header, r.Body)
	}
}

// G-6: a standalone game has no arbiter, so repetition is automatic by
// default — perpetual check loses at the third occurrence instead of
// leaving the game pending a ruling for ever; asking for arbiters' rulings
// is refused.
func TestStandaloneGame_G6_PerpetualCheckEndsTheGame(t *testing.T) {
	s := apitest.New(t)
	g := createGame(t, s, `{"fen":"3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1"}`)
	if rule := g.Game["repetition"].(map[string]any)["rule"]; rule != "perpetualCheckLoses" {
		t.Fatalf("standalone default rule %v, want perpetualCheckLoses", rule)
	}
	tb := &table{t: t, s: s, g: g}
	var st map[string]any
	for range 2 {
		for _, m := range []struct{ side, move string }{{"red", "a8a9"}, {"black", "d9d8"}, {"red", "a9a8"}, {"black", "d8d9"}} {
			st = tb.move(m.side, m.move, true)
		}
	}
	wantOver(t, st, "0-1", "perpetualCheck")
	r := s.Do(apitest.Req{Method: "POST", Path: "/games", Body: `{"rules":{"repetition":"ruling"}}`, Invalid: true})
	if r.Status != http.StatusBadRequest || r.JSON()["error"].(map[string]any)["rule"] != "G-6" {
		t.Fatalf("a standalone game asking for arbiters: %d %s", r.Status, r.Body)
	}
}

// Retention: an event never paired carries the store's "ttl" on every item
// from its creation; pairing its first round clears them all (a played event
// is kept). A standalone game gets its ttl when it ends; event games never.
func TestRetention_TTL(t *testing.T) {
	const days = 30
	s := apitest.New(t, httpapi.WithRetention(days*24*time.Hour))
	created := s.Clock.Now()
	f := newField(t, s, `{"name":"Maybe","rounds":3}`, 4)
	s.Post("/tournaments/"+f.ev.ID+"/officials", f.ev.Token, map[string]any{"role": "arbiter", "name": "A"}).Want(t, http.StatusCreated)
	later := newEvent(t, s, fmt.Sprintf(`{"name":"Next year","rounds":3,"startsAt":%q}`, created.AddDate(0, 2, 0).Format(time.RFC3339)))
	ttls := func(pk string) map[string]int64 {
		recs, err := s.Store.Query(t.Context(), pk, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, r := range recs {
			out[r.SK] = r.Expires
		}
		return out
	}
	want := created.Add(days * 24 * time.Hour).Unix()
	for sk, ttl := range ttls("T#" + f.ev.ID) {
		if ttl != want {
			t.Errorf("unpaired event item %s: ttl %d, want %d", sk, ttl, want)
		}
	}
	if ttl := ttls("T#" + later.ID)["META"]; ttl != created.AddDate(0, 2, 0).Add(days*24*time.Hour).Unix() {
		t.Errorf("an event starting later expires %d, want its start plus the retention", ttl)
	}
	r := f.pair(t, s, map[string]any{}, http.StatusCreated)
	for sk, ttl := range ttls("T#" + f.ev.ID) {
		if ttl != 0 {
			t.Errorf("paired event item %s keeps ttl %d", sk, ttl)
		}
	}
	tok := f.byID[r.Pairings[0].Red].Token
	s.Post("/tournaments/"+f.ev.ID+"/rounds/1/start", f.ev.Token, nil).Want(t, http.StatusOK) // C-1: no resignation before the start
	s.Post("/games/"+r.Pairings[0].GameID+"/resign", tok, `{}`).Want(t, http.StatusOK)
	if ttl := ttls("G#" + r.Pairings[0].GameID)["GAME"]; ttl != 0 {
		t.Errorf("a finished event game has ttl %d", ttl)
	}
	g := createGame(t, s, `{}`)
	if ttl := ttls("G#" + g.ID)["GAME"]; ttl != 0 {
		t.Errorf("a standalone game being played has ttl %d", ttl)
	}
	s.Clock.Advance(time.Hour)
	s.Post("/games/"+g.ID+"/resign", g.RedToken, `{}`).Want(t, http.StatusOK)
	if ttl := ttls("G#" + g.ID)["GAME"]; ttl != s.Clock.Now().Add(days*24*time.Hour).Unix() {
		t.Errorf("a finished standalone game: ttl %d, want its end plus the retention", ttl)
	}
	plain := apitest.New(t)
	ev := newEvent(t, plain, `{"name":"Kept","rounds":3}`)
	if rec, err := plain.Store.Get(t.Context(), "T#"+ev.ID, "META"); err != nil || rec.Expires != 0 {
		t.Fatalf("without a retention an event has ttl %v (%v)", rec, err)
	}
}

// The CloudFront origin secret, when set, is required on every route: a
// caller that goes around the distribution (and its per-client limit) is 403.
func TestOriginSecret(t *testing.T) {
	st, _ := storetest.New(t)
	srv := httptest.NewServer(httpapi.New(st, httpapi.WithOriginSecret("from-cloudfront")).Handler())
	defer srv.Close()
	for _, hdr := range []string{"", "wrong", "from-cloudfront"} {
		req, _ := http.NewRequest("GET", srv.URL+"/openapi.json", nil)
		if hdr != "" {
			req.Header.Set(httpapi.OriginHeader, hdr)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want := http.StatusForbidden
		if hdr == "from-cloudfront" {
			want = http.StatusOK
		}
		if res.StatusCode != want || (want == http.StatusForbidden && !strings.Contains(string(body), "direct_access")) {
			t.Errorf("origin header %q: %d %s, want %d", hdr, res.StatusCode, body, want)
		}
	}
}

// README's "Security and cost limits" lists exactly the caps of the one
// table, with their numbers.
func TestREADMEListsEveryCap(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<!-- caps:start -->(.*?)<!-- caps:end -->`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no caps table")
	}
	rows := map[string]string{}
	for _, r := range regexp.MustCompile("(?m)^\\| `([A-Za-z]+)` \\| ([0-9]+) \\|").FindAllSubmatch(m[1], -1) {
		rows[string(r[1])] = string(r[2])
	}
	for _, l := range service.Limits {
		if rows[l.Name] != strconv.Itoa(l.Max) {
			t.Errorf("README lists cap %s as %q, want %d", l.Name, rows[l.Name], l.Max)
		}
		delete(rows, l.Name)
	}
	for name := range rows {
		t.Errorf("README lists a cap %s the code does not have", name)
	}
}

// Error messages quote what the caller sent, shortened, with control and
// bidirectional-formatting characters escaped: a note or an id cannot
// reorder or hide the text of a message where it is shown or logged.
func TestErrorMessagesEscapeCallerText(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Quoted","rounds":3}`, 3)
	f.pair(t, s, map[string]any{"startsAt": s.Clock.Now().Add(time.Hour).Format(time.RFC3339)}, http.StatusCreated)
	evil := "p\u202egnp.exe\u0007" + strings.Repeat("x", 300)
	r := s.Post("/tournaments/"+f.ev.ID+"/rounds/1/changes", f.ev.Token, map[string]any{"action": "bye", "player": evil}).Want(t, http.StatusNotFound)
	msg := r.JSON()["error"].(map[string]any)["message"].(string)
	if strings.ContainsAny(msg, "\u202e\u0007") || !strings.Contains(msg, `\u202e`) || strings.Contains(msg, strings.Repeat("x", 100)) {
		t.Fatalf("message %q echoes the caller's text raw or whole", msg)
	}
}

func routeOf(t *testing.T, method, path string) httpapi.Route {
	t.Helper()
	for _, rt := range httpapi.Routes {
		if rt.Method == method && rt.Path == path {
			return rt
		}
	}
	t.Fatalf("no route %s %s", method, path)
	return httpapi.Route{}
}

// Retention in a team event: teams and their players expire with the
// unpaired event, and pairing round 1 keeps them all.
func TestRetention_TTL_TeamEvent(t *testing.T) {
	s := apitest.New(t, httpapi.WithRetention(7*24*time.Hour))
	te := newTeamEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":2}`, 4, 2, 0)
	expiring := func() (n int) {
		recs, err := s.Store.Query(t.Context(), "T#"+te.ev.ID, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Expires != 0 {
				n++
			}
		}
		return n
	}
	if n := expiring(); n != 1+1+4+4*2 { // the event, its arbiter, 4 teams, 8 players
		t.Fatalf("%d items expire before pairing, want every one of 14", n)
	}
	te.pair(t, s, map[string]any{}, http.StatusCreated)
	if n := expiring(); n != 0 {
		t.Fatalf("%d items still expire after round 1 was paired", n)
	}
}

// BenchmarkPublicReadCost is the read cost of a public standings read of a
// 16-player event whose organiser appointed the most officials allowed,
// each with the most tables: the Queries behind the read (officials left
// out) against the whole partition they used to read, in strongly
// consistent read units (4 KB each), and the time of one read.
func BenchmarkPublicReadCost(b *testing.B) {
	s := apitest.New(b, httpapi.WithLogger(slog.New(slog.NewJSONHandler(io.Discard, nil))))
	var ev created
	s.Post("/tournaments", "", `{"name":"Cost","rounds":3}`).Want(b, http.StatusCreated).Decode(b, &ev)
	for i := range 16 {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": fmt.Sprintf("P%d", i)}).Want(b, http.StatusCreated)
	}
	tables := make([]int, capOf(nil, "tablesPerScribe"))
	for i := range tables {
		tables[i] = i + 1
	}
	for i := range capOf(nil, "officialsPerEvent") {
		s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, map[string]any{"role": "scribe", "name": fmt.Sprintf("Scribe %d", i), "tables": tables}).Want(b, http.StatusCreated)
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(b, http.StatusCreated)
	units := func(recs []*store.Record, err error) float64 {
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			n += r.Size()
		}
		return float64((n + 4095) / 4096)
	}
	pk := "T#" + ev.ID
	whole := units(s.Store.Query(b.Context(), pk, "", 0))
	meta, err := s.Store.Get(b.Context(), pk, "META")
	read := units([]*store.Record{meta}, err) + units(s.Store.QueryFrom(b.Context(), pk, "P#"))
	for b.Loop() {
		s.Get("/tournaments/"+ev.ID+"/standings").Want(b, http.StatusOK)
	}
	b.ReportMetric(whole, "RCU-whole-partition")
	b.ReportMetric(read, "RCU-read")
}
