package httpapi

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/transfer"
	"github.com/xqtour/xqtour/shared/store"
)

// The sender. Where it runs: the local stack (infra/local) follows its
// embedded DynamoDB's change feed (Mirrors.Feed); a deployed stack sends no
// mirrors (POST …/mirror is 501 mirror_unavailable there) but is a target.
// Everything the sender keeps is in this stack's own table, so the same
// loop could follow a DynamoDB Stream: Feed takes the stream's changes as
// they are (store.StreamChange), and the queue, state and back-off do not
// depend on the process that fills them.
//
// Commit order: the feed reports each committed write (one transaction is
// one report) in commit order; the capture goroutine appends, for each
// mirrored event a report touches, one queue item (Y#<tid>/Q#<seq>) naming
// the keys it wrote. The sender takes queue items in order and sends the
// items under their keys as they are when it reads them (so a burst of moves
// to one game is sent as the game's latest item, never an older one after a
// newer), together with the last seq it covers; the copy applies a batch
// whose seq is past the last it applied, in one transaction, and ignores one
// that is not (a retry, a duplicate). A queue item is deleted only once the
// copy has acknowledged it: an unreachable or restarted copy loses nothing,
// the queue waits in the table and is sent in order when it answers again,
// with back-off between attempts (0.5 s doubling to 4 s, so a copy back
// after an outage is caught up within seconds).
//
// What a crash of the source between a commit and its queue item would lose,
// a full resend covers: at every start of the sender each running mirror
// queues "the whole event" (every item of its export, sent as changes),
// as it does when the feed outpaced the capture.

// Batch bounds: a request to the copy stays far inside API Gateway's and
// Lambda's 6 MB and 29 s, and within one DynamoDB transaction with room for
// the copy's own items (its state, the games' read-only marks, parts a
// document no longer needs).
const (
	mirrorBatchBytes = 3 << 20
	mirrorBatchItems = 60
	mirrorTimeout    = 25 * time.Second
	mirrorMaxBackoff = 4 * time.Second
	mirrorPoll       = 10 * time.Second
)

// queued is one queue item: the keys one committed write changed, or the
// whole event (a full resend).
type queued struct {
	Keys []store.Key `json:"keys,omitempty"`
	Full bool        `json:"full,omitempty"`
}

// mirrorChanges is a batch POST …/mirror/changes carries.
type mirrorChanges struct {
	// To is the last queued change the batch covers; Final is false on all
	// but the last request of a batch too large for one.
	To      int64             `json:"to"`
	Final   bool              `json:"final"`
	Items   []json.RawMessage `json:"items"`
	Deleted []store.Key       `json:"deleted"`
}

// Mirrors sends this stack's mirrors: the capture of committed changes into
// each mirror's queue and one sending loop per running mirror.
type Mirrors struct {
	a       *API
	ctx     context.Context
	client  *http.Client
	changes chan []store.Change
	overrun atomic.Bool
	wg      sync.WaitGroup

	mu    sync.Mutex
	runs  map[string]*mirrorRun
	games map[string]string // game id → its event, learned from the games' items
}

// mirrorRun is one running mirror.
type mirrorRun struct {
	tid   string
	mu    sync.Mutex // orders enqueue's seq
	seq   int64
	ready atomic.Bool // the event is on the copy: changes may be sent
	wake  chan struct{}
	stop  chan struct{}
}

// StartMirrors starts the sender over this API's store until ctx ends:
// every mirror left running resumes (with a full resend). Feed must be given
// the table's committed changes (the local stack taps its embedded
// DynamoDB); Wait waits for its goroutines after ctx ends.
func (a *API) StartMirrors(ctx context.Context) (*Mirrors, error) {
	m := &Mirrors{a: a, ctx: ctx, client: &http.Client{Timeout: mirrorTimeout},
		changes: make(chan []store.Change, 4096), runs: map[string]*mirrorRun{}, games: map[string]string{}}
	recs, err := a.store.Query(ctx, store.MirrorsPK, "", 0)
	if err != nil {
		return nil, err
	}
	a.mirrors = m
	for _, rec := range recs {
		var o mirrorOut
		if json.Unmarshal(rec.Doc, &o) != nil || o.State != mirrorRunning {
			continue
		}
		r, err := m.register(rec.SK, o.SentSeq)
		if err != nil {
			return nil, err
		}
		if err := m.enqueue(r, queued{Full: true}); err != nil {
			return nil, err
		}
		r.ready.Store(true)
	}
	m.wg.Go(m.capture)
	return m, nil
}

