// Package httpapi is xqtour's HTTP layer: one route table, net/http handlers
// with Go 1.22 patterns, request decoding and the error model, bearer-token
// auth (a token becomes a service.Caller) and idempotent retries, as the
// OpenAPI document (openapi.yaml) describes them; Lambda functions serve a
// slice of the same table through aws-lambda-go-api-proxy, and the local
// stack serves all of it.
//
// It speaks only HTTP. An event command is decode → service call → render:
// the application layer (shared/service) loads the event, authorises the
// caller, applies the command and writes it in one conditional transaction
// (service.Exec); a game command goes through the game layer's one write
// loop (shared/service/games, Store.Mutate) as a service.GameCommand
// (shared/service/gameplay.go, playGame in games.go). Rules are decided in the core
// (shared/tournament, shared/game, shared/team) and refused there with the
// rule ids of shared/RULES.md; the application layer's refusals name a kind
// (command.Kind), never a status. Errors map to statuses in one place,
// toError in errors.go: a core refusal is a *rulebook.RuleError (422 unless
// refusalStatus says otherwise), a *command.Error by its kind.
// A result a client sends is read once, by result.Parse, where it is decoded
// (service.GameResult; a record's, shared/service/transfer). Rule options,
// the time control and the scoring are read into their types once, when an
// event or a game is created (tournament.RuleNames.Rules,
// games.TimeControl.Control, createTournament), and an unknown name is a 400
// naming the field and the rule.
//
// Where each concept lives (what is not here is in shared/service, whose
// package documentation lists its files):
//
//	routes.go         the route table (Routes), its functions and Roles (who may call)
//	api.go            API, its options, the mux and the Lambda entry points
//	request.go        one request: decoding, Content-Type, Idempotency-Key replay
//	                  (its records: shared/service/replay);
//	                  idemscope.go whose replay an anonymous key's is (the caller's address)
//	observe.go        what a request's log line and metrics hold (their shapes and
//	                  writing: shared/httpapi/telemetry, the edge's logger, the
//	                  Lambda invocation's ids and the EMF lines, apart from the
//	                  application layer because they read Lambda's context and
//	                  environment); usage.go each event's usage
//	                  and its cost (the event a request counts for, counted and
//	                  written: shared/service/usage)
//	auth.go           tokens to principals (service.Caller), requireRole, the
//	                  Credential of event commands (eventCaller)
//	security.go       path ids, the creation key, the origin secret, cache headers
//	errors.go         Error, toError (every error to its status) and JSON writing
//	dto.go            JSON shapes of event settings (time control, rules) in and out;
//	                  what they mean is read in the core (tournament.RuleNames)
//	text.go           quoting in messages
//	records.go        a player as clients see it (shownPlayer: the drawn number)
//	gamestore.go      the game layer as a request calls it (mutateGame, gameStore)
//	tournaments.go    creating events (service.CreateEvent), registering players and
//	                  officials, withdrawals
//	people.go         organiser edits of players, officials' and captains' tokens
//	pause.go          withdraw, pause and resume (service.PlayerStatus)
//	entries.go        entries by the players: open, close, enter, approve, reject,
//	                  the organiser's list (E-1, service.Enter …); qr.go the entry's
//	                  link as a QR code
//	checkin.go        check-in (E-2): the player's or the desk's, the desk's list
//	                  rendered (service.CheckInDesk)
//	festivals.go      festivals (E-3): the festival token, its page and officials
//	                  (service.CreateFestival …)
//	rounds.go         pairing, rounds, changes, start: decoded and answered (the
//	                  command and the work after it: service.ExecPair …; the round
//	                  as shown: service.Event.RoundView)
//	pairjob.go        a big event's round paired as a job: the 202 (where the job
//	                  runs, in process or handed to Lambda: service.StartPairJob),
//	                  GET …/rounds/{n}/job
//	finished.go       GET /tournaments/{tid} and the finished status
//	discovery.go      GET /me (what a token shows: service.Me), the round list,
//	                  the officials, rendered
//	games.go          game handlers: create, read; moves, clock, arrival, draws, claims,
//	                  results, rulings decoded and run as service game commands
//	                  (playGame); votes.go sealed repetition votes, signatures.go
//	                  the scoresheet's signatures, adjourn.go
//	pgnimport.go      game records in: /games/import, /games/{gid}/record (the
//	                  records read and the games made: shared/service/transfer)
//	standings.go      standings, crosstable and final places rendered (service.Tables);
//	                  teamstandings.go the team tables
//	views.go          the public tables kept as views, rendered (their storage,
//	                  chunks and names, opening, paging and patching one:
//	                  shared/service/viewcache); etag.go their
//	                  ETags and cache headers; paging.go pages of rows;
//	                  responseviews.go whole answers kept
//	formats.go        ?format= (JSON or CSV) for every route, the event's games list
//	                  (its rows in round and table order: service.Event.GameViews);
//	                  explainlang.go the reader's language for the pairing reasons
//	                  (the view in it: service.RoundView.In)
//	teams.go          team events: teams and lineups decoded and answered (the
//	                  rosters: service.TeamRosters; a team round's matches and a
//	                  knockout's ties, S-3: service.Event.RoundView)
//	delay.go          the broadcast delay: who reads a game live
//	discipline.go     the discipline report and expulsions (O-2)
//	challenge.go      the challenge ring; ratings.go the rating report
//	mirror.go         the mirror's routes and the read-only refusal every write passes
//	                  (shared/service/mirror; its requests to another stack: mirror/httptransport)
//	transfer.go       export and import of a whole event: the requests and answers
//	                  (paging, staging and every check: shared/service/transfer)
//	rules.go          the rule book; openapi.go the OpenAPI and AsyncAPI documents
//	lambdasize.go     API Gateway's and Lambda's response limits
package httpapi

