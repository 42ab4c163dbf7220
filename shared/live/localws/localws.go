// Package localws serves the live protocol over WebSocket for the local stack
// (`make run`, at /ws) with github.com/coder/websocket. It is the local
// counterpart of API Gateway's WebSocket API and Management API: the same
// live.Hub keeps connections and subscriptions in the same table, and the
// embedded DynamoDB's change feed stands in for the table's stream, driving
// the same live.Hub.Fanout.
package localws

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// Server is the local WebSocket endpoint and the poster its hub delivers through.
type Server struct {
	hub     *live.Hub
	log     *slog.Logger
	origins []string

	mu      sync.Mutex
	conns   map[string]*websocket.Conn
	clients map[string]int // open sockets by client address
	closing bool           // set under mu by Close: no socket registers after it

	// timers are the messages held back for a broadcast delay (after);
	// held counts those not yet run or stopped, so Close waits for them.
	timers map[*time.Timer]struct{}
	held   sync.WaitGroup

	queues   []chan store.Change
	done     chan struct{}
	wg       sync.WaitGroup // feed workers
	handlers sync.WaitGroup // open sockets
	once     sync.Once
}

// Option configures a Server.
type Option func(*Server, *[]live.Option)

// WithOrigins allows browser origins besides the server's own (see live.OriginAllowed).
func WithOrigins(patterns []string) Option {
	return func(s *Server, o *[]live.Option) { s.origins = patterns; *o = append(*o, live.WithOrigins(patterns)) }
}

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option {
	return func(s *Server, o *[]live.Option) { s.log = l; *o = append(*o, live.WithLogger(l)) }
}

// WithLimits replaces live.DefaultLimits (tests use small ones); a zero
// field keeps its default.
func WithLimits(l live.Limits) Option {
	return func(_ *Server, o *[]live.Option) { *o = append(*o, live.WithLimits(l)) }
}

// WithClock makes the hub read time from now (tests).
func WithClock(now func() time.Time) Option {
	return func(_ *Server, o *[]live.Option) { *o = append(*o, live.WithClock(now)) }
}

// shards is how many feed workers run: changes of one item always go to the
// same worker, in order, as a stream shard keeps them (and as Lambda's
// ParallelizationFactor keeps a partition key's). Enough of them that one
// busy batch seldom holds up another game's message.
const shards = 16

// New builds the server over st; Follow connects it to a change feed.
func New(st *store.Store, opts ...Option) *Server {
	s := &Server{log: slog.New(slog.NewJSONHandler(os.Stderr, nil)), conns: map[string]*websocket.Conn{}, clients: map[string]int{},
		timers: map[*time.Timer]struct{}{}, done: make(chan struct{})}
	hubOpts := []live.Option{live.WithLater(s.after)}
	for _, o := range opts {
		o(s, &hubOpts)
	}
	s.hub = live.New(st, s, hubOpts...)
	return s
}

// Hub is the hub behind the server.
func (s *Server) Hub() *live.Hub { return s.hub }

// Follow feeds the changes the embedded server db makes to table into the
// fan-out: changes that may produce a message (live.Relevant) are queued by
// item onto a few workers, each passing what has queued up to Fanout as one
// batch, as Lambda reads a stream shard.
func (s *Server) Follow(db *embedded.Server, table string) {
	s.queues = make([]chan store.Change, shards)
	for i := range s.queues {
		q := make(chan store.Change, 4096)
		s.queues[i] = q
		s.wg.Go(func() { s.work(q) })
	}
	db.Feed(func(t string, changes []store.Change) {
		if t != table {
			return
		}
		for _, c := range changes {
			if !live.Relevant(c) {
				continue
			}
			h := fnv.New32a()
			h.Write([]byte(c.Key.PK))
			select { // the feed must not block: a message is a hint, a full queue drops it
			case s.queues[h.Sum32()%shards] <- c:
			default:
				s.log.Warn("live: fan-out queue full, change not pushed", "pk", c.Key.PK, "sk", c.Key.SK)
			}
		}
	})
}

func (s *Server) work(q chan store.Change) {
	for {
		var batch []store.Change
		select {
		case c := <-q:
			batch = append(batch, c)
		case <-s.done:
			return
		}
	drain:
		for len(batch) < 100 {
			select {
			case c := <-q:
				batch = append(batch, c)
			default:
				break drain
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if _, err := s.hub.Fanout(ctx, batch); err != nil {
			s.log.Error("live fan-out", "err", err.Error())
		}
		cancel()
	}
}

// after runs f once d has passed, unless the server closes first: the
// hub's way to push a game under a broadcast delay when the public may see it.
func (s *Server) after(d time.Duration, f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return
	}
	s.held.Add(1)
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		defer s.held.Done()
		s.mu.Lock()
		_, pending := s.timers[t]
		delete(s.timers, t)
		s.mu.Unlock()
		if pending { // Close stopped it otherwise
			f()
		}
	})
	s.timers[t] = struct{}{}
}