// Wait returns when the sender's goroutines have ended (after its context).
func (m *Mirrors) Wait() { m.wg.Wait() }

// Feed hears committed changes (a commit's, in commit order). It never
// blocks: when the capture falls behind by thousands of commits, the
// mirrors resend their events whole instead.
func (m *Mirrors) Feed(changes []store.Change) {
	select {
	case m.changes <- changes:
	default:
		m.overrun.Store(true)
	}
}

// register starts the sending loop of tid's mirror, its queue continuing
// after seq or the last item queued, whichever is later.
func (m *Mirrors) register(tid string, seq int64) (*mirrorRun, error) {
	q, err := m.a.store.Query(m.ctx, store.MirrorPK(tid), store.QueuedPrefix, 0)
	if err != nil {
		return nil, err
	}
	if n := len(q); n > 0 {
		last, _ := strconv.ParseInt(q[n-1].SK[len(store.QueuedPrefix):], 10, 64)
		seq = max(seq, last)
	}
	r := &mirrorRun{tid: tid, seq: seq, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	m.mu.Lock()
	if old := m.runs[tid]; old != nil {
		close(old.stop)
	}
	m.runs[tid] = r
	m.mu.Unlock()
	m.wg.Go(func() { m.send(r) })
	return r, nil
}

// forget ends tid's sending loop (stopped, handed over).
func (m *Mirrors) forget(tid string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[tid]; r != nil {
		close(r.stop)
		delete(m.runs, tid)
	}
}

func (m *Mirrors) run(tid string) *mirrorRun {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[tid]
}

// enqueue appends a change to r's queue, durably, and wakes its sender.
func (m *Mirrors) enqueue(r *mirrorRun, q queued) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	doc, _ := json.Marshal(q)
	for range 5 {
		rec := &store.Record{PK: store.MirrorPK(r.tid), SK: store.QueuedSK(r.seq + 1), Kind: store.KindQueued, Doc: doc}
		err := m.a.store.Put(context.WithoutCancel(m.ctx), rec)
		r.seq++
		if errors.Is(err, store.ErrConflict) {
			continue // a seq left by an earlier run: take the next
		}
		if err != nil {
			return err
		}
		select {
		case r.wake <- struct{}{}:
		default:
		}
		return nil
	}
	return fmt.Errorf("mirror of %s: could not queue a change", r.tid)
}

// capture turns the feed's commits into queue items of the mirrored events
// they touch.
func (m *Mirrors) capture() {
	for {
		var changes []store.Change
		select {
		case changes = <-m.changes:
		case <-m.ctx.Done():
			return
		}
		if m.overrun.Swap(false) {
			m.mu.Lock()
			runs := make([]*mirrorRun, 0, len(m.runs))
			for _, r := range m.runs {
				runs = append(runs, r)
			}
			m.mu.Unlock()
			for _, r := range runs {
				m.logErr(r.tid, m.enqueue(r, queued{Full: true}))
			}
		}
		byEvent := map[string][]store.Key{}
		seen := map[store.Key]bool{}
		for _, c := range changes {
			tid := m.eventOf(c)
			if tid == "" {
				continue
			}
			k := store.HeadKey(c.Key)
			if !seen[k] {
				seen[k] = true
				byEvent[tid] = append(byEvent[tid], k)
			}
		}
		for tid, keys := range byEvent {
			if r := m.run(tid); r != nil {
				m.logErr(tid, m.enqueue(r, queued{Keys: keys}))
			}
		}
	}
}

func (m *Mirrors) logErr(tid string, err error) {
	if err != nil {
		m.a.log.Error("mirror: queueing a change", "tournament", tid, "err", err.Error())
	}
}

