package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// A request the store throttled (429) did nothing, so a retry under the same
// Idempotency-Key must be served afresh, not replay the 429 for a day.
func TestIdempotentRetryAfterThrottleIsServed(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Retry Open","rounds":3}`)
	key := map[string]string{"Idempotency-Key": "1f0e3c52-7a1b-4c1e-9d55-2f6a8b0c1d01"}
	register := func() *apitest.Resp {
		return s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token, Body: `{"name":"Li"}`, Header: key})
	}
	s.DB.Intercept(func(op string, _ []byte) embedded.Fault {
		if op == "TransactWriteItems" {
			return embedded.Throttled
		}
		return embedded.Serve
	})
	r := register()
	s.DB.Intercept(nil)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("throttled registration: %d %q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	r = register()
	if r.Status != http.StatusCreated || r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("retry after the throttle: %d replayed=%q %s", r.Status, r.Header.Get("Idempotent-Replayed"), r.Body)
	}
	again := register().Want(t, http.StatusCreated)
	if string(again.Body) != string(r.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the served retry is not replayed unchanged: %s vs %s", again.Body, r.Body)
	}
}

// DynamoDB's transient failures (HTTP 500 InternalServerError, after the
// SDK's retries) are 503 with Retry-After (the OpenAPI document), not an internal error.
func TestUnavailableStoreIs503(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Flaky","rounds":3}`)
	s.DB.Intercept(func(string, []byte) embedded.Fault { return embedded.Unavailable })
	r := s.Get("/tournaments/" + ev.ID)
	p := s.Post("/tournaments/"+ev.ID+"/players", ev.Token, `{"name":"Li"}`)
	s.DB.Intercept(nil)
	for _, r := range []*apitest.Resp{r, p} {
		if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || r.ErrorCode() != "unavailable" {
			t.Fatalf("store unavailable: %d %q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
		}
	}
	s.Get("/tournaments/"+ev.ID+"/players").Want(t, http.StatusOK)
}

// POST rounds stores the round, then creates its games. When the store
// throttles the second step the round is paired all the same: the answer is
// the round (its games appear on the next read), so a retry under the same
// Idempotency-Key replays it instead of pairing the round after.
func TestPairRoundThrottledAfterCommitDoesNotPairTwice(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Twice Open","rounds":5}`)
	for _, name := range []string{"A", "B", "C", "D"} {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated)
	}
	key := map[string]string{"Idempotency-Key": "2a2a2a2a-0000-4000-8000-000000000002"}
	pair := func() *apitest.Resp {
		return s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/rounds", Token: ev.Token, Body: `{}`, Header: key})
	}
	var committed atomic.Bool
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		switch {
		case op == "TransactWriteItems":
			committed.Store(true)
		case op == "PutItem" && committed.Load() && bytes.Contains(body, []byte(`"G#`)):
			return embedded.Throttled // the games of the stored round
		}
		return embedded.Serve
	})
	first := pair()
	s.DB.Intercept(nil)
	if first.Status >= 300 || first.JSON()["round"] != 1.0 {
		t.Fatalf("pairing whose games were throttled: %d %s", first.Status, first.Body)
	}
	if again := pair(); again.JSON()["round"] != 1.0 {
		t.Fatalf("retry under the same key: %d %s; want round 1 again", again.Status, again.Body)
	}
	var round struct {
		Pairings []struct {
			GameID string `json:"gameId"`
		}
	}
	s.Get("/tournaments/"+ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &round)
	for _, p := range round.Pairings {
		s.Get("/games/"+p.GameID).Want(t, http.StatusOK)
	}
	if got := s.Get("/tournaments/" + ev.ID).JSON()["round"]; got != 1.0 {
		t.Fatalf("event round %v, want 1", got)
	}
}

