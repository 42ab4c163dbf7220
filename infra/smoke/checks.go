package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
)

// check invokes req and hands the response to verify; it prints one line.
func (s *smoke) check(ctx context.Context, name string, req request, verify func(response) error) (response, bool) {
	tg, res, err := s.invoke(ctx, "", req)
	what := tg.String()
	if err == nil {
		err = verify(res)
	}
	if err != nil {
		s.fail(what, name+": "+err.Error())
		s.failedFns[tg.fn] = true
		return res, false
	}
	detail := fmt.Sprintf("%s → %d", name, res.Status)
	if code, _ := dig(res.json(), "error", "code").(string); code != "" {
		detail += " " + code
	}
	s.pass(what, detail)
	return res, true
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// status accepts the listed statuses; an error status must carry the API's
// error model, a JSON body must be valid JSON.
func status(want ...int) func(response) error {
	return func(r response) error {
		if !slices.Contains(want, r.Status) {
			return fmt.Errorf("status %d, want %v: %s", r.Status, want, trim(r.Body))
		}
		return wellFormed(r)
	}
}

func wellFormed(r response) error {
	ct := r.Header["content-type"]
	if r.Status >= 400 {
		code, _ := dig(r.json(), "error", "code").(string)
		msg, _ := dig(r.json(), "error", "message").(string)
		if code == "" || msg == "" || !strings.HasPrefix(ct, "application/json") {
			return fmt.Errorf("status %d without the error model {error: {code, message}} as JSON: %s", r.Status, trim(r.Body))
		}
		return nil
	}
	if strings.HasPrefix(ct, "application/json") && !json.Valid(r.Body) {
		return fmt.Errorf("invalid JSON: %s", trim(r.Body))
	}
	return nil
}

// fields requires non-empty string fields in a JSON body.
func fields(names ...string) func(response) error {
	return func(r response) error {
		for _, n := range names {
			if v, _ := r.json()[n].(string); v == "" {
				return fmt.Errorf("no %q in %s", n, trim(r.Body))
			}
		}
		return nil
	}
}

func all(fs ...func(response) error) func(response) error {
	return func(r response) error {
		for _, f := range fs {
			if err := f(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func hasRoute(method, path string) bool {
	return slices.ContainsFunc(httpapi.Routes, func(rt httpapi.Route) bool { return rt.Method == method && rt.Path == path })
}

// checks runs the scenario (a tournament with a player, a standalone game with
// a move), then probes every route and every function.
func (s *smoke) checks(ctx context.Context) {
	// A festival id of the right form that names none: its reads answer 404.
	ids := map[string]string{"tid": "tsmokeunknown", "pid": "psmokeunknown", "gid": "gsmokeunknown", "fid": "fsmokeunknown2345", "n": "1"}

	res, ok := s.check(ctx, "create tournament", request{Method: "POST", Path: "/tournaments",
		Body: `{"name":"Smoke Open","system":"swiss","rounds":5}`}, all(status(201), fields("id", "token")))
	if ok {
		tid, token := res.json()["id"].(string), res.json()["token"].(string)
		ids["tid"] = tid
		s.check(ctx, "get tournament", request{Method: "GET", Path: "/tournaments/" + tid}, all(status(200), fields("id", "name"),
			func(r response) error {
				if r.json()["id"] != tid {
					return fmt.Errorf("id %v, want %s", r.json()["id"], tid)
				}
				return nil
			}))
		players := "/tournaments/" + tid + "/players"
		s.check(ctx, "register without token", request{Method: "POST", Path: players, Body: `{"name":"Nobody"}`}, status(401))
		key := uuid4() // the OpenAPI document: an Idempotency-Key is a UUID
		reg := request{Method: "POST", Path: players, Token: token, IdemKey: key, Body: `{"name":"Smoke Player","rating":1800}`}
		res, ok := s.check(ctx, "register player", reg, all(status(201), fields("id", "token")))
		if ok {
			pid := res.json()["id"].(string)
			ids["pid"] = pid
			s.check(ctx, "idempotent replay", reg, all(status(201), func(r response) error {
				if r.json()["id"] != pid || r.Header["idempotent-replayed"] != "true" {
					return fmt.Errorf("replay gave id %v, Idempotent-Replayed %q; want %s, true", r.json()["id"], r.Header["idempotent-replayed"], pid)
				}
				return nil
			}))
			s.check(ctx, "list players", request{Method: "GET", Path: players}, all(status(200), func(r response) error {
				if !bytes.Contains(r.Body, []byte(pid)) {
					return fmt.Errorf("player %s not listed: %s", pid, trim(r.Body))
				}
				return nil
			}))
		}
	}

	if hasRoute("POST", "/games") {
		res, ok := s.check(ctx, "create game", request{Method: "POST", Path: "/games", Body: `{}`}, all(status(201), fields("id", "redToken", "blackToken")))
		if ok {
			gid, red := res.json()["id"].(string), res.json()["redToken"].(string)
			ids["gid"] = gid
			moves := "/games/" + gid + "/moves"
			if hasRoute("POST", "/games/{gid}/moves") {
				s.check(ctx, "move without token", request{Method: "POST", Path: moves, Body: `{"move":"h2e2","ply":0}`}, status(401))
				s.check(ctx, "red plays h2e2", request{Method: "POST", Path: moves, Token: red, Body: `{"move":"h2e2","ply":0}`}, all(status(200), plies(1)))
				s.check(ctx, "game after the move", request{Method: "GET", Path: "/games/" + gid}, all(status(200), plies(1)))
			}
		}
	}

	// Every route through its function's bootstrap: public reads answer 200,
	// 404 or 422, reads that need a token 401 without one,
	// writes without a token are refused with the error model (401, or the
	// 400/404/422 of a check that precedes authentication), never 2xx or 5xx.
	for _, rt := range httpapi.Routes {
		path := fill(deploy.Path(rt.Path), ids)
		switch {
		case (rt.Method == "GET" || rt.Method == "HEAD") && rt.Who.Has(httpapi.RolePublic):
			// 422: a view the event's system does not have (a ring of a Swiss).
			s.check(ctx, "read", request{Method: rt.Method, Path: path}, status(200, 404, 422))
		case rt.Method == "GET" || rt.Method == "HEAD":
			s.check(ctx, "read without token", request{Method: rt.Method, Path: path}, status(401, 404))
		case rt.Who.Has(httpapi.RoleEntrant):
			// An entry needs no token; the smoke's event takes none (E-1).
			s.check(ctx, "entry to a closed event", request{Method: rt.Method, Path: path, Body: `{"name":"Smoke"}`}, status(403))
		case rt.Who.Has(httpapi.RoleAnyone):
			// 415: a route that reads another media type refuses the JSON first.
			s.check(ctx, "malformed JSON", request{Method: rt.Method, Path: path, Body: `{"`}, status(400, 415))
		default:
			s.check(ctx, "no token", request{Method: rt.Method, Path: path, Body: `{}`}, status(401, 400, 404, 422))
		}
	}

	// Every function, routes or not, answers a path it does not serve with
	// the error model's 404, so every bootstrap is seen to start and answer.
	for _, fn := range httpapi.Functions {
		if s.emulators[fn] == nil || s.emulators[fn].cmd == nil {
			continue
		}
		path := "/smoke/not-a-route-of-" + strings.ToLower(fn)
		tg, res, err := s.invoke(ctx, fn, request{Method: "GET", Path: path})
		if err == nil {
			err = status(404)(res)
		}
		what := tg.String()
		if err != nil {
			s.fail(what, "unrouted: "+err.Error())
			s.failedFns[fn] = true
		} else {
			s.pass(what, "unrouted → 404 "+fmt.Sprint(dig(res.json(), "error", "code")))
		}
	}
	s.engineCheck(ctx)
	s.liveChecks(ctx, ids["gid"])
	s.dueCheck(ctx)
	for _, fn := range deploy.AllFunctions() {
		if e := s.emulators[fn]; e != nil && e.invokes > 0 {
			s.pass(fn+" bootstrap", fmt.Sprintf("answered %d invocations under the RIE", e.invokes))
		} else {
			s.fail(fn+" bootstrap", "answered no invocation")
		}
	}
}

func plies(n float64) func(response) error {
	return func(r response) error {
		if p, _ := r.json()["ply"].(float64); p != n {
			return fmt.Errorf("ply %v, want %v: %s", r.json()["ply"], n, trim(r.Body))
		}
		return nil
	}
}

// fill replaces the path parameters with known ids; an unknown parameter gets
// a placeholder that names no record.
func fill(path string, ids map[string]string) string {
	segs := strings.Split(path, "/")
	for i, sg := range segs {
		if m := segment.FindStringSubmatch(strings.Replace(sg, "+}", "...}", 1)); m != nil {
			if v, ok := ids[m[1]]; ok {
				segs[i] = v
			} else {
				segs[i] = "smoke-" + m[1]
			}
		}
	}
	return strings.Join(segs, "/")
}

// lambdaResponseLimit is Lambda's limit on a synchronous invocation's answer.
const lambdaResponseLimit = 6 << 20

// engineCheck fetches the browser's rules engine from the Web function as a
// browser does (Accept-Encoding: gzip): it must come back as application/wasm,
// gzipped, base64 in the proxy answer, decoding to a WebAssembly module, and
// the whole answer within Lambda's response limit.
func (s *smoke) engineCheck(ctx context.Context) {
	tg, res, err := s.invoke(ctx, "", request{Method: "GET", Path: "/assets/xiangqi.wasm", Header: map[string]string{"accept-encoding": "gzip, deflate, br"}})
	var wasm []byte
	if err == nil {
		err = func() error {
			if res.Status != 200 || res.Header["content-type"] != "application/wasm" || res.Header["content-encoding"] != "gzip" {
				return fmt.Errorf("%d %v: want 200, application/wasm, gzip (is web/engine built? go generate ./web)", res.Status, res.Header)
			}
			zr, err := gzip.NewReader(bytes.NewReader(res.Body))
			if err != nil {
				return err
			}
			if wasm, err = io.ReadAll(zr); err != nil {
				return err
			}
			if !bytes.HasPrefix(wasm, []byte("\x00asm")) {
				return fmt.Errorf("the body is not a WebAssembly module")
			}
			if res.Payload > lambdaResponseLimit {
				return fmt.Errorf("the answer is %d bytes, over Lambda's %d", res.Payload, lambdaResponseLimit)
			}
			return nil
		}()
	}
	if err != nil {
		s.fail(tg.String(), "engine: "+err.Error())
		s.failedFns[tg.fn] = true
		return
	}
	s.pass(tg.String(), fmt.Sprintf("engine → 200 application/wasm, %d KB gzipped (%d KB raw), %d KB as Lambda answers it (limit %d KB)",
		len(res.Body)>>10, len(wasm)>>10, res.Payload>>10, lambdaResponseLimit>>10))
}
