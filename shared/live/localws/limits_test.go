package localws_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/live/localws"
)

// rawDial opens a socket the test reads itself, to see the close frame.
func (s *stack) rawDial() *websocket.Conn {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/ws", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { _ = c.CloseNow() })
	return c
}

// wantRefusal reads the error message a refused socket is sent, then its
// close frame: the code names the limit in both.
func wantRefusal(t *testing.T, c *websocket.Conn, code string, status websocket.StatusCode, within time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("want an error message %s, got %v", code, err)
	}
	var m message
	if json.Unmarshal(data, &m) != nil || m.Type != "error" || m.Error == nil || m.Error.Code != code || m.Error.Message == "" {
		t.Fatalf("want an error message %s, got %s", code, data)
	}
	_, _, err = c.Read(ctx)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != status || ce.Reason != code {
		t.Fatalf("after %s: %v, want the socket closed with %d %q", code, err, status, code)
	}
}

// ping sends a ping and waits for its pong: the socket is open and registered.
func (c *client) ping() {
	c.t.Helper()
	c.send(`{"action":"ping"}`)
	if r := c.want(wait); r.body.Type != "pong" {
		c.t.Fatalf("ping: %s", r.raw)
	}
}

// One client address holds at most ConnectionsPerClient sockets: the next
// is told too_many_connections and closed (1008); once one of its sockets
// closes, it may open another.
func TestLimits_ConnectionsPerClientAddress(t *testing.T) {
	s := newStackWith(t, live.Limits{ConnectionsPerClient: 3}, nil)
	var open []*client
	for range 3 {
		c := s.dial()
		c.ping()
		open = append(open, c)
	}
	wantRefusal(t, s.rawDial(), "too_many_connections", websocket.StatusPolicyViolation, wait)
	if err := open[0].c.Close(websocket.StatusNormalClosure, ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(wait)
	for {
		c := s.rawDial() // the server counts the closed socket out once its handler has cleaned up
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"ping"}`))
		var data []byte
		if err == nil {
			_, data, err = c.Read(ctx)
		}
		cancel()
		if err == nil && strings.Contains(string(data), `"pong"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a socket closed, a new one is still refused: %s %v", data, err)
		}
		_ = c.CloseNow()
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range open[1:] {
		c.ping() // the others were never disturbed
	}
}

// A connection's subscribes and unsubscribes are limited per window: past
// Changes the next is refused with too_many_requests and writes nothing; the
// socket stays open, and the next window takes them again. It follows at
// most Subscriptions games and events.
func TestLimits_SubscribeRateAndCountPerConnection(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := make(chan time.Time, 1)
	clock <- now
	read := func() time.Time { t := <-clock; clock <- t; return t }
	s := newStackWith(t, live.Limits{Changes: 4, Window: time.Minute, Subscriptions: 3}, []localws.Option{localws.WithClock(read)})
	var games []string
	for range 5 {
		g, _ := s.newGame()
		games = append(games, g.ID)
	}
	c := s.dial()
	c.follow("game", games[0])
	c.follow("game", games[1])
	c.send(`{"action":"unsubscribe","game":"` + games[1] + `"}`)
	c.want(wait)
	c.follow("game", games[1]) // the fourth change of the window
	c.send(`{"action":"subscribe","game":"` + games[2] + `"}`)
	if r := c.want(wait); r.body.Type != "error" || r.body.Error.Code != "too_many_requests" || !strings.Contains(r.body.Error.Message, "at most 4") {
		t.Fatalf("the fifth change in a minute: %s, want too_many_requests", r.raw)
	}
	if subs, err := s.store.Query(context.Background(), "S#G#"+games[2], "C#", 0); err != nil || len(subs) != 0 {
		t.Fatalf("a refused subscribe wrote %d subscription items (%v)", len(subs), err)
	}
	c.ping() // the socket is still open
	<-clock
	clock <- now.Add(time.Minute) // the next window
	c.follow("game", games[2])
	c.send(`{"action":"subscribe","game":"` + games[3] + `"}`)
	if r := c.want(wait); r.body.Type != "error" || r.body.Error.Code != "too_many_subscriptions" {
		t.Fatalf("a fourth subscription: %s, want too_many_subscriptions", r.raw)
	}
}

// A socket the client sends nothing on for Idle is told idle_timeout and
// closed (1001), as API Gateway closes it after 10 minutes; one that pings
// stays open until its Lifetime, then is told connection_expired.
func TestLimits_IdleTimeoutAndLifetime(t *testing.T) {
	const idle, lifetime = 1500 * time.Millisecond, 3 * time.Second
	s := newStackWith(t, live.Limits{Idle: idle, Lifetime: lifetime}, nil)
	start := time.Now() // before the dials: the server's timers start after each handshake
	quiet, busy := s.rawDial(), s.rawDial()
	done, stop := make(chan struct{}), make(chan struct{})
	go func() { // busy pings well inside the idle timeout
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(idle / 6):
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			err := busy.Write(ctx, websocket.MessageText, []byte(`{"action":"ping"}`))
			cancel()
			if err != nil {
				return
			}
		}
	}()
	defer func() { close(stop); <-done }()
	wantRefusal(t, quiet, "idle_timeout", websocket.StatusGoingAway, lifetime)
	if d := time.Since(start); d < idle {
		t.Fatalf("closed after %s, before the idle timeout of %s", d, idle)
	}
	for {
		ctx, cancel := context.WithTimeout(context.Background(), lifetime+2*time.Second)
		_, data, err := busy.Read(ctx)
		cancel()
		if err != nil {
			t.Fatalf("the pinging socket ended with %v before being told connection_expired", err)
		}
		var m message
		_ = json.Unmarshal(data, &m)
		if m.Type == "pong" {
			continue
		}
		if m.Type != "error" || m.Error.Code != "connection_expired" {
			t.Fatalf("the pinging socket: %s", data)
		}
		break
	}
	if d := time.Since(start); d < lifetime {
		t.Fatalf("the pinging socket expired after %s, before its lifetime %s", d, lifetime)
	}
}

// A message past MessageBytes closes the socket (1009), whatever it holds:
// a socket's memory does not grow with what its client sends.
func TestLimits_MessageSize(t *testing.T) {
	s := newStackWith(t, live.Limits{MessageBytes: 64}, nil)
	c := s.rawDial()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"action":"ping","game":"`+strings.Repeat("a", 100)+`"}`)); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("after a 130-byte message: %v, want close 1009", err)
	}
}
