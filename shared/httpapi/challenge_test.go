package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type ringJSON struct {
	DrawRule         string
	Defender, Holder *struct{ ID, Name string }
	Challenges       []struct {
		Round                                int
		Challenger, HolderBefore, Red, Black string
		GameID                               string `json:"gameId"`
		Result, HolderAfter                  *string
	}
	Waiting []struct{ ID, Name string }
}

// S-8 end to end: a ring with a defender and six challengers, one added
// after the ring has begun. Each challenge is one game between the holder and
// the next challenger; the winner holds the ring, a forfeit is a win, and a
// draw leaves it with the holder (the default) — the event's history shows
// who held it before and after each challenge. A challenge cannot be paired
// while the last is undecided, nor with nobody waiting; the world time
// control is the default (000 ch.7 §1).
func TestChallenge_S8_SixChallengerRing(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Ring","system":"challenge"}`)
	tm := s.Get("/tournaments/"+ev.ID).Want(t, http.StatusOK).JSON()
	if tc := tm["timeControl"].(map[string]any); tc["name"] != "world" || tm["challengeDraw"] != "holder" {
		t.Errorf("defaults: timeControl %v, challengeDraw %v", tc, tm["challengeDraw"])
	}
	name := map[string]string{}
	id := map[string]string{}
	register := func(n string) {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": n}).Want(t, http.StatusCreated).Decode(t, &p)
		name[p.ID], id[n] = n, p.ID
	}
	for _, n := range []string{"Holder", "C1", "C2", "C3", "C4", "C5"} {
		register(n)
	}
	arb := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated).JSON()["token"].(string)

	// Who wins each challenge, by challenger: "holder", "challenger", "draw"
	// or "forfeit" (the holder does not appear).
	plan := []struct{ challenger, outcome, holderAfter string }{
		{"C1", "holder", "Holder"},
		{"C2", "draw", "Holder"},
		{"C3", "challenger", "C3"},
		{"C4", "forfeit", "C4"},
		{"C5", "holder", "C4"},
		{"C6", "challenger", "C6"},
	}
	for i, step := range plan {
		n := i + 1
		if step.challenger == "C6" {
			// Nobody waits: the pairing says so, then the organiser registers one.
			r := s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": n}).Want(t, http.StatusUnprocessableEntity)
			if r.ErrorCode() != "no_challenger" {
				t.Fatalf("pairing with nobody waiting: %s", r.Body)
			}
			register("C6")
		}
		var r roundJSON
		s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": n}).Want(t, http.StatusCreated).Decode(t, &r)
		if len(r.Pairings) != 1 {
			t.Fatalf("round %d: %d pairings", n, len(r.Pairings))
		}
		p := r.Pairings[0]
		holderBefore := "Holder"
		if i > 0 {
			holderBefore = plan[i-1].holderAfter
		}
		pair := map[string]bool{name[p.Red]: true, name[p.Black]: true}
		if !pair[holderBefore] || !pair[step.challenger] {
			t.Fatalf("round %d seats %s v %s, want %s v %s", n, name[p.Red], name[p.Black], holderBefore, step.challenger)
		}
		if n == 3 {
			// Undecided: the next challenge waits for it.
			s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"round": n + 1}).Want(t, http.StatusUnprocessableEntity)
			var ring ringJSON
			s.Get("/tournaments/"+ev.ID+"/ring").Want(t, http.StatusOK).Decode(t, &ring)
			if ring.Holder != nil {
				t.Errorf("holder while challenge 3 is played: %v", ring.Holder)
			}
		}
		challengerRed := name[p.Red] == step.challenger
		var res string
		switch step.outcome {
		case "holder":
			res = map[bool]string{true: "0-1", false: "1-0"}[challengerRed]
		case "challenger":
			res = map[bool]string{true: "1-0", false: "0-1"}[challengerRed]
		case "draw":
			res = "1/2-1/2"
		case "forfeit": // the holder forfeits
			res = map[bool]string{true: "+-", false: "-+"}[challengerRed]
		}
		s.Post("/games/"+p.GameID+"/result", arb, map[string]any{"result": res}).Want(t, http.StatusOK)
	}
	var ring ringJSON
	s.Get("/tournaments/"+ev.ID+"/ring").Want(t, http.StatusOK).Decode(t, &ring)
	if ring.Defender == nil || ring.Defender.Name != "Holder" || ring.Holder == nil || ring.Holder.Name != "C6" || len(ring.Waiting) != 0 {
		t.Fatalf("ring: defender %v holder %v waiting %v", ring.Defender, ring.Holder, ring.Waiting)
	}
	if len(ring.Challenges) != 6 {
		t.Fatalf("%d challenges", len(ring.Challenges))
	}
	for i, c := range ring.Challenges {
		if name[c.Challenger] != plan[i].challenger || c.HolderAfter == nil || name[*c.HolderAfter] != plan[i].holderAfter {
			t.Errorf("challenge %d: challenger %s, holder after %v; want %s, %s", i+1, name[c.Challenger], c.HolderAfter, plan[i].challenger, plan[i].holderAfter)
		}
	}
	// A drawn challenge passes the ring where the event says so.
	ev2 := newEvent(t, s, `{"name":"Ring 2","system":"challenge","challengeDraw":"challenger","rounds":1}`)
	var h, c created
	s.Post("/tournaments/"+ev2.ID+"/players", ev2.Token, `{"name":"H"}`).Want(t, http.StatusCreated).Decode(t, &h)
	s.Post("/tournaments/"+ev2.ID+"/players", ev2.Token, `{"name":"C"}`).Want(t, http.StatusCreated).Decode(t, &c)
	arb2 := s.Post("/tournaments/"+ev2.ID+"/officials", ev2.Token, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	var r roundJSON
	s.Post("/tournaments/"+ev2.ID+"/rounds", ev2.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &r)
	s.Post("/games/"+r.Pairings[0].GameID+"/result", arb2, `{"result":"1/2-1/2"}`).Want(t, http.StatusOK)
	s.Get("/tournaments/"+ev2.ID+"/ring").Want(t, http.StatusOK).Decode(t, &ring)
	if ring.Holder == nil || ring.Holder.ID != c.ID {
		t.Errorf("challengeDraw challenger: holder %v, want C", ring.Holder)
	}
	if st := s.Get("/tournaments/"+ev2.ID).Want(t, http.StatusOK).JSON()["status"]; st != "finished" {
		t.Errorf("a one-challenge ring after its challenge: %v", st)
	}
	s.Post("/tournaments", "", `{"name":"x","system":"challenge","teams":true}`).Want(t, http.StatusBadRequest)
	s.Post("/tournaments", "", `{"name":"x","rounds":5,"challengeDraw":"holder"}`).Want(t, http.StatusBadRequest)
}

