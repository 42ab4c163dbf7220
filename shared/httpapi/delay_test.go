package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// With broadcastDelaySeconds 4 a stranger's read of a game does not show a
// move made just now, the mover's and the arbiter's do; 5 s later the
// stranger's does. The two answers never share a tag nor a cache.
func TestDelay_PublicReadsTrailThePlay(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Delayed","rounds":3,"broadcastDelaySeconds":4}`)
	if got := s.Get("/tournaments/"+pg.ev.ID).Want(t, http.StatusOK).JSON()["broadcastDelaySeconds"]; got != 4.0 {
		t.Fatalf("broadcastDelaySeconds %v, want 4", got)
	}
	s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.ev.Token, nil).Want(t, http.StatusOK)
	game := "/games/" + pg.gid
	s.Clock.Advance(10 * time.Second) // past the start: the delay hides nothing played before it
	s.Post(game+"/moves", pg.red.Token, `{"move":"h2e2","ply":0,"press":true}`).Want(t, http.StatusOK)

	anon := s.Get(game).Want(t, http.StatusOK)
	if st := anon.JSON(); st["ply"] != 0.0 || len(st["moves"].([]any)) != 0 || st["sideToMove"] != "red" {
		t.Fatalf("a stranger sees ply %v moves %v right after the move; want none", st["ply"], st["moves"])
	}
	if cc, vary := anon.Header.Get("Cache-Control"), anon.Header.Get("Vary"); cc != "public, max-age=1" || !strings.Contains(vary, "Authorization") {
		t.Errorf("delayed read: Cache-Control %q Vary %q", cc, vary)
	}
	if pgn := string(s.Get(game+"/record").Want(t, http.StatusOK).Body); strings.Contains(pgn, "\n1. ") {
		t.Errorf("a stranger's record shows the move:\n%s", pgn)
	}
	for who, token := range map[string]string{"mover": pg.red.Token, "opponent": pg.black.Token, "arbiter": pg.arb, "organiser": pg.ev.Token} {
		r := s.Do(apitest.Req{Method: http.MethodGet, Path: game, Token: token}).Want(t, http.StatusOK)
		if st := r.JSON(); st["ply"] != 1.0 {
			t.Fatalf("the %s reads ply %v, want 1 (live)", who, st["ply"])
		}
		if cc := r.Header.Get("Cache-Control"); cc != "private, no-store" {
			t.Errorf("the %s's live read: Cache-Control %q", who, cc)
		}
		if r.Header.Get("ETag") == anon.Header.Get("ETag") {
			t.Errorf("the %s's live read has the delayed read's ETag", who)
		}
	}
	// A token of another event, or a broken one, reads as the public does.
	other := pairTwo(t, s, `{"name":"Other","rounds":3}`)
	for _, token := range []string{other.red.Token, "garbage", pg.ev.ID + ".pzzzzzzzzzzzzzzzz.x"} {
		if st := s.Do(apitest.Req{Method: http.MethodGet, Path: game, Token: token}).Want(t, http.StatusOK).JSON(); st["ply"] != 0.0 {
			t.Fatalf("token %q reads ply %v, want 0 (delayed)", token, st["ply"])
		}
	}
	// Revalidating the delayed copy once the move shows is a 200, not a 304.
	s.Clock.Advance(5 * time.Second)
	r := s.Do(apitest.Req{Method: http.MethodGet, Path: game, Header: map[string]string{"If-None-Match": anon.Header.Get("ETag")}}).Want(t, http.StatusOK)
	if st := r.JSON(); st["ply"] != 1.0 || st["moves"].([]any)[0] != "h2e2" {
		t.Fatalf("5 s later a stranger sees ply %v moves %v, want the move", st["ply"], st["moves"])
	}
	if pgn := string(s.Get(game+"/record").Want(t, http.StatusOK).Body); !strings.Contains(pgn, "\n1. ") {
		t.Errorf("5 s later the record still hides the move:\n%s", pgn)
	}
}

// The delay's clocks are as they read the delay ago, and a game that ended
// within it is still being played for the public; once the delay has passed
// since its end it shows in full, in the event's PGN export too.
func TestDelay_FinishedGamesShowOnceTheDelayHasPassed(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Delayed end","rounds":3,"broadcastDelaySeconds":60}`)
	s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.ev.Token, nil).Want(t, http.StatusOK)
	game := "/games/" + pg.gid
	s.Clock.Advance(2 * time.Minute)
	s.Post(game+"/moves", pg.red.Token, `{"move":"h2e2","ply":0,"press":true}`).Want(t, http.StatusOK)
	s.Clock.Advance(30 * time.Second)
	s.Post(game+"/resign", pg.black.Token, `{}`).Want(t, http.StatusOK)
	st := s.Get(game).Want(t, http.StatusOK).JSON()
	clocks := st["clocks"].(map[string]any)
	if st["status"] != "playing" || st["ply"] != 0.0 || clocks["running"] != "red" {
		t.Fatalf("30 s after the move, 60 s delay: status %v ply %v running %v; want playing, 0, red", st["status"], st["ply"], clocks["running"])
	}
	pgn := func() string {
		return string(s.Get("/tournaments/"+pg.ev.ID+"/games?format=pgn").Want(t, http.StatusOK).Body)
	}
	if p := pgn(); strings.Contains(p, "1-0") || strings.Contains(p, "\n1. ") {
		t.Errorf("the export shows the game before the delay:\n%s", p)
	}
	// Standings and results are not delayed.
	if res := s.Get("/tournaments/"+pg.ev.ID+"/rounds/1").Want(t, http.StatusOK).JSON()["pairings"].([]any)[0].(map[string]any)["result"]; res == nil {
		t.Error("the round's result is delayed")
	}
	s.Clock.Advance(61 * time.Second)
	if st := s.Get(game).Want(t, http.StatusOK).JSON(); st["status"] != "over" || st["ply"] != 1.0 {
		t.Fatalf("past the delay: status %v ply %v, want over with the move", st["status"], st["ply"])
	}
	if p := pgn(); !strings.Contains(p, "1-0") {
		t.Errorf("past the delay the export still hides the end:\n%s", p)
	}
}

