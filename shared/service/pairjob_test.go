package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// jobService is a service whose events of more than threshold entrants
// pair as jobs, over a fresh embedded store, with one event of players
// registered through Exec.
func jobService(t *testing.T, threshold, players int) (*service.Service, string, service.Credential) {
	t.Helper()
	e := newEvent(t, service.Options{PairJobPlayers: threshold}, tournament.Settings{Name: "Job Open", Rounds: 3})
	svc, tid, organiser := e.svc, e.tid, e.organiser
	for i := range players {
		if _, err := svc.Exec(t.Context(), tid, organiser, service.RegisterPlayer{Name: string(rune('A' + i)), Rating: 2000 - i}); err != nil {
			t.Fatal(err)
		}
	}
	return svc, tid, organiser
}

// Concurrent requests for a big event's round through Exec all answer the
// one job, and exactly one of them queued it (and so starts it); the job
// pairs the round once, a rerun changes nothing, and a request naming the
// paired round then answers it as PairRound does.
func TestPairRoundOrJob_OneJobThroughExec(t *testing.T) {
	svc, tid, organiser := jobService(t, 3, 6)
	const n = 8
	answers := make([]service.PairJobQueued, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			res, err := svc.Exec(t.Context(), tid, organiser, service.PairRoundOrJob{})
			if err != nil {
				t.Errorf("request %d: %v", i, err)
				return
			}
			answers[i] = res.(service.PairJobQueued)
		})
	}
	wg.Wait()
	starts := 0
	for i, a := range answers {
		if a.Job == nil || a.Job.ID() != tid+":1" || a.Job.State != service.JobQueued {
			t.Fatalf("request %d: %+v", i, a.Job)
		}
		if a.Start {
			starts++
		}
	}
	if starts != 1 {
		t.Fatalf("%d requests would start the job, want 1", starts)
	}
	job, err := svc.RunPairJob(t.Context(), tid, 1)
	if err != nil || job.State != service.JobDone || job.Tables != 3 || job.Attempt != 1 || job.Ended < job.Started {
		t.Fatalf("run: %+v %v", job, err)
	}
	again, err := svc.RunPairJob(t.Context(), tid, 1)
	if err != nil || again.State != job.State || again.Attempt != job.Attempt || again.Started != job.Started || again.Ended != job.Ended {
		t.Fatalf("rerun: %+v %v, was %+v", again, err, job)
	}
	ev, err := svc.Load(t.Context(), tid)
	if err != nil || ev.T.Round != 1 {
		t.Fatalf("event after the job: round %d, %v", ev.T.Round, err)
	}
	one := 1
	res, err := svc.Exec(t.Context(), tid, organiser, service.PairRoundOrJob{PairRound: service.PairRound{Round: &one}})
	if p, ok := res.(service.Paired); err != nil || !ok || p.Created || p.Round.Number != 1 || len(p.Round.Pairings) != 3 {
		t.Fatalf("round 1 asked again: %+v %v", res, err)
	}
	if _, err := svc.PairJob(t.Context(), tid, 2); err == nil {
		t.Fatal("a job for round 2 exists")
	}
}

// An event at or below the size pairs inside the request, as PairRound
// does: no job item is written.
func TestPairRoundOrJob_SmallEventPairsInline(t *testing.T) {
	svc, tid, organiser := jobService(t, 6, 6)
	res, err := svc.Exec(t.Context(), tid, organiser, service.PairRoundOrJob{})
	if p, ok := res.(service.Paired); err != nil || !ok || !p.Created || p.Round.Number != 1 {
		t.Fatalf("pair: %+v %v", res, err)
	}
	if _, err := svc.PairJob(t.Context(), tid, 1); err == nil {
		t.Fatal("a small event's round left a job item")
	}
}

// queueJob is a big event's round 1 queued as a job by one request.
func queueJob(t *testing.T, opts service.Options) (*service.Service, string, service.PairJobQueued) {
	t.Helper()
	opts.PairJobPlayers = 3
	e := newEvent(t, opts, tournament.Settings{Name: "Job Open", Rounds: 3})
	for i := range 6 {
		if _, err := e.svc.Exec(t.Context(), e.tid, e.organiser, service.RegisterPlayer{Name: string(rune('A' + i)), Rating: 2000 - i}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.svc.Exec(t.Context(), e.tid, e.organiser, service.PairRoundOrJob{})
	q, ok := res.(service.PairJobQueued)
	if err != nil || !ok || !q.Start {
		t.Fatalf("queue: %+v %v", res, err)
	}
	return e.svc, e.tid, q
}

// Without a starter the job runs in this process, outliving the request:
// it pairs the round and is done.
func TestStartPairJob_InProcess(t *testing.T) {
	svc, tid, q := queueJob(t, service.Options{})
	if err := svc.StartPairJob(t.Context(), q); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		job, err := svc.PairJob(t.Context(), tid, 1)
		if err != nil {
			t.Fatal(err)
		}
		if job.Finished() {
			if job.State != service.JobDone || job.Tables != 3 || job.Attempt != 1 {
				t.Fatalf("job %+v", job)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job still %s", job.State)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A starter hands the job over with its event and round; one that fails
// leaves the job failed (so a retry queues it afresh) and the request a
// 503-kind refusal to retry; a request that did not queue the job starts
// nothing.
func TestStartPairJob_Starter(t *testing.T) {
	var mu sync.Mutex
	var started []string
	refuse := errors.New("invoke throttled")
	fail := false
	starter := func(_ context.Context, tid string, n int) error {
		mu.Lock()
		defer mu.Unlock()
		if fail {
			return refuse
		}
		started = append(started, fmt.Sprintf("%s:%d", tid, n))
		return nil
	}
	svc, tid, q := queueJob(t, service.Options{StartPairJob: starter})
	if err := svc.StartPairJob(t.Context(), service.PairJobQueued{Job: q.Job}); err != nil || len(started) != 0 {
		t.Fatalf("a request that did not queue the job: %v, started %v", err, started)
	}
	if err := svc.StartPairJob(t.Context(), q); err != nil || len(started) != 1 || started[0] != tid+":1" {
		t.Fatalf("start: %v, started %v", err, started)
	}
	if job, err := svc.PairJob(t.Context(), tid, 1); err != nil || job.State != service.JobQueued {
		t.Fatalf("a started job is left to its runner: %+v %v", job, err)
	}
	mu.Lock()
	fail = true
	mu.Unlock()
	err := svc.StartPairJob(t.Context(), q)
	var ce *command.Error
	if !errors.As(err, &ce) || ce.Kind != command.Unavailable || ce.Code != "unavailable" || ce.RetryAfter != 1 {
		t.Fatalf("a failed start: %v", err)
	}
	job, err := svc.PairJob(t.Context(), tid, 1)
	if err != nil || job.State != service.JobFailed || job.Code != "unavailable" || !strings.Contains(job.Message, refuse.Error()) {
		t.Fatalf("job after a failed start: %+v %v", job, err)
	}
}
