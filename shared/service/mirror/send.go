package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
)

// The sender. Where it runs: the local stack (infra/local) follows its
// embedded DynamoDB's change feed (Sender.Feed); a deployed stack sends no
// mirrors (its Service never starts sending, Sends is false) but is a
// target. Everything the sender keeps is in this stack's own table, so the
// same loop could follow a DynamoDB Stream: Feed takes the stream's changes
// as they are (store.StreamChange), and the queue, state and back-off do not
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
	batchBytes = 3 << 20
	batchItems = 60
	// Timeout is the longest a Transport should wait for another stack's answer.
	Timeout    = 25 * time.Second
	maxBackoff = 4 * time.Second
	poll       = 10 * time.Second
)

// Batch is a batch of a source's changes, the body of the copy's POST
// …/mirror/changes: the items as they are now (DynamoDB JSON, parts
// included) and the keys of those removed.
type Batch struct {
	// To is the last queued change the batch covers; Final is false on all
	// but the last request of a batch too large for one.
	To      int64             `json:"to"`
	Final   bool              `json:"final"`
	Items   []json.RawMessage `json:"items"`
	Deleted []store.Key       `json:"deleted"`
}

// Sender sends this stack's mirrors: the capture of committed changes into
// each mirror's queue and one sending loop per running mirror.
type Sender struct {
	s       *Service
	ctx     context.Context
	changes chan []store.Change
	overrun atomic.Bool
	wg      sync.WaitGroup

	mu    sync.Mutex
	runs  map[string]*run
	games map[string]string // game id → its event, learned from the games' items
}

// run is one running mirror.
type run struct {
	tid   string
	mu    sync.Mutex // orders enqueue's seq
	seq   int64
	ready atomic.Bool // the event is on the copy: changes may be sent
	wake  chan struct{}
	stop  chan struct{}
}

// StartSending starts the sender over this Service's store until ctx ends:
// every mirror left running resumes (with a full resend). It is called
// once, before the stack serves. Feed must be given the table's committed
// changes (the local stack taps its embedded DynamoDB); Wait waits for its
// goroutines after ctx ends.
func (s *Service) StartSending(ctx context.Context) (*Sender, error) {
	m := &Sender{s: s, ctx: ctx, changes: make(chan []store.Change, 4096), runs: map[string]*run{}, games: map[string]string{}}
	recs, err := s.Store.Query(ctx, store.MirrorsPK, "", 0)
	if err != nil {
		return nil, err
	}
	s.sender = m
	for _, rec := range recs {
		var o items.Mirror
		if items.Decode(rec, &o) != nil || o.State != Running {
			continue
		}
		r, err := m.register(rec.SK, o.SentSeq)
		if err != nil {
			return nil, err
		}
		if err := m.enqueue(r, items.Queued{Full: true}); err != nil {
			return nil, err
		}
		r.ready.Store(true)
	}
	m.wg.Go(m.capture)
	return m, nil
}

// Wait returns when the sender's goroutines have ended (after its context).
func (m *Sender) Wait() { m.wg.Wait() }

// Feed hears committed changes (a commit's, in commit order). It never
// blocks: when the capture falls behind by thousands of commits, the
// mirrors resend their events whole instead.
func (m *Sender) Feed(changes []store.Change) {
	select {
	case m.changes <- changes:
	default:
		m.overrun.Store(true)
	}
}

// seqOf is the seq a queue item's sort key names.
func seqOf(sk string) int64 {
	n, _ := strconv.ParseInt(sk[len(store.QueuedPrefix):], 10, 64)
	return n
}

