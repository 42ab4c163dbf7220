package swiss_test

import (
	"runtime"
	"testing"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// benchInput simulates 10 rounds of an 11-round event (realistic histories:
// scores, colours, floats, withdrawals, pauses, late entries, unfinished
// games) and returns the input for round 11.
func benchInput(b *testing.B, n int) swiss.Input {
	b.Helper()
	rep, err := checker.Simulate(checker.Event{Players: n, Rounds: 10, Seed: 11, Churn: true, Forbidden: 5})
	if err != nil || rep.Stopped {
		b.Fatalf("simulate: %v (stopped %v)", err, rep.Stopped)
	}
	return swiss.Input{Players: rep.Players, Rounds: 11, Round: 11, DrawPoints: 1}
}

func benchPair(b *testing.B, n int) {
	in := benchInput(b, n)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	b.ResetTimer()
	var peak uint64
	for i := 0; i < b.N; i++ {
		if _, err := swiss.Pair(in); err != nil {
			b.Fatal(err)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapSys > peak {
			peak = ms.HeapSys
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
}

func BenchmarkPairRound11_1000(b *testing.B)  { benchPair(b, 1000) }
func BenchmarkPairRound11_10000(b *testing.B) { benchPair(b, 10000) }
