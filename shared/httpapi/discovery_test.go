package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type roundsJSON struct {
	Paired, Planned int
	Rounds          []struct {
		Round, Games, FinishedGames int
		Status                      string
	}
}

func rounds(t *testing.T, s *apitest.Server, tid string) roundsJSON {
	t.Helper()
	var out roundsJSON
	s.Get("/tournaments/"+tid+"/rounds").Want(t, http.StatusOK).Decode(t, &out)
	return out
}

// GET /me tells each token who it is; GET /tournaments/{tid}/rounds follows a
// round from paired through started to finished; a player's current and next
// games follow the rounds.
func TestDiscovery_MeAndRounds(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Discovery Open","system":"swiss","rounds":3}`, 4)
	tid := f.ev.ID
	arb := s.Post("/tournaments/"+tid+"/officials", f.ev.Token, `{"role":"arbiter","name":"Chief"}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	scribe := s.Post("/tournaments/"+tid+"/officials", f.ev.Token, `{"role":"scribe","name":"Li","tables":[2]}`).Want(t, http.StatusCreated).JSON()["token"].(string)

	if m := me(t, s, f.ev.Token); m.Role != "organiser" || m.ID != tid || m.Name != "Discovery Open" || m.Tournament == nil || m.Tournament.ID != tid {
		t.Fatalf("organiser: %+v", m)
	}
	if m := me(t, s, arb); m.Role != "arbiter" || m.Name != "Chief" || m.Official == nil || m.Tournament.ID != tid {
		t.Fatalf("arbiter: %+v", m)
	}
	p := f.players[0]
	if m := me(t, s, p.Token); m.Role != "player" || m.ID != p.ID || m.Name != "Player 1" || m.CurrentGame != nil || m.NextGame != nil {
		t.Fatalf("player before round 1: %+v", m)
	}
	if r := rounds(t, s, tid); r.Paired != 0 || r.Planned != 3 || len(r.Rounds) != 0 {
		t.Fatalf("rounds before pairing: %+v", r)
	}

	// Round 1 starts in an hour: paired, and the player's next game.
	start := s.Clock.Now().Add(time.Hour).Format(time.RFC3339)
	r1 := f.pair(t, s, map[string]any{"round": 1, "startsAt": start}, http.StatusCreated)
	if r := rounds(t, s, tid); len(r.Rounds) != 1 || r.Rounds[0].Status != "paired" || r.Rounds[0].Games != 2 || r.Rounds[0].FinishedGames != 0 {
		t.Fatalf("round 1 paired: %+v", r)
	}
	m := me(t, s, p.Token)
	if m.CurrentGame != nil || m.NextGame == nil || m.NextGame.Round != 1 || m.NextGame.RoundStatus != "paired" || m.NextGame.OpponentName == "" {
		t.Fatalf("player with round 1 paired: %+v", m)
	}
	var table1 string
	for _, pr := range r1.Pairings {
		if pr.Table == 1 {
			table1 = pr.GameID
		}
		if (pr.Red == p.ID || pr.Black == p.ID) && pr.GameID != m.NextGame.GameID {
			t.Fatalf("next game %s, the pairing says %s", m.NextGame.GameID, pr.GameID)
		}
	}
	if sm := me(t, s, scribe); sm.Role != "scribe" || len(sm.Tables) != 1 || sm.Tables[0] != 2 || len(sm.Games) != 1 || sm.Games[0].Table != 2 {
		t.Fatalf("scribe: %+v", sm)
	}

	// The start passes: started, and the game is current; round 2 paired
	// meanwhile (P-12) is the next.
	s.Clock.Advance(time.Hour + time.Minute)
	if r := rounds(t, s, tid); r.Rounds[0].Status != "started" {
		t.Fatalf("round 1 after its start: %+v", r)
	}
	f.finishRound(t, s, r1, map[int]bool{2: true})
	if r := rounds(t, s, tid); r.Rounds[0].Status != "started" || r.Rounds[0].FinishedGames != 1 {
		t.Fatalf("round 1 with one result: %+v", r)
	}
	start2 := s.Clock.Now().Add(2 * time.Hour).Format(time.RFC3339)
	r2 := f.pair(t, s, map[string]any{"round": 2, "startsAt": start2, "unfinishedAsDraws": true}, http.StatusCreated)
	var busy string // a player of round 1's unfinished table 2
	for _, pr := range r1.Pairings {
		if pr.Table == 2 {
			busy = pr.Red
		}
	}
	bm := me(t, s, f.byID[busy].Token)
	if bm.CurrentGame == nil || bm.CurrentGame.Round != 1 || bm.CurrentGame.RoundStatus != "started" || bm.NextGame == nil || bm.NextGame.Round != 2 {
		t.Fatalf("player with a game under way and the next paired: %+v %+v", bm.CurrentGame, bm.NextGame)
	}
	f.finishRound(t, s, r1, map[int]bool{1: true})
	f.finishRound(t, s, r2, nil)
	r := rounds(t, s, tid)
	if r.Paired != 2 || r.Rounds[0].Status != "finished" || r.Rounds[1].Status != "finished" || r.Rounds[1].FinishedGames != 2 {
		t.Fatalf("both rounds finished: %+v", r)
	}
	if m := me(t, s, p.Token); m.CurrentGame != nil || m.NextGame != nil {
		t.Fatalf("player with every game finished: %+v", m)
	}

	// A standalone game's seat token: the game and the colour.
	g := createGame(t, s, `{}`)
	if m := me(t, s, g.BlackToken); m.Role != "player" || m.GameID != g.ID || m.Colour != "black" || m.Tournament != nil {
		t.Fatalf("seat token: %+v", m)
	}

	// No token, an unknown one, or a forged secret: 401.
	for _, tok := range []string{"", "nonsense", tid + "." + tid + ".forged", table1 + ".red.x"} {
		if r := s.Do(apitest.Req{Method: http.MethodGet, Path: "/me", Token: tok}); r.Status != http.StatusUnauthorized {
			t.Errorf("GET /me with %q: %d %s", tok, r.Status, r.Body)
		}
	}
	if r := s.Get("/tournaments/taaaaaaaaaaaaaaaa/rounds"); r.Status != http.StatusNotFound {
		t.Errorf("rounds of an unknown event: %d %s", r.Status, r.Body)
	}
}

// A captain's token names its team.
func TestDiscovery_MeCaptain(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"League","system":"roundRobin","teams":true,"boards":2}`)
	var team struct {
		Token string
		Team  struct{ ID string }
	}
	s.Post("/tournaments/"+ev.ID+"/teams", ev.Token, `{"name":"Dragons","members":[{"name":"Li"},{"name":"Wang"}]}`).Want(t, http.StatusCreated).Decode(t, &team)
	if m := me(t, s, team.Token); m.Role != "captain" || m.ID != team.Team.ID || m.Name != "Dragons" || m.Team == nil || m.Tournament.ID != ev.ID {
		t.Fatalf("captain: %+v", m)
	}
}

// GET /tournaments/{tid}/officials is the organiser's, and holds no token
// nor token hash.
func TestDiscovery_Officials(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	path := "/tournaments/" + f.tid + "/officials"
	r := s.Do(apitest.Req{Method: http.MethodGet, Path: path, Token: f.org}).Want(t, http.StatusOK)
	var out struct {
		Officials []struct {
			ID, Role, Name string
			Tables         []int
		}
	}
	r.Decode(t, &out)
	if len(out.Officials) != 2 || out.Officials[0].Role != "arbiter" || out.Officials[1].Role != "scribe" || len(out.Officials[1].Tables) != 1 {
		t.Fatalf("officials: %s", r.Body)
	}
	if body := string(r.Body); strings.Contains(body, "oken") || strings.Contains(body, "ash") {
		t.Fatalf("officials list mentions tokens: %s", body)
	}
	for tok, want := range map[string]int{"": 401, f.ptoken: 403, f.arb: 403} {
		if r := s.Do(apitest.Req{Method: http.MethodGet, Path: path, Token: tok}); r.Status != want {
			t.Errorf("officials with %.12q: %d, want %d", tok, r.Status, want)
		}
	}
}
