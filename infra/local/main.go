// Command local serves every xqtour route over HTTP on one address, backed by
// an embedded DynamoDB-compatible server (minidyn, reached over HTTP by the
// real SDK client) that keeps its table under DATA_DIR — every acknowledged
// write is in a write-ahead log there, fsync'd, before its answer — or by the
// DynamoDB endpoint in DYNAMODB_ENDPOINT when set. It is what `make run` starts.
//
// Environment: ADDR (default 127.0.0.1:3000), DATA_DIR (default ./data),
// TABLE_NAME (default xqtour), DYNAMODB_ENDPOINT (default: embedded),
// DYNAMODB_ADDR (where the embedded DynamoDB listens; default a private
// loopback port — set it, e.g. 127.0.0.1:8000, to let `sam local` reach it;
// it must be a loopback address: the embedded DynamoDB answers unsigned
// requests). CREATION_KEY and RETENTION_DAYS work as in the deployed stack; on
// an address other machines can reach (venue mode: ADDR=0.0.0.0:3000 or a
// LAN address) a creation key is required, one is made and printed when
// CREATION_KEY is unset, and the LAN address is printed with a QR code
// (venue.go). The stack sends the mirrors its events' organisers start.
// LIVE_ORIGINS: browser origins besides its own allowed on the /ws live
// updates socket, comma-separated host patterns ("*" for any); WEBSOCKET_URL
// names the live-updates socket the web pages use (default the same origin's
// /ws); LIVE_CONNECTIONS_PER_CLIENT how many sockets one client address may
// hold open (default 20). The web client's pages are served at /, /t/{tid} and /g/{gid}.
//
// DYNAMODB_FAULTS makes the embedded DynamoDB fail as DynamoDB does now and
// then (embedded.ParseFaults: e.g. "conflict=0.05,throttle=0.05,internal=0.03,
// ambiguous=0.03,latency=0-30ms"; "partition" adds DynamoDB's per-partition
// throughput limits; off when unset): the spec is logged at start,
// and at exit one JSON line {"injected":{"conflict":n,…}} counts what was injected.
//
// The work due on events' rounds (a team round's lineups drawn at its
// deadline, T-3; a knockout's next games a game command could not make,
// S-3) is done by a ticker every DUE_EVERY (a Go duration, default 10s;
// tests shorten it), as the deployed DueWork function does every minute;
// it stops, its run finished, before the data is saved at shutdown.
//
// Live updates are served at ws://ADDR/ws through the same fan-out as the
// deployed stream function, fed by the embedded DynamoDB's change feed (with
// an external DYNAMODB_ENDPOINT there is no feed: the socket accepts
// subscriptions but pushes nothing).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/telemetry"
	"github.com/xqtour/xqtour/shared/live"
	"github.com/xqtour/xqtour/shared/live/localws"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/web"
)

func main() {
	log := telemetry.NewLogger(os.Stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, log); err != nil {
		log.Error("local server stopped", "err", err.Error())
		os.Exit(1)
	}
}

