package service

import (
	"context"
	"errors"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Command is one change to an event. Exec runs it: the command names who
// may run it and decides on what it reads, Exec does the rest.
type Command interface {
	// Roles are who may run the command (O-1).
	Roles() []Role
	// Apply decides on the event as x reads it and puts what changes into
	// x; it returns the command's answer. It checks its own fields here,
	// after the caller was authorised, so a stranger learns nothing. It
	// runs again on fresh items when the write loses a race.
	Apply(x *Txn) (any, error)
}

// Reporter is a Command whose lost race is the client's to see rather than
// to retry: a 409 carrying the state as it now is (Current), because the
// change it asked for may not mean the same on the new state (a withdrawal
// once the round is paired, S-6).
type Reporter interface {
	Command
	Current(x *Txn) (any, error)
}

// Serial is a Command that rewrites the event item on every run and comes
// in bursts (200 registrations at once at a venue's check-in): Exec runs
// one event's Serial commands one at a time within this process
// (command.Sequenced), so they do not all lose races to each other.
type Serial interface {
	Command
	Serial()
}

// Resolver is a Command whose lost race may already be answered: another
// request did what this one asked (paired the same round), and Resolve
// finds that answer; when it finds none (ok false) the command runs again.
type Resolver interface {
	Command
	Resolve(x *Txn) (answer any, ok bool, err error)
}

// Credential authorises the caller of an event command: it checks the
// bearer token against the event item Exec has read (the organiser's hash
// is in it, so no further read) or the item of the token's principal, and
// says who the caller is. The HTTP layer builds it from the request's token.
type Credential func(ctx context.Context, t *tournament.Tournament) (Caller, error)

// Txn is one run of a command: the event item read, the caller, the
// request's instant, and the items the command writes.
type Txn struct {
	Ctx    context.Context
	S      *Service
	TID    string
	T      *tournament.Tournament
	Meta   *store.Record
	By     Caller
	Now    int64
	ev     *Event
	puts   []*store.Record
	checks []*store.Record
	dels   []*store.Record
}

// Event reads the whole event (Load) once per run; its event item replaces
// the one read first, so the transaction is guarded by what was decided on.
func (x *Txn) Event() (*Event, error) {
	if x.ev == nil {
		ev, err := x.S.Load(x.Ctx, x.TID)
		if err != nil {
			return nil, err
		}
		x.ev, x.T, x.Meta = ev, ev.T, ev.Meta
	}
	return x.ev, nil
}

// Put adds items to the command's one transaction, each written under the
// version it was read at (or created if new).
func (x *Txn) Put(recs ...*store.Record) { x.puts = append(x.puts, recs...) }

// Check adds items whose versions the transaction requires unchanged,
// without writing them (the event item, so that no round is paired meanwhile).
func (x *Txn) Check(recs ...*store.Record) { x.checks = append(x.checks, recs...) }

// Delete adds items to delete, under the versions read, in the command's
// one transaction.
func (x *Txn) Delete(recs ...*store.Record) { x.dels = append(x.dels, recs...) }

// Exec is the one write policy of event commands: read the event item,
// authorise the caller (cred, then the command's roles), apply the
// command, write what it put in one conditional transaction, and on the
// store's contention (a race lost, a throttle, a transient failure) run
// the whole step again on fresh items within the retry budget
// (command.Retry) — unless the command is a Reporter, whose lost race is a
// conflict carrying the current state. It returns the command's answer.
func (s *Service) Exec(ctx context.Context, tid string, cred Credential, cmd Command) (any, error) {
	var answer any
	var x *Txn
	retry := command.Retry
	if _, ok := cmd.(Serial); ok {
		retry = func(fn func() error) error { return command.Sequenced(tid, fn) }
	}
	err := retry(func() error {
		t, meta, err := s.Tournament(ctx, tid)
		if err != nil {
			return err
		}
		by, err := cred(ctx, t)
		if err != nil {
			return err
		}
		if err := by.May(tid, cmd.Roles()...); err != nil {
			return err
		}
		x = &Txn{Ctx: ctx, S: s, TID: tid, T: t, Meta: meta, By: by, Now: s.now(ctx)}
		if answer, err = cmd.Apply(x); err != nil || len(x.puts)+len(x.dels) == 0 {
			return err
		}
		switch {
		case len(x.dels) > 0:
			err = s.store.TransactDelete(ctx, x.dels, x.puts...)
		case len(x.puts) == 1 && len(x.checks) == 0:
			err = s.store.Put(ctx, x.puts[0]) // one item: a plain conditional write
		default:
			err = s.store.Transact(ctx, x.puts, x.checks...)
		}
		if rep, ok := cmd.(Reporter); ok && errors.Is(err, store.ErrConflict) {
			return s.conflict(rep, x)
		}
		if res, ok := cmd.(Resolver); ok && errors.Is(err, store.ErrConflict) {
			if got, found, rerr := res.Resolve(x); rerr == nil && found {
				answer = got
				return nil
			}
		}
		return err
	})
	return answer, err
}

// conflict is a Reporter's lost race: a 409 with the state as it now is.
func (s *Service) conflict(rep Reporter, x *Txn) error {
	e := command.ConflictWith("the resource changed meanwhile; the current state is attached", nil)
	x.ev = nil
	if cur, err := rep.Current(x); err == nil {
		e.Current = cur
	}
	return e
}

// Tournament reads event tid's item alone.
func (s *Service) Tournament(ctx context.Context, tid string) (*tournament.Tournament, *store.Record, error) {
	var t tournament.Tournament
	rec, err := s.get(ctx, store.TournamentPK(tid), store.MetaSK, "tournament "+tid, &t)
	return &t, rec, err
}

// Authorise reads event tid's item and admits the caller cred speaks for
// when it has one of roles (O-1): the authorisation of a read only some
// may make (the organiser's list of entries, the check-in desk), as Exec
// authorises a command.
func (s *Service) Authorise(ctx context.Context, tid string, cred Credential, roles ...Role) (*tournament.Tournament, Caller, error) {
	t, _, err := s.Tournament(ctx, tid)
	if err != nil {
		return nil, Caller{}, err
	}
	by, err := cred(ctx, t)
	if err != nil {
		return nil, Caller{}, err
	}
	return t, by, by.May(tid, roles...)
}

// Player reads player pid of event tid.
func (s *Service) Player(ctx context.Context, tid, pid string) (*tournament.Player, *store.Record, error) {
	var p tournament.Player
	rec, err := s.get(ctx, store.TournamentPK(tid), store.PlayerSK(pid), "player "+pid, &p)
	return &p, rec, err
}

// get reads one item and decodes its document into v; a missing item is
// a not-found refusal naming what was looked for.
func (s *Service) get(ctx context.Context, pk, sk, what string, v any) (*store.Record, error) {
	rec, err := s.store.Get(ctx, pk, sk)
	if errors.Is(err, store.ErrNotFound) {
		return nil, command.NotFoundf("%s", what)
	}
	if err != nil {
		return nil, err
	}
	return rec, decodeItem(rec, v)
}
