package embedded

import "time"

// HoldPartitionClock makes the partition limits' clock read *now, so that a
// test decides when the buckets refill.
func HoldPartitionClock(s *Server, now *time.Time) {
	if l := s.limiter.Load(); l != nil {
		l.mu.Lock()
		l.now = func() time.Time { return *now }
		l.mu.Unlock()
	}
}
