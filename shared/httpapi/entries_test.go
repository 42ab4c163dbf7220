package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/service"
)

// E-1: 200 players enter at once, 20 at a time: every one is 201, the
// players list holds exactly 200, with 200 distinct numbers; the retries
// the burst cost are logged.
func TestEntries_Burst200_E1(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Open","system":"swiss","rounds":7}`)
	s.Post("/tournaments/"+ev.ID+"/entries/open", ev.Token, `{}`).Want(t, http.StatusOK)
	steps0 := service.EntrySteps()
	const n, parallel = 200, 20
	statuses := make([]int, n)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/entries", Body: map[string]any{"name": fmt.Sprintf("Entrant %03d", i), "club": "Club"}})
			statuses[i] = r.Status
		}()
	}
	wg.Wait()
	for i, st := range statuses {
		if st != http.StatusCreated {
			t.Errorf("entry %d: %d", i, st)
		}
	}
	ps := listPlayers(t, s, ev.ID).Players
	if len(ps) != n {
		t.Fatalf("%d players, want %d", len(ps), n)
	}
	seen := map[int]bool{}
	for _, p := range ps {
		seen[p.Number] = true
	}
	if len(seen) != n {
		t.Fatalf("%d distinct numbers for %d players", len(seen), n)
	}
	steps := service.EntrySteps() - steps0
	t.Logf("%d entries took %d steps: %d retries", n, steps, steps-n)
}

// E-1: the refusals — closed (403), full (409), a likely duplicate (422
// unless duplicateOk), a required field missing (400) — change nothing;
// approval holds an entry (202) whose token opens the player's page once
// approved, and a rejection frees its place.
func TestEntries_Refusals_E1(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Open","system":"swiss","rounds":5}`)
	base := "/tournaments/" + ev.ID + "/entries"
	enter := func(body any) *apitest.Resp { return s.Do(apitest.Req{Method: "POST", Path: base, Body: body}) }
	wantError(t, enter(map[string]any{"name": "Early"}), http.StatusForbidden, "entries_closed", "E-1")
	s.Post(base+"/open", ev.Token, `{"capacity":3,"fields":["club"]}`).Want(t, http.StatusOK)
	wantError(t, enter(map[string]any{"name": "No Club"}), http.StatusBadRequest, "invalid_field", "E-1")
	enter(map[string]any{"name": "Wang Tianyi", "club": "Hangzhou"}).Want(t, http.StatusCreated)
	wantError(t, enter(map[string]any{"name": " wang  tianyi ", "club": "HANGZHOU"}), http.StatusUnprocessableEntity, "likely_duplicate", "E-1")
	enter(map[string]any{"name": "Wang Tianyi", "club": "Hangzhou", "duplicateOk": true}).Want(t, http.StatusCreated)
	enter(map[string]any{"name": "Zheng Weitong", "club": "Beijing"}).Want(t, http.StatusCreated)
	wantError(t, enter(map[string]any{"name": "Late", "club": "X"}), http.StatusConflict, "event_full", "E-1")
	if got := len(listPlayers(t, s, ev.ID).Players); got != 3 {
		t.Fatalf("%d players after the refusals, want 3", got)
	}
	var list struct {
		Rows []struct {
			ID         string
			Duplicates []string
		}
	}
	s.Do(apitest.Req{Method: "GET", Path: base, Token: ev.Token}).Want(t, http.StatusOK).Decode(t, &list)
	dups := 0
	for _, r := range list.Rows {
		dups += len(r.Duplicates)
	}
	if len(list.Rows) != 3 || dups != 2 {
		t.Fatalf("entry list %+v: want 3 rows, the two Wang Tianyi flagged", list.Rows)
	}
	s.Post(base+"/close", ev.Token, nil).Want(t, http.StatusOK)
	wantError(t, enter(map[string]any{"name": "After", "club": "X"}), http.StatusForbidden, "entries_closed", "E-1")

	// Approval: held (202), counted against the capacity, approved or rejected.
	s.Post(base+"/open", ev.Token, `{"capacity":5,"approval":true}`).Want(t, http.StatusOK)
	var a, b created
	enter(map[string]any{"name": "Pending A"}).Want(t, http.StatusAccepted).Decode(t, &a)
	enter(map[string]any{"name": "Pending B"}).Want(t, http.StatusAccepted).Decode(t, &b)
	wantError(t, enter(map[string]any{"name": "Pending C"}), http.StatusConflict, "event_full", "E-1")
	s.Do(apitest.Req{Method: "GET", Path: "/me", Token: a.Token}).Want(t, http.StatusUnauthorized)
	s.Post("/tournaments/"+ev.ID+"/players/"+a.ID+"/approve", ev.Token, nil).Want(t, http.StatusOK)
	if m := me(t, s, a.Token); m.Role != "player" {
		t.Fatalf("approved entrant's token: %+v", m)
	}
	s.Post("/tournaments/"+ev.ID+"/players/"+b.ID+"/reject", ev.Token, nil).Want(t, http.StatusOK)
	s.Do(apitest.Req{Method: "GET", Path: "/me", Token: b.Token}).Want(t, http.StatusUnauthorized)
	wantError(t, s.Post("/tournaments/"+ev.ID+"/players/"+b.ID+"/approve", ev.Token, nil), http.StatusNotFound, "not_found", "")
	enter(map[string]any{"name": "Pending B"}).Want(t, http.StatusAccepted) // the rejection freed its place and its name
	if got := len(listPlayers(t, s, ev.ID).Players); got != 4 {
		t.Fatalf("%d players, want 4", got)
	}
	// Only the organiser opens, closes, lists, approves.
	var p created
	enter(map[string]any{"name": "Other"}).Decode(t, &p)
	s.Post(base+"/close", a.Token, nil).Want(t, http.StatusForbidden)
	s.Do(apitest.Req{Method: "GET", Path: base, Token: a.Token}).Want(t, http.StatusForbidden)
}

