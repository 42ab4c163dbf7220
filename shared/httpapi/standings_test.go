package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/tournament"
)

// S-6 in a round robin: a player who leaves after 1 of 3 games is not paired
// again and every result of theirs is annulled; the table ranks the others.
func TestStandingsRoundRobinWithdrawal_S6(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Quad","system":"roundRobin","scoring":"3-0-redblack"}`, 4)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, nil)
	quitter := f.players[3].ID
	s.Post("/tournaments/"+f.ev.ID+"/players/"+quitter+"/withdraw", f.ev.Token, nil).Want(t, http.StatusOK)
	r2 := f.pair(t, s, nil, http.StatusCreated)
	for _, p := range r2.Pairings {
		if p.Red == quitter || p.Black == quitter {
			t.Fatalf("a withdrawn player is paired: %+v", r2.Pairings)
		}
	}
	if len(r2.Pairings) != 1 {
		t.Fatalf("round 2 (4-3 1-2 with 4 gone): %+v", r2.Pairings)
	}
	f.finishRound(t, s, r2, nil)
	var st standingsJSON
	s.Get("/tournaments/"+f.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	if !slices.Equal(st.Annulled, []string{quitter}) || len(st.Rows) != 3 || st.Scoring != "3-0-redblack" {
		t.Fatalf("standings after a withdrawal: %+v", st)
	}
	// Player 1 beat 4 (annulled) and 2: 3 points from one counted game.
	if st.Rows[0].PlayerID != f.players[0].ID || st.Rows[0].Points != 3 || st.Rows[0].Games != 1 {
		t.Fatalf("leader: %+v", st.Rows[0])
	}
	var ct struct {
		Rows []struct {
			PlayerID string
			Cells    []struct{ Mark string }
		}
	}
	s.Get("/tournaments/"+f.ev.ID+"/crosstable").Want(t, http.StatusOK).Decode(t, &ct)
	marks := ""
	for _, r := range ct.Rows {
		for _, c := range r.Cells {
			marks += c.Mark + ","
		}
	}
	if !strings.Contains(marks, "annulled") {
		t.Fatalf("crosstable shows no annulled game: %+v", ct)
	}
}

// S-3 over HTTP: four players, single games; seeds 1 and 2 reach the final;
// a drawn final gets additional rapid games (their own time control) until
// decided, and only then is the bracket finished.
func TestKnockoutRounds(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Cup","system":"knockout","timeControl":"60/30+10/10"}`, 4)
	r1 := f.pair(t, s, nil, http.StatusCreated)
	if len(r1.Pairings) != 2 {
		t.Fatalf("semi-finals: %+v", r1)
	}
	f.finishRound(t, s, r1, nil)
	r2 := f.pair(t, s, nil, http.StatusCreated)
	final := []int{indexOf(f.players, r2.Pairings[0].Red), indexOf(f.players, r2.Pairings[0].Black)}
	slices.Sort(final)
	if len(r2.Pairings) != 1 || !slices.Equal(final, []int{0, 1}) {
		t.Fatalf("final: %+v", r2.Pairings)
	}
	p := r2.Pairings[0]
	// The drawn final's result adds the first rapid game (the game
	// command's follow-up); asking for round 3 says the match goes on.
	decide(t, s, f.ev.Token, p.GameID, "1/2-1/2")
	r := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusUnprocessableEntity)
	if r.ErrorCode() != tournament.CodeRoundUnfinished {
		t.Fatalf("drawn final: %s", r.Body)
	}
	var now roundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/2?explain=true").Want(t, http.StatusOK).Decode(t, &now)
	if len(now.Pairings) != 2 || now.Pairings[1].Red != p.Black || !strings.Contains(now.Pairings[1].Explanation.Opponent, "附加快棋") {
		t.Fatalf("rapid game 1: %+v", now.Pairings)
	}
	rapid := now.Pairings[1]
	tc := s.Get("/games/"+rapid.GameID).Want(t, http.StatusOK).JSON()["timeControl"].(map[string]any)
	if tc["name"] != "rapid-10/40+5/30" {
		t.Fatalf("rapid game plays at %v", tc)
	}
	decide(t, s, f.ev.Token, rapid.GameID, "1-0")
	s.Get("/tournaments/"+f.ev.ID+"/rounds/2").Want(t, http.StatusOK).Decode(t, &now)
	if len(now.Pairings) != 3 {
		t.Fatalf("rapid game 2 (a two-game mini-match): %+v", now.Pairings)
	}
	g := now.Pairings[2]
	decide(t, s, f.ev.Token, g.GameID, "1/2-1/2")
	r = s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusUnprocessableEntity)
	if r.ErrorCode() != tournament.CodeEventComplete {
		t.Fatalf("after the decided final: %s", r.Body)
	}
	var st standingsJSON
	s.Get("/tournaments/"+f.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	if st.Round != 2 || len(st.Rows) != 4 {
		t.Fatalf("knockout standings: %+v", st)
	}
}

// An event with no round yet has an empty-handed table for everyone.
func TestStandingsBeforeTheFirstRound(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Fresh","system":"swiss","rounds":5}`, 3)
	var st standingsJSON
	s.Get("/tournaments/"+f.ev.ID+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	if st.Round != 0 || len(st.Rows) != 3 {
		t.Fatalf("%+v", st)
	}
	for _, r := range st.Rows {
		if r.Points != 0 || r.Games != 0 {
			t.Fatalf("%+v", r)
		}
	}
	csv := s.Get("/tournaments/"+f.ev.ID+"/standings?format=csv").Want(t, http.StatusOK)
	if n := strings.Count(string(csv.Body), "\n"); n != 4 {
		t.Fatalf("CSV has %d lines: %s", n, csv.Body)
	}
	s.Get("/tournaments/"+f.ev.ID+"/crosstable").Want(t, http.StatusOK)
	s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.ev.ID + "/standings?format=xml", Invalid: true}).Want(t, http.StatusBadRequest)
}
