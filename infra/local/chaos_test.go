package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The chaos soak: a whole Swiss event on the local stack while the embedded
// DynamoDB injects faults (DYNAMODB_FAULTS, by default defaultChaosFaults),
// driven by concurrent clients that behave as the README tells clients to —
// one Idempotency-Key per POST, a 429 or 503 retried with the same key after
// Retry-After — and then checked: every acknowledged registration listed
// exactly once, every acknowledged move in its game exactly once and in
// order, every round's results equal to its games', the standings equal to
// the results, and no 500 nor 409 answered to anyone. `make chaos` runs the
// full size (CHAOS=full: 64 players, 5 rounds, 32 games a round of 20-40
// plies each); make test runs a short one (16 players, 2 rounds, 4-10 plies).

const defaultChaosFaults = "conflict=0.05,throttle=0.05,internal=0.03,ambiguous=0.03,latency=0-30ms"

type chaosSize struct {
	players, rounds, minPlies, maxPlies int
	// retryCap bounds the wait a Retry-After asks for (0: as asked): the
	// short run waits less to stay short.
	retryCap time.Duration
}

func TestChaos(t *testing.T) {
	size := chaosSize{players: 16, rounds: 2, minPlies: 4, maxPlies: 10, retryCap: 200 * time.Millisecond}
	if os.Getenv("CHAOS") == "full" {
		size = chaosSize{players: 64, rounds: 5, minPlies: 20, maxPlies: 40}
	}
	spec := os.Getenv("DYNAMODB_FAULTS")
	if spec == "" {
		spec = defaultChaosFaults
	}
	t.Setenv("DYNAMODB_FAULTS", spec)
	var injectedLine bytes.Buffer
	faultsOut = &injectedLine
	defer func() { faultsOut = os.Stderr }()

	started := time.Now()
	base, stop := start(t, t.TempDir())
	c := &chaosClient{t: t, base: base, retryCap: size.retryCap}
	c.run(size)
	stop()

	var injected struct {
		Injected map[string]int64 `json:"injected"`
	}
	if err := json.Unmarshal(injectedLine.Bytes(), &injected); err != nil || len(injected.Injected) != 4 {
		t.Fatalf("the stack's exit line %q is not {\"injected\":{…}}: %v", injectedLine.String(), err)
	}
	total := int64(0)
	for _, n := range injected.Injected {
		total += n
	}
	if total == 0 {
		t.Errorf("no fault was injected (%s)", spec)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t.Logf("chaos: faults %s; %d players, %d rounds, %d games, %d moves acknowledged, in %v",
		spec, size.players, size.rounds, c.games, c.moves, time.Since(started).Round(time.Second))
	t.Logf("chaos: %d requests, answers %v, %d retried (429/503, and %d 409 request_in_progress) with the same Idempotency-Key, %d replayed",
		c.requests, c.statuses, c.retried, c.inProgress, c.replayed)
	t.Logf("chaos: injected %s", strings.TrimSpace(injectedLine.String()))
	for _, bad := range []int{http.StatusInternalServerError, http.StatusConflict, http.StatusBadGateway} {
		if n := c.statuses[bad]; n > 0 {
			t.Errorf("%d answers %d", n, bad)
		}
	}
}

// chaosClient drives the event and keeps the figures.
type chaosClient struct {
	t        *testing.T
	base     string
	retryCap time.Duration

	mu                 sync.Mutex
	statuses           map[int]int
	requests, retried  int
	inProgress         int // 409 request_in_progress answers, retried
	replayed           int
	games, moves       int
	organiser, eventID string
}

// do sends one request, retrying 429 and 503 (and a connection the stack
// dropped) with the same Idempotency-Key, and decodes a 2xx answer into out.
func (c *chaosClient) do(method, path, token string, body any, out any) (int, []byte) {
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	key := ""
	if method == http.MethodPost {
		key = uuid4()
	}
	for attempt := 0; ; attempt++ {
		req, _ := http.NewRequest(method, c.base+path, bytes.NewReader(data))
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			c.t.Errorf("%s %s: %v", method, path, err)
			return 0, nil
		}
		answer, _ := io.ReadAll(res.Body)
		res.Body.Close()
		// 409 request_in_progress: another request with this key is still
		// being served. The client's own transport sends one: Go's
		// http.Transport replays a request carrying an Idempotency-Key
		// when a reused connection fails after the request was written,
		// and the first copy may still be running on the server. The
		// answer says "retry later with the same key", which a client does
		// (the web client too); the retry is then the first's replay.
		inProgress := res.StatusCode == http.StatusConflict && bytes.Contains(answer, []byte(`"request_in_progress"`))
		c.mu.Lock()
		if c.statuses == nil {
			c.statuses = map[int]int{}
		}
		if inProgress {
			c.inProgress++
		} else {
			c.statuses[res.StatusCode]++
		}
		c.requests++
		if res.Header.Get("Idempotent-Replayed") == "true" {
			c.replayed++
		}
		c.mu.Unlock()
		if res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable || inProgress {
			if attempt > 200 {
				c.t.Errorf("%s %s: still %d after %d retries", method, path, res.StatusCode, attempt)
				return res.StatusCode, answer
			}
			wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
			d := time.Duration(max(wait, 1)) * time.Second
			if c.retryCap > 0 {
				d = min(d, c.retryCap)
			}
			c.mu.Lock()
			c.retried++
			c.mu.Unlock()
			time.Sleep(d)
			continue
		}
		if res.StatusCode >= 500 || res.StatusCode == http.StatusConflict {
			c.t.Errorf("%s %s: %d %s", method, path, res.StatusCode, answer)
		}
		if out != nil && res.StatusCode < 300 {
			if err := json.Unmarshal(answer, out); err != nil {
				c.t.Errorf("%s %s: %v", method, path, err)
			}
		}
		return res.StatusCode, answer
	}
}