// register starts the sending loop of tid's mirror, its queue continuing
// after seq or the last item queued, whichever is later.
func (m *Sender) register(tid string, seq int64) (*run, error) {
	q, err := m.s.Store.Query(m.ctx, store.MirrorPK(tid), store.QueuedPrefix, 0)
	if err != nil {
		return nil, err
	}
	if n := len(q); n > 0 {
		seq = max(seq, seqOf(q[n-1].SK))
	}
	r := &run{tid: tid, seq: seq, wake: make(chan struct{}, 1), stop: make(chan struct{})}
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
func (m *Sender) forget(tid string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.runs[tid]; r != nil {
		close(r.stop)
		delete(m.runs, tid)
	}
}

func (m *Sender) run(tid string) *run {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.runs[tid]
}

// enqueue appends a change to r's queue, durably, and wakes its sender.
func (m *Sender) enqueue(r *run, q items.Queued) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for range 5 {
		rec := items.Encode(&store.Record{PK: store.MirrorPK(r.tid), SK: store.QueuedSK(r.seq + 1), Kind: store.KindQueued}, q)
		err := m.s.Store.Put(context.WithoutCancel(m.ctx), rec)
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
func (m *Sender) capture() {
	for {
		var changes []store.Change
		select {
		case changes = <-m.changes:
		case <-m.ctx.Done():
			return
		}
		if m.overrun.Swap(false) {
			m.mu.Lock()
			runs := make([]*run, 0, len(m.runs))
			for _, r := range m.runs {
				runs = append(runs, r)
			}
			m.mu.Unlock()
			for _, r := range runs {
				m.logErr(r.tid, m.enqueue(r, items.Queued{Full: true}))
			}
		}
		byEvent := map[string][]items.Key{}
		seen := map[store.Key]bool{}
		for _, c := range changes {
			tid := m.eventOf(c)
			if tid == "" {
				continue
			}
			k := store.HeadKey(c.Key)
			if !seen[k] {
				seen[k] = true
				byEvent[tid] = append(byEvent[tid], items.Key{PK: k.PK, SK: k.SK})
			}
		}
		for tid, keys := range byEvent {
			if r := m.run(tid); r != nil {
				m.logErr(tid, m.enqueue(r, items.Queued{Keys: keys}))
			}
		}
	}
}

func (m *Sender) logErr(tid string, err error) {
	if err != nil {
		m.s.Log.Error("mirror: queueing a change", "tournament", tid, "err", err.Error())
	}
}

// eventOf is the event a change belongs to: its partition's, or a game's
// (named in the game's item; a removed game's as learned before).
func (m *Sender) eventOf(c store.Change) string {
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
		if l, err := games.LinkOf(c.New); err == nil && l.Tournament != "" {
			m.games[gid] = l.Tournament
		}
	}
	return m.games[gid]
}

// send is r's loop: drain the queue when woken (or every poll), back off
// after a failure.
func (m *Sender) send(r *run) {
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
			wait, failures = poll, 0
			continue
		}
		failures++
		wait = min(maxBackoff, 500*time.Millisecond<<min(failures-1, 6))
		wait += time.Duration(rand.Int64N(int64(wait / 5))) // many venues do not retry in step
		m.s.Log.Warn("mirror: sending failed", "tournament", r.tid, "err", err.Error(), "retryIn", wait.String())
		msg, at := err.Error(), m.s.Clock().UnixMilli()
		_, _ = m.s.updateMirror(m.ctx, r.tid, func(o *items.Mirror) bool {
			o.LastError, o.LastErrorAt = msg, at
			return true
		})
	}
}

