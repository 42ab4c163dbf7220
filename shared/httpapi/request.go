package httpapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/replay"
	"github.com/xqtour/xqtour/shared/service/usage"
	"github.com/xqtour/xqtour/shared/store"
)

// MaxBody is the API's request body limit; larger bodies get 413.
const MaxBody = 64 << 10

// call is one request as a handler sees it: the body already read within the
// limit, and the time fixed once so every decision in the request agrees.
type call struct {
	r    *http.Request
	body []byte
	now  time.Time
	// cache, when set, replaces a public GET's default Cache-Control (etag.go).
	cache string
	// vary: the answer depends on the Authorization header (a delayed game, delay.go).
	vary bool
	// varyLanguage: the answer is in the language Accept-Language asks for
	// (a round's explanations, explainlang.go), so caches must key on it.
	varyLanguage bool
	// keep and until: the answer may be kept as a response view, valid
	// until that time (ms; 0: no time limit) (responseviews.go).
	keep  bool
	until int64
	// mirrorChecked: the write was checked against a mirror's read-only
	// mark once (authenticate, mirror.go).
	mirrorChecked bool
}

func (c *call) ctx() context.Context { return c.r.Context() }

func (c *call) nowMs() int64 { return c.now.UnixMilli() }

// decode reads the JSON body into v, refusing unknown fields, duplicate
// keys, a body that is not an object, and trailing data. An empty body
// decodes as {} so bodiless POSTs (withdraw, resign) work.
func (c *call) decode(v any) error {
	body := bytes.TrimSpace(c.body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if body[0] != '{' {
		return badRequest("malformed_json", "the request body must be a JSON object")
	}
	if err := duplicateKeys(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return badRequest("malformed_json", fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, err))
		case errors.As(err, &te):
			return badRequest("invalid_field", fmt.Sprintf("%s: want %s, got %s", te.Field, te.Type, te.Value))
		case strings.HasPrefix(err.Error(), "json: unknown field"):
			return badRequest("unknown_field", strings.TrimPrefix(err.Error(), "json: "))
		}
		return badRequest("malformed_json", "malformed JSON: "+err.Error())
	}
	if dec.More() {
		return badRequest("malformed_json", "unexpected data after the JSON body")
	}
	return nil
}

// recordBodyRoutes take a record (PGN) or an event export (JSON lines) as
// their body, not one JSON object; their handlers check its media type
// (checkRecordType, checkExportType).
var recordBodyRoutes = map[string]bool{"POST /games/import": true, "POST /games/{gid}/record": true, "POST /tournaments/import": true}

// otherBodyTypes are the media types a route takes besides JSON: an event's
// export is imported as the NDJSON it was exported as.
var otherBodyTypes = map[string][]string{"POST /tournaments/import": {"application/x-ndjson"}}

// checkContentType refuses a POST body that is not sent as JSON (415): a
// form-encoded or text body would otherwise be read as JSON by luck. A POST
// without a body (withdraw, resign, start) needs no Content-Type, and one
// with a body and no Content-Type is read as JSON, as the API's examples send
// it; a body with any other media type is refused.
func checkContentType(r *http.Request, rt Route, body []byte) error {
	route := rt.Method + " " + rt.Path
	// Two Content-Type headers (or one a proxy folded from two, with a
	// comma) say two things about one body: this edge would read the first,
	// a proxy or a log the other.
	if cts := r.Header.Values("Content-Type"); len(cts) > 1 || len(cts) == 1 && strings.Contains(cts[0], ",") {
		return badRequest("duplicate_header", "send one Content-Type header, not "+strconv.Itoa(max(len(cts), 2)))
	}
	ct := r.Header.Get("Content-Type")
	if r.Method != http.MethodPost || ct == "" || len(bytes.TrimSpace(body)) == 0 || recordBodyRoutes[route] {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json") || slices.Contains(otherBodyTypes[route], mt)) {
		return nil
	}
	want := "JSON sent with Content-Type: application/json"
	if other := otherBodyTypes[route]; len(other) > 0 {
		want += " (or " + strings.Join(other, ", ") + ")"
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
		Message: "the request body must be " + want + ", not " + quote(ct)}
}

