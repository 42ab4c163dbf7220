package httpapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store"
)

// jobSettings number the field by registration, so two events of the same
// registrations pair alike whatever their ids (no lots drawn, P-3).
const jobSettings = `{"name":"Job Open","system":"swiss","rounds":3,"firstRound":"positional","numbering":"registration"}`

// jobJSON is a pairing job as the API shows it.
type jobJSON struct {
	Job, Status, State string
	Round, Attempt     int
	Tables, Byes       *int
	Error              *struct{ Code, Message, Rule string }
}

// jobServer is a server whose events of more than 4 entrants pair as jobs,
// started by hand (held): the test runs each job as a Lambda invocation
// would, through an API of its own over the same store.
type jobServer struct {
	*apitest.Server
	mu      sync.Mutex
	started []string
	// refuse, when set, is the starter's failure (an invocation refused).
	refuse error
}

func newJobServer(t *testing.T) *jobServer {
	js := &jobServer{}
	js.Server = apitest.New(t, httpapi.WithPairJobPlayers(4), httpapi.WithPairJobStarter(func(_ context.Context, tid string, n int) error {
		js.mu.Lock()
		defer js.mu.Unlock()
		if js.refuse != nil {
			return js.refuse
		}
		js.started = append(js.started, fmt.Sprintf("%s:%d", tid, n))
		return nil
	}))
	return js
}

// jobs are the jobs started so far.
func (js *jobServer) jobs() []string {
	js.mu.Lock()
	defer js.mu.Unlock()
	return append([]string(nil), js.started...)
}

// refuseStarts makes the starter fail with err (nil: succeed).
func (js *jobServer) refuseStarts(err error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	js.refuse = err
}

// run runs job tid:n as its asynchronous invocation does.
func (js *jobServer) run(t *testing.T, tid string, n int) {
	t.Helper()
	if err := httpapi.New(js.Store, httpapi.WithClock(js.Clock.Now), httpapi.WithPairJobPlayers(4)).RunPairJob(t.Context(), tid, n); err != nil {
		t.Fatalf("job %s:%d: %v", tid, n, err)
	}
}

func getJob(t *testing.T, s *apitest.Server, tid string, n int) jobJSON {
	t.Helper()
	var j jobJSON
	s.Get(fmt.Sprintf("/tournaments/%s/rounds/%d/job", tid, n)).Want(t, http.StatusOK).Decode(t, &j)
	return j
}

// namesOf is a round's pairings by registration number: two events of the same
// registrations compare equal whatever their ids.
func numbersOf(f field, r roundJSON) string {
	var b bytes.Buffer
	for _, p := range r.Pairings {
		fmt.Fprintf(&b, "%d:%d-%d ", p.Table, indexOf(f.players, p.Red)+1, indexOf(f.players, p.Black)+1)
	}
	for _, id := range r.Byes {
		fmt.Fprintf(&b, "bye:%d ", indexOf(f.players, id)+1)
	}
	return b.String()
}

// A big event (the threshold set to 4 entrants; 7 registered) pairs its
// round as a job, in the process that served the request: 202 with the
// job, whose status goes to done; the round then reads as any round and
// equals what the synchronous path pairs for the same registrations, in
// round 1 and in round 2 after the same results. A smaller event
// (threshold not passed) still pairs inside the request: 201.
func TestPairJob_InProcessDoneEqualsSynchronous(t *testing.T) {
	inline := apitest.New(t)
	big := apitest.New(t, httpapi.WithPairJobPlayers(4))
	fs, fb := newField(t, inline, jobSettings, 7), newField(t, big, jobSettings, 7)
	small := newField(t, big, jobSettings, 4)
	small.pair(t, big, nil, http.StatusCreated)
	for n := 1; n <= 2; n++ {
		want := fs.pair(t, inline, nil, http.StatusCreated)
		var j jobJSON
		big.Post("/tournaments/"+fb.ev.ID+"/rounds", fb.ev.Token, nil).Want(t, http.StatusAccepted).Decode(t, &j)
		if j.Job != fmt.Sprintf("%s:%d", fb.ev.ID, n) || j.Status != fmt.Sprintf("/tournaments/%s/rounds/%d/job", fb.ev.ID, n) || j.Round != n {
			t.Fatalf("round %d: 202 %+v", n, j)
		}
		deadline := time.Now().Add(20 * time.Second)
		for j.State != "done" {
			if j.State == "failed" || time.Now().After(deadline) {
				t.Fatalf("round %d: job %+v", n, j)
			}
			time.Sleep(20 * time.Millisecond)
			j = getJob(t, big, fb.ev.ID, n)
		}
		if j.Tables == nil || *j.Tables != 3 || j.Byes == nil || *j.Byes != 1 || j.Attempt != 1 {
			t.Errorf("round %d: done job %+v, want 3 tables, 1 bye, 1 attempt", n, j)
		}
		var got roundJSON
		big.Get(fmt.Sprintf("/tournaments/%s/rounds/%d", fb.ev.ID, n)).Want(t, http.StatusOK).Decode(t, &got)
		if numbersOf(fb, got) != numbersOf(fs, want) {
			t.Fatalf("round %d as a job:\n %s\nsynchronously:\n %s", n, numbersOf(fb, got), numbersOf(fs, want))
		}
		for _, p := range got.Pairings {
			wantGame(t, big, p.GameID, p.Red, p.Black)
		}
		fs.finishRound(t, inline, want, nil)
		fb.finishRound(t, big, got, nil)
	}
}