import (
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/telemetry"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/mirror"
	"github.com/xqtour/xqtour/shared/service/replay"
	"github.com/xqtour/xqtour/shared/service/transfer"
	"github.com/xqtour/xqtour/shared/service/usage"
	"github.com/xqtour/xqtour/shared/service/viewcache"
	"github.com/xqtour/xqtour/shared/store"
)

// API holds what the handlers need: the store, the clock, a logger and the
// deployment's protections (security.go).
type API struct {
	store *store.Store
	now   func() time.Time
	log   *slog.Logger
	pages http.Handler
	// creationKey, when set, is what POST /tournaments and POST /games must
	// present in X-Creation-Key; empty leaves creation open.
	creationKey string
	// retention, when positive, is how long a finished standalone game and
	// an event never paired are kept before DynamoDB's TTL may delete them.
	retention time.Duration
	// originSecret, when set, is the header value CloudFront adds to every
	// request it forwards: a request without it bypassed the per-client limit.
	originSecret string
	// metrics, when set, receives one Embedded Metric Format line per request.
	metrics *telemetry.Metrics
	// usage gathers per-event usage between writes; memoryMB is the
	// function's memory size, which prices its milliseconds.
	usage      *usage.Book
	usageEvery time.Duration
	memoryMB   int
	// svc is the application layer (shared/service) over store.
	svc *service.Service
	// views are the public views kept under each event (views.go).
	views *viewcache.Cache
	// replays are the Idempotency-Key records (request.go).
	replays *replay.Records
	// games is the game layer (shared/service/games) over store.
	games *games.Store
	// exportPage, when positive, is the most one export page holds
	// (ExportPageBytes otherwise).
	exportPage int
	// exportKeyPaged, when positive, is the most entrants an event has
	// whose export is version 1 (WithExportKeyPagedPlayers).
	exportKeyPaged int
	// transfer is the export and import of events and records
	// (shared/service/transfer) over store.
	transfer *transfer.Service
	// mirror is the mirror's service (shared/service/mirror), which sends
	// this stack's mirrors once StartMirrors ran.
	mirror *mirror.Service
	// pairJobPlayers and startPairJob: the size above which rounds are
	// paired as jobs, and where a job runs (pairjob.go).
	pairJobPlayers int
	startPairJob   PairJobStarter
}

// Option configures an API.
type Option func(*API)

// WithClock makes the API read time from now instead of the system clock (tests).
func WithClock(now func() time.Time) Option { return func(a *API) { a.now = now } }

// WithLogger sets the request logger (one JSON line per request by default).
func WithLogger(l *slog.Logger) Option { return func(a *API) { a.log = l } }

// WithPages serves the web client (package web) on the Web function's routes;
// without it those routes are 404 like any unknown path.
func WithPages(h http.Handler) Option { return func(a *API) { a.pages = h } }

// WithCreationKey makes POST /tournaments and POST /games require the key in
// the X-Creation-Key header; "" leaves them open.
func WithCreationKey(key string) Option { return func(a *API) { a.creationKey = key } }

// WithRetention sets how long finished standalone games and events never
// paired are kept (0: for ever).
func WithRetention(d time.Duration) Option { return func(a *API) { a.retention = d } }

