package xiangqi_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/xiangqi"
)

// BenchmarkPerft5Start runs perft(5) from the start position (133,312,995
// nodes) and reports nodes per second.
func BenchmarkPerft5Start(b *testing.B) {
	p := xiangqi.NewPosition()
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(5)
	}
	if nodes != uint64(b.N)*133312995 {
		b.Fatalf("perft(5) total %d after %d runs", nodes, b.N)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkAppendLegalMoves measures one move-list generation of the start
// position into a reused slice; it must not allocate.
func BenchmarkAppendLegalMoves(b *testing.B) {
	p := xiangqi.NewPosition()
	buf := make([]xiangqi.Move, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.AppendLegalMoves(buf[:0])
	}
}