// E-2: a 12-player Swiss with check-in; ten check in for round 2 (by their
// own token or at the desk), two do not: round 2 pairs the ten and lists
// the two as absent, and they score nothing for it.
func TestCheckIn_TwoAbsent_E2(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Checked","system":"swiss","rounds":5,"checkIn":true}`, 12)
	tid := f.ev.ID
	for _, p := range f.players {
		s.Post("/tournaments/"+tid+"/rounds/1/checkin", p.Token, nil).Want(t, http.StatusOK)
	}
	wantError(t, s.Post("/tournaments/"+tid+"/rounds/2/checkin", f.players[0].Token, nil), http.StatusUnprocessableEntity, "checkin_not_open", "E-2")
	r1 := f.pair(t, s, `{}`, http.StatusCreated)
	if len(r1.Pairings) != 6 {
		t.Fatalf("round 1: %d boards", len(r1.Pairings))
	}
	wantError(t, s.Post("/tournaments/"+tid+"/rounds/1/checkin", f.players[0].Token, nil), http.StatusUnprocessableEntity, "checkin_closed", "E-2")
	f.finishRound(t, s, r1, nil)
	absent := map[string]bool{f.players[3].ID: true, f.players[8].ID: true}
	arb := s.Post("/tournaments/"+tid+"/officials", f.ev.Token, `{"role":"arbiter","name":"Desk"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	for i, p := range f.players {
		switch {
		case absent[p.ID]:
		case i%2 == 0:
			s.Post("/tournaments/"+tid+"/rounds/2/checkin", p.Token, nil).Want(t, http.StatusOK)
		default:
			s.Post("/tournaments/"+tid+"/rounds/2/checkin", arb, map[string]string{"player": p.ID}).Want(t, http.StatusOK)
		}
	}
	// A player checks in only themselves.
	s.Post("/tournaments/"+tid+"/rounds/2/checkin", f.players[0].Token, map[string]string{"player": f.players[3].ID}).Want(t, http.StatusForbidden)
	var desk struct {
		CheckedIn int
		Players   []struct {
			ID        string
			CheckedIn bool
		}
	}
	s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + tid + "/rounds/2/checkin", Token: arb}).Want(t, http.StatusOK).Decode(t, &desk)
	if desk.CheckedIn != 10 || len(desk.Players) != 12 {
		t.Fatalf("desk: %d checked in of %d", desk.CheckedIn, len(desk.Players))
	}
	var r2 struct {
		roundJSON
		Absent []string `json:"absent"`
	}
	s.Post("/tournaments/"+tid+"/rounds", f.ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &r2)
	if len(r2.Pairings) != 5 || len(r2.Byes) != 0 {
		t.Fatalf("round 2: %d boards, byes %v; want 5 boards, no bye", len(r2.Pairings), r2.Byes)
	}
	for _, p := range r2.Pairings {
		if absent[p.Red] || absent[p.Black] {
			t.Fatalf("an absent player is paired: %+v", p)
		}
	}
	if len(r2.Absent) != 2 || !absent[r2.Absent[0]] || !absent[r2.Absent[1]] {
		t.Fatalf("absent %v, want the two who did not check in", r2.Absent)
	}
	before := scores(t, s, tid)
	f.finishRound(t, s, r2.roundJSON, nil)
	after := scores(t, s, tid)
	if len(after) != 12 {
		t.Fatalf("standings of %d players, want 12", len(after))
	}
	for id := range absent {
		if after[id] != before[id] {
			t.Errorf("absent %s scored %v → %v", id, before[id], after[id])
		}
	}
}

// scores reads each player's points from the standings.
func scores(t *testing.T, s *apitest.Server, tid string) map[string]float64 {
	t.Helper()
	var st struct {
		Rows []struct {
			Player string  `json:"playerId"`
			Points float64 `json:"points"`
		}
	}
	s.Get("/tournaments/"+tid+"/standings").Want(t, http.StatusOK).Decode(t, &st)
	out := map[string]float64{}
	for _, r := range st.Rows {
		out[r.Player] = r.Points
	}
	return out
}

// E-3: a festival with an individual Swiss and a team round robin lists
// both; its token pairs a round in each, and its arbiter acts in each; a
// stranger's event does not take its token.
func TestFestival_TwoSections_E3(t *testing.T) {
	s := apitest.New(t)
	var fest created
	s.Post("/festivals", "", `{"name":"City Championship"}`).Want(t, http.StatusCreated).Decode(t, &fest)
	var swiss, teams created
	s.Post("/tournaments", fest.Token, map[string]any{"name": "Men", "system": "swiss", "rounds": 5, "festival": fest.ID}).Want(t, http.StatusCreated).Decode(t, &swiss)
	s.Post("/tournaments", fest.Token, map[string]any{"name": "Teams", "system": "roundRobin", "teams": true, "boards": 2, "festival": fest.ID}).Want(t, http.StatusCreated).Decode(t, &teams)
	s.Post("/tournaments", "", map[string]any{"name": "Sneaky", "rounds": 3, "festival": fest.ID}).Want(t, http.StatusUnauthorized)
	for i := range 6 {
		s.Post("/tournaments/"+swiss.ID+"/players", fest.Token, map[string]any{"name": fmt.Sprintf("M%d", i)}).Want(t, http.StatusCreated)
	}
	for i := range 4 {
		s.Post("/tournaments/"+teams.ID+"/teams", fest.Token, map[string]any{"name": fmt.Sprintf("Team %d", i),
			"members": []map[string]any{{"name": fmt.Sprintf("T%d a", i)}, {"name": fmt.Sprintf("T%d b", i)}}}).Want(t, http.StatusCreated)
	}
	var page struct {
		Name     string
		Sections []struct {
			ID, Name, System string
			Teams            bool
			Round            int
		}
	}
	s.Get("/festivals/"+fest.ID).Want(t, http.StatusOK).Decode(t, &page)
	if page.Name != "City Championship" || len(page.Sections) != 2 || page.Sections[0].ID != swiss.ID || !page.Sections[1].Teams {
		t.Fatalf("festival page: %+v", page)
	}
	s.Post("/tournaments/"+swiss.ID+"/rounds", fest.Token, `{}`).Want(t, http.StatusCreated)
	s.Post("/tournaments/"+teams.ID+"/rounds", fest.Token, `{}`).Want(t, http.StatusCreated)
	s.Get("/festivals/"+fest.ID).Want(t, http.StatusOK).Decode(t, &page)
	for _, sec := range page.Sections {
		if sec.Round != 1 {
			t.Errorf("section %s at round %d after the festival paired it", sec.Name, sec.Round)
		}
	}
	// A festival arbiter starts round 1 in both sections.
	arb := s.Post("/festivals/"+fest.ID+"/officials", fest.Token, `{"role":"arbiter","name":"Chief Desk"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	s.Post("/tournaments/"+swiss.ID+"/rounds/1/start", arb, nil).Want(t, http.StatusOK)
	s.Post("/tournaments/"+teams.ID+"/rounds/1/start", arb, nil).Want(t, http.StatusOK)
	// Neither token acts in an event outside the festival.
	other := newEvent(t, s, `{"name":"Elsewhere","rounds":3}`)
	s.Post("/tournaments/"+other.ID+"/players", fest.Token, map[string]any{"name": "X"}).Want(t, http.StatusForbidden)
	s.Post("/tournaments/"+other.ID+"/officials", arb, `{"role":"scribe","name":"Y"}`).Want(t, http.StatusForbidden)
	s.Post("/festivals/"+fest.ID+"/officials", swiss.Token, `{"role":"arbiter","name":"Z"}`).Want(t, http.StatusForbidden)
}

// E-1: a browser's entry (its Origin) carries the player's link as a QR
// code; a script's carries none.
func TestEntries_QRForBrowsers_E1(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"QR Open","rounds":3}`)
	s.Post("/tournaments/"+ev.ID+"/entries/open", ev.Token, nil).Want(t, http.StatusOK)
	r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/entries", Body: `{"name":"Phone"}`, Header: map[string]string{"Origin": "https://xq.example.org"}}).Want(t, http.StatusCreated)
	qr, _ := r.JSON()["qr"].(string)
	const prefix = "data:image/svg+xml;base64,"
	if !strings.HasPrefix(qr, prefix) {
		t.Fatalf("qr %.60q", qr)
	}
	svg, err := base64.StdEncoding.DecodeString(qr[len(prefix):])
	if err != nil || !bytes.Contains(svg, []byte(` d="M`)) {
		t.Fatalf("qr is no SVG of modules: %v %.80s", err, svg)
	}
	if r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/entries", Body: `{"name":"Script"}`}).Want(t, http.StatusCreated); r.JSON()["qr"] != nil {
		t.Fatal("a script's entry got a QR code")
	}
}