// The setting is validated: 0…3600 seconds.
func TestDelay_SettingIsValidated(t *testing.T) {
	s := apitest.New(t)
	for _, bad := range []string{"-1", "3601", `"4"`} {
		r := s.Do(apitest.Req{Method: http.MethodPost, Path: "/tournaments", Body: `{"name":"Bad","rounds":3,"broadcastDelaySeconds":` + bad + `}`, Invalid: true})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "broadcastDelaySeconds") {
			t.Errorf("broadcastDelaySeconds %s: %d %s", bad, r.Status, r.Body)
		}
	}
	if got := s.Post("/tournaments", "", `{"name":"Live","rounds":3}`).Want(t, http.StatusCreated).JSON()["tournament"].(map[string]any)["broadcastDelaySeconds"]; got != 0.0 {
		t.Errorf("default broadcastDelaySeconds %v, want 0", got)
	}
}

// The organiser changes the delay before round 1; the games paired then
// keep it; after the pairing a change is refused and changes nothing.
func TestDelay_SetBeforeRoundOne(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Later","rounds":3}`)
	path := "/tournaments/" + ev.ID + "/broadcast"
	tokens := map[string]string{}
	for _, name := range []string{"Hu Ronghua", "Liu Dahua"} {
		var p created
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		tokens[p.ID] = p.Token
	}
	if r := s.Post(path, "", `{"broadcastDelaySeconds":30}`); r.Status != http.StatusUnauthorized {
		t.Fatalf("without a token: %d", r.Status)
	}
	if r := s.Do(apitest.Req{Method: http.MethodPost, Path: path, Token: ev.Token, Body: `{"broadcastDelaySeconds":9999}`, Invalid: true}); r.Status != http.StatusBadRequest {
		t.Fatalf("9999 s: %d %s", r.Status, r.Body)
	}
	if r := s.Do(apitest.Req{Method: http.MethodPost, Path: path, Token: ev.Token, Body: `{}`, Invalid: true}); r.Status != http.StatusBadRequest || r.ErrorCode() != "missing_field" {
		t.Fatalf("no delay: %d %s", r.Status, r.Body)
	}
	got := s.Post(path, ev.Token, `{"broadcastDelaySeconds":30}`).Want(t, http.StatusOK).JSON()["tournament"].(map[string]any)["broadcastDelaySeconds"]
	if got != 30.0 {
		t.Fatalf("broadcastDelaySeconds %v, want 30", got)
	}
	var round struct {
		Pairings []struct {
			Red    string
			GameID string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
	r := s.Post(path, ev.Token, `{"broadcastDelaySeconds":0}`)
	if r.Status != http.StatusUnprocessableEntity || r.ErrorCode() != "broadcast_fixed" {
		t.Fatalf("after round 1 is paired: %d %s", r.Status, r.Body)
	}
	if got := s.Get("/tournaments/"+ev.ID).Want(t, http.StatusOK).JSON()["broadcastDelaySeconds"]; got != 30.0 {
		t.Fatalf("a refused change changed the delay to %v", got)
	}
	// The paired game keeps the delay: a move shows to the public 30 s later.
	s.Post("/tournaments/"+ev.ID+"/rounds/1/start", ev.Token, nil).Want(t, http.StatusOK)
	s.Clock.Advance(time.Minute)
	g := round.Pairings[0]
	s.Post("/games/"+g.GameID+"/moves", tokens[g.Red], `{"move":"h2e2","ply":0,"press":true}`).Want(t, http.StatusOK)
	if st := s.Get("/games/"+g.GameID).Want(t, http.StatusOK).JSON(); st["ply"] != 0.0 {
		t.Fatalf("right after the move a stranger sees ply %v", st["ply"])
	}
	s.Clock.Advance(31 * time.Second)
	if st := s.Get("/games/"+g.GameID).Want(t, http.StatusOK).JSON(); st["ply"] != 1.0 {
		t.Fatalf("31 s after the move a stranger sees ply %v", st["ply"])
	}
}