// Two organisers' requests for the same round at once, under different
// Idempotency-Keys, get the same 202 and start one job; the job pairs one
// round, and a request while it is queued gets the same 202 without
// starting another. The round is then read as any round, and a request
// naming it answers as today (200, the stored round).
func TestPairJob_ConcurrentRequestsOneJobOneRound(t *testing.T) {
	js := newJobServer(t)
	f := newField(t, js.Server, jobSettings, 6)
	var wg sync.WaitGroup
	out := make([]jobJSON, 4)
	for i := range out {
		wg.Go(func() {
			r := js.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + f.ev.ID + "/rounds", Token: f.ev.Token, Body: map[string]any{"round": 1},
				Header: map[string]string{"Idempotency-Key": uuid4()}})
			if r.Status != http.StatusAccepted {
				t.Errorf("request %d: %d %s", i, r.Status, r.Body)
				return
			}
			r.Decode(t, &out[i])
		})
	}
	wg.Wait()
	for i, j := range out {
		if j.Job != f.ev.ID+":1" || j.State != "queued" {
			t.Errorf("request %d: %+v", i, j)
		}
	}
	if len(js.jobs()) != 1 {
		t.Fatalf("jobs started %v, want one", js.jobs())
	}
	if j := getJob(t, js.Server, f.ev.ID, 1); j.State != "queued" || j.Attempt != 0 {
		t.Fatalf("before it runs: %+v", j)
	}
	if _, err := js.Store.Get(t.Context(), store.TournamentPK(f.ev.ID), store.RoundSK(1)); err == nil {
		t.Fatal("round 1 stored before its job ran")
	}
	js.run(t, f.ev.ID, 1)
	js.run(t, f.ev.ID, 1) // Lambda's retry of a job that had finished: nothing happens
	if j := getJob(t, js.Server, f.ev.ID, 1); j.State != "done" || *j.Tables != 3 || j.Attempt != 1 {
		t.Fatalf("after it ran: %+v", j)
	}
	var rounds struct{ Paired int }
	js.Get("/tournaments/"+f.ev.ID+"/rounds").Want(t, http.StatusOK).Decode(t, &rounds)
	if rounds.Paired != 1 {
		t.Fatalf("rounds paired %d, want 1", rounds.Paired)
	}
	r := f.pair(t, js.Server, map[string]any{"round": 1}, http.StatusOK)
	checkRound(t, js.Server, f, r, map[[2]string]bool{}, map[string]bool{})
	if len(js.jobs()) != 1 {
		t.Fatalf("jobs started %v, want one", js.jobs())
	}
}