// E-2: the organiser turns check-in on before round 1 (not after) and may
// open a round's check-in at a time of its own; before it a check-in is
// refused, from it accepted.
func TestCheckIn_Settings_E2(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Later","system":"swiss","rounds":5}`, 4)
	tid := f.ev.ID
	wantError(t, s.Post("/tournaments/"+tid+"/rounds/1/checkin", f.players[0].Token, nil), http.StatusUnprocessableEntity, "checkin_off", "E-2")
	wantError(t, s.Post("/tournaments/"+tid+"/checkin", f.ev.Token, `{"opensAt":"2026-11-28T10:00:00Z"}`), http.StatusUnprocessableEntity, "checkin_off", "E-2")
	s.Post("/tournaments/"+tid+"/checkin", f.players[0].Token, `{"checkIn":true}`).Want(t, http.StatusForbidden)
	var cfg struct {
		CheckIn bool
		Round   int
		Open    bool
		OpensAt string
	}
	s.Post("/tournaments/"+tid+"/checkin", f.ev.Token, `{"checkIn":true,"opensAt":"2026-11-28T10:00:00Z"}`).Want(t, http.StatusOK).Decode(t, &cfg)
	if !cfg.CheckIn || cfg.Round != 1 || cfg.Open || cfg.OpensAt != "2026-11-28T10:00:00Z" {
		t.Fatalf("check-in settings: %+v", cfg)
	}
	wantError(t, s.Post("/tournaments/"+tid+"/rounds/1/checkin", f.players[0].Token, nil), http.StatusUnprocessableEntity, "checkin_not_open", "E-2")
	s.Clock.Advance(time.Hour) // the test clock starts at 09:00
	for _, p := range f.players[:3] {
		s.Post("/tournaments/"+tid+"/rounds/1/checkin", p.Token, nil).Want(t, http.StatusOK)
	}
	var r1 struct {
		roundJSON
		Absent []string `json:"absent"`
	}
	s.Post("/tournaments/"+tid+"/rounds", f.ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &r1)
	if len(r1.Pairings) != 1 || len(r1.Byes) != 1 || len(r1.Absent) != 1 || r1.Absent[0] != f.players[3].ID {
		t.Fatalf("round 1 of three present: %d boards, byes %v, absent %v", len(r1.Pairings), r1.Byes, r1.Absent)
	}
	wantError(t, s.Post("/tournaments/"+tid+"/checkin", f.ev.Token, `{"checkIn":false}`), http.StatusUnprocessableEntity, "checkin_fixed", "E-2")
	// The time set was for round 1: round 2 opens at round 1's pairing.
	s.Post("/tournaments/"+tid+"/rounds/2/checkin", f.players[3].Token, nil).Want(t, http.StatusOK)
}
