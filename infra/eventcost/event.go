package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

type config struct {
	players, rounds, plies, clients int
}

// roundLength is how long a round takes in simulated time: the moves of a
// round are spread over it, so usage is written as often as in a real event.
const roundLength = 2 * time.Hour

// simClock is the event's simulated time, shared by every API instance.
type simClock struct{ ms atomic.Int64 }

func newClock(start time.Time) *simClock {
	c := &simClock{}
	c.ms.Store(start.UnixMilli())
	return c
}

// Now is the simulated time (the APIs' clock).
func (c *simClock) Now() time.Time { return time.UnixMilli(c.ms.Load()).UTC() }

// advance moves the time on by d (each move request).
func (c *simClock) advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// advanceTo moves the time on to t, between rounds, when no request runs.
func (c *simClock) advanceTo(t time.Time) { c.ms.Store(max(c.ms.Load(), t.UnixMilli())) }

// stack is the local stack: one API instance per function behind one HTTP server.
type stack struct {
	url   string
	store *store.Store
	apis  []*httpapi.API
	close func()
}

func startStack(clk *simClock) (*stack, error) {
	db, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	st, err := store.Open(context.Background(), store.Config{Table: "xqtour", Region: "us-east-1", Endpoint: db.URL})
	if err == nil {
		err = st.CreateTable(context.Background())
	}
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	handlers := map[string]http.Handler{}
	s := &stack{store: st}
	for _, fn := range httpapi.Functions {
		if fn == httpapi.FnWeb {
			continue
		}
		api := httpapi.New(st, httpapi.WithClock(clk.Now), httpapi.WithLogger(quiet), httpapi.WithMemoryMB(deploy.MemoryMB[fn]))
		s.apis = append(s.apis, api)
		handlers[fn] = api.FunctionHandler(fn)
	}
	mux := http.NewServeMux()
	for _, rt := range httpapi.Routes {
		if h := handlers[rt.Function]; h != nil {
			mux.Handle(rt.Method+" "+rt.Path, h)
		}
	}
	srv := httptest.NewServer(mux)
	s.url = srv.URL
	s.close = func() { srv.Close(); _ = db.Close() }
	return s, nil
}

// client calls the stack and counts its requests by route.
type client struct {
	base  string
	http  *http.Client
	mu    sync.Mutex
	count map[string]int
}

type apiError struct {
	status int
	body   string
}

func (e *apiError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.status, e.body) }

func (c *client) do(method, path, route, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.count[route]++
	c.mu.Unlock()
	if resp.StatusCode >= 300 {
		return &apiError{resp.StatusCode, string(data)}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

func (c *client) requests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.count {
		n += v
	}
	return n
}

type pairing struct {
	Table  int    `json:"table"`
	Red    string `json:"red"`
	Black  string `json:"black"`
	GameID string `json:"gameId"`
}

type gameState struct {
	Status string `json:"status"`
}

// event is one event being played.
type event struct {
	c       *client
	clk     *simClock
	tid     string
	org     string
	tokens  map[string]string // player id → token
	plies   int
	moves   atomic.Int64
	refused atomic.Int64
}

func run(cfg config) (*report, error) {
	if cfg.players < 2 || cfg.rounds < 1 || cfg.plies < 1 || cfg.clients < 1 {
		return nil, errors.New("want at least 2 players, 1 round, 1 ply and 1 client")
	}
	start := time.Date(2026, 6, 6, 9, 0, 0, 0, time.UTC)
	clk := newClock(start)
	s, err := startStack(clk)
	if err != nil {
		return nil, err
	}
	defer s.close()
	c := &client{base: s.url, count: map[string]int{},
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: cfg.clients + 1}}}
	ev := &event{c: c, clk: clk, tokens: map[string]string{}, plies: cfg.plies}
	var created struct{ ID, Token string }
	if err := c.do("POST", "/tournaments", "POST /tournaments", "", map[string]any{
		"name": "Cost check", "system": "swiss", "rounds": cfg.rounds, "timeControl": "90/40+15/10",
	}, &created); err != nil {
		return nil, fmt.Errorf("create: %w", err)
	}
	ev.tid, ev.org = created.ID, created.Token
	for i := range cfg.players {
		var p struct {
			ID    string `json:"id"`
			Token string `json:"token"`
		}
		if err := c.do("POST", "/tournaments/"+ev.tid+"/players", "POST /tournaments/{tid}/players", ev.org,
			map[string]any{"name": fmt.Sprintf("Player %03d", i+1), "rating": 2400 - 5*i}, &p); err != nil {
			return nil, fmt.Errorf("register: %w", err)
		}
		ev.tokens[p.ID] = p.Token
	}
	games := 0
	for r := 1; r <= cfg.rounds; r++ {
		roundStart := start.Add(time.Duration(r-1) * (roundLength + time.Hour))
		clk.advanceTo(roundStart)
		var round struct {
			Pairings []pairing `json:"pairings"`
		}
		if err := c.do("POST", "/tournaments/"+ev.tid+"/rounds", "POST /tournaments/{tid}/rounds", ev.org, map[string]any{"round": r}, &round); err != nil {
			return nil, fmt.Errorf("pair round %d: %w", r, err)
		}
		if err := c.do("POST", fmt.Sprintf("/tournaments/%s/rounds/%d/start", ev.tid, r), "POST /tournaments/{tid}/rounds/{n}/start", ev.org, nil, nil); err != nil {
			return nil, fmt.Errorf("start round %d: %w", r, err)
		}
		var boards []pairing
		for _, p := range round.Pairings {
			if p.GameID != "" && ev.tokens[p.Red] != "" && ev.tokens[p.Black] != "" {
				boards = append(boards, p)
			}
		}
		games += len(boards)
		step := roundLength / time.Duration(max(1, len(boards)*cfg.plies))
		if err := ev.playRound(r, boards, cfg.clients, step); err != nil {
			return nil, err
		}
		if err := c.do("GET", "/tournaments/"+ev.tid+"/standings", "GET /tournaments/{tid}/standings", "", nil, nil); err != nil {
			return nil, fmt.Errorf("standings after round %d: %w", r, err)
		}
	}
	// Every instance writes what it still holds, as the next request after
	// the interval would; then the usage route reads the event's total.
	for _, api := range s.apis {
		api.Flush()
	}
	requests := c.requests()
	var usage usageFigures
	if err := c.do("GET", "/tournaments/"+ev.tid+"/usage", "GET /tournaments/{tid}/usage", ev.org, nil, &usage); err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	items, err := s.store.Export(context.Background())
	if err != nil {
		return nil, err
	}
	storage := 0
	for _, it := range items {
		storage += it.Size() + 100 // DynamoDB bills 100 bytes of overhead per item
	}
	return &report{cfg: cfg, games: games, moves: int(ev.moves.Load()), refused: int(ev.refused.Load()),
		clientRequests: requests, byRoute: c.count, usage: usage, items: len(items), storageBytes: storage}, nil
}

