package localws_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// roundMsg is a round channel's message.
type roundMsg struct {
	Type       string
	Tournament string
	Round      int
	Table      int
	Game       string
	Ply        int
	Move       string
	FEN        string
	Status     string
	Result     *string
	Clocks     map[string]any
	ServerTime int64
}

// board is one game of a paired round, with its players' tokens.
type board struct {
	table      int
	g          newGame
	red, black string // player ids
	view       gameJSON
}

// event is an event of 2·boards players whose round 1 is paired and started.
type event struct {
	id, token string
	boards    []*board
}

func (s *stack) newEvent(boards int, settings map[string]any) *event {
	s.t.Helper()
	body := map[string]any{"name": "Broadcast", "system": "swiss", "rounds": 3}
	for k, v := range settings {
		body[k] = v
	}
	var ev struct{ ID, Token string }
	s.must("POST", "/tournaments", "", body, &ev)
	tokens := map[string]string{}
	for i := range 2 * boards {
		var p struct{ ID, Token string }
		s.must("POST", "/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": fmt.Sprintf("Player %d", i+1), "rating": 2000 - i}, &p)
		tokens[p.ID] = p.Token
	}
	var round struct {
		Pairings []struct {
			Table      int
			Red, Black string
			GameID     string `json:"gameId"`
		} `json:"pairings"`
	}
	s.must("POST", "/tournaments/"+ev.ID+"/rounds", ev.Token, nil, &round)
	s.must("POST", "/tournaments/"+ev.ID+"/rounds/1/start", ev.Token, nil, nil)
	out := &event{id: ev.ID, token: ev.Token}
	for _, p := range round.Pairings {
		b := &board{table: p.Table, g: newGame{ID: p.GameID, RedToken: tokens[p.Red], BlackToken: tokens[p.Black]}, red: p.Red, black: p.Black}
		s.must("GET", "/games/"+p.GameID, b.g.RedToken, nil, &b.view)
		out.boards = append(out.boards, b)
	}
	if len(out.boards) != boards {
		s.t.Fatalf("%d boards paired, want %d", len(out.boards), boards)
	}
	return out
}

