package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type eliminationRoundJSON struct {
	roundJSON
	Eliminated []string `json:"eliminated"`
}

// S-4 last-place elimination over HTTP: 12 players, 3 rounds, 3 dropped
// after round 2 (past halfway of 3 is the default fromRound) — the three
// lowest of the standings after round 2 are listed on round 3 and not paired.
func TestSwissElimination_S4_OverHTTP(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Last place out","system":"swissElimination","rounds":3,"elimination":{"perRound":3}}`, 12)
	el := f.ev.T["elimination"].(map[string]any)
	if el["fromRound"] != 2.0 || el["perRound"] != 3.0 || el["keep"] != 0.0 {
		t.Fatalf("elimination settings %v, want fromRound 2 (past halfway), perRound 3, keep 0", el)
	}
	var last eliminationRoundJSON
	for n := 1; n <= 3; n++ {
		var r eliminationRoundJSON
		s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &r)
		if n < 3 && len(r.Eliminated) != 0 {
			t.Fatalf("round %d lists eliminated %v before fromRound", n, r.Eliminated)
		}
		if n == 3 {
			last = r
			break
		}
		f.finishRound(t, s, r.roundJSON, nil)
	}
	var st struct {
		Rows []struct{ PlayerID string }
	}
	s.Get("/tournaments/"+f.ev.ID+"/standings?round=2").Want(t, http.StatusOK).Decode(t, &st)
	var tail []string
	for _, row := range st.Rows[len(st.Rows)-3:] {
		tail = append(tail, row.PlayerID)
	}
	if !slices.Equal(last.Eliminated, tail) {
		t.Fatalf("round 3 eliminated %v, want the last three after round 2 %v", last.Eliminated, tail)
	}
	for _, p := range last.Pairings {
		if slices.Contains(tail, p.Red) || slices.Contains(tail, p.Black) {
			t.Errorf("an eliminated player is paired in round 3: %+v", p)
		}
	}
	if len(last.Pairings) != 4 || len(last.Byes) != 1 || slices.Contains(tail, last.Byes[0]) {
		t.Fatalf("round 3 of the 9 still in: %+v", last)
	}
	var again eliminationRoundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/3").Want(t, http.StatusOK).Decode(t, &again)
	if !slices.Equal(again.Eliminated, tail) {
		t.Fatalf("GET round 3 eliminated %v, want %v", again.Eliminated, tail)
	}
	bad := s.Do(apitest.Req{Method: "POST", Path: "/tournaments", Body: `{"name":"x","system":"swissElimination","rounds":5,"elimination":{"fromRound":5}}`, Invalid: true}).Want(t, http.StatusBadRequest)
	if msg := bad.JSON()["error"].(map[string]any)["message"].(string); !strings.HasPrefix(msg, "elimination.fromRound") {
		t.Fatalf("fromRound at the last round: %s", bad.Body)
	}
}
