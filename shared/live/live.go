// Package live pushes changes to games and events to WebSocket subscribers.
// The same code runs deployed and locally: Hub keeps connections and their
// subscriptions in the store's table (with a TTL) and answers what clients
// send (Connect, Handle, Disconnect); Fanout turns changed records — from the
// table's DynamoDB Stream when deployed, from the embedded server's change
// feed locally — into messages and posts them through a Poster, removing a
// connection that is gone.
//
// The protocol, in shared/httpapi/asyncapi.yaml and the README:
//
//	client → server  {"action":"subscribe","game":"<gid>"}        (or "tournament":"<tid>", or "round":{"tournament":"<tid>","round":<n>}; "unsubscribe" likewise)
//	server → client  {"type":"game","serverTime":<ms>,"game":<GET /games/{gid}>}
//	server → client  {"type":"move"|"result"|"clock","tournament":"<tid>","round":<n>,"table":<t>,"game":"<gid>","ply":<p>,"move":"<iccs>","fen":…,"clocks":{…},"serverTime":<ms>}
//	server → client  {"type":"delayed","game":"<gid>",…,"visibleAt":<ms>}  (deployed, a game under a broadcast delay)
//	server → client  {"type":"tournament","serverTime":<ms>,"tournament":"<tid>","what":"round"|"result"|"standings"|"players","round":<n>}
//
// Messages are hints: a client that reconnects re-reads by ply or version, and
// nothing is lost for correctness when a message is.
//
// Where each concept lives: protocol.go the messages and the origin policy;
// sockets.go connections and subscriptions (their keys are shared/store's
// keys.go); fanout.go which change tells whom, and the posting; lambda.go the
// Lambda handlers for API Gateway's socket events and the stream; posting
// through API Gateway's Management API is the sub-package apigw.
package live

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/xqtour/xqtour/shared/store"
)

// Poster delivers one message to one connection: API Gateway's Management
// API deployed, the local server's open socket locally.
type Poster interface {
	// Post sends data to the connection; ErrGone when it no longer exists.
	Post(ctx context.Context, connection string, data []byte) error
}

// ErrGone is a Poster's answer for a connection that is gone (API Gateway's
// 410): the hub then deletes it and its subscriptions.
var ErrGone = errors.New("live: connection gone")

// ConnectionTTL is how long a connection's items live: API Gateway closes a
// WebSocket after two hours at most, and the hour beyond lets a late
// $disconnect still find them. DynamoDB's TTL removes what no disconnect did.
const ConnectionTTL = 3 * time.Hour

// MaxSubscriptions bounds what one connection may follow, so a client cannot
// grow an item or a fan-out without limit.
const MaxSubscriptions = 100

// Limits bound what one client may make the hub hold or do. The hub
// applies the per-connection ones on both stacks (their state lives in the
// connection's item, so every Lambda instance sees the same count); the
// local server (localws) applies the per-client and idle ones, which API
// Gateway applies deployed (its 10-minute idle timeout, its 2-hour
// connection lifetime). Every refusal is an "error" reply naming its code.
type Limits struct {
	// Subscriptions is how many games and events one connection follows at most.
	Subscriptions int
	// Changes is how many subscribes and unsubscribes one connection may
	// make in each Window: each writes the store (the connection's item and
	// a subscription item), so a flood past it is refused without a write.
	Changes int
	Window  time.Duration
	// MessageBytes is the largest client message the hub reads.
	MessageBytes int
	// ConnectionsPerClient is how many sockets one client address holds open
	// at once (local server).
	ConnectionsPerClient int
	// Idle closes a socket the client sent nothing on for that long, as API
	// Gateway does (local server).
	Idle time.Duration
	// Lifetime closes any socket after that long, as API Gateway does (local server).
	Lifetime time.Duration
}

// DefaultLimits are the limits of both stacks: a page follows its event and
// the boards on screen (a wall of 100 boards subscribes in one minute), and
// API Gateway's own timeouts.
var DefaultLimits = Limits{
	Subscriptions:        MaxSubscriptions,
	Changes:              120,
	Window:               time.Minute,
	MessageBytes:         4096,
	ConnectionsPerClient: 20,
	Idle:                 10 * time.Minute,
	Lifetime:             2 * time.Hour,
}

// Hub holds what subscriptions and fan-out need. It is safe for concurrent use.
type Hub struct {
	store   *store.Store
	post    Poster
	now     func() time.Time
	log     *slog.Logger
	origins []string
	limits  Limits
	// later runs f after d (WithLater); nil where nothing can wait.
	later func(d time.Duration, f func())
}

// Option configures a Hub.
type Option func(*Hub)

// WithClock makes the hub read time from now (tests).
func WithClock(now func() time.Time) Option { return func(h *Hub) { h.now = now } }

// WithLogger sets the hub's logger (JSON lines on stderr by default).
func WithLogger(l *slog.Logger) Option { return func(h *Hub) { h.log = l } }

// WithLimits replaces DefaultLimits (tests use small ones); a zero field
// keeps its default.
func WithLimits(l Limits) Option {
	return func(h *Hub) {
		d := DefaultLimits
		h.limits = Limits{
			Subscriptions:        cmp.Or(l.Subscriptions, d.Subscriptions),
			Changes:              cmp.Or(l.Changes, d.Changes),
			Window:               cmp.Or(l.Window, d.Window),
			MessageBytes:         cmp.Or(l.MessageBytes, d.MessageBytes),
			ConnectionsPerClient: cmp.Or(l.ConnectionsPerClient, d.ConnectionsPerClient),
			Idle:                 cmp.Or(l.Idle, d.Idle),
			Lifetime:             cmp.Or(l.Lifetime, d.Lifetime),
		}
	}
}

// Limits are the hub's limits.
func (h *Hub) Limits() Limits { return h.limits }

// WithLater lets the hub hold a message back: later runs f once d has
// passed, unless the server stops first. The local server gives it, so a
// game under a broadcast delay is pushed when the public may see it; the
// deployed fan-out, a Lambda that cannot wait, has none and tells
// followers when to read instead (see holdBack).
func WithLater(later func(d time.Duration, f func())) Option {
	return func(h *Hub) { h.later = later }
}

// WithOrigins sets the browser origins allowed to connect besides the
// socket's own (see OriginAllowed).
func WithOrigins(patterns []string) Option { return func(h *Hub) { h.origins = patterns } }

// New builds a hub over st that posts through p (nil when it only answers
// clients, as the WebSocket route handler does).
func New(st *store.Store, p Poster, opts ...Option) *Hub {
	h := &Hub{store: st, post: p, now: time.Now, log: slog.New(slog.NewJSONHandler(os.Stderr, nil)), limits: DefaultLimits}
	for _, o := range opts {
		o(h)
	}
	return h
}
