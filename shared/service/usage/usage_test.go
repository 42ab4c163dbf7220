package usage_test

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/pricing"
	"github.com/xqtour/xqtour/shared/service/usage"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

var at = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// Usage gathered in the interval is pending, counted by Of all the same,
// and written by the first request after it or by Flush; the writes' own
// units are pending for the next one.
func TestBook_GathersThenWrites(t *testing.T) {
	st, _, _ := storetest.Start(t)
	b := usage.New(st, slog.New(slog.NewTextHandler(io.Discard, nil)), time.Minute)
	req := pricing.Invocation(10.4, 256, 2, 1, 3)
	b.Record("t1", req, at)
	b.Record("t1", req, at.Add(time.Second))
	stored := func() pricing.Counted {
		c, err := st.Counters(t.Context(), store.UsagePK("t1"), store.UsageSK)
		if err != nil {
			t.Fatal(err)
		}
		return pricing.CountedFrom(c)
	}
	if s := stored(); s.Requests != 0 {
		t.Fatalf("written inside the interval: %+v", s)
	}
	if u, err := b.Of(t.Context(), "t1"); err != nil || u.Requests != 2 || u.LambdaMs != 22 {
		t.Fatalf("Of while pending: %+v %v, want 2 requests, 22 ms", u, err)
	}
	b.Record("t1", req, at.Add(time.Minute))
	if s := stored(); s.Requests != 3 || s.ReadUnits != 6 {
		t.Fatalf("written after the interval: %+v, want 3 requests, 6 read units", s)
	}
	u, err := b.Of(t.Context(), "t1")
	if err != nil || u.Requests != 3 || u.WriteUnits <= 3 {
		t.Fatalf("Of after the write: %+v %v, want the write's own units pending", u, err)
	}
	b.Record("t2", req, at)
	b.Flush(at)
	c, err := st.Counters(t.Context(), store.UsagePK("t2"), store.UsageSK)
	if err != nil || c["requests"] != 1 {
		t.Fatalf("t2 after Flush: %v %v", c, err)
	}
}
