// Package mirror keeps a live, read-only copy of one event on another stack
// (issue 31: the venue's laptop runs the event, a deployed stack shows it).
// It is the mirror's whole application logic; the HTTP layer decodes its
// routes, calls it and renders what it answers; the one thing it cannot do
// without HTTP, a Transport that posts to another stack, is
// mirror/httptransport's.
//
//   - Start, on the source (organiser), claims the copy on the target (its
//     POST …/mirror/replica, with the target's creation key and the event's
//     key, which proves the event), sends the event whole through the
//     target's own POST /tournaments/import (every check of an import
//     applies), and from then on every committed change, in commit order
//     (send.go: the Sender);
//   - the target applies each change in one transaction, idempotently, and
//     only ever to the event's own items (apply.go: Claim, Apply);
//   - the copy is read-only: every write to the event or one of its games
//     is refused in one place (Refusal, which the HTTP layer asks once a
//     write's token is proven), mirror_read_only naming the source;
//   - Takeover, on the target (organiser), makes the copy the event's one
//     writer; the source is told (its POST …/mirror/handover, with the same
//     organiser token: Handover), or learns it from the target's next
//     answer, and refuses writes from then on through the same refusal.
//
// Items (their stored shapes are shared/service/items' Mark, Copy, Mirror
// and Queued): Y#<id>/RO marks an event or game read-only (on a copy, or on
// a source after a takeover), Y#<tid>/COPY is a copy's state, Y#mirrors/<tid>
// a mirror this stack sends and Y#<tid>/Q#<seq> its changes waiting.
//
// Where each concept lives:
//
//	mirror.go  Service, its Config and Transport; the read-only refusal and
//	           its flag; a mirror's state, start, stop, handover and takeover
//	send.go    the Sender: the change feed captured into each mirror's queue,
//	           batches, back-off, the event sent whole (its export's lines and
//	           pages: shared/service/transfer)
//	apply.go   the copy's side: the claim, a batch checked and applied (each
//	           item as an import checks it: service.DecodeSent, Renders), the
//	           read-only marks of an imported copy's games (CopyMarks, the
//	           transfer's Marks)
//	httptransport/  the Transport over net/http
package mirror

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/service/transfer"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Transport posts a request to another stack: the one thing the mirror
// needs of HTTP. Post sends body to url (a stack's base URL and a route's
// path) with the content type and headers given (an empty value is not
// sent) and returns the stack's answer; err is a failure to get one.
type Transport interface {
	Post(ctx context.Context, url, contentType string, headers map[string]string, body []byte) (Answer, error)
}

// Answer is another stack's answer to a request: its status, the body
// (the first MiB), and for an error answer the code and message of its
// JSON error body, when it has one.
type Answer struct {
	Status  int
	Body    []byte
	Code    string
	Message string
}

// ok reports a success (a 2xx).
func (a Answer) ok() bool { return a.Status/100 == 2 }

// err describes an error answer.
func (a Answer) err() error {
	if a.Code != "" {
		return fmt.Errorf("the target answered %d %s: %s", a.Status, a.Code, a.Message)
	}
	return fmt.Errorf("the target answered %d: %s", a.Status, service.Clip(string(a.Body), 200))
}

// CreationKeyHeader is the header another stack reads its creation key
// from (the HTTP layer's name for it, which a claim and an import carry).
const CreationKeyHeader = "X-Creation-Key"

// Config is what a Service works with.
type Config struct {
	Store   *store.Store
	Service *service.Service
	// Clock is the wall clock (the request's instant, service.WithNow,
	// stamps what a request writes).
	Clock     func() time.Time
	Log       *slog.Logger
	Transport Transport
	// Transfer reads an event's export (its lines and the import requests
	// that send them, paged as an export is) for the sender; a stack that
	// only receives mirrors may leave it nil.
	Transfer *transfer.Service
}

// Service is the mirror over one store.
type Service struct {
	Config
	marks markCache
	// sender, once StartSending ran, sends this stack's mirrors.
	sender *Sender
}

// New builds the mirror's service.
func New(cfg Config) *Service { return &Service{Config: cfg} }

