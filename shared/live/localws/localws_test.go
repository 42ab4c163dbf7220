package localws_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/xqtour/xqtour/shared/store"
)

// wait bounds how long a test waits for a message that must come; the speed
// goal itself is BenchmarkLive_MoveToSubscribers'.
const wait = 15 * time.Second // a ceiling, not a target: a loaded CI machine is slow to schedule the feed

// play makes the ply-th move of a game (the first legal move the last view
// lists, so the game is reproducible) and returns the view after it.
func (s *stack) play(g newGame, view gameJSON) (string, gameJSON) {
	s.t.Helper()
	token := g.RedToken
	if view.Ply%2 == 1 {
		token = g.BlackToken
	}
	move := view.LegalMoves[(view.Ply*7)%len(view.LegalMoves)]
	var after gameJSON
	s.must("POST", "/games/"+g.ID+"/moves", token, map[string]any{"move": move, "ply": view.Ply, "press": true}, &after)
	return move, after
}

func (s *stack) newGame() (newGame, gameJSON) {
	s.t.Helper()
	var out struct {
		newGame
		Game gameJSON `json:"game"`
	}
	s.must("POST", "/games", "", map[string]any{}, &out)
	return out.newGame, out.Game
}

// withoutClocks drops what differs between two reads of one game at two
// instants (the clocks' readings).
func withoutClocks(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	delete(m, "clocks")
	return m
}

// Two subscribers of a game each receive every move, in order, as a game
// message carrying the same body GET /games/{gid} returns.
func TestLive_TwoSubscribersReceiveEveryMove(t *testing.T) {
	s := newStack(t)
	g, view := s.newGame()
	a, b := s.dial(), s.dial()
	a.follow("game", g.ID)
	b.follow("game", g.ID)
	for i := range 12 {
		var move string
		move, view = s.play(g, view)
		var get json.RawMessage
		s.must("GET", "/games/"+g.ID, "", nil, &get)
		for name, c := range map[string]*client{"a": a, "b": b} {
			r := c.awaitPly(i + 1)
			if r.body.ServerTime <= 0 {
				t.Fatalf("move %d, subscriber %s: %s", i+1, name, r.raw)
			}
			var pushed gameJSON
			if err := json.Unmarshal(r.body.Game, &pushed); err != nil {
				t.Fatal(err)
			}
			if pushed.ID != g.ID || pushed.Ply != i+1 || pushed.Moves[len(pushed.Moves)-1] != move {
				t.Fatalf("move %d (%s), subscriber %s got ply %d moves %v", i+1, move, name, pushed.Ply, pushed.Moves)
			}
			if got, want := withoutClocks(t, r.body.Game), withoutClocks(t, get); !maps.EqualFunc(got, want, func(x, y any) bool {
				xj, _ := json.Marshal(x)
				yj, _ := json.Marshal(y)
				return string(xj) == string(yj)
			}) {
				t.Fatalf("move %d: pushed game differs from GET /games/%s:\npushed %s\nGET    %s", i+1, g.ID, r.body.Game, get)
			}
		}
	}
}

