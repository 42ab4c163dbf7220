package httpapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// T-3: the organiser's draw of every missing lineup of a 110-team round is
// 110 lineup items and the round item: more than DynamoDB's 100 actions in
// one transaction (the embedded server refuses that, as AWS does). It is
// written in chunks; a failure between chunks leaves whole matches set and
// the same request sent again draws only what is still missing.
func TestDrawMissing_T3_MoreLineupsThanOneTransactionHolds(t *testing.T) {
	s := apitest.New(t)
	const teams = 110
	te := &teamEvent{ev: newEvent(t, s, `{"name":"Big league","system":"swiss","rounds":1,"teams":true,"boards":2,"teamFormat":"lineupPerMatch"}`)}
	for i := range teams {
		body := map[string]any{"name": fmt.Sprintf("Team %d", i+1), "members": []map[string]any{
			{"name": fmt.Sprintf("T%d A", i+1), "rating": 2500 - 10*i}, {"name": fmt.Sprintf("T%d B", i+1), "rating": 2495 - 10*i}}}
		s.Post("/tournaments/"+te.ev.ID+"/teams", te.ev.Token, body).Want(t, http.StatusCreated)
	}
	te.pair(t, s, map[string]any{}, http.StatusCreated)

	// The second chunk's transaction fails as DynamoDB does when it is down
	// (the SDK's retries included): the request answers 503.
	var lineupWrites atomic.Int32
	s.DB.Intercept(func(op string, body []byte) embedded.Fault {
		if op == "TransactWriteItems" && bytes.Contains(body, []byte(`"L#0001#`)) && lineupWrites.Add(1) >= 2 {
			return embedded.Unavailable
		}
		return embedded.Serve
	})
	te.lineup(s, 1, te.ev.Token, map[string]any{"drawMissing": true}).Want(t, http.StatusServiceUnavailable)
	s.DB.Intercept(nil)

	var half teamRoundJSON
	s.Get("/tournaments/"+te.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &half)
	set := 0
	for _, m := range half.Matches {
		if m.Set {
			set++
		}
	}
	if set == 0 || set == len(half.Matches) || len(half.Pairings) != 2*set {
		t.Fatalf("after the failed chunk: %d of %d matches set, %d board games; want the first chunk's matches set whole", set, len(half.Matches), len(half.Pairings))
	}

	// The same request again completes the draw; no lineup is drawn twice.
	var resp struct {
		Round   teamRoundJSON
		Lineups []struct {
			Team  string
			Drawn bool
		}
	}
	te.lineup(s, 1, te.ev.Token, map[string]any{"drawMissing": true}).Want(t, http.StatusOK).Decode(t, &resp)
	if got, want := len(resp.Lineups), teams-2*set; got != want {
		t.Fatalf("the repeat drew %d lineups, want the %d still missing", got, want)
	}
	for _, m := range resp.Round.Matches {
		if !m.Set {
			t.Fatalf("match %s is not set after the draw", m.Match)
		}
	}
	if len(resp.Round.Matches) != teams/2 || len(resp.Round.Pairings) != teams {
		t.Fatalf("%d matches, %d board games; want %d and %d", len(resp.Round.Matches), len(resp.Round.Pairings), teams/2, teams)
	}
	// A third draw finds nothing missing.
	te.lineup(s, 1, te.ev.Token, map[string]any{"drawMissing": true}).Want(t, http.StatusOK).Decode(t, &resp)
	if len(resp.Lineups) != 0 {
		t.Fatalf("a third draw drew %d lineups", len(resp.Lineups))
	}
}
