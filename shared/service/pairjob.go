package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/xqtour/xqtour/shared/rulebook"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Pairing a big event's round as a job. Reading a 100,000-player event,
// pairing it and writing its round and games cannot be trusted to finish
// inside API Gateway's 29 s (README, "Pairing as a job"), so above a size
// the request only records that the round is asked for — a job item under
// attribute_not_exists, so every request for the round finds the same job
// — and the job runs PairRound through Exec outside the request: in the
// same process locally, as an asynchronous invocation of the rounds
// function on Lambda. PairRound stays the one way a round is paired; the
// job only says how it went.

// DefaultPairJobPlayers is Options.PairJobPlayers when it is not set: the
// product's cap on an event (tournament.MaxPlayers), so every event it
// accepts today is paired inside the request as before.
const DefaultPairJobPlayers = 20_000

// pairJobStale is how long a queued or running job may go without a word
// before a new request for its round takes it as interrupted and starts it
// again: Lambda's longest run (15 minutes), after which no invocation of
// it can still be going.
const pairJobStale = 15 * time.Minute

// JobState is where a pairing job is.
type JobState string

// The states of a pairing job.
const (
	// JobQueued: asked for, not begun.
	JobQueued JobState = "queued"
	// JobRunning: an attempt is pairing the round (or was, and was interrupted).
	JobRunning JobState = "running"
	// JobDone: the round is paired; it reads at GET …/rounds/{n} as any round.
	JobDone JobState = "done"
	// JobFailed: the pairing was refused (Code, Message, Rule); a new
	// request for the round queues it again.
	JobFailed JobState = "failed"
)

// PairJob is the job pairing round Round of event TID.
type PairJob struct {
	TID   string
	Round int
	State JobState
	// By is the organiser's principal that asked for the round; the job
	// runs as it.
	By                string
	UnfinishedAsDraws bool
	Forbidden         [][2]string
	StartsAt          int64
	// Queued, Started and Ended are Unix ms.
	Queued, Started, Ended int64
	Attempt                int
	Tables, Byes           int
	Code, Message, Rule    string
	rec                    *store.Record
}

// ID names the job: the event and the round, "<tid>:<n>".
func (j *PairJob) ID() string { return fmt.Sprintf("%s:%d", j.TID, j.Round) }

// Finished reports whether the job has run to its end, done or failed.
func (j *PairJob) Finished() bool { return j.State == JobDone || j.State == JobFailed }

// PairJobQueued is PairRoundOrJob's answer for a big event: the job that
// pairs the round, and whether this request wrote it (queued it anew), in
// which case the caller starts it.
type PairJobQueued struct {
	Job   *PairJob
	Start bool
}

// PairRoundOrJob is PairRound for any event: an event of more entrants
// than Options.PairJobPlayers has its next round queued as a job
// (PairJobQueued) instead of paired in the request; a smaller one, or a
// request naming a round already paired, runs PairRound as it is (Paired).
type PairRoundOrJob struct{ PairRound }

// PairsAsJob reports whether event t's rounds are paired as jobs: it has
// more entrants than Options.PairJobPlayers. It reads the event item
// alone, which is all a big event's request can afford before the job.
func (s *Service) PairsAsJob(t *tournament.Tournament) bool {
	return t.Players-t.Removed > s.pairJobPlayers()
}

func (s *Service) pairJobPlayers() int {
	if s.opts.PairJobPlayers > 0 {
		return s.opts.PairJobPlayers
	}
	return DefaultPairJobPlayers
}

