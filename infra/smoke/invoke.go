package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
)

// target names what answered: the function and the route key (the route's
// pattern, or the request itself when no route matches).
type target struct{ fn, route string }

func (t target) String() string { return fmt.Sprintf("%-11s %s", t.fn, t.route) }

// response is a proxied HTTP response as API Gateway would return it.
type response struct {
	Status int
	Header map[string]string
	Body   []byte // base64-decoded when the function encoded it
	// Payload is the size of the function's whole answer, the JSON that
	// Lambda's 6 MB response limit applies to.
	Payload int
}

func (r response) json() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

// request is one HTTP request that the smoke turns into a payload 2.0 event.
type request struct {
	Method, Path, Query string
	Token, IdemKey      string
	Body                string
	Header              map[string]string // more request headers (lower case)
}

// invoke routes req to the function whose route matches it (or to fn when
// given, for probes of unrouted paths) and posts the payload 2.0 event to that
// function's emulator.
func (s *smoke) invoke(ctx context.Context, fn string, req request) (target, response, error) {
	routeKey := "$default"
	var pathParams map[string]string
	if rt, params, ok := match(req.Method, req.Path); ok {
		fn, routeKey, pathParams = rt.Function, rt.Method+" "+deploy.Path(rt.Path), params
	}
	tg := target{fn: fn, route: routeKey}
	if routeKey == "$default" {
		tg.route = req.Method + " " + req.Path
	}
	e := s.emulators[fn]
	if e == nil || e.cmd == nil {
		return tg, response{}, fmt.Errorf("no emulator for %s", fn)
	}
	headers := map[string]string{
		"accept":     "application/json",
		"host":       "smoke.execute-api.local",
		"user-agent": "xqtour-smoke",
	}
	if req.Body != "" {
		headers["content-type"] = "application/json"
		headers["content-length"] = fmt.Sprint(len(req.Body))
	}
	if req.Token != "" {
		headers["authorization"] = "Bearer " + req.Token
	}
	if req.IdemKey != "" {
		headers["idempotency-key"] = req.IdemKey
	}
	maps.Copy(headers, req.Header)
	now := time.Now().UTC()
	ev := events.APIGatewayV2HTTPRequest{
		Version:        "2.0",
		RouteKey:       routeKey,
		RawPath:        req.Path,
		RawQueryString: req.Query,
		Headers:        headers,
		PathParameters: pathParams,
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			RouteKey:     routeKey,
			AccountID:    "123456789012",
			Stage:        "$default",
			RequestID:    fmt.Sprintf("smoke-%d", now.UnixNano()),
			APIID:        "smoke",
			DomainName:   "smoke.execute-api.local",
			DomainPrefix: "smoke",
			Time:         now.Format("02/Jan/2006:15:04:05 -0700"),
			TimeEpoch:    now.UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{
				Method: req.Method, Path: req.Path, Protocol: "HTTP/1.1", SourceIP: "127.0.0.1", UserAgent: "xqtour-smoke",
			},
		},
		Body: req.Body,
	}
	payload, err := json.Marshal(ev)
	if err != nil {
		return tg, response{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(payload))
	if err != nil {
		return tg, response{}, err
	}
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		return tg, response{}, fmt.Errorf("invoke %s: %w", fn, err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		return tg, response{}, err
	}
	if res.StatusCode != http.StatusOK {
		return tg, response{}, fmt.Errorf("the emulator answered %d: %s", res.StatusCode, trim(out))
	}
	var pr events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(out, &pr); err != nil || pr.StatusCode == 0 {
		return tg, response{}, fmt.Errorf("not an HTTP API proxy response (the function failed?): %s", trim(out))
	}
	e.invokes++
	body := []byte(pr.Body)
	switch {
	case pr.IsBase64Encoded && strings.HasPrefix(req.Path, "/assets/"): // binary assets: the .wasm, gzipped ones
		if body, err = base64.StdEncoding.DecodeString(pr.Body); err != nil {
			return tg, response{}, fmt.Errorf("%s %s: bad base64 body: %v", req.Method, req.Path, err)
		}
	case pr.IsBase64Encoded:
		return tg, response{}, fmt.Errorf("unexpected base64 body for %s %s", req.Method, req.Path)
	}
	h := map[string]string{}
	for k, v := range pr.Headers {
		h[strings.ToLower(k)] = v
	}
	for k, v := range pr.MultiValueHeaders {
		h[strings.ToLower(k)] = strings.Join(v, ",")
	}
	return tg, response{Status: pr.StatusCode, Header: h, Body: body, Payload: len(out)}, nil
}

func trim(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

var segment = regexp.MustCompile(`^\{([A-Za-z_][A-Za-z0-9_]*)(\.\.\.)?\}$`)

// match finds the route of httpapi.Routes that API Gateway would pick for
// method and path, with its path parameters.
func match(method, path string) (httpapi.Route, map[string]string, bool) {
	got := strings.Split(strings.Trim(path, "/"), "/")
	for _, rt := range httpapi.Routes {
		if rt.Method != "" && rt.Method != method {
			continue
		}
		want := strings.Split(strings.Trim(deploy.Path(rt.Path), "/"), "/")
		params := map[string]string{}
		ok := len(want) == len(got)
		for i := 0; ok && i < len(want); i++ {
			if m := segment.FindStringSubmatch(strings.Replace(want[i], "+}", "...}", 1)); m != nil {
				params[m[1]] = got[i]
				if m[2] != "" {
					params[m[1]] = strings.Join(got[i:], "/")
					break
				}
			} else if want[i] != got[i] {
				ok = false
			}
		}
		if ok {
			return rt, params, true
		}
	}
	return httpapi.Route{}, nil, false
}