// Pairing a round, a game's result and registrations reach the followers of
// the event as tournament messages naming what changed.
func TestLive_TournamentMessagesOnPairingAndResults(t *testing.T) {
	s := newStack(t)
	var ev struct{ ID, Token string }
	s.must("POST", "/tournaments", "", map[string]any{"name": "Live Swiss", "system": "swiss", "rounds": 3}, &ev)
	c := s.dial()
	c.follow("tournament", ev.ID)
	expect := func(what string, round int) {
		t.Helper()
		deadline := time.Now().Add(wait)
		for time.Now().Before(deadline) {
			r, ok := c.next(time.Until(deadline))
			if !ok {
				break
			}
			m := r.body
			if m.Type != "tournament" || m.Tournament != ev.ID || m.ServerTime <= 0 {
				t.Fatalf("not a tournament message of %s: %s", ev.ID, r.raw)
			}
			if m.What == what && m.Round == round {
				return
			}
		}
		t.Fatalf("no %q message for round %d", what, round)
	}
	tokens := map[string]string{}
	for i := range 2 {
		var p struct{ ID, Token string }
		s.must("POST", "/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": fmt.Sprintf("Player %d", i+1), "rating": 2000 - i}, &p)
		tokens[p.ID] = p.Token
		expect("players", 0)
	}
	var round struct {
		Pairings []struct{ Red, Black, GameID string } `json:"pairings"`
	}
	s.must("POST", "/tournaments/"+ev.ID+"/rounds", ev.Token, nil, &round)
	expect("round", 1)
	if len(round.Pairings) != 1 {
		t.Fatalf("pairings %+v", round.Pairings)
	}
	p := round.Pairings[0]
	s.must("POST", "/tournaments/"+ev.ID+"/rounds/1/start", ev.Token, nil, nil) // C-1: the clocks start with the round
	expect("round", 1)
	game := s.dial()
	game.follow("game", p.GameID)
	s.must("POST", "/games/"+p.GameID+"/resign", tokens[p.Black], nil, nil)
	expect("result", 1)
	expect("standings", 1)
	r := game.want(wait)
	var over gameJSON
	if err := json.Unmarshal(r.body.Game, &over); err != nil || r.body.Type != "game" || over.Status != "over" {
		t.Fatalf("the game's follower did not see the resignation: %s", r.raw)
	}
}

// A connection that unsubscribes gets nothing more; the other still does,
// and the subscription item is gone.
func TestLive_Unsubscribe(t *testing.T) {
	s := newStack(t)
	g, view := s.newGame()
	stays, leaves := s.dial(), s.dial()
	stays.follow("game", g.ID)
	leaves.follow("game", g.ID)
	leaves.send(fmt.Sprintf(`{"action":"unsubscribe","game":%q}`, g.ID))
	for r := leaves.want(wait); r.body.Type != "unsubscribed"; r = leaves.want(wait) {
		if r.body.Type != "game" { // the game's creation may still be on its way
			t.Fatalf("unsubscribe: %s", r.raw)
		}
	}
	subs, err := s.store.Query(context.Background(), "S#G#"+g.ID, "", 0)
	if err != nil || len(subs) != 1 {
		t.Fatalf("subscriptions after one left: %d (%v)", len(subs), err)
	}
	s.play(g, view)
	stays.awaitPly(1)
	for {
		r, ok := leaves.next(300 * time.Millisecond)
		if !ok {
			break
		}
		var g gameJSON
		if json.Unmarshal(r.body.Game, &g) != nil || g.Ply != 0 { // the creation's may still be on its way
			t.Fatalf("an unsubscribed connection still received %s", r.raw)
		}
	}
}

