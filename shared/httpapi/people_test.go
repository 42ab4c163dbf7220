package httpapi_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type playersJSON struct {
	Players []struct {
		ID, Name, Club string
		Number, Rating int
	}
}

func listPlayers(t *testing.T, s *apitest.Server, tid string) playersJSON {
	t.Helper()
	var out playersJSON
	s.Get("/tournaments/"+tid+"/players").Want(t, http.StatusOK).Decode(t, &out)
	return out
}

// O-1: before round 1 the organiser corrects a registration and takes one
// back; once round 1 is paired both are refused, and withdrawal remains.
func TestPeople_EditAndRemoveBeforeRound1_O1(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"People","system":"swiss","rounds":3}`, 5)
	tid, base := f.ev.ID, "/tournaments/"+f.ev.ID+"/players/"
	x := f.players[1]

	var out struct {
		Player struct {
			Name, Club string
			Rating     int
		}
	}
	s.Post(base+x.ID, f.ev.Token, `{"name":"Zheng Weitong","rating":2555,"club":"Beijing"}`).Want(t, http.StatusOK).Decode(t, &out)
	if out.Player.Name != "Zheng Weitong" || out.Player.Rating != 2555 || out.Player.Club != "Beijing" {
		t.Fatalf("after edit: %+v", out.Player)
	}
	out.Player.Club, out.Player.Name = "", ""
	s.Post(base+x.ID, f.ev.Token, `{"club":""}`).Want(t, http.StatusOK).Decode(t, &out)
	if r := s.Post(base+x.ID, f.ev.Token, `{"club":""}`); r.JSON()["player"].(map[string]any)["club"] != nil {
		t.Fatalf("the club stays: %s", r.Body)
	}
	if out.Player.Club != "" || out.Player.Name != "Zheng Weitong" {
		t.Fatalf("clearing the club: %+v", out.Player)
	}
	for _, tc := range []struct {
		token, body, code string
		status            int
	}{
		{f.ev.Token, `{}`, "invalid_field", 400},
		{f.ev.Token, `{"rating":5000}`, "invalid_field", 400},
		{f.ev.Token, `{"name":"  "}`, "invalid_field", 400},
		{x.Token, `{"name":"Me"}`, "forbidden", 403},
		{"", `{"name":"Me"}`, "unauthorized", 401},
	} {
		if r := s.Do(apitest.Req{Method: http.MethodPost, Path: base + x.ID, Token: tc.token, Body: tc.body, Invalid: true}); r.Status != tc.status || r.ErrorCode() != tc.code {
			t.Errorf("edit %s: %d %s, want %d %s", tc.body, r.Status, r.Body, tc.status, tc.code)
		}
	}

	gone := f.players[2]
	var rm struct {
		Removed bool
		Players int
	}
	s.Post(base+gone.ID+"/remove", f.ev.Token, nil).Want(t, http.StatusOK).Decode(t, &rm)
	if !rm.Removed || rm.Players != 4 {
		t.Fatalf("remove: %+v", rm)
	}
	if r := s.Post(base+gone.ID+"/remove", f.ev.Token, nil); r.Status != http.StatusNotFound {
		t.Fatalf("second removal: %d %s", r.Status, r.Body)
	}
	if r := s.Do(apitest.Req{Method: http.MethodGet, Path: "/me", Token: gone.Token}); r.Status != http.StatusUnauthorized {
		t.Fatalf("a removed player's token: %d %s", r.Status, r.Body)
	}
	ps := listPlayers(t, s, tid)
	if len(ps.Players) != 4 || ps.Players[2].Number != 4 || ps.Players[1].Name != "Zheng Weitong" {
		t.Fatalf("players after removal: %+v", ps.Players)
	}
	if n := s.Get("/tournaments/"+tid).Want(t, http.StatusOK).JSON()["players"]; n != float64(4) {
		t.Fatalf("the event counts %v players", n)
	}

	r1 := f.pair(t, s, map[string]any{"round": 1}, http.StatusCreated)
	if len(r1.Pairings) != 2 || paired(r1, gone.ID) {
		t.Fatalf("round 1 of the four left: %+v", r1)
	}
	for _, path := range []string{base + x.ID, base + f.players[0].ID + "/remove"} {
		if r := s.Post(path, f.ev.Token, `{"name":"Late"}`); path != base+x.ID {
			r = s.Post(path, f.ev.Token, nil)
			if r.Status != http.StatusUnprocessableEntity || r.ErrorCode() != "registration_fixed" {
				t.Errorf("%s after round 1: %d %s", path, r.Status, r.Body)
			}
		} else if r.Status != http.StatusUnprocessableEntity || r.ErrorCode() != "registration_fixed" {
			t.Errorf("%s after round 1: %d %s", path, r.Status, r.Body)
		}
	}
}

// T-1: a team member's rating set the board order, and a member leaves
// only with the team; its name can still be corrected.
func TestPeople_TeamMembers_T1(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":2}`)
	var team struct {
		Team struct{ Members []struct{ ID string } }
	}
	s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, `{"name":"Dragons","members":[{"name":"Li","rating":2300},{"name":"Wang","rating":2200}]}`).Want(t, http.StatusCreated).Decode(t, &team)
	base := "/tournaments/" + ev.ID + "/players/" + team.Team.Members[0].ID
	s.Post(base, ev.Token, `{"name":"Li Laishun"}`).Want(t, http.StatusOK)
	for _, r := range []*apitest.Resp{s.Post(base, ev.Token, `{"rating":2100}`), s.Post(base+"/remove", ev.Token, nil)} {
		if r.Status != http.StatusUnprocessableEntity || r.ErrorCode() != "team_member" {
			t.Errorf("team member: %d %s", r.Status, r.Body)
		}
	}
}