// eventOf is the event a change belongs to: its partition's, or a game's
// (named in the game's item; a removed game's as learned before).
func (m *Mirrors) eventOf(c store.Change) string {
	if tid, ok := store.TournamentOf(c.Key.PK); ok {
		return tid
	}
	gid, ok := store.GameOf(c.Key.PK)
	if !ok {
		return ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if c.New != nil && c.New.Kind == store.KindGame {
		if tid := linkedEvent(c.New.Doc); tid != "" {
			m.games[gid] = tid
		}
	}
	return m.games[gid]
}

// linkedEvent reads the event a game item's document links it to (the
// link leads the document, decodeGame).
func linkedEvent(doc []byte) string {
	n, k := binary.Uvarint(doc)
	if k <= 0 || uint64(len(doc)-k) < n {
		return ""
	}
	var l games.Link
	if json.Unmarshal(doc[k:k+int(n)], &l) != nil {
		return ""
	}
	return l.Tournament
}

// send is r's loop: drain the queue when woken (or every mirrorPoll), back
// off after a failure.
func (m *Mirrors) send(r *mirrorRun) {
	wait, failures := time.Duration(0), 0
	for {
		timer := time.NewTimer(wait)
		wake := r.wake
		if failures > 0 {
			wake = nil // a new change does not cut a back-off short
		}
		select {
		case <-wake:
		case <-timer.C:
		case <-r.stop:
			timer.Stop()
			return
		case <-m.ctx.Done():
			timer.Stop()
			return
		}
		timer.Stop()
		if !r.ready.Load() {
			wait = 100 * time.Millisecond
			continue
		}
		err := m.drain(r)
		if err == nil {
			wait, failures = mirrorPoll, 0
			continue
		}
		failures++
		wait = min(mirrorMaxBackoff, 500*time.Millisecond<<min(failures-1, 6))
		wait += time.Duration(rand.Int64N(int64(wait / 5))) // many venues do not retry in step
		m.a.log.Warn("mirror: sending failed", "tournament", r.tid, "err", err.Error(), "retryIn", wait.String())
		c := m.a.bgCall(m.ctx)
		msg := err.Error()
		_, _ = m.a.updateMirrorOut(c, r.tid, func(o *mirrorOut) bool {
			o.LastError, o.LastErrorAt = msg, c.nowMs()
			return true
		})
	}
}

// bgCall is a call for work outside a request (the sender).
func (a *API) bgCall(ctx context.Context) *call {
	r, _ := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	return &call{r: r, now: a.now().UTC()}
}

// drain sends r's queue, in order, until it is empty.
func (m *Mirrors) drain(r *mirrorRun) error {
	for {
		select {
		case <-r.stop:
			return nil
		default:
		}
		c := m.a.bgCall(m.ctx)
		o, _, err := m.a.loadMirrorOut(c, r.tid)
		if err != nil {
			return err
		}
		if o == nil || o.State != mirrorRunning {
			m.forget(r.tid)
			return nil
		}
		q, err := m.a.store.Query(c.ctx(), store.MirrorPK(r.tid), store.QueuedPrefix, 0)
		if err != nil || len(q) == 0 {
			return err
		}
		// A batch: queue items in order up to mirrorBatchItems keys; a full
		// resend goes alone.
		var keys []store.Key
		seen := map[store.Key]bool{}
		n := 0
		for _, rec := range q {
			var item queued
			if err := json.Unmarshal(rec.Doc, &item); err != nil {
				return fmt.Errorf("decode queued change %s: %w", rec.SK, err)
			}
			if item.Full {
				if n > 0 {
					break
				}
				if keys, err = m.eventKeys(c, r.tid); err != nil {
					return err
				}
				n = 1
				break
			}
			if n > 0 && len(keys)+len(item.Keys) > mirrorBatchItems {
				break
			}
			for _, k := range item.Keys {
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
			n++
		}
		to, _ := strconv.ParseInt(q[n-1].SK[len(store.QueuedPrefix):], 10, 64)
		if err := m.sendKeys(c, o, r.tid, to, keys); err != nil {
			var taken *takenOver
			if errors.As(err, &taken) {
				_, herr := m.a.handOver(c, r.tid)
				return herr
			}
			return err
		}
		for _, rec := range q[:n] {
			if err := m.a.store.Delete(c.ctx(), rec.PK, rec.SK); err != nil {
				return err
			}
		}
		if _, err := m.a.updateMirrorOut(c, r.tid, func(o *mirrorOut) bool {
			o.SentSeq, o.Sent, o.LastSentAt, o.LastError, o.LastErrorAt = to, o.Sent+int64(n), c.nowMs(), "", 0
			return true
		}); err != nil {
			return err
		}
	}
}

// eventKeys are the keys of every item of event tid's export.
func (m *Mirrors) eventKeys(c *call, tid string) ([]store.Key, error) {
	lines, err := m.a.transfer.Lines(c.ctx(), tid)
	if err != nil {
		return nil, err
	}
	var keys []store.Key
	for _, l := range lines {
		it, err := store.ParseItem(l)
		if err != nil {
			return nil, err
		}
		if !it.IsPart() {
			keys = append(keys, store.Key{PK: it.PK, SK: it.SK})
		}
	}
	return keys, nil
}

// takenOver is the copy's answer that it was taken over.
type takenOver struct{ msg string }

func (t *takenOver) Error() string { return t.msg }

// sendKeys sends the items under keys as they are now (absent ones as
// removed), in as few requests as the batch bounds allow, the last Final.
func (m *Mirrors) sendKeys(c *call, o *mirrorOut, tid string, to int64, keys []store.Key) error {
	items, err := m.a.store.ItemsOf(c.ctx(), keys...)
	if err != nil {
		return err
	}
	batch := mirrorChanges{To: to, Items: []json.RawMessage{}, Deleted: []store.Key{}}
	size := 0
	flush := func(final bool) error {
		batch.Final = final
		body, _ := json.Marshal(batch)
		status, resp, err := m.post(c.ctx(), o.Target+"/tournaments/"+tid+"/mirror/changes", map[string]string{"Authorization": "Bearer " + o.Token}, body)
		if err != nil {
			return err
		}
		if status == http.StatusConflict && remoteCode(resp) == "mirror_taken_over" {
			return &takenOver{msg: remoteError(status, resp).Error()}
		}
		if status/100 != 2 {
			return remoteError(status, resp)
		}
		batch.Items, batch.Deleted, size = []json.RawMessage{}, []store.Key{}, 0
		return nil
	}
	for _, k := range keys {
		got, ok := items[k]
		if !ok {
			batch.Deleted = append(batch.Deleted, k)
			continue
		}
		var lines []json.RawMessage
		n := 0
		for _, it := range got {
			l, err := it.MarshalJSON()
			if err != nil {
				return err
			}
			lines = append(lines, l)
			n += len(l)
		}
		if len(batch.Items) > 0 && (size+n > mirrorBatchBytes || len(batch.Items)+len(lines) > mirrorBatchItems) {
			if err := flush(false); err != nil {
				return err
			}
		}
		batch.Items = append(batch.Items, lines...)
		size += n
	}
	return flush(true)
}

// post sends a JSON body to another stack.
func (m *Mirrors) post(ctx context.Context, url string, headers map[string]string, body []byte) (int, []byte, error) {
	return mirrorPost(ctx, m.client, url, "application/json", headers, body)
}

func mirrorPost(ctx context.Context, client *http.Client, url, contentType string, headers map[string]string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", contentType)
	for k, v := range headers {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("the target is unreachable: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, data, err
}

// remoteCode is the error code of another stack's error answer.
func remoteCode(body []byte) string {
	var e errorBody
	_ = json.Unmarshal(body, &e)
	return e.Error.Code
}

// remoteError describes another stack's error answer.
func remoteError(status int, body []byte) error {
	var e errorBody
	if json.Unmarshal(body, &e) == nil && e.Error.Code != "" {
		return fmt.Errorf("the target answered %d %s: %s", status, e.Error.Code, e.Error.Message)
	}
	return fmt.Errorf("the target answered %d: %s", status, clip(string(body), 200))
}

// begin starts tid's mirror: its state first, so that every change from
// now on is queued; then the copy is claimed and (a new copy) the event
// sent whole through the target's import; then the queue is sent. A step
// that fails leaves the mirror stopped, with the reason as its last error.
func (m *Mirrors) begin(c *call, tid string, rec *store.Record, o *mirrorOut, creationKey string) error {
	rec.Doc, _ = json.Marshal(o)
	if err := m.a.store.Put(c.ctx(), rec); errors.Is(err, store.ErrConflict) {
		return &Error{Status: http.StatusConflict, Code: "mirror_active", Message: "another mirror of tournament " + tid + " began at the same moment"}
	} else if err != nil {
		return err
	}
	m.a.dropQueue(c, tid) // a stopped mirror's
	r, err := m.register(tid, o.SentSeq)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		m.forget(tid)
		msg := err.Error()
		_, _ = m.a.updateMirrorOut(c, tid, func(o *mirrorOut) bool {
			o.State, o.LastError, o.LastErrorAt = mirrorStopped, msg, c.nowMs()
			return true
		})
		m.a.dropQueue(c, tid)
		return &Error{Status: http.StatusBadGateway, Code: "mirror_unreachable", Message: "the mirror did not begin: " + msg}
	}
	t, _, err := m.a.loadTournament(c.ctx(), tid)
	if err != nil {
		return fail(err)
	}
	claim, _ := json.Marshal(replicaBody{Source: o.Source, Token: o.Token, EventKey: t.Key})
	keyHeader := map[string]string{CreationKeyHeader: creationKey}
	status, resp, err := m.post(c.ctx(), o.Target+"/tournaments/"+tid+"/mirror/replica", keyHeader, claim)
	if err != nil {
		return fail(err)
	}
	if status/100 != 2 {
		return fail(remoteError(status, resp))
	}
	var claimed replicaOut
	_ = json.Unmarshal(resp, &claimed)
	if claimed.Existing {
		// A copy made by an earlier mirror: it gets the event again as changes.
		if err := m.enqueue(r, queued{Full: true}); err != nil {
			return fail(err)
		}
	} else if err := m.sendExport(c, o.Target, tid, creationKey); err != nil {
		return fail(err)
	}
	r.ready.Store(true)
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return nil
}

// sendExport imports the event whole into the target, as an organiser
// moving it would: one export, or its pages in order, to POST
// /tournaments/import, where every check of an import applies.
func (m *Mirrors) sendExport(c *call, target, tid, creationKey string) error {
	lines, err := m.a.transfer.Lines(c.ctx(), tid)
	if err != nil {
		return err
	}
	snapshot := transfer.Snapshot(lines)
	importToken := ""
	for start := 0; start < len(lines); {
		end := transfer.PageEnd(lines, start, 0, m.a.transfer.PageBudget()-1024)
		var head []byte
		switch {
		case start == 0 && end == len(lines):
			head, _ = json.Marshal(transfer.Header{Format: transfer.Format, Version: 1, TournamentID: tid, ExportedAt: rfc3339(c.nowMs()), Items: len(lines)})
		case start == 0:
			head, _ = json.Marshal(transfer.Header{Format: transfer.Format, Version: 1, TournamentID: tid, ExportedAt: rfc3339(c.nowMs()), Items: len(lines),
				Snapshot: snapshot, PartItems: end, Next: "/tournaments/import"})
		default:
			head, _ = json.Marshal(transfer.PartHeader{Format: transfer.PartFormat, Version: 1, TournamentID: tid, Snapshot: snapshot, Offset: start, Items: end - start, Total: len(lines)})
		}
		var b bytes.Buffer
		b.Write(head)
		b.WriteByte('\n')
		for _, l := range lines[start:end] {
			b.Write(l)
			b.WriteByte('\n')
		}
		headers := map[string]string{CreationKeyHeader: creationKey}
		if importToken != "" {
			headers["Authorization"] = "Bearer " + importToken
		}
		status, resp, err := mirrorPost(c.ctx(), m.client, target+"/tournaments/import", "application/x-ndjson", headers, b.Bytes())
		if err != nil {
			return err
		}
		if status/100 != 2 {
			return remoteError(status, resp)
		}
		var out importOut
		_ = json.Unmarshal(resp, &out)
		if out.ImportToken != "" {
			importToken = out.ImportToken
		}
		start = end
	}
	return nil
}

// notifySource tells a copy's source that the copy was taken over, with the
// organiser token the takeover came with; it reports whether the source
// acknowledged (one that is out of reach learns it from the copy's answer
// to its next change).
func (a *API) notifySource(c *call, tid, source string) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.ctx()), 5*time.Second)
	defer cancel()
	status, _, err := mirrorPost(ctx, http.DefaultClient, source+"/tournaments/"+tid+"/mirror/handover", "application/json",
		map[string]string{"Authorization": c.r.Header.Get("Authorization")}, []byte("{}"))
	return err == nil && status == http.StatusOK
}