// A subscriber whose connection is gone (its post answers gone, as API
// Gateway's 410) is removed with all its subscriptions by the fan-out.
func TestLive_GoneConnectionRemoved(t *testing.T) {
	s := newStack(t)
	g, view := s.newGame()
	ctx := context.Background()
	hub := s.ws.Hub()
	if err := hub.Connect(ctx, "ghost"); err != nil {
		t.Fatal(err)
	}
	// The game's creation reaches the fan-out through the stream, which may
	// come while the ghost subscribes: the fan-out then finds it gone and
	// removes it already, and its subscribe answers not_found. Either way the
	// ghost's items must go.
	reply, err := hub.Handle(ctx, "ghost", fmt.Appendf(nil, `{"action":"subscribe","game":%q}`, g.ID))
	if err != nil || !strings.Contains(string(reply), "subscribed") && !strings.Contains(string(reply), `"not_found"`) {
		t.Fatalf("ghost subscribe: %s %v", reply, err)
	}
	live := s.dial()
	live.follow("game", g.ID)
	s.play(g, view)
	live.awaitPly(1)
	deadline := time.Now().Add(wait)
	for {
		_, errConn := s.store.Get(ctx, "C#ghost", "CONN")
		_, errSub := s.store.Get(ctx, "S#G#"+g.ID, "C#ghost")
		if errors.Is(errConn, store.ErrNotFound) && errors.Is(errSub, store.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gone connection's items remain: connection %v, subscription %v", errConn, errSub)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if subs, err := s.store.Query(ctx, "S#G#"+g.ID, "", 0); err != nil || len(subs) != 1 {
		t.Fatalf("subscriptions left: %d (%v), want the live one", len(subs), err)
	}
}

// Connection and subscription items carry DynamoDB's TTL ("ttl", Unix
// seconds) ConnectionTTL ahead, so what no disconnect removed expires.
func TestLive_ConnectionItemsHaveTTL(t *testing.T) {
	s := newStack(t)
	g, _ := s.newGame()
	before := time.Now()
	c := s.dial()
	c.follow("game", g.ID)
	subs, err := s.store.Query(context.Background(), "S#G#"+g.ID, "", 0)
	if err != nil || len(subs) != 1 {
		t.Fatalf("subscriptions: %d (%v)", len(subs), err)
	}
	id := strings.TrimPrefix(subs[0].SK, "C#")
	conn, err := s.store.Get(context.Background(), "C#"+id, "CONN")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := before.Add(3*time.Hour).Unix()-1, time.Now().Add(3*time.Hour).Unix()+1
	for _, r := range []*store.Record{conn, subs[0]} {
		if r.Expires < lo || r.Expires > hi {
			t.Errorf("%s/%s expires at %d, want within [%d, %d] (3 h ahead)", r.PK, r.SK, r.Expires, lo, hi)
		}
	}
	_ = c.c.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(wait)
	for {
		_, err := s.store.Get(context.Background(), "C#"+id, "CONN")
		subs, _ := s.store.Query(context.Background(), "S#G#"+g.ID, "", 0)
		if errors.Is(err, store.ErrNotFound) && len(subs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed connection's items remain (%v, %d subscriptions)", err, len(subs))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A message the hub cannot act on is answered with an error naming the
// problem, and subscribes to nothing.
func TestLive_BadMessagesAnsweredWithErrors(t *testing.T) {
	s := newStack(t)
	g, _ := s.newGame()
	c := s.dial()
	for _, tc := range []struct{ msg, code string }{
		{`{"action":"subscribe"`, "invalid_json"},
		{`{"action":"follow","game":"` + g.ID + `"}`, "invalid_field"},
		{`{"action":"subscribe"}`, "missing_field"},
		{`{"action":"subscribe","game":"` + g.ID + `","tournament":"t1"}`, "invalid_field"},
		{`{"action":"subscribe","game":"G#x/../y"}`, "invalid_field"},
		{`{"action":"subscribe","game":"gnosuchgame"}`, "not_found"},
		{`{"action":"subscribe","tournament":"tnosuchevent"}`, "not_found"},
	} {
		c.send(tc.msg)
		r := c.want(wait)
		if r.body.Type != "error" || r.body.Error == nil || r.body.Error.Code != tc.code || r.body.Error.Message == "" {
			t.Errorf("%s: got %s, want an error %s", tc.msg, r.raw, tc.code)
		}
	}
	if subs, _ := s.store.Query(context.Background(), "S#G#"+g.ID, "", 0); len(subs) != 0 {
		t.Errorf("bad messages subscribed %d connections", len(subs))
	}
}

// The socket keeps to its own origin unless LIVE_ORIGINS allows others; a
// client that sends no Origin (not a browser) is let in.
func TestLive_OriginPolicy(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	url := "ws" + strings.TrimPrefix(s.url, "http") + "/ws"
	_, res, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	if err == nil || res == nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign origin was not refused with 403: %v", err)
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {s.url}}})
	if err != nil {
		t.Fatalf("the same origin was refused: %v", err)
	}
	_ = c.CloseNow()
}

// A socket outlives the server's request deadlines: a subscriber quiet for
// longer than them still receives the next move.
func TestLive_SocketOutlivesServerTimeouts(t *testing.T) {
	const serverTimeout = 300 * time.Millisecond
	s := newStack(t, serverTimeout)
	g, view := s.newGame()
	c := s.dial()
	c.follow("game", g.ID)
	time.Sleep(3 * serverTimeout)
	s.play(g, view)
	c.awaitPly(1)
}
