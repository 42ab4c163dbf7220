// Command smoke runs every Lambda function's real bootstrap under the AWS Lambda
// Runtime Interface Emulator (RIE) and checks it end to end: each bootstrap is
// built for this machine with -tags lambda.norpc, started by its own RIE with
// the environment template.yaml gives it (TABLE_NAME, DYNAMODB_ENDPOINT,
// AWS_REGION), pointed at an in-process embedded DynamoDB, and invoked with
// HTTP API payload 2.0 events routed by httpapi.Routes exactly as API Gateway
// would route them. It prints one line per check and "smoke: N passed, M failed",
// and exits non-zero on any failure; `make smoke` runs it.
//
// The live-updates functions run the same way: Live gets API Gateway WebSocket
// events (APIGatewayWebsocketProxyRequest: $connect, subscribe, $disconnect),
// LiveFanout a DynamoDB Stream event (events.DynamoDBEvent) of the game item
// as the stream carries it, and posts through a loopback stand-in of the
// Management API that checks the SigV4 signature's scope and answers 410 for
// a gone connection.
//
// The RIE is built from its module at a pinned version with `go install
// module@version` into a temporary directory, so nothing needs installing first.
// It is not a go.mod tool: its go.mod asks for go 1.26.6, and adding it would
// raise this module's go directive.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// The emulator's module path and the pinned version (on the module proxy).
const (
	rieModule  = "github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie"
	rieVersion = "v0.0.0-20261030222936-bef5c4ba774d"
)

const (
	table  = "xqtour-smoke"
	region = "us-east-1"
)

var (
	timeout = flag.Duration("timeout", 3*time.Minute, "time box for the whole run, builds included")
	verbose = flag.Bool("v", false, "print every emulator's log (RIE and bootstrap output) at the end")
)

func main() {
	flag.Parse()
	os.Exit(run())
}

// smoke holds one run's state; its checks are counted as they are printed.
type smoke struct {
	root, tmp  string
	rie        string
	bootstraps map[string]string // function → bootstrap path
	emulators  map[string]*emulator
	passed     int
	failed     int
	failedFns  map[string]bool
	store      *store.Store
	mgmt       *management
}

func run() int {
	start := time.Now()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	s := &smoke{bootstraps: map[string]string{}, emulators: map[string]*emulator{}, failedFns: map[string]bool{}}
	defer s.close()
	if err := s.setup(ctx); err != nil {
		s.fail("setup", err.Error())
	} else {
		s.checks(ctx)
	}
	if ctx.Err() != nil {
		s.fail("time box", fmt.Sprintf("stopped after %s: %v", time.Since(start).Round(time.Millisecond), context.Cause(ctx)))
	}
	s.logs()
	fmt.Printf("smoke took %s\n", time.Since(start).Round(100*time.Millisecond))
	fmt.Printf("smoke: %d passed, %d failed\n", s.passed, s.failed)
	if s.failed > 0 {
		return 1
	}
	return 0
}

func (s *smoke) pass(what, detail string) {
	s.passed++
	fmt.Printf("ok    %-55s %s\n", what, detail)
}

func (s *smoke) fail(what, detail string) {
	s.failed++
	fmt.Printf("FAIL  %-55s %s\n", what, detail)
}

