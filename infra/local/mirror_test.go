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
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// stack is one local stack of the mirror test, restartable on its address
// and data directory.
type stack struct {
	addr, dir, key string
	stop           func()
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// up starts the stack as `make run` does, with its creation key.
func (s *stack) up(t *testing.T) {
	t.Helper()
	t.Setenv("ADDR", s.addr)
	t.Setenv("DATA_DIR", s.dir)
	t.Setenv("DYNAMODB_ENDPOINT", "")
	t.Setenv("CREATION_KEY", s.key)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, slog.New(slog.NewJSONHandler(io.Discard, nil))) }()
	for i := 0; ; i++ {
		if res, err := http.Get(s.base() + "/openapi.json"); err == nil {
			res.Body.Close()
			break
		}
		if i > 200 {
			t.Fatal("the local stack did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func (s *stack) base() string { return "http://" + s.addr }

// call sends a JSON request and decodes the answer; want is the status expected.
func call(t *testing.T, method, url, token string, body any, want int) map[string]any {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if want != 0 && res.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, url, res.StatusCode, want, data)
	}
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

// mirrorView is what the test compares of an event on its two stacks: the
// round's pairings and results, the standings, and the two games' moves.
func mirrorView(t *testing.T, base, tid string, round int, games []string) map[string]any {
	t.Helper()
	r := call(t, "GET", base+"/tournaments/"+tid+"/rounds/"+itoa(round), "", nil, 0)
	st := call(t, "GET", base+"/tournaments/"+tid+"/standings?live=true", "", nil, 0)
	v := map[string]any{"pairings": r["pairings"], "status": r["status"], "rows": st["rows"]}
	for _, g := range games {
		gv := call(t, "GET", base+"/games/"+g, "", nil, 0)
		v[g] = []any{gv["moves"], gv["result"]}
	}
	return v
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// until waits for A's and B's views to agree, within d.
func until(t *testing.T, d time.Duration, what string, a, b *stack, tid string, round int, games []string) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		va, vb := mirrorView(t, a.base(), tid, round, games), mirrorView(t, b.base(), tid, round, games)
		if reflect.DeepEqual(va, vb) {
			return time.Since(start)
		}
		if time.Since(start) > d {
			ja, _ := json.Marshal(va)
			jb, _ := json.Marshal(vb)
			t.Fatalf("%s: B is not A's after %v:\nA %s\nB %s", what, d, ja, jb)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestMirrorTwoStacks: an 8-player Swiss run on A is mirrored live to B
// (which has a creation key), survives B's outage, and is taken over by B.
// MIRROR_OUTAGE sets how long B is down (make mirror: 20s); without it the
// test is skipped, as `make mirror` runs it on its own (two stacks and a
// 20-second outage do not belong in make test's run).
func TestMirrorTwoStacks(t *testing.T) {
	outage, err := time.ParseDuration(os.Getenv("MIRROR_OUTAGE"))
	if err != nil {
		t.Skip("make mirror runs it (MIRROR_OUTAGE=20s)")
	}
	a := &stack{addr: freeAddr(t), dir: t.TempDir()}
	b := &stack{addr: freeAddr(t), dir: t.TempDir(), key: "b-creation-key"}
	a.up(t)
	defer func() { a.stop() }()
	b.up(t)
	defer func() {
		if b.stop != nil {
			b.stop()
		}
	}()

	ev := call(t, "POST", a.base()+"/tournaments", "", map[string]any{"name": "Venue Swiss", "system": "swiss", "rounds": 3}, 201)
	tid, org := ev["id"].(string), ev["token"].(string)
	// A mirror without B's creation key is refused by B, and nothing runs.
	call(t, "POST", a.base()+"/tournaments/"+tid+"/mirror", org, map[string]any{"target": b.base()}, 502)
	m := call(t, "POST", a.base()+"/tournaments/"+tid+"/mirror", org, map[string]any{"target": b.base(), "creationKey": b.key}, 201)
	if m["state"] != "running" || m["target"] != b.base() {
		t.Fatalf("mirror: %v", m)
	}
	for i := range 8 {
		call(t, "POST", a.base()+"/tournaments/"+tid+"/players", org, map[string]any{"name": "Player " + itoa(i+1), "rating": 2400 - 10*i}, 201)
	}
	scribe := call(t, "POST", a.base()+"/tournaments/"+tid+"/officials", org, map[string]any{"role": "scribe", "name": "Scribe", "tables": []int{1, 2}}, 201)["token"].(string)
	arbiter := call(t, "POST", a.base()+"/tournaments/"+tid+"/officials", org, map[string]any{"role": "arbiter", "name": "Arbiter"}, 201)["token"].(string)
	round := call(t, "POST", a.base()+"/tournaments/"+tid+"/rounds", org, map[string]any{"round": 1}, 201)
	var games []string
	for _, p := range round["pairings"].([]any) {
		games = append(games, p.(map[string]any)["gameId"].(string))
	}
	call(t, "POST", a.base()+"/tournaments/"+tid+"/rounds/1/start", org, nil, 200)
	// A spectator on B's live socket follows the first game, once B shows
	// it: a game B has not received yet cannot be followed there (not_found).
	until(t, 10*time.Second, "round 1 started", a, b, tid, 1, games[:1])
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(b.base(), "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"action":"subscribe","game":"`+games[0]+`"}`)); err != nil {
		t.Fatal(err)
	}
	live := func(want func(typ string, ply int) bool) {
		t.Helper()
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("B's live socket: %v", err)
			}
			var m struct {
				Type string
				Game struct{ Ply int }
			}
			_ = json.Unmarshal(data, &m)
			if m.Type == "error" {
				t.Fatalf("B's live socket refused: %s", data)
			}
			if want(m.Type, m.Game.Ply) {
				return
			}
		}
	}
	live(func(typ string, _ int) bool { return typ == "subscribed" })
	moves := []string{"C2.5", "H8+7", "H2+3", "R9.8"}
	for _, g := range games[:2] {
		for ply, mv := range moves {
			call(t, "POST", a.base()+"/games/"+g+"/moves", scribe, map[string]any{"move": mv, "ply": ply, "press": true}, 200)
		}
	}
	live(func(typ string, ply int) bool { return typ == "game" && ply == len(moves) }) // B pushed A's moves
	// Every round-1 result.
	for _, g := range games {
		call(t, "POST", a.base()+"/games/"+g+"/result", arbiter, map[string]any{"result": "1-0"}, 200)
	}
	t.Logf("A's mirror: %v", call(t, "GET", a.base()+"/tournaments/"+tid+"/mirror", org, nil, 200))
	took := until(t, 10*time.Second, "round 1", a, b, tid, 1, games[:2])
	t.Logf("round 1 on B %v after A", took)
	if got := mirrorView(t, b.base(), tid, 1, games[:2])[games[0]].([]any)[0].([]any); len(got) != len(moves) {
		t.Fatalf("B's game has %d moves, want %d", len(got), len(moves))
	}
	info := call(t, "GET", b.base()+"/tournaments/"+tid, "", nil, 200)["mirror"].(map[string]any)
	if info["source"] != a.base() || info["lastChangeAt"] == nil {
		t.Fatalf("B's mirror: %v", info)
	}
	// B is read-only: a move there is refused, naming A.
	e := call(t, "POST", b.base()+"/games/"+games[0]+"/moves", scribe, map[string]any{"move": "C8.6", "ply": 4}, 409)
	if e["error"].(map[string]any)["code"] != "mirror_read_only" {
		t.Fatalf("B's refusal: %v", e)
	}

	// B down; A goes on with round 2.
	b.stop()
	b.stop = nil
	round = call(t, "POST", a.base()+"/tournaments/"+tid+"/rounds", org, map[string]any{"round": 2}, 201)
	games = games[:0]
	for _, p := range round["pairings"].([]any) {
		games = append(games, p.(map[string]any)["gameId"].(string))
	}
	call(t, "POST", a.base()+"/tournaments/"+tid+"/rounds/2/start", org, nil, 200)
	for _, g := range games[:2] {
		for ply, mv := range moves {
			call(t, "POST", a.base()+"/games/"+g+"/moves", scribe, map[string]any{"move": mv, "ply": ply, "press": true}, 200)
		}
	}
	for _, g := range games {
		call(t, "POST", a.base()+"/games/"+g+"/result", arbiter, map[string]any{"result": "0-1"}, 200)
	}
	st := call(t, "GET", a.base()+"/tournaments/"+tid+"/mirror", org, nil, 200)
	if st["waiting"].(float64) == 0 || st["lastError"] == "" && outage > 2*time.Second {
		t.Logf("A's mirror during the outage: %v", st)
	}
	time.Sleep(outage)
	b.up(t)
	took = until(t, 20*time.Second, "after B's restart", a, b, tid, 2, games[:2])
	t.Logf("B caught up %v after its restart", took)
	if got := mirrorView(t, b.base(), tid, 2, games[:2])[games[1]].([]any)[0].([]any); len(got) != len(moves) {
		t.Fatalf("B's game has %d moves after the outage, want %d (none twice)", len(got), len(moves))
	}
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) { // the last acknowledgement is being recorded
		st = call(t, "GET", a.base()+"/tournaments/"+tid+"/mirror", org, nil, 200)
		if st["waiting"].(float64) == 0 && st["sent"].(float64) > 0 && st["lastError"] == nil {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("A's mirror after catching up: %v", st)
		}
	}

	// Takeover: B writes the event, A refuses.
	to := call(t, "POST", b.base()+"/tournaments/"+tid+"/mirror/takeover", org, nil, 200)
	if to["sourceNotified"] != true {
		t.Fatalf("takeover: %v", to)
	}
	e = call(t, "POST", a.base()+"/tournaments/"+tid+"/rounds", org, map[string]any{"round": 3}, 409)
	if e["error"].(map[string]any)["code"] != "mirror_read_only" {
		t.Fatalf("A after the takeover: %v", e)
	}
	call(t, "POST", a.base()+"/games/"+games[0]+"/result", arbiter, map[string]any{"result": "1-0", "correction": true}, 409)
	call(t, "POST", b.base()+"/tournaments/"+tid+"/rounds", org, map[string]any{"round": 3}, 201)
	if got := call(t, "GET", b.base()+"/tournaments/"+tid, "", nil, 200)["mirror"]; got != nil {
		t.Fatalf("B after its takeover still shows a mirror: %v", got)
	}
}
