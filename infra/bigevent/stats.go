package main

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"text/tabwriter"
	"time"
)

// stats gathers the measures of every invocation by route.
type stats struct {
	mu     sync.Mutex
	order  []string
	routes map[string][]measure
	extra  map[string]int64 // store refusals counted for a route as a whole (concurrent requests)
}

func newStats() *stats { return &stats{routes: map[string][]measure{}, extra: map[string]int64{}} }

// throttled adds n refusals by the store to route's count.
func (s *stats) throttled(route string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.extra[route] += n
}

// clientThrottled is how many responses told the client to come back
// later (429 or 503): what the store's throttles would be if the retries
// did not absorb them.
func (s *stats) clientThrottled() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, ms := range s.routes {
		for _, m := range ms {
			if m.status == 429 || m.status == 503 {
				n++
			}
		}
	}
	return n
}

func (s *stats) add(route string, m measure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.routes[route]; !ok {
		s.order = append(s.order, route)
	}
	s.routes[route] = append(s.routes[route], m)
}

// print writes one row per route: requests, statuses, the largest response
// against Lambda's limit, handler time (median, largest), the handler's CPU
// time (largest, from requests run alone) and units per request (median,
// largest).
func (s *stats) print(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "route\trequests\tstatuses\tlargest response\tof 6 MB\ttime p50\ttime max\tCPU max\tstore CPU max\tRCU p50\tRCU max\tWCU p50\tWCU max\tstore throttles\t")
	for _, route := range s.order {
		ms := s.routes[route]
		var largest int
		var walls, cpus, stores []time.Duration
		var reads, writes []float64
		codes := map[int]int{}
		throttles := s.extra[route]
		for _, m := range ms {
			throttles += m.throttled
			largest = max(largest, m.bytes)
			walls = append(walls, m.wall)
			if m.timedCPU {
				cpus, stores = append(cpus, m.cpu), append(stores, m.storeCPU)
			}
			if m.metered {
				reads, writes = append(reads, m.units.read), append(writes, m.units.write)
			}
			codes[m.status]++
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.0f%%\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t\n", route, len(ms), statuses(codes), size(largest),
			100*float64(largest)/lambdaResponseLimit, dur(median(walls)), dur(slices.Max(walls)), maxDur(cpus), maxDur(stores),
			num(median(reads), len(reads)), num(maxOf(reads), len(reads)), num(median(writes), len(writes)), num(maxOf(writes), len(writes)), throttles)
	}
	_ = tw.Flush()
}

func statuses(codes map[int]int) string {
	keys := make([]int, 0, len(codes))
	for k := range codes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := ""
	for i, k := range keys {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("%d×%d", codes[k], k)
	}
	return out
}

func median[T int | float64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func maxOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}

func maxDur(xs []time.Duration) string {
	if len(xs) == 0 {
		return "–"
	}
	return dur(slices.Max(xs))
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	default:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
}

func num(x float64, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", x)
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// printPartitions reports the store's partition limits: how many requests
// it refused (all absorbed by retries unless a client saw 429 or 503) and
// the hottest partition keys' busiest second and largest request.
func printPartitions(w io.Writer, st *storeStats, s *stats) error {
	p, err := st.partitions()
	if err != nil {
		return fmt.Errorf("the store's partition statistics: %w", err)
	}
	fmt.Fprintf(w, "\npartition limits (%.0f WCU, %.0f RCU a second per key): the store refused %d reads and %d writes; %d responses told a client to retry (429/503)\n",
		p.Limits.WriteUnits, p.Limits.ReadUnits, p.ThrottledReads, p.ThrottledWrites, s.clientThrottled())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "hottest keys\tWCU in its busiest second\tlargest write\tRCU in its busiest second\tlargest read\trefused\t")
	for _, u := range p.Hottest {
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%.0f\t%.0f\t%d\t\n", u.PK, u.PeakWrite, u.LargestWrite, u.PeakRead, u.LargestRead, u.Throttled)
	}
	return tw.Flush()
}
