package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// start runs the local stack on a free port with its data in dir, as `make run` does.
func start(t *testing.T, dir string) (base string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	t.Setenv("ADDR", addr)
	t.Setenv("DATA_DIR", dir)
	t.Setenv("DYNAMODB_ENDPOINT", "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, slog.New(slog.NewJSONHandler(io.Discard, nil))) }()
	base = "http://" + addr
	for i := 0; ; i++ {
		if res, err := http.Get(base + "/openapi.json"); err == nil {
			res.Body.Close()
			break
		}
		if i > 100 {
			t.Fatal("the local stack did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return base, func() {
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// The README's walk-through runs exactly as written against the local stack.
// It needs bash, curl and jq; on a developer's machine without them it is
// skipped, but in CI (CI set, as .ci/run sets it, after installing jq) a
// missing tool fails it: a test that passes by not running guards nothing.
func TestREADMEWalkthrough(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("the walk-through needs %s, and CI must run it (.ci/run installs jq)", tool)
			}
			t.Skipf("the walk-through needs %s", tool)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := regexp.MustCompile("(?s)<!-- walkthrough:start -->\\s*```sh\\n(.*?)```\\s*<!-- walkthrough:end -->").FindAllSubmatch(readme, -1)
	if len(sections) == 0 {
		t.Fatal("README has no walk-through section")
	}
	var script bytes.Buffer
	for _, s := range sections {
		script.Write(s[1])
	}
	base, stop := start(t, t.TempDir())
	defer stop()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script.String())
	cmd.Env = append(os.Environ(), "BASE="+base)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("walk-through failed: %v\n%s", err, out)
	}
	for _, want := range []string{`"name":"Hong Zhi"`, `"code":"invalid_field"`, `"code":"illegal_move"`, "resignation", `[Game "Chinese Chess"]`,
		`"homeMatchPoints":1`, "running\nfinished\n", `"stage":"groups"`, `"imported":1,"failed":1`,
		`{"role":"organiser"`, `"status":"paired","games":2`, `"name":"Xu Yinchuan","next":{"round":1`, `{"round":1,"status":"started"}`, `{"current":"started"}`,
		`"club":"Shanghai"}`, "old arbiter token: 401\n",
		"number,playerId,name,points,round.1\n", "round,table,red,redName,black,blackName,gameId,result", "\n2\n",
		`want one of \"json\", \"csv\"`, `"eliminatedNames":["Player`,
		`{"holder":"Defender","challenges":[{"round":1,"result":"1/2-1/2"}],"waiting":["Challenger 2"]}`,
		`"round":1,"started":true`, `"redNumber":`, `"after":"1/2-1/2"`, "\"game_over\"",
		`"teamTieBreak":"boardCount"`, `"winnerName":"Club`, `"decidedBy":"boardCount"`, `"rapid":true`, "\"round_unfinished\"\n", `"from":"knockout"`,
		`"stage":"cross"`, `"from":"cross","groupPlace":1`, `{"format":"xqtour-event-part","offset":5,"items":5}`, `"already_exists"`, `"code":"likely_duplicate"`, `{"checkedIn":4,"open":true}`, `"name":"Teams","system":"roundRobin","teams":true`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("walk-through output lacks %s:\n%s", want, out)
		}
	}
}

// Data survives a restart: the snapshot is written on shutdown and loaded at start.
func TestSnapshotSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	base, stop := start(t, dir)
	res, err := http.Post(base+"/tournaments", "application/json", strings.NewReader(`{"name":"Kept","rounds":5}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %v %v", res, err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	id := regexp.MustCompile(`"id":"([a-z0-9]+)"`).FindSubmatch(body)[1]
	stop()
	base, stop = start(t, dir)
	defer stop()
	res, err = http.Get(base + "/tournaments/" + string(id))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("after restart: %v %v", res, err)
	}
	res.Body.Close()
}

// Browsers get the CORS answers the deployed HTTP API gives.
func TestCORSLikeTheDeployedAPI(t *testing.T) {
	base, stop := start(t, t.TempDir())
	defer stop()
	req, _ := http.NewRequest(http.MethodOptions, base+"/tournaments", nil)
	req.Header.Set("Origin", "http://localhost:5173")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization, idempotency-key")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(res.Header.Get("Access-Control-Allow-Headers"), "Idempotency-Key") {
		t.Fatalf("preflight: %d %v", res.StatusCode, res.Header)
	}
	req, _ = http.NewRequest(http.MethodGet, base+"/openapi.json", nil)
	req.Header.Set("Origin", "http://localhost:5173")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("simple request: %v", res.Header)
	}
}

// make run serves live updates at /ws: a subscriber of a game receives the
// move made through the HTTP API, through the embedded store's change feed.
func TestLocal_LiveUpdatesAtWS(t *testing.T) {
	base, stop := start(t, t.TempDir())
	defer stop()
	res, err := http.Post(base+"/games", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ ID, RedToken string }
	_ = json.NewDecoder(res.Body).Decode(&g)
	res.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","game":"`+g.ID+`"}`)); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base+"/games/"+g.ID+"/moves", strings.NewReader(`{"move":"h2e2","ply":0,"press":true}`))
	req.Header.Set("Authorization", "Bearer "+g.RedToken)
	for moved := false; ; {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("no game message for the move: %v", err)
		}
		var m struct {
			Type string
			Game struct{ Ply int }
		}
		_ = json.Unmarshal(data, &m)
		if m.Type == "subscribed" && !moved {
			res, err := http.DefaultClient.Do(req)
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("move: %v %v", res, err)
			}
			res.Body.Close()
			moved = true
		}
		if m.Type == "game" && m.Game.Ply == 1 {
			return
		}
	}
}