// Storing the response for replay is retried when the store throttles it:
// the request has acted, so its key must not be left reserved (to be served
// afresh, acting twice, once the reservation's lease runs out).
func TestIdempotentResponseStoredDespiteThrottle(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Complete Open","rounds":3}`)
	key := map[string]string{"Idempotency-Key": "3c3c3c3c-0000-4000-8000-000000000003"}
	register := func() *apitest.Resp {
		return s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token, Body: `{"name":"Wang"}`, Header: key})
	}
	var throttled atomic.Int32
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		// The completion: a versioned write of the key's record. Four
		// refusals exhaust the SDK's own attempts (its retries included) once.
		if op == "PutItem" && bytes.Contains(body, []byte(`"I#`)) && bytes.Contains(body, []byte("ver = :v")) && throttled.Add(1) <= 4 {
			return embedded.Throttled
		}
		return embedded.Serve
	})
	first := register().Want(t, http.StatusCreated)
	s.DB.Intercept(nil)
	again := register()
	if again.Status != http.StatusCreated || string(again.Body) != string(first.Body) {
		t.Fatalf("replay: %d %s; want the first 201", again.Status, again.Body)
	}
	if n := len(s.Get("/tournaments/" + ev.ID + "/players").JSON()["players"].([]any)); n != 1 {
		t.Fatalf("%d players registered, want 1", n)
	}
}

// Tokens are shown once and only their hashes are stored (the OpenAPI document): the
// response kept for an Idempotency-Key replay holds tokens, so neither it nor
// the key may be readable from the table. The replay still returns them.
func TestIdempotencyRecordsHoldNoTokens(t *testing.T) {
	s := apitest.New(t)
	key := "4d4d4d4d-0000-4000-8000-000000000004"
	hdr := map[string]string{"Idempotency-Key": key}
	first := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"Secret Open","rounds":3}`, Header: hdr}).Want(t, http.StatusCreated)
	var ev created
	first.Decode(t, &ev)
	p := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token, Body: `{"name":"Li"}`, Header: hdr}).Want(t, http.StatusCreated)
	var player created
	p.Decode(t, &player)
	recs, err := s.Store.Export(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		var resp store.Response
		if rec.Kind == "idempotency" {
			if err := json.Unmarshal(rec.Doc, &resp); err != nil {
				t.Fatal(err)
			}
		}
		for _, secret := range []string{ev.Token, player.Token} {
			if bytes.Contains(rec.Doc, []byte(secret)) || bytes.Contains(resp.Body, []byte(secret)) {
				t.Errorf("item %s/%s holds a token in clear", rec.PK, rec.SK)
			}
		}
		if strings.Contains(rec.PK, key) {
			t.Errorf("item %s/%s names the Idempotency-Key in clear", rec.PK, rec.SK)
		}
	}
	again := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"Secret Open","rounds":3}`, Header: hdr}).Want(t, http.StatusCreated)
	if string(again.Body) != string(first.Body) {
		t.Fatalf("replay differs: %s vs %s", again.Body, first.Body)
	}
	// Another caller's key of the same name is another record.
	other := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token, Body: `{"name":"Li"}`, Header: hdr})
	if other.Header.Get("Idempotent-Replayed") != "true" || string(other.Body) != string(p.Body) {
		t.Fatalf("the organiser's replay: %d %s", other.Status, other.Body)
	}
}

// The key is scoped to the caller's token, not to how the header spells the
// scheme: a retry sent with "bearer" replays the first "Bearer" answer.
func TestIdempotencyScopeIgnoresSchemeSpelling(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Spelling Open","rounds":3}`)
	key := "5e5e5e5e-0000-4000-8000-000000000005"
	send := func(scheme string) *apitest.Resp {
		return s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Body: `{"name":"Li"}`,
			Header: map[string]string{"Idempotency-Key": key, "Authorization": scheme + " " + ev.Token}})
	}
	first := send("Bearer").Want(t, http.StatusCreated)
	again := send("bearer").Want(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Body) != string(first.Body) {
		t.Fatalf("retry spelled bearer: %s; want the first answer replayed", again.Body)
	}
}

