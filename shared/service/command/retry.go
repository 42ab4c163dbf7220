package command

import (
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/store"
)

// Retries of the server's own contention. A command's step (read the items,
// decide, write them back under their versions) loses a race when another
// request wrote one of the items in between; DynamoDB also throttles and
// fails now and then (throttles, InternalServerError, a transaction
// cancelled by a concurrent one). None of that is the client's doing, and
// none of it changed anything: the store makes sure of the last part — a
// write that was applied although its answer was lost counts as done
// (store/ambiguous.go). So the step runs again on fresh items, after a
// jittered, growing pause, for as long as the request's time budget allows,
// and what still fails is a 503 with Retry-After (or 429 when DynamoDB
// throttled), never a 409 the client did not cause and never a 500.

// Budget is how long a command spends retrying its step: well inside
// the function's 29 s timeout (template.yaml) and API Gateway's 30 s, with
// room left for the reads and the answer.
const Budget = 12 * time.Second

// Retry runs fn until it succeeds, fails for a reason other than
// the store's contention, or the budget runs out. fn must be a whole step
// (it reads what it writes), so that rerunning it is safe.
func Retry(fn func() error) error {
	deadline := time.Now().Add(Budget)
	var err error
	for attempt := 0; ; attempt++ {
		if err = fn(); !Retryable(err) {
			return err
		}
		pause := Backoff(attempt)
		if time.Now().Add(pause).After(deadline) {
			return Contended(err)
		}
		time.Sleep(pause)
	}
}

// Retryable reports whether err is the store's contention or a transient
// failure that left nothing behind; an outcome the store could not
// establish is not retried (the step may have acted).
func Retryable(err error) bool {
	if err == nil || errors.Is(err, store.ErrOutcomeUnknown) {
		return false
	}
	return errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrThrottled) || errors.Is(err, store.ErrUnavailable)
}

// Backoff is the pause before retry attempt+1: 10 ms doubling up to 640 ms,
// drawn from its upper half ("equal jitter"), so that requests that
// collided spread out instead of colliding again in step.
func Backoff(attempt int) time.Duration {
	d := 10 * time.Millisecond << min(attempt, 6)
	return d/2 + rand.N(d/2)
}

// Contended is what a client is told when the budget ran out on the
// server's own contention: a 503 with Retry-After, which the client retries
// with the same Idempotency-Key (the request did nothing).
func Contended(err error) error {
	if errors.Is(err, store.ErrConflict) {
		return &Error{Kind: Unavailable, Code: "contended",
			Message: "too many concurrent changes to this event; nothing was changed, retry shortly with the same Idempotency-Key", RetryAfter: 1}
	}
	return err // throttled (429) or unavailable (503), both with Retry-After
}

// eventSequencer runs one event's registrations one at a time within this
// process: a burst of registrations for one event (200 at once at a venue's
// check-in) all rewrite the event item, and optimistic concurrency alone
// would make each of n concurrent writers lose up to n-1 races, O(n²) work
// for n registrations. Queued on the event's lock they run back to back,
// each reading the previous one's version, and conflict only with writers
// in other processes (other Lambda instances), which Retry absorbs.
var eventSequencer struct {
	mu    sync.Mutex
	locks map[string]*eventLock
}

type eventLock struct {
	sync.Mutex
	users int
}

// Sequenced is Retry(fn) with each run of fn holding event tid's
// lock (not the pauses between runs: a registration waiting out a throttle
// does not hold the others up).
func Sequenced(tid string, fn func() error) error {
	return Retry(func() error {
		unlock := lockEvent(tid)
		defer unlock()
		return fn()
	})
}

// lockEvent takes event tid's lock and returns its release.
func lockEvent(tid string) (unlock func()) {
	s := &eventSequencer
	s.mu.Lock()
	if s.locks == nil {
		s.locks = map[string]*eventLock{}
	}
	l := s.locks[tid]
	if l == nil {
		l = &eventLock{}
		s.locks[tid] = l
	}
	l.users++
	s.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		s.mu.Lock()
		if l.users--; l.users == 0 {
			delete(s.locks, tid)
		}
		s.mu.Unlock()
	}
}