// followRound subscribes to round n of tid and waits for the acknowledgement.
func (c *client) followRound(tid string, n int) {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"action":"subscribe","round":{"tournament":%q,"round":%d}}`, tid, n))
	for {
		r := c.want(wait)
		if r.body.Type == "subscribed" {
			return
		}
		if r.body.Type == "error" {
			c.t.Fatalf("subscribe to round %d: %s", n, r.raw)
		}
	}
}

// roundMove waits up to within for the round message of game gid's ply,
// passing over other messages (earlier plies, other boards' presses).
func (c *client) roundMove(gid string, ply int, within time.Duration) (received, roundMsg) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for {
		r, ok := c.next(time.Until(deadline))
		if !ok {
			c.t.Fatalf("no move message for %s ply %d within %s", gid, ply, within)
		}
		var m roundMsg
		if err := json.Unmarshal(r.raw, &m); err != nil {
			c.t.Fatalf("%v: %s", err, r.raw)
		}
		if m.Game == gid && m.Ply == ply && m.Type == "move" {
			return r, m
		}
		if m.Game == gid && m.Ply > ply {
			c.t.Fatalf("waiting for %s ply %d, got ply %d first: %s", gid, ply, m.Ply, r.raw)
		}
	}
}

// One round subscription carries every board: 20 moves across the 5 games
// of a round each reach the subscriber within 1 s as a compact move
// message with its table, ply, move, position and clocks.
func TestLive_RoundChannelCarriesEveryBoard(t *testing.T) {
	s := newStack(t)
	ev := s.newEvent(5, nil)
	c := s.dial()
	c.followRound(ev.id, 1)
	for i := range 20 {
		b := ev.boards[i%5]
		move, after := s.play(b.g, b.view)
		b.view = after
		r, m := c.roundMove(b.g.ID, after.Ply, time.Second)
		if m.Tournament != ev.id || m.Round != 1 || m.Table != b.table || m.Move != move || m.FEN == "" || m.Clocks["red"] == nil || m.ServerTime <= 0 || m.Status != "playing" {
			t.Fatalf("move %d (table %d, ply %d, %s): %s", i+1, b.table, after.Ply, move, r.raw)
		}
	}
	// A resignation is a result message.
	b := ev.boards[0]
	s.must("POST", "/games/"+b.g.ID+"/resign", b.g.RedToken, nil, nil)
	for {
		r := c.want(time.Second)
		var m roundMsg
		_ = json.Unmarshal(r.raw, &m)
		if m.Type == "result" && m.Game == b.g.ID {
			if m.Status != "over" || m.Result == nil || *m.Result != "0-1" || m.Table != b.table {
				t.Fatalf("result message: %s", r.raw)
			}
			break
		}
	}
}

// Round subscriptions are checked as the others are: a round number out of
// range or of an event that does not exist is refused, naming the problem,
// and they count against the connection's subscriptions.
func TestLive_RoundSubscribeRefusals(t *testing.T) {
	s := newStack(t)
	ev := s.newEvent(1, nil)
	c := s.dial()
	for body, code := range map[string]string{
		`{"action":"subscribe","round":{"tournament":"` + ev.id + `","round":0}}`:             "invalid_field",
		`{"action":"subscribe","round":{"tournament":"` + ev.id + `","round":1000}}`:          "invalid_field",
		`{"action":"subscribe","round":{"tournament":"t no","round":1}}`:                      "invalid_field",
		`{"action":"subscribe","round":{"tournament":"tnosuchevent","round":1}}`:              "not_found",
		`{"action":"subscribe","game":"g1","round":{"tournament":"` + ev.id + `","round":1}}`: "invalid_field",
	} {
		c.send(body)
		r := c.want(wait)
		if r.body.Type != "error" || r.body.Error == nil || r.body.Error.Code != code {
			t.Errorf("%s: %s, want error %s", body, r.raw, code)
		}
	}
	c.followRound(ev.id, 2) // a round not paired yet may be followed
	c.send(fmt.Sprintf(`{"action":"unsubscribe","round":{"tournament":%q,"round":2}}`, ev.id))
	if r := c.want(wait); r.body.Type != "unsubscribed" {
		t.Fatalf("unsubscribe: %s", r.raw)
	}
}

// With broadcastDelaySeconds 4: an anonymous GET right after a move does
// not show it, the mover's does, and 5 s later the anonymous one does; the
// round's and the game's public followers get the move no earlier than 4 s
// after it was sent, showing it then.
func TestLive_BroadcastDelay(t *testing.T) {
	s := newStack(t)
	ev := s.newEvent(2, map[string]any{"broadcastDelaySeconds": 4})
	b := ev.boards[1]
	round, game := s.dial(), s.dial()
	round.followRound(ev.id, 1)
	game.follow("game", b.g.ID)
	sent := time.Now()
	move, after := s.play(b.g, b.view)
	var anon, mine gameJSON
	s.must("GET", "/games/"+b.g.ID, "", nil, &anon)
	s.must("GET", "/games/"+b.g.ID, b.g.RedToken, nil, &mine)
	if anon.Ply != 0 || mine.Ply != 1 || mine.Moves[0] != move {
		t.Fatalf("right after the move: anonymous ply %d, the mover's ply %d; want 0 and 1", anon.Ply, mine.Ply)
	}
	r, m := round.roundMove(b.g.ID, after.Ply, 4*time.Second+wait)
	if early := r.at.Sub(sent); early < 4*time.Second {
		t.Fatalf("the round's follower got the move %s after it was sent, before the 4 s delay: %s", early, r.raw)
	}
	if m.Move != move || m.Table != b.table {
		t.Fatalf("delayed move message: %s", r.raw)
	}
	g := game.awaitPly(1)
	if early := g.at.Sub(sent); early < 4*time.Second {
		t.Fatalf("the game's follower got the move %s after it was sent, before the delay", early)
	}
	time.Sleep(time.Until(sent.Add(5 * time.Second)))
	s.must("GET", "/games/"+b.g.ID, "", nil, &anon)
	if anon.Ply != 1 || anon.Moves[0] != move {
		t.Fatalf("5 s after the move an anonymous read shows ply %d", anon.Ply)
	}
}