// Close stops the feed workers and the held-back messages, closes every
// open socket and waits until each is disconnected (its items removed), so
// the store may close next.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.done)
		s.wg.Wait()
		s.mu.Lock()
		s.closing = true // after this no handler joins s.handlers, so Wait cannot race an Add
		for t := range s.timers {
			if t.Stop() {
				s.held.Done()
			}
			delete(s.timers, t)
		}
		for _, c := range s.conns {
			_ = c.CloseNow()
		}
		s.mu.Unlock()
		s.held.Wait()
		s.handlers.Wait()
	})
}

// Post writes a message to an open socket; an unknown or closed one is live.ErrGone.
func (s *Server) Post(ctx context.Context, id string, data []byte) error {
	s.mu.Lock()
	c := s.conns[id]
	s.mu.Unlock()
	if c == nil {
		return live.ErrGone
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, data); err != nil {
		// Closed, or too slow to take a message within the timeout: either
		// way the client is dropped and re-reads when it reconnects.
		_ = c.CloseNow()
		return live.ErrGone
	}
	return nil
}

// ServeHTTP accepts a WebSocket under the origin policy, records the
// connection, answers its messages and removes it when it closes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !live.OriginAllowed(r.Header.Get("Origin"), r.Host, s.origins) {
		http.Error(w, `{"error":{"code":"forbidden","message":"origin not allowed; set LIVE_ORIGINS"}}`, http.StatusForbidden)
		return
	}
	// The server's request deadlines do not cut the socket: net/http clears
	// them when the connection is hijacked (TestLive_SocketOutlivesServerTimeouts).
	// The policy is decided above, by the same rule as the deployed $connect.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	lim := s.hub.Limits()
	client := clientAddr(r)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		_ = c.Close(websocket.StatusGoingAway, "server stopping")
		return
	}
	if s.clients[client] >= lim.ConnectionsPerClient {
		s.mu.Unlock()
		refuse(c, websocket.StatusPolicyViolation, "too_many_connections",
			fmt.Sprintf("one client address holds at most %d live connections at once; close one first", lim.ConnectionsPerClient))
		return
	}
	s.clients[client]++
	s.handlers.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.clients[client]--; s.clients[client] <= 0 {
			delete(s.clients, client)
		}
		s.mu.Unlock()
		s.handlers.Done()
	}()
	// A frame past the limit closes the socket (1009, message too big):
	// with no compression and writes made one at a time, a socket holds a
	// few fixed buffers whatever its client sends.
	c.SetReadLimit(int64(lim.MessageBytes))
	id := newID()
	ctx := context.WithoutCancel(r.Context())
	if err := s.hub.Connect(ctx, id); err != nil {
		s.log.Error("live connect", "err", err.Error())
		_ = c.Close(websocket.StatusInternalError, "store unavailable")
		return
	}
	s.mu.Lock()
	s.conns[id] = c
	if s.closing { // Close ran while this socket connected: it closes too
		_ = c.CloseNow()
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, id)
		s.mu.Unlock()
		if err := s.hub.Disconnect(ctx, id); err != nil {
			s.log.Error("live disconnect", "connection", id, "err", err.Error())
		}
		_ = c.CloseNow()
	}()
	// API Gateway's timeouts, kept locally so a client behaves the same on
	// both stacks: closed after Idle without a message from the client,
	// and after Lifetime whatever it does.
	idle := time.AfterFunc(lim.Idle, func() {
		refuse(c, websocket.StatusGoingAway, "idle_timeout",
			fmt.Sprintf("nothing received for %s: closed (send {\"action\":\"ping\"} to keep a connection open)", lim.Idle))
	})
	defer idle.Stop()
	lifetime := time.AfterFunc(lim.Lifetime, func() {
		refuse(c, websocket.StatusGoingAway, "connection_expired", fmt.Sprintf("a connection lasts at most %s: connect again", lim.Lifetime))
	})
	defer lifetime.Stop()
	for {
		_, msg, err := c.Read(r.Context())
		if err != nil {
			return
		}
		idle.Reset(lim.Idle)
		reply, err := s.hub.Handle(ctx, id, msg)
		if err != nil {
			s.log.Error("live message", "connection", id, "err", err.Error())
			reply = []byte(`{"type":"error","error":{"code":"unavailable","message":"the store failed; try again"}}`)
		}
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = c.Write(wctx, websocket.MessageText, reply)
		cancel()
		if err != nil {
			return
		}
	}
}

// refuse tells the client why its socket closes — an "error" message with
// the code, then the close frame with the code as its reason — and closes it.
func refuse(c *websocket.Conn, status websocket.StatusCode, code, message string) {
	body, _ := json.Marshal(live.Reply{Type: "error", Error: &live.ReplyError{Code: code, Message: message}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	_ = c.Write(ctx, websocket.MessageText, body)
	cancel()
	_ = c.Close(status, code)
}

// clientAddr is the client's address without its port: the sockets of one
// machine count together.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// newID is a connection id like API Gateway's: random, URL-safe.
func newID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
