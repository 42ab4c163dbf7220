// Package service is xqtour's application layer, between the HTTP layer
// (shared/httpapi, which speaks only HTTP: routes, decoding, tokens,
// errors, views) and the core (shared/tournament, shared/game …) and the
// store: it loads an event aggregate (Load), runs every event command
// through one policy (Exec: load, authorise, apply, one conditional
// transaction, bounded retry on the store's contention), and keeps the
// game layer (shared/service/games) and the items' stored shapes
// (shared/service/items). Nothing here imports net/http: a refusal is a
// *command.Error of a kind, or the core's *rulebook.RuleError, which the
// HTTP layer turns into a status in one place.
//
// Where each concept lives:
//
//	service.go   Service, its options and the request's instant (WithNow)
//	caller.go    Role (the one list of roles) and Caller, who a token speaks for
//	event.go     Event, the aggregate, and Load; InParallel, the one worker pool
//	exec.go      Command and Exec, the one write policy of event commands
//	players.go   a player's status (withdraw, pause, resume: S-6)
//	command/     the refusals and the retry of the store's contention
//	games/       the game item, its write loop, its view
//	items/       the stored shape of every item kind
package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
)

// Service is the application layer over one store.
type Service struct {
	store *store.Store
	clock func() time.Time
	opts  Options
	log   *slog.Logger
	// Games is the game layer over the same store.
	Games *games.Store
}

// Options are a deployment's settings the commands follow.
type Options struct {
	// Retention, when positive, is how long a finished standalone game and
	// an event never paired are kept before DynamoDB's TTL may delete them.
	Retention time.Duration
}

// New builds the service over st, reading time from clock unless a
// request fixed its instant (WithNow); gs is its game layer, log where what
// a command leaves to a later one is told.
func New(st *store.Store, clock func() time.Time, opts Options, gs *games.Store, log *slog.Logger) *Service {
	return &Service{store: st, clock: clock, opts: opts, Games: gs, log: log}
}

type nowKey struct{}

// WithNow fixes the instant a request's decisions are made at, so every
// decision in it agrees (the HTTP layer fixes it once per request).
func WithNow(ctx context.Context, now time.Time) context.Context {
	return context.WithValue(ctx, nowKey{}, now)
}

// now is the request's instant in Unix ms.
func (s *Service) now(ctx context.Context) int64 {
	if t, ok := ctx.Value(nowKey{}).(time.Time); ok {
		return t.UnixMilli()
	}
	return s.clock().UnixMilli()
}
