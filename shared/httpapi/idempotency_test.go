package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
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
	s.DB.Intercept(func(op string) embedded.Fault {
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
// SDK's retries) are 503 with Retry-After (API.md), not an internal error.
func TestUnavailableStoreIs503(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Flaky","rounds":3}`)
	s.DB.Intercept(func(string) embedded.Fault { return embedded.Unavailable })
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
