package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// TestAdjourn_C7_SealedMoveAndClocks over HTTP, 000 ch.3 书记员 3
// "负责资料整理、封棋、续赛任务": black, to move, seals its move after five
// minutes' thought; nobody sees it and nothing is played until the scribe
// resumes the game two hours later. Then the sealed move is on the board,
// red's clock runs, and each side has the time it had at the adjournment.
func TestAdjourn_C7_SealedMoveAndClocks(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Adjourned","system":"swiss","rounds":3,"timeControl":"rapid-10/40+5/30"}`)
	scribe := s.Post("/tournaments/"+pg.ev.ID+"/officials", pg.ev.Token, `{"role":"scribe","name":"Li","tables":[1]}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.ev.Token, nil).Want(t, http.StatusOK)
	s.Clock.Advance(time.Minute)
	s.Post("/games/"+pg.gid+"/moves", pg.red.Token, map[string]any{"move": "h2e2", "ply": 0, "press": true}).Want(t, http.StatusOK)
	s.Clock.Advance(5 * time.Minute)
	path := "/games/" + pg.gid

	wantError(t, s.Post(path+"/adjourn", pg.red.Token, map[string]any{"move": "h0g2", "ply": 1}), http.StatusUnprocessableEntity, "not_your_turn", "C-7")
	wantError(t, s.Post(path+"/adjourn", pg.black.Token, map[string]any{"move": "h9h2", "ply": 1}), http.StatusUnprocessableEntity, "illegal_move", "C-7")
	var st struct {
		Moves      []string
		LegalMoves []string `json:"legalMoves"`
		Adjourned  *struct {
			At       string
			SealedBy string `json:"sealedBy"`
		}
		Clocks struct {
			RedMs, BlackMs int64
			Running        *string
		}
	}
	s.Post(path+"/adjourn", pg.black.Token, map[string]any{"move": "h9g7", "ply": 1}).Want(t, http.StatusOK).Decode(t, &st)
	if st.Adjourned == nil || st.Adjourned.SealedBy != "black" || len(st.Moves) != 1 || len(st.LegalMoves) != 0 || st.Clocks.Running != nil {
		t.Fatalf("after sealing: %+v", st)
	}
	redAt, blackAt := st.Clocks.RedMs, st.Clocks.BlackMs
	if blackAt != 5*60*1000 {
		t.Errorf("black has %d ms at the adjournment, want 5 minutes (10 less the 5 it took)", blackAt)
	}

	// Adjourned: no move, press, offer or claim; the sealed move is shown nowhere.
	wantError(t, s.Post(path+"/moves", pg.black.Token, map[string]any{"move": "h9g7", "ply": 1, "press": true}), http.StatusUnprocessableEntity, "adjourned", "C-7")
	wantError(t, s.Post(path+"/draw", pg.red.Token, map[string]any{"action": "offer"}), http.StatusUnprocessableEntity, "adjourned", "C-7")
	wantError(t, s.Post(path+"/adjourn", pg.black.Token, map[string]any{"move": "h9g7", "ply": 1}), http.StatusUnprocessableEntity, "adjourned", "C-7")
	s.Clock.Advance(2 * time.Hour)
	for _, read := range []string{path, path + "/record?format=pgn", path + "/record?format=iccs"} {
		if body := string(s.Get(read).Want(t, http.StatusOK).Body); strings.Contains(body, "h9g7") || strings.Contains(body, "H9-G7") {
			t.Errorf("GET %s shows the sealed move: %s", read, body)
		}
	}
	s.Post(path+"/resume", pg.red.Token, `{}`).Want(t, http.StatusForbidden)

	s.Post(path+"/resume", scribe, `{}`).Want(t, http.StatusOK).Decode(t, &st)
	if st.Adjourned != nil || len(st.Moves) != 2 || st.Moves[1] != "h9g7" || st.Clocks.Running == nil || *st.Clocks.Running != "red" {
		t.Fatalf("after resuming: %+v", st)
	}
	if st.Clocks.RedMs != redAt || st.Clocks.BlackMs != blackAt {
		t.Errorf("clocks after resuming red %d black %d, want %d and %d as at the adjournment", st.Clocks.RedMs, st.Clocks.BlackMs, redAt, blackAt)
	}
	s.Clock.Advance(time.Minute)
	if got := s.Get(path).Want(t, http.StatusOK).JSON()["clocks"].(map[string]any)["redMs"].(float64); int64(got) != redAt-60*1000 {
		t.Errorf("a minute after resuming red has %v ms, want %d", got, redAt-60*1000)
	}
	wantError(t, s.Post(path+"/resume", scribe, `{}`), http.StatusUnprocessableEntity, "not_adjourned", "C-7")
	s.Post(path+"/moves", pg.red.Token, map[string]any{"move": "h0g2", "ply": 2, "press": true}).Want(t, http.StatusOK)
}