// A team withdrawal reads everything it answers with before it writes, so a
// read throttled after the write cannot fail a request that has acted: the
// retry replays the withdrawal instead of being refused as already withdrawn.
func TestTeamWithdrawalThrottledAfterWriteIsAnswered(t *testing.T) {
	s := apitest.New(t)
	te := newTeamEvent(t, s, `{"name":"League","system":"swiss","rounds":3,"teams":true,"boards":2}`, 4, 2, 0)
	key := map[string]string{"Idempotency-Key": "6f6f6f6f-0000-4000-8000-000000000006"}
	withdraw := func() *apitest.Resp {
		return s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + te.ev.ID + "/teams/" + te.teams[0].ID + "/withdraw", Token: te.ev.Token, Header: key})
	}
	var written atomic.Bool
	s.DB.Intercept(func(op string, _ []byte) embedded.Fault {
		switch {
		case op == "TransactWriteItems":
			written.Store(true)
		case op == "Query" && written.Load():
			return embedded.Throttled
		}
		return embedded.Serve
	})
	first := withdraw()
	s.DB.Intercept(nil)
	if first.Status != http.StatusOK {
		t.Fatalf("withdrawal whose later read was throttled: %d %s", first.Status, first.Body)
	}
	if again := withdraw(); again.Status != http.StatusOK || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry: %d %s", again.Status, again.Body)
	}
}

// Concurrent requests under one Idempotency-Key act once: each answer is the
// first 201 (served or replayed) or 409 request_in_progress with Retry-After.
func TestConcurrentSameKeyActsOnce(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Burst Open","rounds":3}`)
	key := map[string]string{"Idempotency-Key": "7a7a7a7a-0000-4000-8000-000000000007"}
	const n = 8
	resps := make([]*apitest.Resp, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resps[i] = s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Token: ev.Token, Body: `{"name":"Li"}`, Header: key})
		}()
	}
	wg.Wait()
	var created string
	for _, r := range resps {
		switch {
		case r.Status == http.StatusCreated && (created == "" || created == string(r.Body)):
			created = string(r.Body)
		case r.Status == http.StatusConflict && r.ErrorCode() == "request_in_progress" && r.Header.Get("Retry-After") != "":
		default:
			t.Fatalf("answer %d %s (first 201: %s)", r.Status, r.Body, created)
		}
	}
	if n := len(s.Get("/tournaments/" + ev.ID + "/players").JSON()["players"].([]any)); n != 1 {
		t.Fatalf("%d players registered under one key, want 1", n)
	}
}

// the API's Idempotency-Key is a UUID. Callers without a token share one
// scope, so a hand-made key ("1") is refused rather than risk replaying one
// client's new game, with its seat tokens, to another sending the same body.
func TestIdempotencyKeyMustBeAUUID(t *testing.T) {
	s := apitest.New(t)
	for _, key := range []string{"1", "retry", strings.Repeat("a", 36), "7a7a7a7a-0000-4000-8000-00000000000g"} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/games", Body: `{}`, Header: map[string]string{"Idempotency-Key": key}, Invalid: true})
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_idempotency_key" {
			t.Errorf("key %q: %d %s", key, r.Status, r.Body)
		}
	}
	if n := tableItems(t, s.Store); n != 0 {
		t.Fatalf("refused keys stored %d items", n)
	}
	s.Do(apitest.Req{Method: "POST", Path: "/games", Body: `{}`, Header: map[string]string{"Idempotency-Key": "8B8B8B8B-0000-4000-8000-000000000008"}}).Want(t, http.StatusCreated)
}

// A client that hangs up once its round is stored does not leave the round
// without games: the games of a stored round are created to the end.
func TestPairRoundCreatesGamesAfterTheClientHangsUp(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Hang-up Open","rounds":3}`)
	const tables = 12
	for i := range 2 * tables {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": fmt.Sprintf("P%d", i)}).Want(t, http.StatusCreated)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var hungUp atomic.Bool
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		if (op == "PutItem" || op == "TransactWriteItems") && bytes.Contains(body, []byte(`"G#`)) && hungUp.CompareAndSwap(false, true) {
			cancel()
			time.Sleep(200 * time.Millisecond) // the server notices the closed connection
		}
		return embedded.Serve
	})
	req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/tournaments/"+ev.ID+"/rounds", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+ev.Token)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
	}
	s.DB.Intercept(nil)
	games := 0
	for deadline := time.Now().Add(2 * time.Second); games < tables && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		recs, err := s.Store.Export(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		games = 0
		for _, r := range recs {
			if r.Kind == store.KindGame {
				games++
			}
		}
	}
	if games != tables {
		t.Fatalf("%d games stored for the %d tables of the round paired before the hang-up", games, tables)
	}
}