// isUUID reports whether s is a UUID in its 8-4-4-4-12 hex form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", r):
			return false
		}
	}
	return true
}

// duplicateKeys refuses an object that names a key twice, at any depth.
// encoding/json keeps the last value silently; a proxy, a log reader or a
// client library may keep the first, so one request would mean two things.
// Keys are compared as encoding/json matches them to fields, without regard
// to case: {"name":"a","NAME":"b"} fills one field twice, and a check that
// saw two keys there would let a reader of the first see another request.
func duplicateKeys(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]string{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				folded := foldKey(key)
				if first, ok := seen[folded]; ok {
					if first == key {
						return badRequest("duplicate_field", "the field "+quote(key)+" appears twice in one object")
					}
					return badRequest("duplicate_field", "the fields "+quote(first)+" and "+quote(key)+" name one field (field names match without regard to case)")
				}
				seen[folded] = key
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token() // '}'
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(); err != nil {
					return err
				}
			}
			_, err = dec.Token() // ']'
			return err
		}
		return nil
	}
	var e *Error
	if err := walk(); errors.As(err, &e) {
		return e
	}
	return nil // a syntax error is reported by the decoder, with its offset
}

// foldKey is a key as encoding/json compares it with a field's name: case
// folded the Unicode way, so the Kelvin sign matches k and ſ matches s.
func foldKey(key string) string { return strings.ToLower(strings.ToUpper(key)) }

// raw is a non-JSON response body (CSV, PGN, plain records).
type raw struct {
	contentType string
	data        []byte
	// next, when set, is the request for the next page: a Link header (RFC 8288).
	next *string
}

// handler serves one route: it returns the status and body, or an error that
// errors.go maps to the error model.
type handler func(a *API, c *call) (int, any, error)

// wrap turns a route's handler into an http.Handler with the body limit,
// idempotent replay, error mapping, and per request one JSON log line, one
// metrics line and the event's usage (observe.go, usage.go).
func (a *API) wrap(rt Route) http.Handler {
	route := rt.Method + " " + rt.Path
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		cold := !warm.Swap(true)
		m := &store.Meter{}
		defer store.MeterFrom(r.Context()).Absorb(m) // a caller measuring from outside (bigevent) sees the request's units too
		ctx, note := usage.WithNote(store.WithMeter(r.Context(), m), r.PathValue("tid"), r.PathValue("gid"))
		r = r.WithContext(ctx)
		// The answer is held until the request is counted, so a client's next
		// request sees this one's usage.
		rec := &recorder{header: w.Header()}
		status := a.serve(rec, r, rt)
		a.observe(r, route, status, time.Since(start), cold, m, note)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(rec.body.Bytes())
	})
}