// Mirror states (items.Mirror.State).
const (
	Running    = "running"
	Stopped    = "stopped"
	HandedOver = "handedOver"
)

// conflict is a refusal of the mirror's with its code (409).
func conflict(code, msg string) error {
	return &command.Error{Kind: command.Conflict, Code: code, Message: msg}
}

// Refusal is the one refusal of a write to a read-only event or game id
// ("" for a write that names neither): nil when id carries no read-only
// mark, or mirror_read_only naming where the event is written. It costs one
// small strongly consistent read of the mark, and nothing on a stack that
// never held one (the flag below).
func (s *Service) Refusal(ctx context.Context, id string) error {
	if held, err := s.mayHoldMarks(ctx); err != nil || !held || id == "" {
		return err
	}
	rec, err := s.Store.Get(ctx, store.MirrorPK(id), store.ReadOnlySK)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	var m items.Mark
	if err := items.Decode(rec, &m); err != nil {
		return err
	}
	if m.To != "" {
		return conflict("mirror_read_only", "tournament "+m.Tournament+" was taken over by its mirror at "+m.To+": it is written there now, and read-only here")
	}
	return conflict("mirror_read_only", "tournament "+m.Tournament+" is a read-only mirror of "+m.Source+": make changes there, or take this copy over (POST /tournaments/"+m.Tournament+"/mirror/takeover)")
}

// A stack that never held a read-only mark (most stacks: no mirror was
// ever sent to them, nor taken over from them) should not pay a read per
// write for the refusal. The flag item Y#marks/RO is written before the
// first mark ever is; a Service reads it at most once per marksTTL of its
// clock while it is absent, and never again once it has seen it. The first
// claim of a copy on a stack waits marksTTL after writing the flag before
// it answers, so every process of the stack (each Lambda instance) has read
// it again before the copy's first item exists; the source's own marks (a
// takeover) are written by the same process that then refuses (the local
// stack).
const marksTTL = 10 * time.Second

// markCache is what a Service knows of the flag.
type markCache struct {
	mu        sync.Mutex
	seen      bool
	checkedAt time.Time // when it was last found absent
}

// mayHoldMarks reports whether the table may hold a read-only mark.
func (s *Service) mayHoldMarks(ctx context.Context) (bool, error) {
	s.marks.mu.Lock()
	seen, at := s.marks.seen, s.marks.checkedAt
	s.marks.mu.Unlock()
	if seen {
		return true, nil
	}
	if now := s.Clock(); !at.IsZero() && !now.Before(at) && now.Sub(at) < marksTTL {
		return false, nil
	}
	_, err := s.Store.Get(ctx, store.MarksPK, store.ReadOnlySK)
	s.marks.mu.Lock()
	defer s.marks.mu.Unlock()
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.marks.checkedAt = s.Clock()
		return false, nil
	case err != nil:
		return false, err
	}
	s.marks.seen = true
	return true, nil
}

// holdMarks is called before the first read-only mark is written: it
// writes the flag, and the first time ever on this table waits until every
// process's view of its absence has expired (wait: a copy's claim).
func (s *Service) holdMarks(ctx context.Context, wait bool) error {
	s.marks.mu.Lock()
	s.marks.seen = true
	s.marks.mu.Unlock()
	if _, err := s.Store.Get(ctx, store.MarksPK, store.ReadOnlySK); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	flag := &store.Record{PK: store.MarksPK, SK: store.ReadOnlySK, Kind: store.KindReadOnly, Version: 1}
	if err := s.Store.Replace(ctx, items.Encode(flag, items.Mark{})); err != nil {
		return err
	}
	if wait {
		time.Sleep(marksTTL + 250*time.Millisecond)
	}
	return nil
}

// markItem is the read-only mark of event or game id.
func markItem(id string, m items.Mark, version int64) *store.Record {
	return items.Encode(&store.Record{PK: store.MirrorPK(id), SK: store.ReadOnlySK, Kind: store.KindReadOnly, Version: version}, m)
}

// Ref is what an event's view shows of the copy it is: its source and
// when the source's last change landed (Unix ms, 0 before the first).
type Ref struct {
	Source       string
	LastChangeAt int64
}