// Apply implements Command.
func (c PairRoundOrJob) Apply(x *Txn) (any, error) {
	if !x.S.PairsAsJob(x.T) || (c.Round != nil && *c.Round <= x.T.Round) {
		return c.PairRound.Apply(x)
	}
	n := x.T.Round + 1
	if c.Round != nil {
		if err := x.T.CheckNextRound(*c.Round); err != nil {
			return nil, err
		}
	}
	job, err := x.S.PairJob(x.Ctx, x.TID, n)
	if err != nil && !isNotFound(err) {
		return nil, err
	}
	if job != nil && !job.Finished() && x.Now-job.lastWord() < pairJobStale.Milliseconds() {
		return PairJobQueued{Job: job}, nil // the round is being paired: the same answer
	}
	if job == nil {
		// It expires with an event never paired (a round 1 that kept
		// failing), as the event's own items do (EventTTL).
		job = &PairJob{TID: x.TID, Round: n, rec: &store.Record{PK: store.ImportPK(x.TID), SK: store.PairJobSK(n), Kind: store.KindPairJob, Expires: EventTTL(x.T)}}
	}
	// New, failed (the organiser asks again, having seen why) or stale
	// (its run was lost): queued afresh with this request's options.
	job.State, job.By, job.Queued, job.Started, job.Ended = JobQueued, x.By.ID, x.Now, 0, 0
	job.UnfinishedAsDraws, job.Forbidden, job.StartsAt = c.UnfinishedAsDraws, c.Forbidden, c.StartsAt
	job.Tables, job.Byes, job.Code, job.Message, job.Rule = 0, 0, "", "", ""
	x.Put(job.record())
	return PairJobQueued{Job: job, Start: true}, nil
}

// Resolve implements Resolver: a pairing's lost race is PairRound's to
// resolve; a job's is run again, and finds the job the winner wrote.
func (c PairRoundOrJob) Resolve(x *Txn) (any, bool, error) {
	if x.ev == nil { // the job's path reads the event item alone
		return nil, false, nil
	}
	return c.PairRound.Resolve(x)
}

// lastWord is when the job was last written: begun, or else queued.
func (j *PairJob) lastWord() int64 { return max(j.Queued, j.Started) }

// PairJob reads the job pairing round n of event tid; a round never asked
// for as a job is not found.
func (s *Service) PairJob(ctx context.Context, tid string, n int) (*PairJob, error) {
	var st items.PairJob
	rec, err := s.get(ctx, store.ImportPK(tid), store.PairJobSK(n), fmt.Sprintf("pairing job of round %d", n), &st)
	if err != nil {
		return nil, err
	}
	return &PairJob{TID: tid, Round: st.Round, State: JobState(st.State), By: st.By, UnfinishedAsDraws: st.UnfinishedAsDraws,
		Forbidden: st.Forbidden, StartsAt: st.StartsAt, Queued: st.Queued, Started: st.Started, Ended: st.Ended, Attempt: st.Attempt,
		Tables: st.Tables, Byes: st.Byes, Code: st.Code, Message: st.Message, Rule: st.Rule, rec: rec}, nil
}

// record is the job's item, under the version it was read at.
func (j *PairJob) record() *store.Record {
	return items.Encode(j.rec, items.PairJob{Round: j.Round, State: string(j.State), By: j.By, UnfinishedAsDraws: j.UnfinishedAsDraws,
		Forbidden: j.Forbidden, StartsAt: j.StartsAt, Queued: j.Queued, Started: j.Started, Ended: j.Ended, Attempt: j.Attempt,
		Tables: j.Tables, Byes: j.Byes, Code: j.Code, Message: j.Message, Rule: j.Rule})
}

// command is the pairing the job runs: PairRound of its round, with the
// options the organiser asked for. Naming the round makes a rerun safe: a
// round already paired (by an attempt interrupted after its transaction)
// is answered, not paired again, and the round after it is never paired.
func (j *PairJob) command() PairRound {
	n := j.Round
	return PairRound{Round: &n, UnfinishedAsDraws: j.UnfinishedAsDraws, Forbidden: j.Forbidden, StartsAt: j.StartsAt}
}

