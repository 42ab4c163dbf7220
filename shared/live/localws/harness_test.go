package localws_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/live/localws"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// stack is the local stack as `make run` wires it: the API and /ws on one
// server, over the embedded DynamoDB whose change feed drives the fan-out.
type stack struct {
	t     testing.TB
	url   string
	store *store.Store
	ws    *localws.Server
}

// newStack starts the stack; a deadline gives its HTTP server that read and
// write deadline.
func newStack(t testing.TB, deadline ...time.Duration) *stack {
	t.Helper()
	return newStackWith(t, live.Limits{}, nil, deadline...)
}

// newStackWith starts the stack with the socket limits lim (zero fields:
// the defaults) and the server options opts.
func newStackWith(t testing.TB, lim live.Limits, opts []localws.Option, deadline ...time.Duration) *stack {
	t.Helper()
	st, cfg, db := storetest.Start(t)
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	ws := localws.New(st, append([]localws.Option{localws.WithLogger(quiet), localws.WithLimits(lim)}, opts...)...)
	ws.Follow(db, cfg.Table)
	mux := http.NewServeMux()
	mux.Handle("/ws", ws)
	mux.Handle("/", httpapi.New(st, httpapi.WithLogger(quiet)).Handler())
	srv := httptest.NewUnstartedServer(mux)
	if len(deadline) > 0 { // request deadlines as make run sets them, scaled down
		srv.Config.ReadTimeout, srv.Config.WriteTimeout = deadline[0], deadline[0]
		srv.Config.IdleTimeout = time.Minute
	}
	srv.Start()
	t.Cleanup(func() { ws.Close(); srv.Close() })
	return &stack{t: t, url: srv.URL, store: st, ws: ws}
}

// call sends one API request and decodes a 2xx answer into out.
func (s *stack) call(method, path, token string, body any, out any) error {
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	req, err := http.NewRequest(method, s.url+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

func (s *stack) must(method, path, token string, body any, out any) {
	s.t.Helper()
	if err := s.call(method, path, token, body, out); err != nil {
		s.t.Fatal(err)
	}
}

type newGame struct {
	ID         string `json:"id"`
	RedToken   string `json:"redToken"`
	BlackToken string `json:"blackToken"`
}

// gameJSON is the part of GET /games/{gid} the tests look at.
type gameJSON struct {
	ID         string   `json:"id"`
	Ply        int      `json:"ply"`
	Moves      []string `json:"moves"`
	LegalMoves []string `json:"legalMoves"`
	Status     string   `json:"status"`
}

// message is any server → client message.
type message struct {
	Type       string          `json:"type"`
	ServerTime int64           `json:"serverTime"`
	Game       json.RawMessage `json:"game"`
	Tournament string          `json:"tournament"`
	What       string          `json:"what"`
	Round      int             `json:"round"`
	Error      *struct{ Code, Message string }
}

// client is one WebSocket subscriber; every message it receives lands in msgs.
type client struct {
	t    testing.TB
	c    *websocket.Conn
	msgs chan received
}

type received struct {
	at   time.Time
	raw  []byte
	body message
}

func (s *stack) dial() *client {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/ws", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	c.SetReadLimit(1 << 20)
	cl := &client{t: s.t, c: c, msgs: make(chan received, 4096)}
	go func() {
		for {
			_, data, err := c.Read(context.Background())
			if err != nil {
				close(cl.msgs)
				return
			}
			r := received{at: time.Now(), raw: data}
			_ = json.Unmarshal(data, &r.body)
			cl.msgs <- r
		}
	}()
	s.t.Cleanup(func() { _ = c.CloseNow() })
	return cl
}

func (c *client) send(v string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.c.Write(ctx, websocket.MessageText, []byte(v)); err != nil {
		c.t.Fatal(err)
	}
}

// next waits for the next message.
func (c *client) next(within time.Duration) (received, bool) {
	select {
	case r, ok := <-c.msgs:
		return r, ok
	case <-time.After(within):
		return received{}, false
	}
}

func (c *client) want(within time.Duration) received {
	c.t.Helper()
	r, ok := c.next(within)
	if !ok {
		c.t.Fatalf("no message within %s", within)
	}
	return r
}

// follow subscribes and waits for the acknowledgement. A message about a
// write made just before may come first (the fan-out runs after the write,
// and may find the subscription already there); it is passed over.
func (c *client) follow(kind, id string) {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"action":"subscribe",%q:%q}`, kind, id))
	for {
		r := c.want(wait)
		if r.body.Type == "subscribed" {
			return
		}
		if r.body.Type != "game" && r.body.Type != "tournament" {
			c.t.Fatalf("subscribe %s %s: %s", kind, id, r.raw)
		}
	}
}

// awaitPly waits for the game message of ply p, passing over earlier plies.
func (c *client) awaitPly(p int) received {
	c.t.Helper()
	for {
		r, ok := c.next(10 * time.Second)
		if !ok {
			c.t.Fatalf("no game message for ply %d", p)
		}
		var g struct{ Ply int } // only the ply: the benchmark's clients should cost little
		if r.body.Type != "game" || json.Unmarshal(r.body.Game, &g) != nil {
			c.t.Fatalf("waiting for ply %d: %s", p, r.raw)
		}
		switch {
		case g.Ply == p:
			return r
		case g.Ply > p:
			c.t.Fatalf("waiting for ply %d, got ply %d first", p, g.Ply)
		}
	}
}