// Removals racing each other and racing the pairing of round 1: one removal
// wins, and the round holds the player exactly when the removal lost.
func TestPeople_RemovalRaces(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Race","system":"swiss","rounds":3}`, 6)
	base := "/tournaments/" + f.ev.ID + "/players/"
	var wg sync.WaitGroup
	statuses := make([]int, 4)
	for i := range statuses {
		wg.Go(func() { statuses[i] = s.Post(base+f.players[0].ID+"/remove", f.ev.Token, nil).Status })
	}
	wg.Wait()
	ok := 0
	for _, st := range statuses {
		switch st {
		case http.StatusOK:
			ok++
		case http.StatusNotFound:
		default:
			t.Errorf("concurrent removal: %d", st)
		}
	}
	if ok != 1 {
		t.Fatalf("concurrent removals: %v, want exactly one 200", statuses)
	}

	x := f.players[3]
	var removal *apitest.Resp
	var round roundJSON
	wg.Go(func() { removal = s.Post(base+x.ID+"/remove", f.ev.Token, nil) })
	wg.Go(func() {
		s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, `{"round":1}`).Want(t, http.StatusCreated).Decode(t, &round)
	})
	wg.Wait()
	switch {
	case removal.Status == http.StatusOK && paired(round, x.ID):
		t.Fatalf("removed, yet paired: %+v", round)
	case removal.Status == http.StatusUnprocessableEntity && !paired(round, x.ID):
		t.Fatalf("removal refused, yet not paired: %+v", round)
	case removal.Status != http.StatusOK && removal.Status != http.StatusUnprocessableEntity:
		t.Fatalf("removal racing the pairing: %d %s", removal.Status, removal.Body)
	}
}

