// Package embedded runs a DynamoDB-compatible server (minidyn in server mode)
// inside the process, on a loopback port, so the real SDK client reaches it over
// HTTP exactly as it reaches DynamoDB. The local stack, the smoke test and the
// store and handler tests use it; nothing deployed does.
//
// # Durability
//
// Start keeps the table in memory only (tests). Open keeps it in a data
// directory: a snapshot (snapshot.bin) and an append-only log (wal-N.log).
// Every write the engine commits hands the item images it left (a whole
// transaction in one record) to the log while the engine still holds its
// lock, so the log's order is the commit order; the HTTP answer is held back
// until the flusher has written and fsync'd that record. The flusher writes
// everything that accumulated during the previous fsync with a single fsync
// (group commit), so concurrent writers share the cost. Records carry their
// length and a CRC-32C: on start the snapshot is loaded and the log replayed,
// and a torn last record (the crash hit mid-write) is cut off. When the log
// has grown by CompactBytes, and on Close, every item as of one instant is
// written to a new snapshot (temporary file, fsync, rename) while writes
// continue into a new log segment; older segments are then deleted.
//
// Logging item images rather than requests makes replay a plain put of each
// image: no condition is evaluated twice, and what was acknowledged is
// exactly what comes back. A read may see a write whose answer still waits
// for the disk; a write made after that read is logged after it, so no
// acknowledged write can depend on one a crash loses.
//
// # Why a patched minidyn
//
// Upstream minidyn's TransactWriteItems deep-copied every table for rollback,
// an insert re-sorted every key and a Query visited every item: costs that
// grow with the table, all inside the engine's lock. Working around that from
// here would mean re-implementing transactions over the HTTP API with our own
// locks (and still paying for the Query scan), so the module is vendored under
// infra/minidyn with a small patch (infra/minidyn/NOTES.md): per-item undo for
// transactions, keys kept in order per partition, and the commit hook the log
// needs. DynamoDB's semantics — all-or-nothing transactions, ConditionCheck,
// TransactionCanceledException with cancellation reasons — are unchanged and
// the store tests check them over HTTP with the real SDK.
//
// # Failing as DynamoDB does
//
// The engine never fails on its own; faults.go injects DynamoDB's failures
// (conflicts, throttles, internal errors, lost answers, latency) and
// throughput.go its per-partition throughput limits, each when asked
// (DYNAMODB_FAULTS, SetFaults, LimitPartitions).
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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/truora/minidyn/server"

	"github.com/xqtour/xqtour/shared/store"
)

// TableActivationDelay is how long a table the API creates stays CREATING
// before it is ACTIVE; meanwhile data operations on it answer
// ResourceNotFoundException, as DynamoDB's do, so a caller that uses a table
// before it is ACTIVE (store.Store.CreateTable waits) fails here as it would on AWS.
const TableActivationDelay = 10 * time.Millisecond

// Server is a running embedded DynamoDB endpoint.
type Server struct {
	// URL is the endpoint to give the SDK (DYNAMODB_ENDPOINT).
	URL string
	// OnError, when set before the first write, hears of failed background
	// compactions (the log keeps everything meanwhile).
	OnError   func(error)
	http      *http.Server
	ddb       *server.Server
	throttle  atomic.Bool
	intercept atomic.Pointer[func(op string, body []byte) Fault]
	feed      atomic.Pointer[func(table string, changes []store.Change)]
	taps      atomic.Pointer[[]func(table string, changes []store.Change)] // Tap's listeners, besides feed
	faults    atomic.Pointer[Faults]
	limiter   atomic.Pointer[limiter]
	injected  faultCounters
	tokens    clientTokens
	hooked    sync.Once

	// schemaMu makes table creation and deletion exclusive: minidyn does not
	// lock them, and the log must not record an item before its table.
	schemaMu sync.RWMutex
	schema   [][]byte // schema records that rebuild the tables, in order

	dir           string // data directory; "" keeps nothing
	wal           *wal
	compacting    sync.Mutex
	snapshotSize  atomic.Int64 // bytes of the current snapshot
	logged        atomic.Bool  // the log holds records the snapshot does not
	stop, stopped chan struct{}
	closeOnce     sync.Once
	closeErr      error
}

// SetTableActivationDelay sets how long tables created from now on stay
// CREATING (TableActivationDelay unless set): tests of the wait use a long one.
func (s *Server) SetTableActivationDelay(d time.Duration) { s.ddb.SetTableActivationDelay(d) }

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

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves the
// DynamoDB JSON API from memory only; Open keeps the data on disk.
func Start(addr string) (*Server, error) {
	s := newServer()
	s.ddb.SetTableActivationDelay(TableActivationDelay)
	if err := s.listen(addr); err != nil {
		return nil, err
	}
	return s, nil
}

func newServer() *Server { return &Server{ddb: server.NewServer()} }

