package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"

	"github.com/xqtour/xqtour/shared/service"
)

// A big event's round is paired as a job (service.PairRoundOrJob): POST
// …/rounds answers 202 with the job, GET …/rounds/{n}/job says how it goes,
// and the round reads at GET …/rounds/{n} once done. Where the job runs is
// the deployment's: the rounds function invokes itself asynchronously on
// Lambda (shared/httpapi/pairjoblambda, WithPairJobStarter); locally and in tests it
// runs in this process.

// PairJobStarter starts the job pairing round n of event tid somewhere
// else than the request (service.PairJobStarter), which runs it with
// API.RunPairJob. It must return once the job is handed over.
type PairJobStarter = service.PairJobStarter

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

// RunPairJob runs the job pairing round n of event tid to its end
// (service.RunJob): the Lambda entry of an asynchronous invocation. An
// error leaves the job to be run again.
func (a *API) RunPairJob(ctx context.Context, tid string, n int) error {
	return a.svc.RunJob(ctx, tid, n)
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
// job, started when this request queued it (service.StartPairJob: a job
// that could not be started is a 503 to retry with the same key).
func (a *API) pairJobAccepted(c *call, q service.PairJobQueued) (int, any, error) {
	if err := a.svc.StartPairJob(c.ctx(), q); err != nil {
		return 0, nil, err
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
