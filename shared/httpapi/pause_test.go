package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// S-6 pause and return: a paused player is not paired in the next Swiss
// round, the missed round scores nothing and shows no game, and after
// resume the player is paired again.
func TestPauseAndResume_S6(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Pause","system":"swiss","rounds":4}`, 6)
	base := "/tournaments/" + f.ev.ID + "/players/"
	x := f.players[2]
	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, nil)

	var out struct{ Player map[string]any }
	s.Post(base+x.ID+"/pause", f.ev.Token, nil).Want(t, http.StatusOK).Decode(t, &out)
	if out.Player["status"] != "paused" {
		t.Fatalf("after pause: %v", out.Player)
	}
	for _, tc := range []struct {
		path, token, code string
		status            int
	}{
		{base + x.ID + "/pause", f.ev.Token, "already_paused", http.StatusUnprocessableEntity},
		{base + f.players[0].ID + "/resume", f.ev.Token, "not_paused", http.StatusUnprocessableEntity},
		{base + x.ID + "/resume", x.Token, "forbidden", http.StatusForbidden},
		{base + "paaaaaaaaaaaaaaaa/pause", f.ev.Token, "not_found", http.StatusNotFound},
	} {
		if r := s.Post(tc.path, tc.token, nil); r.Status != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.path, r.Status, r.Body, tc.status)
		}
	}
	var players struct{ Players []map[string]any }
	s.Get("/tournaments/"+f.ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &players)
	// The list is in number order, the numbers drawn for round 1 (P-3).
	for _, p := range players.Players {
		if p["id"] == x.ID && p["status"] != "paused" {
			t.Fatalf("players list: %v", p)
		}
	}

	r2 := f.pair(t, s, nil, http.StatusCreated)
	if paired(r2, x.ID) {
		t.Fatalf("the paused player is in round 2: %+v", r2)
	}
	if len(r2.Pairings) != 2 || len(r2.Byes) != 1 {
		t.Fatalf("round 2 of five active players: %+v", r2)
	}
	f.finishRound(t, s, r2, nil)

	var st struct {
		Rows []struct {
			PlayerID            string
			Points, Games, Byes int
		}
	}
	s.Get("/tournaments/"+f.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	var before1 struct {
		Rows []struct {
			PlayerID string
			Points   int
		}
	}
	s.Get("/tournaments/"+f.ev.ID+"/standings?round=1").Want(t, http.StatusOK).Decode(t, &before1)
	p1 := -1
	for _, r := range before1.Rows {
		if r.PlayerID == x.ID {
			p1 = r.Points
		}
	}
	for _, r := range st.Rows {
		if r.PlayerID == x.ID && (r.Games != 1 || r.Byes != 0 || r.Points != p1) {
			t.Fatalf("paused player after round 2: %+v, want round 1's %d points from 1 game", r, p1)
		}
	}
	var ct struct {
		Rows []struct {
			PlayerID string
			Cells    []struct{ Round int }
		}
	}
	s.Get("/tournaments/"+f.ev.ID+"/crosstable").Want(t, http.StatusOK).Decode(t, &ct)
	for _, r := range ct.Rows {
		if r.PlayerID == x.ID && (len(r.Cells) != 1 || r.Cells[0].Round != 1) {
			t.Fatalf("paused player's crosstable: %+v, want only round 1", r.Cells)
		}
	}

	s.Post(base+x.ID+"/resume", f.ev.Token, nil).Want(t, http.StatusOK).Decode(t, &out)
	if out.Player["status"] != "active" {
		t.Fatalf("after resume: %v", out.Player)
	}
	r3 := f.pair(t, s, nil, http.StatusCreated)
	if !paired(r3, x.ID) || len(r3.Pairings) != 3 {
		t.Fatalf("the returning player is not in round 3: %+v", r3)
	}

	rr := newField(t, s, `{"name":"Table","system":"roundRobin"}`, 4)
	if r := s.Post("/tournaments/"+rr.ev.ID+"/players/"+rr.players[0].ID+"/pause", rr.ev.Token, nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "pause_unsupported" {
		t.Fatalf("round-robin pause: %s", r.Body)
	}
}