// TestChallenge_S8_TeamDefender over HTTP, 000 ch.5 item 7: "擂台对抗赛 守擂方
// 可是个人，也可是团体。攻擂方以个人形式出现。人数不限". A team of three (the
// first three registered) defends the ring against individual challengers,
// its members in registration order: T1 beats C1; C2 beats T1, so T2
// defends next; T2 and C3 draw (the holder keeps it); C4 beats T2 and C5
// beats T3, the last member, so C5 holds the ring.
func TestChallenge_S8_TeamDefender(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Club v all comers","system":"challenge","challengeTeam":3}`)
	id, name := map[string]string{}, map[string]string{}
	for _, n := range []string{"T1", "T2", "T3", "C1", "C2", "C3", "C4", "C5"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": n}).Want(t, http.StatusCreated).Decode(t, &p)
		id[n], name[p.ID] = p.ID, n
	}
	arb := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	plan := []struct{ holder, challenger, winner, holderAfter string }{
		{"T1", "C1", "T1", "T1"},
		{"T1", "C2", "C2", "T2"},
		{"T2", "C3", "", "T2"},
		{"T2", "C4", "C4", "T3"},
		{"T3", "C5", "C5", "C5"},
	}
	for i, step := range plan {
		var r roundJSON
		s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &r)
		p := r.Pairings[0]
		if got := []string{name[p.Red], name[p.Black]}; !(got[0] == step.holder && got[1] == step.challenger) && !(got[1] == step.holder && got[0] == step.challenger) {
			t.Fatalf("challenge %d seats %v, want %s against %s", i+1, got, step.holder, step.challenger)
		}
		res := "1/2-1/2"
		switch {
		case step.winner == name[p.Red]:
			res = "1-0"
		case step.winner == name[p.Black]:
			res = "0-1"
		}
		s.Post("/games/"+p.GameID+"/result", arb, map[string]string{"result": res}).Want(t, http.StatusOK)
		var ring struct {
			ringJSON
			DefendingTeam []struct{ ID, Name string } `json:"defendingTeam"`
		}
		s.Get("/tournaments/"+ev.ID+"/ring").Want(t, http.StatusOK).Decode(t, &ring)
		if ring.Holder == nil || ring.Holder.Name != step.holderAfter {
			t.Fatalf("after challenge %d the ring is held by %+v, want %s", i+1, ring.Holder, step.holderAfter)
		}
		if len(ring.DefendingTeam) != 3 || ring.DefendingTeam[0].Name != "T1" || ring.Defender.Name != "T1" {
			t.Errorf("defending team %+v", ring.DefendingTeam)
		}
	}
	for _, bad := range []string{`{"name":"x","system":"challenge","challengeTeam":1}`, `{"name":"x","system":"swiss","challengeTeam":3}`} {
		r := s.Post("/tournaments", "", bad)
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_field" {
			t.Errorf("%s: %d %s", bad, r.Status, r.Body)
		}
	}
}