// board is one game of a round being entered.
type board struct {
	p     pairing
	pos   *xiangqi.Position
	rng   *rand.Rand
	state gameState
	token map[xiangqi.Color]string
}

// playRound enters every game of a round ply by ply, all boards at the same
// pace as in a hall, clients requests at a time.
func (ev *event) playRound(r int, pairings []pairing, clients int, step time.Duration) error {
	boards := make([]*board, len(pairings))
	for i, p := range pairings {
		pos, err := xiangqi.ParseFEN(xiangqi.StartFEN)
		if err != nil {
			return err
		}
		boards[i] = &board{p: p, pos: pos, rng: rand.New(rand.NewPCG(uint64(r), uint64(i))), state: gameState{Status: "playing"},
			token: map[xiangqi.Color]string{xiangqi.Red: ev.tokens[p.Red], xiangqi.Black: ev.tokens[p.Black]}}
	}
	for ply := range ev.plies {
		if err := parallel(boards, clients, func(b *board) error { return ev.move(b, ply, step) }); err != nil {
			return fmt.Errorf("round %d: %w", r, err)
		}
	}
	return parallel(boards, clients, ev.finish)
}

// parallel runs f on every board, n at a time, and returns the first error.
func parallel(boards []*board, n int, f func(*board) error) error {
	work := make(chan *board)
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for range n {
		wg.Go(func() {
			for b := range work {
				if err := f(b); err != nil {
					once.Do(func() { first = fmt.Errorf("table %d: %w", b.p.Table, err) })
				}
			}
		})
	}
	for _, b := range boards {
		work <- b
	}
	close(work)
	wg.Wait()
	return first
}

// move enters one ply of a game still being played: a quiet legal move
// chosen by the board's seeded PRNG (never one that ends the game, so it
// lasts its plies), the clock pressed with it. A move the rules refuse (a
// forbidden repetition) is replaced by another.
func (ev *event) move(b *board, ply int, step time.Duration) error {
	if b.state.Status != "playing" {
		return nil
	}
	var last error
	for _, m := range quietMoves(b.pos, b.rng) {
		ev.clk.advance(step)
		err := ev.c.do("POST", "/games/"+b.p.GameID+"/moves", "POST /games/{gid}/moves", b.token[b.pos.SideToMove()],
			map[string]any{"move": m.String(), "ply": ply, "press": true}, &b.state)
		var ae *apiError
		if errors.As(err, &ae) && ae.status == http.StatusUnprocessableEntity {
			ev.refused.Add(1)
			last = err
			continue
		}
		if err != nil {
			return fmt.Errorf("ply %d %s: %w", ply, m, err)
		}
		ev.moves.Add(1)
		return b.pos.Play(m)
	}
	return fmt.Errorf("ply %d: every move refused, the last with %v", ply, last)
}

// finish ends a game still being played after its plies: the side to move
// resigns; a game waiting for an arbiter's ruling is drawn by the organiser.
func (ev *event) finish(b *board) error {
	path := "/games/" + b.p.GameID
	switch b.state.Status {
	case "playing":
		return ev.c.do("POST", path+"/resign", "POST /games/{gid}/resign", b.token[b.pos.SideToMove()], nil, nil)
	case "pendingRuling":
		return ev.c.do("POST", path+"/result", "POST /games/{gid}/result", ev.org, map[string]any{"result": "1/2-1/2"}, nil)
	}
	return nil
}

// quietMoves lists the legal moves that neither end the game nor leave a
// dead position, shuffled; half the captures are left out, so games last.
func quietMoves(p *xiangqi.Position, rng *rand.Rand) []xiangqi.Move {
	var out, all []xiangqi.Move
	for _, m := range p.LegalMoves() {
		all = append(all, m)
		q := p.Clone()
		capture := q.Captured(m) != xiangqi.NoPiece
		if q.Play(m) != nil || q.Status() != xiangqi.Ongoing || q.DeadPosition() || capture && rng.IntN(2) == 0 {
			continue
		}
		out = append(out, m)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	// Should every quiet move be refused, any legal move will do.
	for _, m := range all {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}
