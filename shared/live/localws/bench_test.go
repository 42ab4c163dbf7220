package localws_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/live"
)

// Live-update speed on the local stack (`make livebench`): benchGames games
// live at once, each followed by two WebSocket subscribers, and benchMovers
// clients submitting moves across them. For each of b.N moves it measures
// from the move's 200 (accepted) to the moment both subscribers hold the game
// message of that ply, and reports p50-ms and p99-ms (goal: p99 < 100 ms);
// sent-p99-ms measures from sending the move instead. A message may arrive
// before the move's response (the fan-out starts when the write succeeds):
// that counts as 0.
const (
	benchGames  = 100
	benchMovers = 8
)

// liveGame is one game of the benchmark with its two followers.
type liveGame struct {
	g    newGame
	view gameJSON
	subs [2]*client
}

func (s *stack) liveGame(b *testing.B) *liveGame {
	g, view := s.newGame()
	lg := &liveGame{g: g, view: view, subs: [2]*client{s.dial(), s.dial()}}
	for _, c := range lg.subs {
		c.follow("game", g.ID)
	}
	return lg
}

func BenchmarkLive_MoveToSubscribers(b *testing.B) {
	s := newStackWith(b, live.Limits{ConnectionsPerClient: 2 * benchGames}, nil) // every subscriber dials from loopback
	games := make([]*liveGame, benchGames)
	for i := range games {
		games[i] = s.liveGame(b)
	}
	var (
		mu             sync.Mutex
		accepted, sent []time.Duration
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
				// Each mover keeps to its own games, so moves of one game are sequential.
				idx := w + benchMovers*(n%(benchGames/benchMovers))
				n++
				lg := games[idx]
				if lg.view.Status != "playing" || len(lg.view.LegalMoves) == 0 {
					mu.Lock()
					lg = s.liveGame(b)
					games[idx] = lg
					mu.Unlock()
				}
				t0 := time.Now()
				_, after := s.play(lg.g, lg.view)
				t1 := time.Now()
				last := lg.subs[0].awaitPly(after.Ply).at
				if other := lg.subs[1].awaitPly(after.Ply).at; other.After(last) {
					last = other
				}
				lg.view = after
				mu.Lock()
				accepted = append(accepted, max(0, last.Sub(t1)))
				sent = append(sent, last.Sub(t0))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(ms(percentile(accepted, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(accepted, 99)), "p99-ms")
	b.ReportMetric(ms(percentile(sent, 50)), "sent-p50-ms")
	b.ReportMetric(ms(percentile(sent, 99)), "sent-p99-ms")
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, (len(s)*p+99)/100-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
