package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// jobPoll is how often a round paired as a job is polled
// (GET …/rounds/{n}/job), as the web console does.
const jobPoll = 250 * time.Millisecond

// jobOut is the part of a pairing job's JSON the run reads.
type jobOut struct {
	Job       string     `json:"job"`
	State     string     `json:"state"`
	QueuedAt  time.Time  `json:"queuedAt"`
	StartedAt *time.Time `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt"`
	Error     *struct {
		Code, Message string
	} `json:"error"`
}

// pairRound asks for round n with body and returns the first page of its
// pairings (a round of more tables than a page names the next). A
// synchronous pairing answers 201 with the round; a big event's (more
// entrants than -pairjob) answers 202 with its job, which is polled until
// done and the round then read as any client reads it. Every request —
// the 202, each poll, the round's read — is measured like the others, so
// the report checks each against Lambda's 6 MB and API Gateway's 29 s; the
// job's own wall time (queued to done) is printed, since it runs outside
// any request and answers to Lambda's 15 minutes instead.
func (b *builder) pairRound(ctx context.Context, n int, body string) (pairingsPage, error) {
	var r pairingsPage
	q := b.organiser("POST", "/tournaments/{tid}/rounds", "/rounds", body)
	began := time.Now()
	res, err := b.lam.invoke(ctx, q, true)
	answered := time.Since(began)
	switch {
	case err != nil:
		return r, err
	case res.status == http.StatusCreated:
		err := json.Unmarshal(res.body, &r)
		return r, err
	case res.status != http.StatusAccepted:
		return r, fmt.Errorf("POST %s: %d, want 201 or 202: %s", q.path, res.status, clip(string(res.body)))
	}
	var job jobOut
	if err := json.Unmarshal(res.body, &job); err != nil {
		return r, err
	}
	polls := 0
	for job.State != "done" {
		if job.State == "failed" {
			return r, fmt.Errorf("round %d: the pairing job failed: %+v", n, job.Error)
		}
		time.Sleep(jobPoll)
		polls++
		status := request{route: "/tournaments/{tid}/rounds/{n}/job", method: "GET", path: fmt.Sprintf("/tournaments/%s/rounds/%d/job", b.tid, n)}
		if err := b.lam.call(ctx, status, false, http.StatusOK, &job); err != nil {
			return r, err
		}
	}
	read := request{route: "/tournaments/{tid}/rounds/{n}", label: " (after its job)", method: "GET", path: fmt.Sprintf("/tournaments/%s/rounds/%d", b.tid, n)}
	if err := b.lam.call(ctx, read, true, http.StatusOK, &r); err != nil {
		return r, err
	}
	wall, ran := job.EndedAt.Sub(job.QueuedAt), job.EndedAt.Sub(*job.StartedAt)
	fmt.Printf("round %d: paired as job %s: 202 in %s (%d bytes); the job queued→done %s (running %s), %d polls\n",
		n, job.Job, answered.Round(time.Millisecond), len(res.body), wall.Round(time.Millisecond), ran.Round(time.Millisecond), polls)
	return r, nil
}
