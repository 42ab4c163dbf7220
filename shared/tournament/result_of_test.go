package tournament

import (
	"testing"

	"github.com/xqtour/xqtour/shared/result"
)

// A result is a pairing's unless it names another game of the table (one
// replaced before the round started); an id unknown on either side matches.
func TestResultOf(t *testing.T) {
	r := Result{Round: 1, Table: 1, GameID: "g1", Result: result.RedWins}
	for gid, want := range map[string]bool{"g1": true, "": true, "g2": false} {
		if got := r.Of(gid); got != want {
			t.Errorf("result of g1 is game %q's: %v, want %v", gid, got, want)
		}
	}
	if !(Result{Table: 1}).Of("g2") {
		t.Error("a result without a game id is not the table's game's")
	}
	h := NewHistory(nil, []*Round{{Number: 1, Pairings: []Pairing{{Table: 1, Red: "p1", Black: "p2", GameID: "g2"}}}}, []Result{r})
	if _, ok := h.Result(1, h.Rounds[0].Pairings[0]); ok {
		t.Error("History.Result counts another game's result for the pairing")
	}
}