// A job whose pairing is refused (round 1's games unfinished, P-12)
// records the refusal: failed with its code, message and rule, and no
// round 2. Rerunning it changes nothing; a new request queues it again
// (here with unfinishedAsDraws), and that run pairs round 2. Rerunning a
// done job changes nothing either: not its item, not the round, not the
// event. A job interrupted after its pairing's transaction (its item left
// running) pairs the same round when run again, and no other.
func TestPairJob_FailedRerunAndInterrupted(t *testing.T) {
	js := newJobServer(t)
	f := newField(t, js.Server, jobSettings, 6)
	pairs := func(body any) jobJSON {
		var j jobJSON
		js.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, body).Want(t, http.StatusAccepted).Decode(t, &j)
		return j
	}
	pairs(nil)
	js.run(t, f.ev.ID, 1)
	r1, v1 := storedRound(t, js.Server, f.ev.ID, 1)

	if j := pairs(nil); j.Round != 2 || j.State != "queued" {
		t.Fatalf("round 2 asked: %+v", j)
	}
	js.run(t, f.ev.ID, 2)
	j := getJob(t, js.Server, f.ev.ID, 2)
	if j.State != "failed" || j.Error == nil || j.Error.Code != "unfinished_games" || j.Error.Rule != "P-12" || j.Error.Message == "" || j.Tables != nil {
		t.Fatalf("round 2 with round 1 unfinished: %+v %+v", j, j.Error)
	}
	if _, err := js.Store.Get(t.Context(), store.TournamentPK(f.ev.ID), store.RoundSK(2)); err == nil {
		t.Fatal("a failed job stored round 2")
	}
	before := jobItem(t, js, f.ev.ID, 2)
	js.run(t, f.ev.ID, 2)
	if after := jobItem(t, js, f.ev.ID, 2); after.Version != before.Version || !bytes.Equal(after.Doc, before.Doc) {
		t.Fatalf("rerunning a failed job changed it:\n%s\n%s", before.Doc, after.Doc)
	}

	// Rerunning the done job of round 1 changes nothing.
	done := jobItem(t, js, f.ev.ID, 1)
	meta, err := js.Store.Get(t.Context(), store.TournamentPK(f.ev.ID), store.MetaSK)
	if err != nil {
		t.Fatal(err)
	}
	js.run(t, f.ev.ID, 1)
	if again := jobItem(t, js, f.ev.ID, 1); again.Version != done.Version || !bytes.Equal(again.Doc, done.Doc) {
		t.Fatalf("rerunning a done job changed it:\n%s\n%s", done.Doc, again.Doc)
	}
	if _, v := storedRound(t, js.Server, f.ev.ID, 1); v != v1 {
		t.Fatalf("rerunning a done job rewrote round 1: version %d, was %d", v, v1)
	}
	if m, _ := js.Store.Get(t.Context(), store.TournamentPK(f.ev.ID), store.MetaSK); m.Version != meta.Version {
		t.Fatalf("rerunning a done job rewrote the event: version %d, was %d", m.Version, meta.Version)
	}

	// Asked again after the failure: queued afresh, paired this time.
	if j := pairs(map[string]any{"unfinishedAsDraws": true}); j.Round != 2 || j.State != "queued" || j.Error != nil {
		t.Fatalf("round 2 asked again: %+v", j)
	}
	js.run(t, f.ev.ID, 2)
	if j := getJob(t, js.Server, f.ev.ID, 2); j.State != "done" || j.Attempt != 2 || *j.Tables != 3 {
		t.Fatalf("round 2 again: %+v", j)
	}
	r2, v2 := storedRound(t, js.Server, f.ev.ID, 2)

	// Interrupted after the pairing's transaction: the item still says
	// running. The rerun answers the stored round 2 and pairs no round 3.
	rec := jobItem(t, js, f.ev.ID, 2)
	rec.Doc = bytes.Replace(rec.Doc, []byte(`"s":"done"`), []byte(`"s":"running"`), 1)
	if err := js.Store.Put(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	if j := getJob(t, js.Server, f.ev.ID, 2); j.State != "running" {
		t.Fatalf("interrupted: %+v", j)
	}
	js.run(t, f.ev.ID, 2)
	if j := getJob(t, js.Server, f.ev.ID, 2); j.State != "done" || j.Attempt != 3 || *j.Tables != 3 {
		t.Fatalf("interrupted, rerun: %+v", j)
	}
	if again, v := storedRound(t, js.Server, f.ev.ID, 2); v != v2 || fmt.Sprint(again.Pairings) != fmt.Sprint(r2.Pairings) {
		t.Fatalf("the rerun repaired round 2: version %d (was %d)", v, v2)
	}
	if _, err := js.Store.Get(t.Context(), store.TournamentPK(f.ev.ID), store.RoundSK(3)); err == nil {
		t.Fatal("the rerun paired round 3")
	}
	if len(r1.Pairings) != 3 {
		t.Fatalf("round 1: %+v", r1)
	}
	js.Get("/tournaments/"+f.ev.ID+"/rounds/3/job").Want(t, http.StatusNotFound)
}

// jobItem reads the job item of round n of event tid.
func jobItem(t *testing.T, js *jobServer, tid string, n int) *store.Record {
	t.Helper()
	rec, err := js.Store.Get(t.Context(), store.ImportPK(tid), store.PairJobSK(n))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A job that could not be handed over (its asynchronous invocation
// refused) is a 503 and is marked failed, so the client's retry under the
// same Idempotency-Key queues it afresh and starts it, rather than finding
// it queued with nothing running it.
func TestPairJob_NotStartedIsRetried(t *testing.T) {
	js := newJobServer(t)
	f := newField(t, js.Server, jobSettings, 6)
	js.refuseStarts(errors.New("lambda: rate exceeded"))
	q := apitest.Req{Method: "POST", Path: "/tournaments/" + f.ev.ID + "/rounds", Token: f.ev.Token, Body: map[string]any{"round": 1},
		Header: map[string]string{"Idempotency-Key": uuid4()}}
	if r := js.Do(q); r.Status != http.StatusServiceUnavailable || r.ErrorCode() != "unavailable" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("not started: %d %s", r.Status, r.Body)
	}
	if j := getJob(t, js.Server, f.ev.ID, 1); j.State != "failed" || j.Error == nil || j.Error.Code != "unavailable" {
		t.Fatalf("not started: %+v", j)
	}
	js.refuseStarts(nil)
	var j jobJSON
	js.Do(q).Want(t, http.StatusAccepted).Decode(t, &j)
	if j.State != "queued" || j.Error != nil || len(js.jobs()) != 1 {
		t.Fatalf("retried: %+v, started %v", j, js.jobs())
	}
	js.run(t, f.ev.ID, 1)
	if j := getJob(t, js.Server, f.ev.ID, 1); j.State != "done" || j.Attempt != 1 {
		t.Fatalf("retried, run: %+v", j)
	}
}
