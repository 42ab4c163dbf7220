package localws_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/live"
)

// The round channel at a broadcast's scale on the local stack
// (`make roundbench`): one round of roundBenchBoards games live at once,
// followed by roundBenchViewers sockets each subscribed to the round alone,
// and benchMovers clients submitting moves across the boards. For each of
// b.N moves it measures from the move's 200 to the moment every follower
// holds that move's message (p50-ms, p99-ms); a message may arrive before
// the move's response, which counts as 0.
const (
	roundBenchBoards  = 100
	roundBenchViewers = 500
)

// arrivals counts, per game and ply, the followers holding its move message.
type arrivals struct {
	mu   sync.Mutex
	want int
	keys map[arrivalKey]*arrival
}

type arrivalKey struct {
	game string
	ply  int
}

type arrival struct {
	n    int
	last time.Time
	done chan struct{}
}

// expect registers a move before it is sent.
func (a *arrivals) expect(k arrivalKey) *arrival {
	a.mu.Lock()
	defer a.mu.Unlock()
	v := &arrival{done: make(chan struct{})}
	a.keys[k] = v
	return v
}

func (a *arrivals) got(k arrivalKey, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	v := a.keys[k]
	if v == nil {
		return
	}
	v.n++
	if at.After(v.last) {
		v.last = at
	}
	if v.n == a.want {
		close(v.done)
		delete(a.keys, k)
	}
}

func BenchmarkLive_RoundToSubscribers(b *testing.B) {
	s := newStackWith(b, live.Limits{ConnectionsPerClient: roundBenchViewers + 10}, nil) // every follower dials from loopback
	ev := s.newEvent(roundBenchBoards, nil)
	arr := &arrivals{want: roundBenchViewers, keys: map[arrivalKey]*arrival{}}
	for range roundBenchViewers {
		c := s.dial()
		c.followRound(ev.id, 1)
		go func() {
			for r := range c.msgs {
				var m struct {
					Type, Game string
					Ply        int
				}
				if json.Unmarshal(r.raw, &m) == nil && m.Type == "move" {
					arr.got(arrivalKey{m.Game, m.Ply}, r.at)
				}
			}
		}()
	}
	var (
		mu       sync.Mutex
		accepted []time.Duration
	)
	work := make(chan int, b.N)
	for i := range b.N {
		work <- i
	}
	close(work)
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range benchMovers {
		wg.Go(func() {
			n := 0
			for range work {
				// Each mover keeps to its own boards, so moves of one game are sequential.
				bd := ev.boards[w+benchMovers*(n%(roundBenchBoards/benchMovers))]
				n++
				if bd.view.Status != "playing" || len(bd.view.LegalMoves) == 0 {
					continue // a game that ended: its mover takes the next board
				}
				v := arr.expect(arrivalKey{bd.g.ID, bd.view.Ply + 1})
				_, after := s.play(bd.g, bd.view)
				t1 := time.Now()
				select {
				case <-v.done:
				case <-time.After(wait):
					arr.mu.Lock()
					got := v.n
					arr.mu.Unlock()
					b.Errorf("move %d of %s: %d of %d followers notified within %s", after.Ply, bd.g.ID, got, roundBenchViewers, wait)
					return
				}
				bd.view = after
				mu.Lock()
				accepted = append(accepted, max(0, v.last.Sub(t1)))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(ms(percentile(accepted, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(accepted, 99)), "p99-ms")
}