func (c *chaosClient) must(status int, want int, what string, body []byte) {
	if status != want {
		c.t.Fatalf("%s: %d, want %d: %s", what, status, want, body)
	}
}

type chaosPlayer struct {
	ID, Token, Name string
}

func (c *chaosClient) run(size chaosSize) {
	t := c.t
	var ev struct {
		ID, Token string
	}
	st, body := c.do("POST", "/tournaments", "", map[string]any{"name": "Chaos Swiss", "system": "swiss", "rounds": size.rounds, "timeControl": "rapid-10/40+5/30"}, &ev)
	c.must(st, http.StatusCreated, "create the event", body)
	c.organiser, c.eventID = ev.Token, ev.ID

	// Registrations, all at once.
	players := make([]chaosPlayer, size.players)
	var wg sync.WaitGroup
	for i := range players {
		wg.Go(func() {
			name := fmt.Sprintf("Player %02d", i+1)
			var out struct{ ID, Token string }
			st, body := c.do("POST", "/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name, "rating": 2000 + 10*i}, &out)
			if st != http.StatusCreated {
				t.Errorf("register %s: %d %s", name, st, body)
				return
			}
			players[i] = chaosPlayer{ID: out.ID, Token: out.Token, Name: name}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	byID := map[string]chaosPlayer{}
	for _, p := range players {
		byID[p.ID] = p
	}
	var list struct {
		Players []struct{ ID, Name string }
	}
	st, body = c.do("GET", "/tournaments/"+ev.ID+"/players", "", nil, &list)
	c.must(st, http.StatusOK, "list players", body)
	seen := map[string]int{}
	for _, p := range list.Players {
		seen[p.ID]++
		if byID[p.ID].Name != p.Name {
			t.Errorf("listed player %s %q was not acknowledged as such", p.ID, p.Name)
		}
	}
	if len(list.Players) != len(players) || len(seen) != len(players) {
		t.Fatalf("%d registrations acknowledged, %d listed (%d distinct)", len(players), len(list.Players), len(seen))
	}

	results := map[string]string{} // game id → result, as the games end
	colours := map[string][2]string{}
	for round := 1; round <= size.rounds; round++ {
		var paired struct {
			Pairings []struct {
				Table      int
				Red, Black string
				GameID     string
				Result     *string
			}
		}
		st, body := c.do("POST", "/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": round}, &paired)
		if st != http.StatusCreated && st != http.StatusOK {
			t.Fatalf("pair round %d: %d %s", round, st, body)
		}
		if len(paired.Pairings) != size.players/2 {
			t.Fatalf("round %d: %d pairings, want %d", round, len(paired.Pairings), size.players/2)
		}
		st, body = c.do("POST", fmt.Sprintf("/tournaments/%s/rounds/%d/start", ev.ID, round), ev.Token, nil, nil)
		c.must(st, http.StatusOK, fmt.Sprintf("start round %d", round), body)
		var mu sync.Mutex
		for _, p := range paired.Pairings {
			colours[p.GameID] = [2]string{p.Red, p.Black}
			wg.Go(func() {
				res := c.play(p.GameID, byID[p.Red], byID[p.Black], size)
				mu.Lock()
				results[p.GameID] = res
				mu.Unlock()
			})
		}
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
		var view struct {
			Pairings []struct {
				GameID string
				Result *string
			}
		}
		st, body = c.do("GET", fmt.Sprintf("/tournaments/%s/rounds/%d", ev.ID, round), "", nil, &view)
		c.must(st, http.StatusOK, fmt.Sprintf("round %d", round), body)
		for _, p := range view.Pairings {
			if p.Result == nil || *p.Result != results[p.GameID] {
				t.Errorf("round %d, game %s: the round says %v, the game %q", round, p.GameID, p.Result, results[p.GameID])
			}
		}
	}

	// Standings: each player's record is what its games give (2/1/0).
	want := map[string]*[3]int{} // wins, draws, losses
	for _, p := range players {
		want[p.ID] = &[3]int{}
	}
	for gid, res := range results {
		red, black := colours[gid][0], colours[gid][1]
		switch res {
		case "1-0":
			want[red][0]++
			want[black][2]++
		case "0-1":
			want[black][0]++
			want[red][2]++
		case "1/2-1/2":
			want[red][1]++
			want[black][1]++
		default:
			t.Errorf("game %s ended %q", gid, res)
		}
	}
	var table struct {
		Rows []struct {
			PlayerID                    string
			Points, Wins, Draws, Losses int
		}
	}
	st, body = c.do("GET", "/tournaments/"+ev.ID+"/standings?limit=1000", "", nil, &table)
	c.must(st, http.StatusOK, "standings", body)
	if len(table.Rows) != len(players) {
		t.Errorf("standings: %d rows, want %d", len(table.Rows), len(players))
	}
	for _, r := range table.Rows {
		w := want[r.PlayerID]
		if w == nil || r.Wins != w[0] || r.Draws != w[1] || r.Losses != w[2] || r.Points != 2*w[0]+w[1] {
			t.Errorf("standings row %+v, want w/d/l %v", r, w)
		}
	}
}

// play plays one game move by move: red's and black's clients each read the
// game, move when it is their turn (a random legal move, clock pressed) and
// keep the moves acknowledged to them; after a random number of plies the
// side to move resigns. The game's record must then be exactly the
// acknowledged moves in order. It returns the game's result.
func (c *chaosClient) play(gid string, red, black chaosPlayer, size chaosSize) string {
	t := c.t
	plies := size.minPlies + mrand.IntN(size.maxPlies-size.minPlies+1)
	acked := make([]string, plies+1)
	var ackedN atomic.Int32
	var stop atomic.Bool // a client that gave up stops the other, which would wait for its turn for ever
	var wg sync.WaitGroup
	for side, p := range map[string]chaosPlayer{"red": red, "black": black} {
		wg.Go(func() {
			defer stop.Store(true)
			for !stop.Load() {
				var g struct {
					Status, SideToMove string
					Ply                int
					LegalMoves         []string
				}
				if st, body := c.do("GET", "/games/"+gid, "", nil, &g); st != http.StatusOK {
					t.Errorf("game %s: %d %s", gid, st, body)
					return
				}
				if g.Status == "over" {
					return
				}
				if g.SideToMove != side {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				if g.Ply >= plies || len(g.LegalMoves) == 0 {
					if st, body := c.do("POST", "/games/"+gid+"/resign", p.Token, nil, nil); st != http.StatusOK {
						t.Errorf("game %s: %s resigns: %d %s", gid, side, st, body)
					}
					return
				}
				move := g.LegalMoves[mrand.IntN(len(g.LegalMoves))]
				var out struct{ Ply int }
				st, body := c.do("POST", "/games/"+gid+"/moves", p.Token, map[string]any{"move": move, "ply": g.Ply, "press": true}, &out)
				if st != http.StatusOK {
					t.Errorf("game %s: %s plays %s at ply %d: %d %s", gid, side, move, g.Ply, st, body)
					return
				}
				acked[g.Ply] = move
				ackedN.Add(1)
			}
		})
	}
	wg.Wait()
	var g struct {
		Moves  []string
		Result *string
	}
	if st, body := c.do("GET", "/games/"+gid, "", nil, &g); st != http.StatusOK || g.Result == nil {
		t.Errorf("game %s at the end: %d %s", gid, st, body)
		return ""
	}
	n := int(ackedN.Load())
	if !slices.Equal(g.Moves, acked[:n]) {
		t.Errorf("game %s: record %v, acknowledged %v", gid, g.Moves, acked[:n])
	}
	c.mu.Lock()
	c.games++
	c.moves += n
	c.mu.Unlock()
	return *g.Result
}

// uuid4 is a random (version 4) UUID, an Idempotency-Key.
func uuid4() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