func (s *Server) listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("embedded dynamodb: %w", err)
	}
	s.URL = "http://" + ln.Addr().String()
	s.http = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.http.Serve(ln) }()
	return nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	op := operation(target)
	schemaOp := op == "CreateTable" || op == "UpdateTable" || op == "DeleteTable"
	var body []byte
	// A transaction's body is read for its ClientRequestToken (tokens.go).
	if s.intercept.Load() != nil || (schemaOp && s.wal != nil) || s.needsBody() || op == "TransactWriteItems" {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	fault := Serve
	if f := s.intercept.Load(); f != nil {
		fault = (*f)(op, body)
	}
	if s.throttle.Load() || fault == Throttled {
		writeAPIError(w, http.StatusBadRequest, "ThrottlingException", "Rate of requests exceeds the allowed throughput.")
		return
	}
	if fault == Unavailable {
		writeAPIError(w, http.StatusInternalServerError, "InternalServerError", "Internal server error")
		return
	}
	if l := s.limiter.Load(); l != nil && !schemaOp {
		s.limited(l, w, op, body, func(w http.ResponseWriter) { s.drawAndServe(w, r, target, op, schemaOp, body) })
		return
	}
	s.drawAndServe(w, r, target, op, schemaOp, body)
}

// drawAndServe serves a request, or the fault the injector draws for it.
func (s *Server) drawAndServe(w http.ResponseWriter, r *http.Request, target, op string, schemaOp bool, body []byte) {
	switch fl := s.draw(op, body); fl {
	case noFault:
	case ambiguousFault:
		// The write is applied (and logged) in full; only its answer is lost.
		s.serveOp(&heldResponse{header: http.Header{}, status: http.StatusOK}, r, target, op, schemaOp, body)
		loseAnswer(w)
		return
	default:
		refuse(w, fl, op, body)
		return
	}
	s.serveOp(w, r, target, op, schemaOp, body)
}

// serveOp serves one DynamoDB request on the engine, holding a write's
// answer until the log has it on disk.
func (s *Server) serveOp(w http.ResponseWriter, r *http.Request, target, op string, schemaOp bool, body []byte) {
	if op == "TransactWriteItems" {
		if s.tokens.serve(w, r, body, func(w http.ResponseWriter, r *http.Request) { s.serveOp(w, r, target, "", false, body) }) {
			return
		}
	}
	if !mutates(target) {
		s.schemaMu.RLock()
		defer s.schemaMu.RUnlock()
		s.ddb.ServeHTTP(w, r)
		return
	}
	if s.wal == nil {
		if schemaOp {
			s.schemaMu.Lock()
			defer s.schemaMu.Unlock()
		} else {
			s.schemaMu.RLock()
			defer s.schemaMu.RUnlock()
		}
		s.ddb.ServeHTTP(w, r)
		return
	}
	// Durable: the answer is held back until what the request changed is
	// in the log on disk (OnCommit appended it while the engine applied it).
	res := &heldResponse{header: http.Header{}, status: http.StatusOK}
	if schemaOp {
		s.schemaMu.Lock()
		s.ddb.ServeHTTP(res, r)
		if res.status == http.StatusOK {
			rec := encodeSchema(op, body)
			s.schema = append(s.schema, rec)
			s.logged.Store(true)
			s.wal.append(rec)
		}
		s.schemaMu.Unlock()
	} else {
		s.schemaMu.RLock()
		s.ddb.ServeHTTP(res, r)
		s.schemaMu.RUnlock()
	}
	if err := s.wal.wait(s.wal.last()); err != nil {
		writeAPIError(w, http.StatusInternalServerError, "InternalServerError", "the write-ahead log failed")
		return
	}
	for k, v := range res.header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.status)
	_, _ = w.Write(res.body.Bytes())
}

// heldResponse keeps an answer until it may be sent.
type heldResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (h *heldResponse) Header() http.Header         { return h.header }
func (h *heldResponse) WriteHeader(status int)      { h.status = status }
func (h *heldResponse) Write(b []byte) (int, error) { return h.body.Write(b) }

func writeAPIError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, code, message)
}

// mutates reports whether a DynamoDB operation may change data, so that its
// answer waits for the log.
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

// Close stops the server. Its callers have finished with the store by then,
// so connections are closed at once: a graceful Shutdown would wait up to 5 s
// for the SDK's idle-but-new connections. With a data directory, the log is
// then folded into a fresh snapshot and closed.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.closeErr = s.http.Close()
		if s.wal == nil {
			return
		}
		close(s.stop)
		<-s.stopped
		var err error
		if s.logged.Load() { // else the snapshot has everything already
			err = s.Compact()
		}
		if cerr := s.wal.close(); err == nil {
			err = cerr
		}
		if s.closeErr == nil {
			s.closeErr = err
		}
	})
	return s.closeErr
}

// Legacy snapshots: before the log, the local stack saved the table as JSON
// every two seconds. Load still reads such a file, once, to carry a data
// directory over.

// snapshot is the file format: the table's records, versions included.
type snapshot struct {
	Version int
	Records []*store.Record
}

// Load writes the records of a legacy JSON snapshot into st; a missing file is nothing to load.
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
