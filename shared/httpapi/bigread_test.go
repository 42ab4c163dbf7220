package httpapi_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// A large event is read in parallel key ranges (its players, and each
// round with its results) instead of one Query page after another: the
// reads see the same event as one Query does, and a round paired from them
// is read back the same either way.
func TestLargeEventReadInKeyRangesSeesTheSameEvent(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Ranges Open","rounds":4}`, 9)
	for range 2 {
		f.finishRound(t, s, f.pair(t, s, nil, http.StatusCreated), nil)
	}
	paths := []string{"/standings", "/crosstable", "/rounds/1", "/rounds/2", "/rounds/3", "/players"}
	views := func() (out [][]byte) {
		for _, path := range paths {
			out = append(out, s.Get("/tournaments/"+f.ev.ID+path).Body)
		}
		return out
	}
	whole := views()
	httpapi.SplitReadsFrom(t, 1)
	split := views()
	for i := range whole {
		if !bytes.Equal(whole[i], split[i]) {
			t.Errorf("%s read in key ranges:\n%s\nread whole:\n%s", paths[i], split[i], whole[i])
		}
	}
	r3 := f.pair(t, s, nil, http.StatusCreated)
	if len(r3.Pairings) != 4 {
		t.Fatalf("round 3 of 9 players paired from key ranges: %d tables, want 4 and a bye", len(r3.Pairings))
	}
	f.finishRound(t, s, r3, nil)
	split = views()
	httpapi.SplitReadsFrom(t, 1<<30)
	whole = views()
	for i := range whole {
		if !bytes.Equal(whole[i], split[i]) {
			t.Errorf("after round 3, %s read in key ranges:\n%s\nread whole:\n%s", paths[i], split[i], whole[i])
		}
	}
}
