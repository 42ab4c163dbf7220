package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/xqtour/xqtour/shared/service"
)

// A big event's round is paired as a job (service.PairRoundOrJob): POST
// …/rounds answers 202 with the job, GET …/rounds/{n}/job says how it goes,
// and the round reads at GET …/rounds/{n} once done. Where the job runs is
// the deployment's: the rounds function invokes itself asynchronously on
// Lambda (shared/httpapi/pairjoblambda, WithPairJobStarter); locally and in tests it
// runs in this process.

// PairJobStarter starts the job pairing round n of event tid somewhere
// else than the request (an asynchronous Lambda invocation), which runs it
// with API.RunPairJob. It must return once the job is handed over.
type PairJobStarter func(ctx context.Context, tid string, n int) error

// WithPairJobPlayers sets the size above which an event's rounds are
// paired as jobs: more entrants than n (service.Options.PairJobPlayers;
// 0 keeps service.DefaultPairJobPlayers).
func WithPairJobPlayers(n int) Option { return func(a *API) { a.pairJobPlayers = n } }

// WithPairJobStarter makes pairing jobs start through start instead of in
// this process.
func WithPairJobStarter(start PairJobStarter) Option { return func(a *API) { a.startPairJob = start } }

// pairJobEnv reads PAIR_JOB_PLAYERS, the template's PairJobPlayers.
func pairJobEnv() []Option {
	if n, err := strconv.Atoi(os.Getenv("PAIR_JOB_PLAYERS")); err == nil && n > 0 {
		return []Option{WithPairJobPlayers(n)}
	}
	return nil
}

// pairJobAttempts and pairJobPause are the in-process runner's retries of
// a job interrupted by the store's trouble, as Lambda retries an
// asynchronous invocation that failed (twice, after a minute and two):
// shorter pauses, since nothing here is billed by the minute.
const (
	pairJobAttempts = 3
	pairJobPause    = 2 * time.Second
)

// startJob hands job over to where jobs run: the starter, or a goroutine
// of this process that outlives the request.
func (a *API) startJob(ctx context.Context, job *service.PairJob) error {
	if a.startPairJob != nil {
		return a.startPairJob(ctx, job.TID, job.Round)
	}
	go func() {
		// Not the request's context: the job outlives it, and decides at
		// its own instants, not at the request's (service.WithNow).
		ctx := context.Background()
		for attempt := 1; ; attempt++ {
			if err := a.RunPairJob(ctx, job.TID, job.Round); err == nil || attempt == pairJobAttempts {
				return
			}
			time.Sleep(pairJobPause)
		}
	}()
	return nil
}

// RunPairJob runs the job pairing round n of event tid to its end
// (service.RunPairJob): the Lambda entry of an asynchronous invocation,
// and the in-process runner. An error leaves the job to be run again.
func (a *API) RunPairJob(ctx context.Context, tid string, n int) error {
	job, err := a.svc.RunPairJob(ctx, tid, n)
	if err != nil {
		a.log.Error("pairing job", "tournament", tid, "round", n, "err", err.Error())
		return err
	}
	a.log.Info("pairing job", "tournament", tid, "round", n, "state", string(job.State), "attempt", job.Attempt,
		"ms", job.Ended-job.Started, "tables", job.Tables, "code", job.Code)
	return nil
}

// pairJobOut is a pairing job as the API shows it: the 202 of POST
// …/rounds and GET …/rounds/{n}/job.
type pairJobOut struct {
	Job string `json:"job"`
	// Status is where the job's state is polled (GET …/rounds/{n}/job).
	Status    string        `json:"status"`
	Round     int           `json:"round"`
	State     string        `json:"state"`
	QueuedAt  string        `json:"queuedAt"`
	StartedAt *string       `json:"startedAt,omitempty"`
	EndedAt   *string       `json:"endedAt,omitempty"`
	Attempt   int           `json:"attempt"`
	Tables    *int          `json:"tables,omitempty"`
	Byes      *int          `json:"byes,omitempty"`
	Error     *pairJobError `json:"error,omitempty"`
}

// pairJobError is a failed job's refusal, as the request would have been
// refused had it paired the round itself.
type pairJobError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Rule    string `json:"rule,omitempty"`
}

func pairJobView(j *service.PairJob) pairJobOut {
	out := pairJobOut{Job: j.ID(), Status: fmt.Sprintf("/tournaments/%s/rounds/%d/job", j.TID, j.Round), Round: j.Round,
		State: string(j.State), QueuedAt: rfc3339(j.Queued), Attempt: j.Attempt}
	if j.Started != 0 {
		out.StartedAt = ptr(rfc3339(j.Started))
	}
	if j.Ended != 0 {
		out.EndedAt = ptr(rfc3339(j.Ended))
	}
	if j.State == service.JobDone {
		out.Tables, out.Byes = ptr(j.Tables), ptr(j.Byes)
	}
	if j.State == service.JobFailed {
		out.Error = &pairJobError{Code: j.Code, Message: j.Message, Rule: j.Rule}
	}
	return out
}

// pairJobAccepted is POST …/rounds's answer for a big event: 202 with the
// job, started when this request queued it.
func (a *API) pairJobAccepted(c *call, q service.PairJobQueued) (int, any, error) {
	if q.Start {
		if err := a.startJob(c.ctx(), q.Job); err != nil {
			// Queued but not started: the job is marked failed, so the
			// client's retry (503, the same Idempotency-Key) queues it
			// afresh and starts it.
			a.log.Error("pairing job not started", "tournament", q.Job.TID, "round", q.Job.Round, "err", err.Error())
			if _, ferr := a.svc.AbandonPairJob(c.ctx(), q.Job, err); ferr != nil {
				a.log.Error("pairing job not marked failed", "tournament", q.Job.TID, "round", q.Job.Round, "err", ferr.Error())
			}
			return 0, nil, &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "the pairing job could not be started; retry shortly with the same Idempotency-Key", RetryAfter: 1}
		}
	}
	return http.StatusAccepted, pairJobView(q.Job), nil
}

// GET /tournaments/{tid}/rounds/{n}/job — public, as the round is: the
// job pairing round n of a big event, queued, running, done (the round
// reads at …/rounds/{n}) or failed with the refusal. A round not paired as
// a job is 404.
func (a *API) getPairJob(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	job, err := a.svc.PairJob(c.ctx(), tid, n)
	if err != nil {
		return 0, nil, err
	}
	c.cache = "no-cache" // a poll must see the job move: revalidated (ETag) every time
	return http.StatusOK, pairJobView(job), nil
}
