// Package embedded runs a DynamoDB-compatible server (minidyn in server mode)
// inside the process, on a loopback port, so the real SDK client reaches it over
// HTTP exactly as it reaches DynamoDB. The local stack, the smoke test and the
// store and handler tests use it; nothing deployed does.
package embedded

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/truora/minidyn/server"

	"github.com/xqtour/xqtour/shared/store"
)

// Server is a running embedded DynamoDB endpoint.
type Server struct {
	// URL is the endpoint to give the SDK (DYNAMODB_ENDPOINT).
	URL       string
	http      *http.Server
	changes   atomic.Int64
	throttle  atomic.Bool
	intercept atomic.Pointer[func(op string, body []byte) Fault]
	feed      atomic.Pointer[func(table string, changes []store.Change)]
	ddb       http.Handler
	index     partitions
	// writeMu orders writes: minidyn applies them, the partition index and
	// the feed see them, in one order.
	writeMu sync.Mutex
}

// Feed calls f after every successful write (PutItem, UpdateItem, DeleteItem,
// TransactWriteItems, BatchWriteItem) with the items it changed, in the order
// they were applied, before the write's response is sent: the local stand-in
// for the table's DynamoDB Stream. f runs while the server holds its write
// order, so it must hand the changes on without blocking and must not call
// the server; nil removes it.
func (s *Server) Feed(f func(table string, changes []store.Change)) {
	if f == nil {
		s.feed.Store(nil)
		return
	}
	s.feed.Store(&f)
}

// Throttle makes every request fail as DynamoDB does when it throttles
// (ThrottlingException), until called with false: tests of the 429 path.
func (s *Server) Throttle(on bool) { s.throttle.Store(on) }

// Fault is what Intercept makes of one request.
type Fault int

// Faults an interceptor may inject.
const (
	// Serve serves the request normally.
	Serve Fault = iota
	// Throttled answers ThrottlingException, as DynamoDB does over capacity.
	Throttled
	// Unavailable answers HTTP 500 InternalServerError, DynamoDB's transient failure.
	Unavailable
)

// Intercept calls f before serving each request with the DynamoDB operation's
// name (GetItem, PutItem, TransactWriteItems, …) and its JSON body, and serves
// it as f says; nil removes it. Tests use it to fail one operation or to run
// another request at an exact point of a race (f may call the API: the
// request waits meanwhile).
func (s *Server) Intercept(f func(op string, body []byte) Fault) {
	if f == nil {
		s.intercept.Store(nil)
		return
	}
	s.intercept.Store(&f)
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves the DynamoDB JSON API.
func Start(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("embedded dynamodb: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String()}
	ddb := server.NewServer()
	s.ddb = ddb
	s.http = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fault := Serve
			op := operation(r.Header.Get("X-Amz-Target"))
			feed := s.feed.Load()
			// Every request's body is read: writes keep the partition
			// index, and the index answers the store's Queries.
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			if f := s.intercept.Load(); f != nil {
				fault = (*f)(op, body)
			}
			if s.throttle.Load() || fault == Throttled {
				w.Header().Set("Content-Type", "application/x-amz-json-1.0")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`))
				return
			}
			if fault == Unavailable {
				w.Header().Set("Content-Type", "application/x-amz-json-1.0")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`))
				return
			}
			if mutates(r.Header.Get("X-Amz-Target")) {
				s.changes.Add(1)
			}
			switch {
			case op == "Query" && s.index.query(w, body):
				return
			case op == "CreateTable", op == "DeleteTable", writes(op):
			default:
				ddb.ServeHTTP(w, r)
				return
			}
			s.writeMu.Lock()
			defer s.writeMu.Unlock()
			rec := &recorder{ResponseWriter: w, status: http.StatusOK}
			ddb.ServeHTTP(rec, r)
			if rec.status != http.StatusOK {
				return
			}
			switch op {
			case "CreateTable":
				s.index.created(body)
			case "DeleteTable":
				s.index.deleted(body)
			default:
				ws := s.writtenBy(op, body, rec.body.Bytes())
				s.index.apply(ws)
				if feed != nil {
					for table, cs := range changes(ws) {
						(*feed)(table, cs)
					}
				}
			}
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() { _ = s.http.Serve(ln) }()
	return s, nil
}

// mutates reports whether a DynamoDB operation may change data, so the local
// stack snapshots only after changes.
func mutates(target string) bool {
	switch operation(target) {
	case "GetItem", "BatchGetItem", "Query", "Scan", "DescribeTable", "TransactGetItems":
		return false
	}
	return true
}

// operation is the DynamoDB operation named by an X-Amz-Target header
// ("DynamoDB_20120810.GetItem" → "GetItem").
func operation(target string) string { return target[strings.LastIndexByte(target, '.')+1:] }

// Changes counts the mutating requests served so far.
func (s *Server) Changes() int64 { return s.changes.Load() }

// Close stops the server. Its callers have finished with the store by then (the local stack saves its
// snapshot first), so connections are closed at once: a graceful Shutdown
// would wait up to 5 s for the SDK's idle-but-new connections.
func (s *Server) Close() error {
	return s.http.Close()
}

// snapshot is the file format: the table's records, versions included.
type snapshot struct {
	Version int
	Records []*store.Record
}

// Save writes every record of st to path atomically (temp file, fsync, rename),
// so a crash mid-write never leaves a torn snapshot.
func Save(ctx context.Context, st *store.Store, path string) error {
	recs, err := st.Export(ctx)
	if err != nil {
		return err
	}
	data, err := json.Marshal(snapshot{Version: 1, Records: recs})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".snapshot-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Load restores a snapshot written by Save; a missing file is an empty table.
func Load(ctx context.Context, st *store.Store, path string) (int, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var snap snapshot
	if err := json.Unmarshal(data, &snap); err != nil {
		return 0, fmt.Errorf("snapshot %s: %w", path, err)
	}
	return len(snap.Records), st.Import(ctx, snap.Records)
}