// RunPairJob runs the job pairing round n of event tid and records how it
// went on the job's item. It is idempotent: a finished job (done or
// failed) is returned as it is, changing nothing; a queued one, or one
// whose earlier attempt was interrupted, pairs the round (PairRound
// through Exec, as the organiser who asked) and makes its games. A
// refusal of the pairing (unfinished games, the event complete …) is the
// job's outcome, failed with its code and message, and no error; any
// other error leaves the job running and is returned, for the caller to
// run it again (Lambda's retry of an asynchronous invocation).
func (s *Service) RunPairJob(ctx context.Context, tid string, n int) (*PairJob, error) {
	ctx = context.WithoutCancel(ctx) // a job outlives the request that started it
	job, err := s.PairJob(ctx, tid, n)
	if err != nil || job.Finished() {
		return job, err
	}
	job.State, job.Started = JobRunning, s.clock().UnixMilli()
	job.Attempt++
	if job, err = s.saveJob(ctx, job); err != nil || job.Finished() {
		return job, err
	}
	cred := func(context.Context, *tournament.Tournament) (Caller, error) {
		return Caller{Scope: tid, ID: job.By, Role: Organiser}, nil
	}
	res, err := s.Exec(ctx, tid, cred, job.command())
	if err == nil {
		p := res.(Paired)
		err = s.EnsureGamesAfterCommit(ctx, p.Event.T, p.Round, p.Event.H, p.Stored, s.clock().UnixMilli())
		if _, derr := s.CompleteDue(ctx, nil, p.Due); derr != nil { // a deadline passed already (T-3)
			s.log.Warn("round paired, its lineups left to the due work", "tournament", tid, "round", n, "err", derr.Error())
		}
		job.Tables, job.Byes = len(p.Round.Pairings), len(p.Round.Byes)
	}
	switch code, msg, rule, refused := refusalOf(err); {
	case refused:
		job.State, job.Code, job.Message, job.Rule = JobFailed, code, msg, rule
	case err != nil:
		s.log.Warn("pairing job interrupted; its rerun pairs the same round", "tournament", tid, "round", n, "attempt", job.Attempt, "err", err.Error())
		return job, err
	default:
		job.State = JobDone
	}
	job.Ended = s.clock().UnixMilli()
	return s.saveJob(ctx, job)
}

// PairJobStarter starts the job pairing round n of event tid somewhere
// else than the request (an asynchronous Lambda invocation), which runs it
// with RunJob. It must return once the job is handed over.
type PairJobStarter func(ctx context.Context, tid string, n int) error

// pairJobAttempts and pairJobPause are the in-process runner's retries of
// a job interrupted by the store's trouble, as Lambda retries an
// asynchronous invocation that failed (twice, after a minute and two):
// shorter pauses, since nothing here is billed by the minute.
const (
	pairJobAttempts = 3
	pairJobPause    = 2 * time.Second
)

// StartPairJob starts the job PairRoundOrJob queued, when this request
// queued it (q.Start): through Options.StartPairJob, or in a goroutine of
// this process that outlives the request. A job that could not be handed
// over is marked failed, so that the client's retry queues it afresh and
// starts it, and the answer is a refusal of kind Unavailable telling the
// client to retry.
func (s *Service) StartPairJob(ctx context.Context, q PairJobQueued) error {
	if !q.Start {
		return nil
	}
	err := s.startJob(ctx, q.Job)
	if err == nil {
		return nil
	}
	s.log.Error("pairing job not started", "tournament", q.Job.TID, "round", q.Job.Round, "err", err.Error())
	if _, ferr := s.AbandonPairJob(ctx, q.Job, err); ferr != nil {
		s.log.Error("pairing job not marked failed", "tournament", q.Job.TID, "round", q.Job.Round, "err", ferr.Error())
	}
	return &command.Error{Kind: command.Unavailable, Code: "unavailable",
		Message: "the pairing job could not be started; retry shortly with the same Idempotency-Key", RetryAfter: 1}
}