func (a *API) serve(w http.ResponseWriter, r *http.Request, rt Route) int {
	w.Header().Set("Cache-Control", "no-store")
	// The deployment's protections first: a caller without the creation key
	// or the CloudFront secret, or with a malformed id, costs no body read.
	if err := a.guard(r, rt); err != nil {
		return writeError(w, a.log, err)
	}
	if err := checkQuery(r, rt); err != nil {
		return writeError(w, a.log, err)
	}
	limit := bodyLimit(rt)
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return writeError(w, a.log, badRequest("malformed_body", "could not read the request body"))
	}
	if len(body) > limit {
		return writeError(w, a.log, &Error{Status: http.StatusRequestEntityTooLarge, Code: "body_too_large", Message: fmt.Sprintf("request bodies are limited to %d bytes", limit)})
	}
	if err := checkContentType(r, rt, body); err != nil {
		return writeError(w, a.log, err)
	}
	now := a.now().UTC()
	c := &call{r: r.WithContext(service.WithNow(r.Context(), now)), body: body, now: now} // the application layer decides at the same instant
	key := r.Header.Get("Idempotency-Key")
	if r.Method != http.MethodPost || key == "" {
		return a.respond(w, c, rt)
	}
	if !isUUIDv4(key) {
		// the API's <uuid>, random: callers without a token (POST /tournaments,
		// /games) share one scope, so a short, hand-made, nil or time-based
		// key that another client can guess would replay that client's
		// answer — its organiser or seat tokens.
		return writeError(w, a.log, badRequest("invalid_idempotency_key", "Idempotency-Key must be a random (version 4) UUID, e.g. 4c1f0a9e-5b2d-4e8a-9f3c-7d6e5a4b3c2d"))
	}
	key = strings.ToLower(key) // one key however its hex digits are spelt
	// A request whose credentials fail stores nothing: its token is checked
	// before the key is reserved (routes that take a token), so a stranger
	// cannot fill the table with idempotency records.
	if rt.Who.NeedsToken() {
		if _, err := a.authenticate(c, nil); err != nil {
			return writeError(w, a.log, err)
		}
	}
	// The key is scoped to the caller's credentials so two clients never collide;
	// the hash covers the request itself so a reused key with another body is caught.
	auth := r.Header.Get("Authorization")
	if token, _, _, err := bearer(r); err == nil {
		auth = "Bearer " + token // one caller however it spells the scheme
	}
	if auth == "" {
		auth = a.anonymousCaller(r) // a stranger holding the same key is not this caller
	}
	req := replay.NewRequest(auth, key, r.Method+" "+r.URL.RequestURI(), body)
	prev, err := a.replays.Reserve(c.ctx(), req, c.now)
	if errors.Is(err, replay.ErrReused) {
		return writeError(w, a.log, &Error{Status: http.StatusUnprocessableEntity, Code: "idempotency_key_reused", Message: "this Idempotency-Key was used for a different request"})
	}
	if err != nil {
		return writeError(w, a.log, err)
	}
	if prev != nil {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Idempotent-Replayed", "true")
		w.WriteHeader(prev.Status)
		_, _ = w.Write(prev.Body)
		return prev.Status
	}
	rec := &recorder{header: w.Header()}
	status := a.respond(rec, c, rt)
	// The key's record is settled even when the client has gone away, or a
	// retry would find the key held until the reservation's lease runs out.
	ctx := context.WithoutCancel(c.ctx())
	if transient(status) || status == http.StatusUnauthorized || status == http.StatusForbidden {
		// Nothing was decided (or the caller may not do this): let the retry
		// run afresh, and keep no record of a refused caller.
		if err := a.replays.Release(ctx, req); err != nil {
			a.log.Error("idempotency key not released", "err", err.Error())
		}
	} else if err := a.replays.Complete(ctx, req, status, rec.body.Bytes(), c.now); err != nil {
		a.log.Error("idempotency record not completed", "err", err.Error())
	}
	w.WriteHeader(status)
	_, _ = w.Write(rec.body.Bytes())
	return status
}

// transient reports whether a status says "try again" rather than answering
// the request: 429 and 503 (the store throttled or failed) and any other 5xx.
// Such a response is never replayed for an Idempotency-Key.
func transient(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

func (a *API) respond(w http.ResponseWriter, c *call, rt Route) (status int) {
	// A panic in a handler is a 500 in the error model, not a dropped
	// connection (nor a crashed Lambda), and serve releases its key.
	defer func() {
		if p := recover(); p != nil {
			status = writeError(w, a.log, fmt.Errorf("panic serving %s %s: %v", rt.Method, rt.Path, p))
		}
	}()
	status, resp, err := rt.handle(a, c)
	if err != nil {
		return writeError(w, a.log, err)
	}
	cc := cacheControl(rt, status)
	setVary(w, c)
	if cc != "no-store" {
		w.Header().Set("Cache-Control", cmp.Or(c.cache, cc))
		return writeCacheable(w, c.r, status, resp)
	}
	w.Header().Set("Cache-Control", cc)
	if rb, ok := resp.(raw); ok {
		if rb.next != nil {
			w.Header().Set("Link", "<"+*rb.next+`>; rel="next"`)
		}
		w.Header().Set("Content-Type", rb.contentType)
		w.WriteHeader(status)
		_, _ = w.Write(rb.data)
		return status
	}
	writeJSON(w, status, resp)
	return status
}

// recorder buffers a response so it can be stored for idempotent replay.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(status int)      { r.status = status }