// CopyOf is event tid's Ref on a copy (nil elsewhere, and once the copy
// is taken over).
func (s *Service) CopyOf(ctx context.Context, tid string) (*Ref, error) {
	in, _, err := s.loadCopy(ctx, tid)
	if err != nil || in == nil || in.TakenOver {
		return nil, err
	}
	return &Ref{Source: in.Source, LastChangeAt: in.LastChangeAt}, nil
}

// loadCopy reads a copy's state; nil when tid is no copy here.
func (s *Service) loadCopy(ctx context.Context, tid string) (*items.Copy, *store.Record, error) {
	rec, err := s.Store.Get(ctx, store.MirrorPK(tid), store.MirrorInSK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	in := new(items.Copy)
	if err := items.Decode(rec, in); err != nil {
		return nil, nil, err
	}
	return in, rec, nil
}

// loadMirror reads the mirror this stack sends of tid; nil when none.
func (s *Service) loadMirror(ctx context.Context, tid string) (*items.Mirror, *store.Record, error) {
	rec, err := s.Store.Get(ctx, store.MirrorsPK, tid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, err
	}
	out := new(items.Mirror)
	if err := items.Decode(rec, out); err != nil {
		return nil, nil, err
	}
	return out, rec, nil
}

// CheckTarget refuses a target that is not an http(s) base URL of another
// server: no credentials, query or fragment, and no link-local address (a
// cloud's instance metadata lives there). It returns the URL without a
// trailing slash.
func CheckTarget(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", command.BadRequest("invalid_field", "target: want the base URL of the stack to mirror to, e.g. https://xqtour.example.org")
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil && (ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast()) {
		return "", command.BadRequest("invalid_field", "target: "+quote(u.Hostname())+" is not an address a stack is served at")
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/"), nil
}

// quote is a value a caller sent, quoted in a message.
func quote(s string) string { return strconv.Quote(s) }

// Sends reports whether this stack sends mirrors (StartSending ran: the
// local stack); every stack can be a mirror's target.
func (s *Service) Sends() bool { return s.sender != nil }

// RefuseCopy refuses to start a mirror of a copy (its source sends it).
func (s *Service) RefuseCopy(ctx context.Context, tid string) error {
	in, _, err := s.loadCopy(ctx, tid)
	if err != nil || in == nil || in.TakenOver {
		return err
	}
	return conflict("mirror_read_only", "tournament "+tid+" is a read-only mirror of "+in.Source+": mirror it from there")
}

// Request is a mirror to start: the target (CheckTarget's), its creation
// key, and this stack's address as the copy should name it (Source, when
// the organiser gave one; Here, the address the request came to, by
// default).
type Request struct {
	Target, CreationKey, Source, Here string
}

// State is a mirror as its organiser sees it: on the source (Role
// "source") its target, changes sent and waiting and last error; on a copy
// (Role "copy") its source and last change. Times are Unix ms, 0 for none.
type State struct {
	Role, Target, Source, State string
	Sent                        int64
	Waiting                     int
	LastSentAt                  int64
	LastError                   string
	LastErrorAt                 int64
	LastChangeAt                int64
}

// Start mirrors event tid to another stack (the caller is its organiser,
// and Sends holds). The copy is claimed and the event sent whole before it
// returns, so a target that refuses (its creation key, an event of that id
// there already) is an Upstream refusal naming its answer, and nothing is
// left running.
func (s *Service) Start(ctx context.Context, tid string, req Request) (*State, error) {
	out, rec, err := s.loadMirror(ctx, tid)
	if err != nil {
		return nil, err
	}
	if out != nil && out.State == Running {
		return nil, conflict("mirror_active", "tournament "+tid+" is mirrored to "+out.Target+" already: stop that mirror first")
	}
	if out != nil && out.State == HandedOver {
		return nil, conflict("mirror_read_only", "tournament "+tid+" was taken over by its mirror at "+out.Target)
	}
	if rec == nil {
		rec = &store.Record{PK: store.MirrorsPK, SK: tid, Kind: store.KindMirrorOut}
	}
	source := req.Here
	if req.Source != "" {
		if source, err = CheckTarget(req.Source); err != nil {
			return nil, command.BadRequest("invalid_field", "source: want this stack's base URL as the target should name it, e.g. http://192.168.1.20:3000")
		}
	}
	if s.sender == nil {
		return nil, errors.New("mirror: this stack sends no mirrors (Sends)")
	}
	token, _ := service.NewToken("mirror", tid)
	o := items.Mirror{Target: req.Target, Source: source, Token: token, State: Running, StartedAt: s.Service.NowMs(ctx)}
	if err := s.sender.begin(ctx, tid, rec, &o, req.CreationKey); err != nil {
		return nil, err
	}
	return s.sourceState(ctx, tid, &o)
}

// sourceState is a source's mirror as its State shows it.
func (s *Service) sourceState(ctx context.Context, tid string, o *items.Mirror) (*State, error) {
	waiting, err := s.Store.Query(ctx, store.MirrorPK(tid), store.QueuedPrefix, 0)
	if err != nil {
		return nil, err
	}
	return &State{Role: "source", Target: o.Target, State: o.State, Sent: o.Sent, Waiting: len(waiting),
		LastSentAt: o.LastSentAt, LastError: o.LastError, LastErrorAt: o.LastErrorAt}, nil
}

// notMirrored is the refusal of event tid's mirror where it has none.
func notMirrored(tid string) error { return command.NotFoundf("a mirror of tournament %s", tid) }

// StateOf is event tid's mirror: the one this stack sends, or the copy
// this stack holds.
func (s *Service) StateOf(ctx context.Context, tid string) (*State, error) {
	if o, _, err := s.loadMirror(ctx, tid); err != nil {
		return nil, err
	} else if o != nil {
		return s.sourceState(ctx, tid, o)
	}
	in, _, err := s.loadCopy(ctx, tid)
	if err != nil {
		return nil, err
	}
	if in == nil {
		return nil, notMirrored(tid)
	}
	state := Running
	if in.TakenOver {
		state = "takenOver"
	}
	return &State{Role: "copy", Source: in.Source, State: state, LastChangeAt: in.LastChangeAt}, nil
}

// Stop stops sending event tid's mirror; changes not sent yet are dropped.
// The copy stays, read-only, until it is taken over. Stopping a stopped
// mirror changes nothing.
func (s *Service) Stop(ctx context.Context, tid string) (*State, error) {
	o, err := s.updateMirror(ctx, tid, func(o *items.Mirror) bool {
		if o.State != Running {
			return false
		}
		o.State = Stopped
		return true
	})
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, notMirrored(tid)
	}
	if s.sender != nil {
		s.sender.forget(tid)
	}
	s.dropQueue(ctx, tid)
	return s.sourceState(ctx, tid, o)
}

// updateMirror changes the mirror this stack sends of tid under its
// version (f reports whether it changed anything), reading it again after a
// lost race; nil when there is none.
func (s *Service) updateMirror(ctx context.Context, tid string, f func(*items.Mirror) bool) (*items.Mirror, error) {
	for range 5 {
		o, rec, err := s.loadMirror(ctx, tid)
		if err != nil || o == nil {
			return nil, err
		}
		if !f(o) {
			return o, nil
		}
		if err := s.Store.Put(ctx, items.Encode(rec, o)); errors.Is(err, store.ErrConflict) {
			continue
		} else if err != nil {
			return nil, err
		}
		return o, nil
	}
	return nil, conflict("conflict", "the mirror was changed at the same time: send this again")
}

// dropQueue deletes the changes waiting to be sent (best effort: a stopped
// mirror's queue is never read again).
func (s *Service) dropQueue(ctx context.Context, tid string) {
	recs, err := s.Store.Query(ctx, store.MirrorPK(tid), store.QueuedPrefix, 0)
	if err != nil {
		return
	}
	for _, r := range recs {
		_ = s.Store.Delete(ctx, r.PK, r.SK)
	}
}

// Handover is the source's side of a takeover (the copy's takeover calls
// it with the organiser's token): the mirror ends and event tid is
// read-only here from now on.
func (s *Service) Handover(ctx context.Context, tid string) (*State, error) {
	o, err := s.handOver(ctx, tid)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, notMirrored(tid)
	}
	return s.sourceState(ctx, tid, o)
}