// setup builds the bootstraps and the RIE, starts the embedded DynamoDB with
// the table, and one emulator per function.
func (s *smoke) setup(ctx context.Context) error {
	root, err := repoRoot(ctx)
	if err != nil {
		return err
	}
	s.root = root
	if s.tmp, err = os.MkdirTemp("", "xqtour-smoke-"); err != nil {
		return err
	}
	var wg sync.WaitGroup
	var buildErr, rieErr error
	var buildTook, rieTook time.Duration
	wg.Go(func() {
		t := time.Now()
		buildErr = s.buildBootstraps(ctx)
		buildTook = time.Since(t)
	})
	wg.Go(func() {
		t := time.Now()
		rieErr = s.buildRIE(ctx)
		rieTook = time.Since(t)
	})
	wg.Wait()
	if buildErr != nil {
		return buildErr
	}
	s.pass("build bootstraps", fmt.Sprintf("%d functions for %s/%s, -tags lambda.norpc (%s)", len(deploy.AllFunctions()), runtime.GOOS, runtime.GOARCH, buildTook.Round(100*time.Millisecond)))
	if rieErr != nil {
		return rieErr
	}
	s.pass("build aws-lambda-rie", fmt.Sprintf("%s@%s (%s)", rieModule, rieVersion, rieTook.Round(100*time.Millisecond)))

	db, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		return err
	}
	context.AfterFunc(ctx, func() { _ = db.Close() })
	st, err := store.Open(ctx, store.Config{Table: table, Region: region, Endpoint: db.URL})
	if err != nil {
		return err
	}
	if err := st.CreateTable(ctx); err != nil {
		return err
	}
	s.pass("embedded DynamoDB", fmt.Sprintf("table %s at %s", table, db.URL))
	s.store = st
	if s.mgmt, err = startManagement(ctx); err != nil {
		return err
	}

	for _, fn := range deploy.AllFunctions() {
		e, err := startEmulator(ctx, fn, s.bootstraps[fn], s.rie, db.URL, "WEBSOCKET_URL="+s.mgmt.websocketURL, "LIVE_ORIGINS=")
		if e != nil {
			s.emulators[fn] = e
		}
		if err != nil {
			s.fail(fn+" emulator", err.Error())
			s.failedFns[fn] = true
			continue
		}
		s.pass(fn+" emulator", "listening on "+e.url)
	}
	return nil
}

// repoRoot is the directory of this module's go.mod.
func repoRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run smoke inside the xqtour module (go run ./infra/smoke)")
	}
	return filepath.Dir(mod), nil
}

// buildBootstraps builds every function for the host in one go build (it links
// the mains in parallel) and moves each to <tmp>/<dir>/bootstrap, as Lambda runs it.
func (s *smoke) buildBootstraps(ctx context.Context) error {
	bin := filepath.Join(s.tmp, "bin")
	// Default flags otherwise, so the packages compiled for `go run ./infra/smoke`
	// itself (store, httpapi, the AWS SDK) are reused from the build cache.
	args := []string{"build", "-tags", "lambda.norpc", "-o", bin + string(filepath.Separator)}
	for _, fn := range deploy.AllFunctions() {
		args = append(args, "./"+deploy.Dir(fn))
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = s.root
	cmd.Env = append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	for _, fn := range deploy.AllFunctions() {
		name := filepath.Base(deploy.Dir(fn))
		dir := filepath.Join(s.tmp, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		exe := ""
		if runtime.GOOS == "windows" {
			exe = ".exe"
		}
		dst := filepath.Join(dir, "bootstrap"+exe)
		if err := os.Rename(filepath.Join(bin, name+exe), dst); err != nil {
			return err
		}
		s.bootstraps[fn] = dst
	}
	return nil
}

// buildRIE installs the pinned emulator into the temporary directory.
func (s *smoke) buildRIE(ctx context.Context) error {
	gobin := filepath.Join(s.tmp, "rie")
	cmd := exec.CommandContext(ctx, "go", "install", rieModule+"@"+rieVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "CGO_ENABLED=0", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go install %s@%s: %v\n%s", rieModule, rieVersion, err, out)
	}
	s.rie = filepath.Join(gobin, "aws-lambda-rie")
	return nil
}

// emulator is one running RIE serving one function's bootstrap.
type emulator struct {
	fn      string
	url     string // the invocation endpoint
	cmd     *exec.Cmd
	out     *syncBuffer
	exited  chan struct{}
	invokes int
}

// startEmulator runs the RIE on two free loopback ports (its invoke API and the
// Lambda Runtime API the bootstrap polls), with the function's environment.
// The environment is built from scratch so no AWS setting of this machine leaks in.
func startEmulator(ctx context.Context, fn, bootstrap, rie, endpoint string, env ...string) (*emulator, error) {
	invokePort, err := freePort()
	if err != nil {
		return nil, err
	}
	runtimePort, err := freePort()
	if err != nil {
		return nil, err
	}
	e := &emulator{fn: fn, out: &syncBuffer{}, exited: make(chan struct{}),
		url: "http://127.0.0.1:" + invokePort + "/2015-03-31/functions/function/invocations"}
	cmd := exec.Command(rie,
		"--runtime-interface-emulator-address", "127.0.0.1:"+invokePort,
		"--runtime-api-address", "127.0.0.1:"+runtimePort,
		"--log-level", "warn",
		bootstrap)
	cmd.Dir = filepath.Dir(bootstrap)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Dir(bootstrap),
		"TZ=UTC",
		"TABLE_NAME=" + table,
		"DYNAMODB_ENDPOINT=" + endpoint,
		"AWS_REGION=" + region,
		"AWS_DEFAULT_REGION=" + region,
		"AWS_ACCESS_KEY_ID=local",
		"AWS_SECRET_ACCESS_KEY=local",
		"AWS_LAMBDA_FUNCTION_NAME=" + fn,
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256",
		"AWS_LAMBDA_FUNCTION_TIMEOUT=29",
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = e.out, e.out
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", rie, err)
	}
	e.cmd = cmd
	go func() { _ = cmd.Wait(); close(e.exited) }()

	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+invokePort, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return e, nil
		}
		select {
		case <-e.exited:
			return e, fmt.Errorf("the emulator exited before listening:\n%s", e.out.tail(20))
		case <-ctx.Done():
			return e, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return e, errors.New("the emulator did not listen within 15 s")
		}
	}
}