// startJob hands job over to where jobs run: the starter, or a goroutine
// of this process that runs it, again after a pause while the store's
// trouble interrupts it, up to pairJobAttempts times.
func (s *Service) startJob(ctx context.Context, job *PairJob) error {
	if s.opts.StartPairJob != nil {
		return s.opts.StartPairJob(ctx, job.TID, job.Round)
	}
	go func() {
		// Not the request's context: the job outlives it, and decides at
		// its own instants, not at the request's (WithNow).
		ctx := context.Background()
		for attempt := 1; ; attempt++ {
			if err := s.RunJob(ctx, job.TID, job.Round); err == nil || attempt == pairJobAttempts {
				return
			}
			time.Sleep(pairJobPause)
		}
	}()
	return nil
}

// RunJob runs the job pairing round n of event tid to its end (RunPairJob)
// and logs how it went: the entry of an asynchronous invocation on Lambda,
// and of the in-process runner. An error leaves the job to be run again.
func (s *Service) RunJob(ctx context.Context, tid string, n int) error {
	job, err := s.RunPairJob(ctx, tid, n)
	if err != nil {
		s.log.Error("pairing job", "tournament", tid, "round", n, "err", err.Error())
		return err
	}
	s.log.Info("pairing job", "tournament", tid, "round", n, "state", string(job.State), "attempt", job.Attempt,
		"ms", job.Ended-job.Started, "tables", job.Tables, "code", job.Code)
	return nil
}

// AbandonPairJob records that job, just queued, could not be started
// (why): failed, so that the next request for its round queues it afresh
// and starts it, instead of finding it queued until it is stale.
func (s *Service) AbandonPairJob(ctx context.Context, job *PairJob, why error) (*PairJob, error) {
	job.State, job.Ended = JobFailed, s.clock().UnixMilli()
	job.Code, job.Message, job.Rule = "unavailable", "the pairing job could not be started ("+why.Error()+"); ask for the round again", ""
	return s.saveJob(context.WithoutCancel(ctx), job)
}

// saveJob writes the job under the version read, within the retry budget
// of the store's contention. When another writer got there first (a
// concurrent attempt), the stored job is returned instead, so an attempt
// that finds its job finished stops there.
func (s *Service) saveJob(ctx context.Context, job *PairJob) (*PairJob, error) {
	err := command.Retry(func() error { return s.store.Put(ctx, job.record()) })
	if !errors.Is(err, store.ErrConflict) && !isContended(err) {
		return job, err
	}
	stored, rerr := s.PairJob(ctx, job.TID, job.Round)
	if rerr != nil {
		return job, rerr
	}
	if stored.Finished() {
		return stored, nil
	}
	// Another attempt is running: this one goes on too (the pairing is
	// idempotent), and records its outcome over the other's.
	stored.State, stored.Started, stored.Attempt = job.State, job.Started, max(job.Attempt, stored.Attempt)
	stored.Ended, stored.Tables, stored.Byes = job.Ended, job.Tables, job.Byes
	stored.Code, stored.Message, stored.Rule = job.Code, job.Message, job.Rule
	return stored, s.store.Put(ctx, stored.record())
}

// isContended reports whether err is Retry's answer to a budget spent on
// lost races (command.Contended).
func isContended(err error) bool {
	var e *command.Error
	return errors.As(err, &e) && e.Code == "contended"
}

// refusalOf says whether err is a refusal of the pairing itself — the
// rules' or the application layer's, which a rerun would meet again — and
// gives its code, message and rule; the store's contention and failures
// are not refusals (a rerun may succeed).
func refusalOf(err error) (code, msg, rule string, refused bool) {
	var re *rulebook.RuleError
	var ce *command.Error
	switch {
	case err == nil:
	case errors.As(err, &re):
		return re.Code, re.Message, re.Rule, true
	case errors.As(err, &ce) && ce.Kind != command.Throttled && ce.Kind != command.Unavailable:
		return ce.Code, ce.Message, ce.Rule, true
	}
	return "", "", "", false
}