// handOver makes event tid read-only on this source, its mirror's target
// being its writer now: the event's mark and each game's, then the mirror's
// state. Doing it again changes nothing.
func (s *Service) handOver(ctx context.Context, tid string) (*items.Mirror, error) {
	o, _, err := s.loadMirror(ctx, tid)
	if err != nil || o == nil {
		return nil, err
	}
	ev, err := s.Service.Load(ctx, tid)
	if err != nil {
		return nil, err
	}
	if err := s.holdMarks(ctx, false); err != nil { // this process refuses from now on
		return nil, err
	}
	mark := items.Mark{Tournament: tid, To: o.Target}
	for _, id := range append([]string{tid}, eventGames(ev.H.Rounds)...) {
		if err := s.Store.Replace(ctx, markItem(id, mark, 1)); err != nil {
			return nil, err
		}
	}
	if s.sender != nil {
		s.sender.forget(tid)
	}
	o, err = s.updateMirror(ctx, tid, func(o *items.Mirror) bool {
		if o.State == HandedOver {
			return false
		}
		o.State = HandedOver
		return true
	})
	if err == nil {
		s.dropQueue(ctx, tid)
	}
	return o, err
}

// eventGames lists the game ids of an event's rounds.
func eventGames(rounds []*tournament.Round) []string {
	var gids []string
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if p.GameID != "" {
				gids = append(gids, p.GameID)
			}
		}
	}
	return gids
}

