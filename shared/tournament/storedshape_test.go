package tournament_test

import (
	"encoding/json"
	"testing"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A result item as the store has always held it — the result as API.md's
// string — decodes into the typed result and encodes back to the same bytes,
// so events stored before results were typed read and write unchanged.
func TestResult_StoredShapeDecodes(t *testing.T) {
	const stored = `{"Round":2,"Table":3,"GameID":"gabcdefghijklmnop","Red":"p1","Black":"p2","Result":"1/2-1/2","Reason":"agreement","RedFouls":0,"BlackFouls":1,"EndedAt":1800000000000}`
	var r tournament.Result
	if err := json.Unmarshal([]byte(stored), &r); err != nil {
		t.Fatal(err)
	}
	if r.Result != result.Draw || r.BlackFouls != 1 || r.Round != 2 {
		t.Errorf("decoded %+v", r)
	}
	back, err := json.Marshal(r)
	if err != nil || string(back) != stored {
		t.Errorf("re-encoded as %s, %v; want %s", back, err, stored)
	}
	var bad tournament.Result
	if err := json.Unmarshal([]byte(`{"Round":2,"Result":"1:0"}`), &bad); err == nil {
		t.Errorf("a stored result outside API.md decoded as %v", bad.Result)
	}
}
