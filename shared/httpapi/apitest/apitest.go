// Package apitest runs the whole API over real HTTP for tests: an httptest
// server in front of httpapi, the real store on an embedded DynamoDB-compatible
// server, a settable clock, and a client that validates every request and
// response against the OpenAPI document. AWS's limits hold as they do
// deployed: the embedded server refuses what DynamoDB refuses, and a response
// Lambda could not return (over 6 MB as it encodes it) fails the test.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

func init() {
	// Records are served as PGN text; validate them as plain text.
	openapi3filter.RegisterBodyDecoder("application/x-chess-pgn", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/x-ndjson", openapi3filter.PlainBodyDecoder)
}

// Clock is a settable time source shared by the server and the test.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// Server is a running API for one test.
type Server struct {
	URL   string
	Clock *Clock
	Store *store.Store
	// DB is the embedded DynamoDB server behind Store.
	DB *embedded.Server
	// API is the API the server serves, for what runs outside a request
	// (RunDue).
	API   *httpapi.API
	t     testing.TB
	doc   *openapi3.T
	route routers.Router
}

// New starts the API for t, with opts after the test clock (a creation key,
// a retention); everything stops when the test ends.
func New(t testing.TB, opts ...httpapi.Option) *Server {
	t.Helper()
	st, _, db := storetest.Start(t)
	clk := &Clock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = nil // match any host
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	api := httpapi.New(st, append([]httpapi.Option{httpapi.WithClock(clk.Now)}, opts...)...)
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL, Clock: clk, Store: st, DB: db, API: api, t: t, doc: doc, route: router}
}

// RunDue runs the due work's runner once at the test clock's now, as the
// deployed schedule (functions/duework) or the local stack's ticker would,
// and fails the test on its error.
func (s *Server) RunDue() service.DueRun {
	s.t.Helper()
	run, err := s.API.RunDue(context.Background())
	if err != nil {
		s.t.Fatalf("RunDue: %v", err)
	}
	return run
}

// Req is one request. Body is JSON-encoded unless it is a string (sent as is).
// Invalid marks a request the test sends wrong on purpose: it is not checked
// against the OpenAPI document, but its response still is.
type Req struct {
	Method, Path, Token string
	Body                any
	Header              map[string]string
	Invalid             bool
}

// Resp is a response with its body read.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as a generic object.
func (r *Resp) JSON() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// Decode decodes the body into v.
func (r *Resp) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// ErrorCode returns error.code of an error body ("" if none).
func (r *Resp) ErrorCode() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Code
}

// Do sends the request and validates it and its response against the OpenAPI document.
func (s *Server) Do(q Req) *Resp {
	s.t.Helper()
	var body []byte
	switch b := q.Body.(type) {
	case nil:
	case string:
		body = []byte(b)
	case []byte:
		body = b
	default:
		var err error
		if body, err = json.Marshal(b); err != nil {
			s.t.Fatal(err)
		}
	}
	newReq := func() *http.Request {
		req, err := http.NewRequest(q.Method, s.URL+q.Path, bytes.NewReader(body))
		if err != nil {
			s.t.Fatal(err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if q.Token != "" {
			req.Header.Set("Authorization", "Bearer "+q.Token)
		}
		for k, v := range q.Header {
			req.Header.Set(k, v)
		}
		return req
	}
	req := newReq()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	out := &Resp{Status: res.StatusCode, Header: res.Header, Body: data}
	if limit := res.Header.Get(httpapi.LimitHeader); limit != "" {
		// The handler's answer is one AWS would not deliver (see httpapi.LambdaResponseSize).
		s.t.Errorf("%s %s: on AWS this request fails with 502: %s", q.Method, q.Path, limit)
		return out
	}
	s.validate(newReq(), q.Invalid, out)
	return out
}

func (s *Server) validate(req *http.Request, invalid bool, out *Resp) {
	s.t.Helper()
	route, params, err := s.route.FindRoute(req)
	if err != nil {
		if out.Status != http.StatusNotFound {
			s.t.Errorf("%s %s is not in the OpenAPI document: %v", req.Method, req.URL.Path, err)
		}
		return
	}
	ctx := context.Background()
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true, MultiError: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if !invalid && out.Status != http.StatusRequestEntityTooLarge {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			s.t.Errorf("request %s %s does not match the OpenAPI document: %v", req.Method, req.URL.Path, err)
		}
	}
	ct := out.Header.Get("Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	resIn := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: out.Status,
		Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(bytes.NewReader(out.Body)), Options: opts}
	if err := openapi3filter.ValidateResponse(ctx, resIn); err != nil {
		s.t.Errorf("response %d to %s %s does not match the OpenAPI document: %v\nbody: %s", out.Status, req.Method, req.URL.Path, err, out.Body)
	}
}

// Post sends a valid POST.
func (s *Server) Post(path, token string, body any) *Resp {
	s.t.Helper()
	return s.Do(Req{Method: http.MethodPost, Path: path, Token: token, Body: body})
}

// Get sends a GET.
func (s *Server) Get(path string) *Resp {
	s.t.Helper()
	return s.Do(Req{Method: http.MethodGet, Path: path})
}

// Want fails the test unless the response has the status.
func (r *Resp) Want(t testing.TB, status int) *Resp {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
	return r
}
