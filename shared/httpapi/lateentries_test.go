package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type lateRow struct {
	PlayerID                   string
	Points, Games, Draws, Byes int
}

func lateStandings(t *testing.T, s *apitest.Server, tid, round string) map[string]lateRow {
	t.Helper()
	var st struct{ Rows []lateRow }
	s.Get("/tournaments/"+tid+"/standings?round="+round).Want(t, http.StatusOK).Decode(t, &st)
	out := map[string]lateRow{}
	for _, r := range st.Rows {
		out[r.PlayerID] = r
	}
	return out
}

// S-2, K-1: a 6-player Swiss takes a late entrant before round 3 whose two
// missed rounds score as draws: round 3 pairs the entrant in the 2-point
// score group, the standings after round 3 hold the two draws' points (not
// games, not byes), and registration after round untilRound is paired is
// refused with 422 naming S-2.
func TestLateEntries_S2_MissedRoundsAsDraws(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Late","system":"swiss","rounds":5,"numbering":"registration","lateEntries":{"untilRound":3,"missedRounds":"draw"}}`, 6)
	tid := f.ev.ID
	if le, _ := f.ev.T["lateEntries"].(map[string]any); le["untilRound"] != 3.0 || le["missedRounds"] != "draw" {
		t.Fatalf("tournament's lateEntries: %v", f.ev.T["lateEntries"])
	}
	for range 2 {
		f.finishRound(t, s, f.pair(t, s, nil, http.StatusCreated), nil)
	}
	var late created
	s.Post("/tournaments/"+tid+"/players", f.ev.Token, map[string]any{"name": "Late Comer", "rating": 2000}).
		Want(t, http.StatusCreated).Decode(t, &late)
	after2 := lateStandings(t, s, tid, "2")
	if r := after2[late.ID]; r.Points != 2 || r.Games != 0 || r.Byes != 0 {
		t.Fatalf("late entrant after round 2: %+v, want two missed draws' 2 points", r)
	}

	r3 := f.pair(t, s, nil, http.StatusCreated)
	skip := map[int]bool{}
	var opp string
	for _, p := range r3.Pairings {
		switch late.ID {
		case p.Red:
			opp = p.Black
		case p.Black:
			opp = p.Red
		default:
			continue
		}
		skip[p.Table] = true
		if p.Explanation != nil && p.Explanation.ScoreGroup != 2 {
			t.Errorf("late entrant's score group: %d, want 2", p.Explanation.ScoreGroup)
		}
		finish(t, s, tid, 3, p.Table, p.GameID, p.Red, p.Black, "1/2-1/2")
	}
	if opp == "" {
		t.Fatalf("late entrant not paired in round 3: %+v", r3)
	}
	// The lone 4-point player floats down into the 2-point group (P-6),
	// which the late entrant now belongs to; its pairing explains it so.
	var ex roundJSON
	s.Get("/tournaments/"+tid+"/rounds/3?explain=true").Want(t, http.StatusOK).Decode(t, &ex)
	for _, p := range ex.Pairings {
		if p.Red != late.ID && p.Black != late.ID {
			continue
		}
		if p.Explanation == nil || p.Explanation.ScoreGroup != 2 || after2[opp].Points < 2 {
			t.Errorf("late entrant's pairing: %+v (opponent had %d points), want the 2-point score group", p, after2[opp].Points)
		}
	}
	f.finishRound(t, s, r3, skip)
	if r := lateStandings(t, s, tid, "3")[late.ID]; r.Points != 3 || r.Games != 1 || r.Draws != 1 || r.Byes != 0 {
		t.Errorf("late entrant after round 3: %+v, want 2 missed-draw points plus a drawn game", r)
	}

	refused := s.Post("/tournaments/"+tid+"/players", f.ev.Token, map[string]any{"name": "Too Late"}).Want(t, http.StatusUnprocessableEntity)
	if refused.ErrorCode() != "registration_closed" || refused.JSON()["error"].(map[string]any)["rule"] != "S-2" {
		t.Fatalf("entry after round 3 is paired: %s", refused.Body)
	}

	bad := s.Post("/tournaments", "", map[string]any{"name": "RR", "system": "roundRobin", "lateEntries": map[string]any{"missedRounds": "draw"}}).Want(t, http.StatusBadRequest)
	if !strings.Contains(string(bad.Body), "lateEntries") {
		t.Fatalf("round robin with late entries: %s", bad.Body)
	}
}