// drain sends r's queue, in order, until it is empty.
func (m *Sender) drain(r *run) error {
	for {
		select {
		case <-r.stop:
			return nil
		default:
		}
		ctx := m.ctx
		o, _, err := m.s.loadMirror(ctx, r.tid)
		if err != nil {
			return err
		}
		if o == nil || o.State != Running {
			m.forget(r.tid)
			return nil
		}
		q, err := m.s.Store.Query(ctx, store.MirrorPK(r.tid), store.QueuedPrefix, 0)
		if err != nil || len(q) == 0 {
			return err
		}
		// A batch: queue items in order up to batchItems keys; a full
		// resend goes alone.
		var keys []store.Key
		seen := map[store.Key]bool{}
		n := 0
		for _, rec := range q {
			var item items.Queued
			if err := items.Decode(rec, &item); err != nil {
				return err
			}
			if item.Full {
				if n > 0 {
					break
				}
				if keys, err = m.eventKeys(ctx, r.tid); err != nil {
					return err
				}
				n = 1
				break
			}
			if n > 0 && len(keys)+len(item.Keys) > batchItems {
				break
			}
			for _, ik := range item.Keys {
				if k := (store.Key{PK: ik.PK, SK: ik.SK}); !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
			n++
		}
		to := seqOf(q[n-1].SK)
		if err := m.sendKeys(ctx, o, r.tid, to, keys); err != nil {
			var taken *takenOver
			if errors.As(err, &taken) {
				_, herr := m.s.handOver(ctx, r.tid)
				return herr
			}
			return err
		}
		for _, rec := range q[:n] {
			if err := m.s.Store.Delete(ctx, rec.PK, rec.SK); err != nil {
				return err
			}
		}
		at := m.s.Clock().UnixMilli()
		if _, err := m.s.updateMirror(ctx, r.tid, func(o *items.Mirror) bool {
			o.SentSeq, o.Sent, o.LastSentAt, o.LastError, o.LastErrorAt = to, o.Sent+int64(n), at, "", 0
			return true
		}); err != nil {
			return err
		}
	}
}

// eventKeys are the keys of every item of event tid's export.
func (m *Sender) eventKeys(ctx context.Context, tid string) ([]store.Key, error) {
	lines, err := m.s.Transfer.Lines(ctx, tid)
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

// post sends a JSON body to another stack.
func (m *Sender) post(ctx context.Context, url string, headers map[string]string, body []byte) (Answer, error) {
	return m.s.post(ctx, url, "application/json", headers, body)
}

// post sends a body to another stack; a failure to get an answer names
// the target as unreachable.
func (s *Service) post(ctx context.Context, url, contentType string, headers map[string]string, body []byte) (Answer, error) {
	ans, err := s.Transport.Post(ctx, url, contentType, headers, body)
	if err != nil {
		return Answer{}, fmt.Errorf("the target is unreachable: %w", err)
	}
	return ans, nil
}

// sendKeys sends the items under keys as they are now (absent ones as
// removed), in as few requests as the batch bounds allow, the last Final.
func (m *Sender) sendKeys(ctx context.Context, o *items.Mirror, tid string, to int64, keys []store.Key) error {
	got, err := m.s.Store.ItemsOf(ctx, keys...)
	if err != nil {
		return err
	}
	batch := Batch{To: to, Items: []json.RawMessage{}, Deleted: []store.Key{}}
	size := 0
	flush := func(final bool) error {
		batch.Final = final
		body, _ := json.Marshal(batch)
		ans, err := m.post(ctx, o.Target+"/tournaments/"+tid+"/mirror/changes", map[string]string{"Authorization": "Bearer " + o.Token}, body)
		if err != nil {
			return err
		}
		if ans.Status == 409 && ans.Code == "mirror_taken_over" {
			return &takenOver{msg: ans.err().Error()}
		}
		if !ans.ok() {
			return ans.err()
		}
		batch.Items, batch.Deleted, size = []json.RawMessage{}, []store.Key{}, 0
		return nil
	}
	for _, k := range keys {
		its, ok := got[k]
		if !ok {
			batch.Deleted = append(batch.Deleted, k)
			continue
		}
		var lines []json.RawMessage
		n := 0
		for _, it := range its {
			l, err := it.MarshalJSON()
			if err != nil {
				return err
			}
			lines = append(lines, l)
			n += len(l)
		}
		if len(batch.Items) > 0 && (size+n > batchBytes || len(batch.Items)+len(lines) > batchItems) {
			if err := flush(false); err != nil {
				return err
			}
		}
		batch.Items = append(batch.Items, lines...)
		size += n
	}
	return flush(true)
}

// Claim is a copy's claim, the body of the target's POST …/mirror/replica:
// the source's address, the stream's token, and the event's key, which
// proves the event.
type Claim struct {
	Source   string `json:"source"`
	Token    string `json:"token"`
	EventKey string `json:"eventKey"`
}

// Claimed answers a claim: whether the copy was here already (its event
// is then sent as changes, not imported).
type Claimed struct {
	TournamentID string `json:"tournamentId"`
	Existing     bool   `json:"existing"`
}

// begin starts tid's mirror: its state first, so that every change from
// now on is queued; then the copy is claimed and (a new copy) the event
// sent whole through the target's import; then the queue is sent. A step
// that fails leaves the mirror stopped, with the reason as its last error.
func (m *Sender) begin(ctx context.Context, tid string, rec *store.Record, o *items.Mirror, creationKey string) error {
	if err := m.s.Store.Put(ctx, items.Encode(rec, o)); errors.Is(err, store.ErrConflict) {
		return conflict("mirror_active", "another mirror of tournament "+tid+" began at the same moment")
	} else if err != nil {
		return err
	}
	m.s.dropQueue(ctx, tid) // a stopped mirror's
	r, err := m.register(tid, o.SentSeq)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		m.forget(tid)
		msg, at := err.Error(), m.s.Service.NowMs(ctx)
		_, _ = m.s.updateMirror(ctx, tid, func(o *items.Mirror) bool {
			o.State, o.LastError, o.LastErrorAt = Stopped, msg, at
			return true
		})
		m.s.dropQueue(ctx, tid)
		return &command.Error{Kind: command.Upstream, Code: "mirror_unreachable", Message: "the mirror did not begin: " + msg}
	}
	t, _, err := m.s.Service.Tournament(ctx, tid)
	if err != nil {
		return fail(err)
	}
	claim, _ := json.Marshal(Claim{Source: o.Source, Token: o.Token, EventKey: t.Key})
	ans, err := m.post(ctx, o.Target+"/tournaments/"+tid+"/mirror/replica", map[string]string{CreationKeyHeader: creationKey}, claim)
	if err != nil {
		return fail(err)
	}
	if !ans.ok() {
		return fail(ans.err())
	}
	var claimed Claimed
	_ = json.Unmarshal(ans.Body, &claimed)
	if claimed.Existing {
		// A copy made by an earlier mirror: it gets the event again as changes.
		if err := m.enqueue(r, items.Queued{Full: true}); err != nil {
			return fail(err)
		}
	} else if err := m.sendExport(ctx, o.Target, tid, creationKey); err != nil {
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
func (m *Sender) sendExport(ctx context.Context, target, tid, creationKey string) error {
	lines, err := m.s.Transfer.Lines(ctx, tid)
	if err != nil {
		return err
	}
	importToken := ""
	for _, body := range m.s.Transfer.ImportBodies(tid, lines, m.s.Service.NowMs(ctx)) {
		headers := map[string]string{CreationKeyHeader: creationKey}
		if importToken != "" {
			headers["Authorization"] = "Bearer " + importToken
		}
		ans, err := m.s.post(ctx, target+"/tournaments/import", "application/x-ndjson", headers, body)
		if err != nil {
			return err
		}
		if !ans.ok() {
			return ans.err()
		}
		var out struct {
			ImportToken string `json:"importToken"`
		}
		_ = json.Unmarshal(ans.Body, &out)
		if out.ImportToken != "" {
			importToken = out.ImportToken
		}
	}
	return nil
}