// freePort asks the kernel for a free loopback port. Another process could take
// it before the emulator binds it; the readiness wait then fails loudly.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}

// close kills every emulator with its bootstrap (their process group) and
// removes the temporary directory.
func (s *smoke) close() {
	for _, e := range s.emulators {
		if e.cmd == nil {
			continue
		}
		_ = killTree(e.cmd)
		select {
		case <-e.exited:
		case <-time.After(5 * time.Second):
			fmt.Printf("warning: %s emulator (pid %d) did not exit after SIGKILL\n", e.fn, e.cmd.Process.Pid)
		}
	}
	if s.tmp != "" {
		_ = os.RemoveAll(s.tmp)
	}
}

// logs prints the emulator output of every function that failed a check (of
// all with -v), since that is where a bootstrap's own errors appear.
func (s *smoke) logs() {
	for _, fn := range deploy.AllFunctions() {
		e := s.emulators[fn]
		if e == nil || (!*verbose && !s.failedFns[fn]) {
			continue
		}
		fmt.Printf("--- %s emulator log (last lines)\n%s", fn, e.out.tail(40))
	}
}

// target names what answered: the function and the route key (the route's
// pattern, or the request itself when no route matches).
type target struct{ fn, route string }

func (t target) String() string { return fmt.Sprintf("%-11s %s", t.fn, t.route) }

// response is a proxied HTTP response as API Gateway would return it.
type response struct {
	Status int
	Header map[string]string
	Body   []byte
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
	if pr.IsBase64Encoded {
		return tg, response{}, fmt.Errorf("unexpected base64 body for %s %s", req.Method, req.Path)
	}
	h := map[string]string{}
	for k, v := range pr.Headers {
		h[strings.ToLower(k)] = v
	}
	for k, v := range pr.MultiValueHeaders {
		h[strings.ToLower(k)] = strings.Join(v, ",")
	}
	return tg, response{Status: pr.StatusCode, Header: h, Body: body}, nil
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

// status accepts the listed statuses; an error status must carry API.md's
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
	ids := map[string]string{"tid": "tsmokeunknown", "pid": "psmokeunknown", "gid": "gsmokeunknown", "n": "1"}

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
		key := uuid4() // API.md: an Idempotency-Key is a UUID
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

	// Every route through its function's bootstrap: public reads answer 200 or
	// 404, reads that need a token 401 without one,
	// writes without a token are refused with the error model (401, or the
	// 400/404/422 of a check that precedes authentication), never 2xx or 5xx.
	for _, rt := range httpapi.Routes {
		path := fill(deploy.Path(rt.Path), ids)
		switch {
		case (rt.Method == "GET" || rt.Method == "HEAD") && rt.Who == "public":
			s.check(ctx, "read", request{Method: rt.Method, Path: path}, status(200, 404))
		case rt.Method == "GET" || rt.Method == "HEAD":
			s.check(ctx, "read without token", request{Method: rt.Method, Path: path}, status(401, 404))
		case rt.Who == "anyone":
			s.check(ctx, "malformed JSON", request{Method: rt.Method, Path: path, Body: `{"`}, status(400))
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
	s.liveChecks(ctx, ids["gid"])
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

// syncBuffer collects an emulator's output from its two pipes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) tail(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.SplitAfter(b.buf.String(), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "")
}

// uuid4 returns a random version-4 UUID, the form API.md gives Idempotency-Keys.
func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
