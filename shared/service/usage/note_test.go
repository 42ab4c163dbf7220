package usage_test

import (
	"context"
	"sync"
	"testing"

	"github.com/xqtour/xqtour/shared/service/usage"
)

// A request's usage counts for the event it found, else for its path's
// event only when the answer shows the event exists; a game found names
// its event and game, from any of the request's goroutines.
func TestNote(t *testing.T) {
	_, n := usage.WithNote(context.Background(), "tmadeup", "")
	if got := n.Counted(false); got != "" {
		t.Errorf("a refused request of a path's event counts for %q", got)
	}
	if got := n.Counted(true); got != "tmadeup" {
		t.Errorf("a request whose answer shows the event counts for %q", got)
	}
	ctx, n := usage.WithNote(context.Background(), "", "gabc")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { usage.Found(ctx, "tevent", "gabc") })
	}
	wg.Wait()
	if tid, gid := n.Names(); tid != "tevent" || gid != "gabc" {
		t.Errorf("names %q %q", tid, gid)
	}
	if got := n.Counted(false); got != "tevent" {
		t.Errorf("a request that found its event counts for %q", got)
	}
	usage.Found(ctx, "", "gother") // no event: nothing learnt
	if tid, gid := n.Names(); tid != "tevent" || gid != "gabc" {
		t.Errorf("names after a call without an event: %q %q", tid, gid)
	}
	usage.Found(context.Background(), "tevent", "") // a context without a note: nothing to record, no panic
}