// Reissued tokens: the new one works at once and the old one stops working —
// for a player on its game (whose item holds a copy of the hash), for an
// arbiter, a captain and the organiser's own.
func TestPeople_ReissueTokens(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	tid := f.tid
	// A round that has started, so a move is the player's to make.
	ev := newEvent(t, s, `{"name":"Tokens","rounds":3}`)
	var ps []created
	for _, name := range []string{"A", "B"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		ps = append(ps, p)
	}
	var r1 roundJSON
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": 1, "startsAt": s.Clock.Now().Format(time.RFC3339)}).Want(t, http.StatusCreated).Decode(t, &r1)
	s.Clock.Advance(time.Second)
	red := r1.Pairings[0].Red
	old := ps[0].Token
	if ps[1].ID == red {
		old = ps[1].Token
	}
	var fresh struct {
		ID, Token string
		Player    struct{ ID string }
	}
	s.Post("/tournaments/"+ev.ID+"/players/"+red+"/token", ev.Token, nil).Want(t, http.StatusOK).Decode(t, &fresh)
	if fresh.ID != red || fresh.Token == "" || fresh.Token == old || fresh.Player.ID != red {
		t.Fatalf("reissue: %+v", fresh)
	}
	moves := "/games/" + r1.Pairings[0].GameID + "/moves"
	if r := s.Post(moves, old, map[string]any{"move": "h2e2", "ply": 0}); r.Status != http.StatusUnauthorized {
		t.Fatalf("the old token on the game: %d %s", r.Status, r.Body)
	}
	s.Post(moves, fresh.Token, map[string]any{"move": "h2e2", "ply": 0}).Want(t, http.StatusOK)
	if m := me(t, s, fresh.Token); m.ID != red {
		t.Fatalf("/me with the new token: %+v", m)
	}

	// An arbiter's token.
	var off struct{ ID, Token string }
	s.Post("/tournaments/"+tid+"/officials/"+f.oid+"/token", f.org, nil).Want(t, http.StatusOK).Decode(t, &off)
	result := "/games/" + f.gid + "/result"
	if r := s.Post(result, f.arb, `{"result":"1-0"}`); r.Status != http.StatusUnauthorized {
		t.Fatalf("the old arbiter token: %d %s", r.Status, r.Body)
	}
	if m := me(t, s, off.Token); m.Role != "arbiter" || m.ID != f.oid {
		t.Fatalf("the new arbiter token: %+v", m)
	}
	if r := s.Post("/tournaments/"+tid+"/officials/oaaaaaaaaaaaaaaaa/token", f.org, nil); r.Status != http.StatusNotFound {
		t.Fatalf("unknown official: %d %s", r.Status, r.Body)
	}
	if r := s.Post("/tournaments/"+tid+"/officials/"+f.oid+"/token", off.Token, nil); r.Status != http.StatusForbidden {
		t.Fatalf("an arbiter reissuing its own token: %d %s", r.Status, r.Body)
	}

	// The organiser's own: of two rotations at once exactly one wins, and
	// the other's token, gone, is 401.
	var wg sync.WaitGroup
	res := make([]*apitest.Resp, 2)
	for i := range res {
		wg.Go(func() { res[i] = s.Post("/tournaments/"+tid+"/token", f.org, nil) })
	}
	wg.Wait()
	var org string
	for _, r := range res {
		switch r.Status {
		case http.StatusOK:
			if org != "" {
				t.Fatalf("both rotations won")
			}
			org = r.JSON()["token"].(string)
		case http.StatusUnauthorized:
		default:
			t.Fatalf("rotation: %d %s", r.Status, r.Body)
		}
	}
	if org == "" {
		t.Fatal("no rotation won")
	}
	if r := s.Post("/tournaments/"+tid+"/players", f.org, `{"name":"Late"}`); r.Status != http.StatusUnauthorized {
		t.Fatalf("the old organiser token: %d %s", r.Status, r.Body)
	}
	s.Do(apitest.Req{Method: http.MethodGet, Path: "/tournaments/" + tid + "/officials", Token: org}).Want(t, http.StatusOK)
}

// A captain's token reissued: the old one is unknown, the new one is the captain.
func TestPeople_ReissueCaptainToken(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":1}`)
	var team struct {
		Token string
		Team  struct{ ID string }
	}
	s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, `{"name":"Dragons","members":[{"name":"Li"}]}`).Want(t, http.StatusCreated).Decode(t, &team)
	var fresh struct{ ID, Token string }
	s.Post("/tournaments/"+ev.ID+"/teams/"+team.Team.ID+"/token", ev.Token, nil).Want(t, http.StatusOK).Decode(t, &fresh)
	if r := s.Do(apitest.Req{Method: http.MethodGet, Path: "/me", Token: team.Token}); r.Status != http.StatusUnauthorized {
		t.Fatalf("the old captain token: %d %s", r.Status, r.Body)
	}
	if m := me(t, s, fresh.Token); m.Role != "captain" || m.ID != team.Team.ID {
		t.Fatalf("the new captain token: %+v", m)
	}
}