// WithOriginSecret makes every route require X-Origin-Verify: secret, the
// header the CloudFront distribution in front of the API adds; "" turns it off.
func WithOriginSecret(secret string) Option { return func(a *API) { a.originSecret = secret } }

// EnvOptions reads the deployment's settings from the environment the
// template gives every function: CREATION_KEY, RETENTION_DAYS and
// ORIGIN_SECRET (each empty or absent: off); inside Lambda
// (AWS_LAMBDA_FUNCTION_NAME set) it also writes metrics to standard output.
func EnvOptions() []Option {
	opts := []Option{WithCreationKey(os.Getenv("CREATION_KEY")), WithOriginSecret(os.Getenv("ORIGIN_SECRET"))}
	if os.Getenv("AWS_LAMBDA_FUNCTION_NAME") != "" {
		// In Lambda, standard output goes to CloudWatch Logs, which reads the
		// Embedded Metric Format lines as metrics.
		opts = append(opts, WithMetrics(os.Stdout))
	}
	if days, err := strconv.Atoi(os.Getenv("RETENTION_DAYS")); err == nil && days > 0 {
		opts = append(opts, WithRetention(time.Duration(days)*24*time.Hour))
	}
	return append(opts, pairJobEnv()...)
}

// New builds the API over st.
func New(st *store.Store, opts ...Option) *API {
	a := &API{store: st, now: time.Now, log: telemetry.NewLogger(os.Stderr), usageEvery: UsageFlushEvery, memoryMB: defaultMemoryMB}
	if mb, err := strconv.Atoi(os.Getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE")); err == nil && mb > 0 {
		a.memoryMB = mb
	}
	if st != nil { // the web pages' function serves pages only and has no store
		st.StampWrites(viewcache.Stamp) // the public views' staleness (views.go)
	}
	for _, o := range opts {
		o(a)
	}
	a.views = viewcache.New(st)
	a.replays = replay.New(st)
	a.usage = usage.New(st, a.log, a.usageEvery)
	a.svc = service.New(st, a.now, service.Options{Retention: a.retention, PairJobPlayers: a.pairJobPlayers, StartPairJob: a.startPairJob}, nil, a.log)
	a.games = a.gameStore() // its ending games are checked by the event layer
	a.svc.Games = a.games
	a.transfer = transfer.New(a.svc, st, a.games, transfer.Options{Keyed: a.creationKey != "", PageBytes: a.exportPage, KeyPagedPlayers: a.exportKeyPaged})
	a.mirror = a.newMirror()
	return a
}

// Handler serves every route: the local stack and tests use it. Each
// response goes through lambdaLimit, so one Lambda would refuse to return
// (over 6 MB as it encodes it) is a 502 here as on AWS.
func (a *API) Handler() http.Handler { return lambdaLimit(a.mux(""), a.log) }

// FunctionHandler serves only the routes of one Lambda function (its logical
// id in template.yaml); other paths are 404 as they would be behind API Gateway.
func (a *API) FunctionHandler(function string) http.Handler { return a.mux(function) }

// mux routes the table's routes (one function's, or all) behind
// collapseSlashes, the same for the local stack and for Lambda.
func (a *API) mux(function string) http.Handler {
	mux := http.NewServeMux()
	for _, rt := range Routes {
		if function != "" && rt.Function != function {
			continue
		}
		if rt.Function == FnWeb {
			if a.pages != nil {
				mux.Handle(rt.Method+" "+pagePattern(rt.Path), a.pages)
			}
			continue
		}
		mux.Handle(rt.Method+" "+rt.Path, a.wrap(rt))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, a.log, &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no route " + quote(r.Method+" "+r.URL.Path)})
	})
	return collapseSlashes(nosniff(mux))
}

// collapseSlashes serves a path with repeated slashes as the path with single
// ones: a client whose BASE ends in "/" asks for //tournaments, and
// http.ServeMux would answer that with a redirect (which a client may follow
// as a GET, dropping the body) instead of serving the route.
func collapseSlashes(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.Path, "//") {
			h.ServeHTTP(w, r)
			return
		}
		u := *r.URL
		u.Path, u.RawPath = squeezeSlashes(u.Path), squeezeSlashes(u.RawPath)
		r2 := r.Clone(r.Context())
		r2.URL = &u
		h.ServeHTTP(w, r2)
	})
}

func squeezeSlashes(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	return p
}

// pagePattern is the ServeMux pattern of a page route: "/" is the home page
// only (API Gateway matches "/" exactly), not every path.
func pagePattern(p string) string {
	if p == "/" {
		return "/{$}"
	}
	return p
}