// faultsOut hears the injected-faults line at exit (tests read it).
var faultsOut io.Writer = os.Stderr

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func run(ctx context.Context, log *slog.Logger) error {
	addr := env("ADDR", "127.0.0.1:3000")
	dueEvery, err := durationEnv("DUE_EVERY", 10*time.Second)
	if err != nil {
		return err
	}
	cfg := store.ConfigFromEnv()
	var db *embedded.Server
	dataDir := env("DATA_DIR", "./data")
	if cfg.Endpoint == "" {
		dbAddr := env("DYNAMODB_ADDR", "127.0.0.1:0")
		if err := loopbackOnly(dbAddr); err != nil {
			return err
		}
		var err error
		started := time.Now()
		if db, err = embedded.Open(dbAddr, dataDir); err != nil {
			return err
		}
		db.OnError = func(err error) { log.Error("compaction failed", "err", err.Error()) }
		defer func() {
			if err := db.Close(); err != nil {
				log.Error("closing the data directory", "err", err.Error())
			} else {
				log.Info("data saved", "dir", dataDir)
			}
		}()
		log.Info("data loaded", "dir", dataDir, "ms", time.Since(started).Milliseconds())
		cfg.Endpoint = db.URL
	}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		return err
	}
	if err := st.CreateTable(ctx); err != nil {
		return err
	}
	if db != nil {
		if err := importLegacy(ctx, log, st, filepath.Join(dataDir, cfg.Table+".json")); err != nil {
			return err
		}
		if err := forgetSockets(ctx, st); err != nil {
			return err
		}
	}
	if spec := os.Getenv("DYNAMODB_FAULTS"); spec != "" {
		if db == nil {
			return fmt.Errorf("DYNAMODB_FAULTS: faults are injected by the embedded DynamoDB, and DYNAMODB_ENDPOINT names another")
		}
		faults, err := embedded.ParseFaults(spec)
		if err != nil {
			return err
		}
		// From here on: loading the data directory and creating the table are not faulted.
		db.SetFaults(faults)
		log.Info("injecting DynamoDB faults", "faults", faults.String())
		defer func() {
			line, _ := json.Marshal(map[string]embedded.FaultCounts{"injected": db.Injected()})
			fmt.Fprintf(faultsOut, "%s\n", line)
		}()
	}
	pages, err := web.New(web.Options{WebSocketURL: os.Getenv("WEBSOCKET_URL")})
	if err != nil {
		return err
	}
	if !pages.HasEngine() {
		log.Warn("the browser's rules engine is not built, so /assets/engine.js cannot load it: make run builds it (or go generate ./web before go run ./infra/local)")
	}
	var limits live.Limits // zero fields keep live.DefaultLimits
	if v := os.Getenv("LIVE_CONNECTIONS_PER_CLIENT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("LIVE_CONNECTIONS_PER_CLIENT=%q: want a count ≥ 1", v)
		}
		limits.ConnectionsPerClient = n
	}
	ws := localws.New(st, localws.WithLogger(log), localws.WithOrigins(live.Origins(os.Getenv("LIVE_ORIGINS"))), localws.WithLimits(limits))
	defer ws.Close()
	if db != nil {
		ws.Follow(db, cfg.Table)
	}
	mux := http.NewServeMux()
	mux.Handle("/ws", ws)
	opts := append(httpapi.EnvOptions(), httpapi.WithLogger(log), httpapi.WithPages(pages))
	venue, err := venueMode(addr)
	if err != nil {
		return err
	}
	if venue != nil && venue.key != "" {
		opts = append(opts, httpapi.WithCreationKey(venue.key))
	}
	api := httpapi.New(st, opts...)
	if db != nil { // the mirrors this stack sends follow the embedded DynamoDB's commits (venue.go)
		mctx, mcancel := context.WithCancel(ctx)
		mirrors, err := api.StartMirrors(mctx)
		if err != nil {
			mcancel()
			return err
		}
		defer func() { mcancel(); mirrors.Wait() }()
		db.Tap(func(table string, changes []store.Change) {
			if table == cfg.Table {
				mirrors.Feed(changes)
			}
		})
	}
	stopDue := runDue(ctx, log, api, dueEvery)
	defer stopDue() // before the deferred db.Close: no run writes to a closed store
	mux.Handle("/", cors(api.Handler()))
	srv := newServer(addr, mux)
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	fmt.Fprintf(os.Stderr, "xqtour is listening on http://%s (every route, the web client at /; store: %s)\n", addr, storeName(db, cfg))
	fmt.Fprintf(os.Stderr, "live updates: ws://%s/ws\n", addr)
	venue.print(os.Stderr)
	fmt.Fprintf(os.Stderr, "try: curl -s -X POST http://%s/tournaments -H 'Content-Type: application/json' -d '{\"name\":\"Saturday Swiss\",\"system\":\"swiss\",\"rounds\":7}'\n", addr)
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	api.Flush() // the events' usage not yet written
	return nil  // the deferred db.Close folds the log into the snapshot
}

// durationEnv reads a positive Go duration from the environment (def when unset).
func durationEnv(name string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: want a positive duration such as 10s or 500ms", name, v)
	}
	return d, nil
}

// runDue does the work due (httpapi.API.RunDue) every interval until ctx
// ends or the returned stop is called; stop waits for a run under way.
func runDue(ctx context.Context, log *slog.Logger, api *httpapi.API, every time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if _, err := api.RunDue(ctx); err != nil {
					log.Warn("due work run failed; the next run retries it", "err", err.Error())
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// forgetSockets removes the live connections and subscriptions the data
// directory kept from the last run (a crash leaves them; a clean stop
// disconnects every socket first): their sockets closed with it.
func forgetSockets(ctx context.Context, st *store.Store) error {
	recs, err := st.Export(ctx)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if live.Ephemeral(r) {
			if err := st.Delete(ctx, r.PK, r.SK); err != nil {
				return err
			}
		}
	}
	return nil
}

// newServer bounds every phase of a connection, so a client that sends
// its headers or body slowly, or never reads the answer, cannot hold a
// connection: headers within 10 s, the whole request (bodies are at most
// 64 KB) within 30 s, the answer within 60 s (a 10,000-player pairing
// takes a few seconds; the deployed functions stop at 29 s), an idle
// keep-alive connection closed after 2 minutes, headers at most 64 KB.
func newServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
}

// loopbackOnly refuses an address for the embedded DynamoDB that other
// machines could reach: it answers unsigned requests, so anyone on the
// venue's network could rewrite token hashes and results.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("DYNAMODB_ADDR %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	return fmt.Errorf("DYNAMODB_ADDR %q: the embedded DynamoDB answers unsigned requests, so it listens on a loopback address only (e.g. 127.0.0.1:8000)", addr)
}

func storeName(db *embedded.Server, cfg store.Config) string {
	if db != nil {
		return "embedded, data in " + env("DATA_DIR", "./data")
	}
	return cfg.Endpoint
}

// importLegacy carries over a data directory from before the write-ahead log,
// when the table was saved as one JSON file: its items are written once, then
// the file is renamed so that it is not read again.
func importLegacy(ctx context.Context, log *slog.Logger, st *store.Store, path string) error {
	n, err := embedded.Load(ctx, st, path)
	if err != nil || n == 0 {
		return err
	}
	log.Info("legacy snapshot imported", "path", path, "items", n)
	return os.Rename(path, path+".imported")
}

// cors answers browsers as the deployed HTTP API does (template.yaml's
// CorsConfiguration), so a web client under development can call make run
// from its own origin.
func cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if r.Header.Get("Origin") != "" {
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Expose-Headers", "Retry-After, Idempotent-Replayed")
		}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key, X-Creation-Key")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