// The live connections and subscriptions a crashed run left in the data
// directory are removed at start; everything else stays.
func TestForgetSockets(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	for _, r := range []*store.Record{
		{PK: "C#x", SK: "CONN", Kind: "connection", Doc: []byte(`{"topics":["G#g1"]}`)},
		{PK: "S#G#g1", SK: "C#x", Kind: "subscription"},
		{PK: "G#g1", SK: "GAME", Kind: "game", Doc: []byte("g")},
	} {
		if err := st.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := forgetSockets(ctx, st); err != nil {
		t.Fatal(err)
	}
	recs, err := st.Export(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Kind != "game" {
		t.Errorf("left %d items (first %+v), want the game alone", len(recs), recs[0])
	}
}

// The embedded DynamoDB answers unsigned requests: the local stack refuses
// to start it on an address other machines could reach.
func TestEmbeddedDynamoDBListensOnLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.168.1.20:8000", "example.com:8000"} {
		t.Setenv("DYNAMODB_ADDR", addr)
		t.Setenv("DYNAMODB_ENDPOINT", "")
		t.Setenv("DATA_DIR", t.TempDir())
		err := run(context.Background(), slog.New(slog.NewJSONHandler(io.Discard, nil)))
		if err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("DYNAMODB_ADDR=%s: %v, want a refusal naming loopback", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:8000", "localhost:0", "[::1]:0"} {
		if err := loopbackOnly(addr); err != nil {
			t.Errorf("%s refused: %v", addr, err)
		}
	}
}

// The local server bounds every phase of a connection, not only the
// headers: a body that never arrives is cut off (over HTTP, with the
// server's read timeout shortened for the test).
func TestServerTimeouts(t *testing.T) {
	srv := newServer("127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusRequestTimeout)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	if srv.ReadHeaderTimeout == 0 || srv.ReadTimeout == 0 || srv.WriteTimeout == 0 || srv.IdleTimeout == 0 || srv.MaxHeaderBytes == 0 {
		t.Fatalf("server limits: %+v", srv)
	}
	if srv.WriteTimeout < 30*time.Second {
		t.Fatalf("WriteTimeout %v would cut a long pairing short", srv.WriteTimeout)
	}
	srv.ReadTimeout = 300 * time.Millisecond
	ln, err := net.Listen("tcp", srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = conn.Write([]byte("POST /tournaments HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"))
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	_, _ = io.ReadAll(conn) // the server gives up on the body and closes
	if waited := time.Since(start); waited > 3*time.Second {
		t.Fatalf("a stalled body held the connection %v", waited)
	}
}
