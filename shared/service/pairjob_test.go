package service_test

import (
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
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
