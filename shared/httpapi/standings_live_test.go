package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type liveTable struct {
	Round int
	Live  bool
	Rows  []struct {
		PlayerID string `json:"playerId"`
		Points   int
	}
}

func liveGet(t *testing.T, s *apitest.Server, path string) liveTable {
	t.Helper()
	var out liveTable
	s.Get(path).Want(t, http.StatusOK).Decode(t, &out)
	return out
}

func total(tb liveTable) int {
	n := 0
	for _, r := range tb.Rows {
		n += r.Points
	}
	return n
}

// Standings and the crosstable are by default after the last complete round
// and say which; ?live=true counts the round in play, and says so.
func TestStandings_DefaultIsLastCompleteRound_LiveOnRequest(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Live","system":"swiss","rounds":3}`, 4)
	st, ct := "/tournaments/"+f.ev.ID+"/standings", "/tournaments/"+f.ev.ID+"/crosstable"

	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, map[int]bool{2: true}) // table 1 decided, table 2 in play
	for _, tc := range []struct {
		path   string
		round  int
		live   bool
		points int
	}{
		{st, 0, false, 0},
		{st + "?live=true", 1, true, 2},
		{st + "?round=1", 1, true, 2},
		{st + "?live=false", 0, false, 0},
	} {
		got := liveGet(t, s, tc.path)
		if got.Round != tc.round || got.Live != tc.live || total(got) != tc.points || len(got.Rows) != 4 {
			t.Errorf("%s with round 1 in play: round %d live %v points %d rows %d; want %d %v %d", tc.path, got.Round, got.Live, total(got), len(got.Rows), tc.round, tc.live, tc.points)
		}
	}
	if got := liveGet(t, s, ct); got.Round != 0 || got.Live {
		t.Errorf("crosstable with round 1 in play: %+v", got)
	}
	if got := liveGet(t, s, ct+"?live=true"); got.Round != 1 || !got.Live {
		t.Errorf("live crosstable: %+v", got)
	}

	f.finishRound(t, s, r1, map[int]bool{1: true})
	if got := liveGet(t, s, st); got.Round != 1 || got.Live || total(got) != 4 {
		t.Errorf("after round 1: %+v", got)
	}
	r2 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r2, map[int]bool{2: true})
	if got := liveGet(t, s, st); got.Round != 1 || got.Live || total(got) != 4 {
		t.Errorf("round 2 in play, default: %+v", got)
	}
	if got := liveGet(t, s, st+"?live=true"); got.Round != 2 || !got.Live || total(got) != 6 {
		t.Errorf("round 2 in play, live: %+v", got)
	}
	if r := s.Do(apitest.Req{Method: http.MethodGet, Path: st + "?live=yes", Invalid: true}); r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_query" {
		t.Errorf("live=yes: %d %s", r.Status, r.Body)
	}
}