// Takenover is a takeover's outcome: the copy's source, and whether it
// acknowledged the handover.
type Takenover struct {
	Source         string
	SourceNotified bool
}

// Takeover makes the copy of event tid here its writer (the caller is its
// organiser, whose Authorization header value authorization is). Its
// read-only marks go, the source is told (with the same organiser token)
// and refuses writes from then on; a source out of reach learns it from
// the copy's answer to its next change (mirror_taken_over). Changes the
// source had not sent are not here.
func (s *Service) Takeover(ctx context.Context, tid, authorization string) (*Takenover, error) {
	var in *items.Copy
	for range 5 {
		got, rec, err := s.loadCopy(ctx, tid)
		if err != nil {
			return nil, err
		}
		if got == nil {
			return nil, conflict("not_a_mirror", "tournament "+tid+" is no mirror's copy here: it is written here already")
		}
		in = got
		if in.TakenOver {
			break
		}
		in.TakenOver = true
		if err := s.Store.Put(ctx, items.Encode(rec, in)); errors.Is(err, store.ErrConflict) {
			continue // a change landed meanwhile
		} else if err != nil {
			return nil, err
		}
		break
	}
	if in == nil || !in.TakenOver {
		return nil, conflict("conflict", "changes kept landing: send the takeover again")
	}
	ev, err := s.Service.Load(ctx, tid)
	if err != nil {
		return nil, err
	}
	for _, id := range append(append([]string{tid}, in.Games...), eventGames(ev.H.Rounds)...) {
		if err := s.Store.Delete(ctx, store.MirrorPK(id), store.ReadOnlySK); err != nil {
			return nil, err
		}
	}
	s.Service.IndexDue(ctx, tid) // its rounds' work due is this stack's now, and its index stayed at the source
	return &Takenover{Source: in.Source, SourceNotified: s.notifySource(ctx, tid, in.Source, authorization)}, nil
}

// notifySource tells a copy's source that the copy was taken over, with the
// organiser's Authorization the takeover came with; it reports whether the
// source acknowledged (one that is out of reach learns it from the copy's
// answer to its next change).
func (s *Service) notifySource(ctx context.Context, tid, source, authorization string) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	ans, err := s.Transport.Post(ctx, source+"/tournaments/"+tid+"/mirror/handover", "application/json",
		map[string]string{"Authorization": authorization}, []byte("{}"))
	return err == nil && ans.Status == 200
}
