package service_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// The game commands check their fields only once the caller is known, and
// refuse by kind: a move without its ply, a scribe naming no side, a
// resignation by anyone but a player, a vote by a player, a malformed
// signature (O-3); a scribe's move is the side to move's, and a player's
// draw offer for the other side is forbidden.
func TestGameCommands(t *testing.T) {
	untimed, _ := clock.Preset("untimed")
	g, err := game.New(game.Setup{Control: untimed, StartMs: 1_700_000_000_000})
	if err != nil {
		t.Fatal(err)
	}
	it := &games.Item{ID: "gaaaaaaaaaaaaaaaa", Game: g}
	now := int64(1_700_000_001_000)
	run := func(by game.Actor, cmd service.GameCommand) error {
		return (&service.Service{}).OnGame(t.Context(), now, cmd)(it, by)
	}
	red, scribe := game.PlayerOf(xiangqi.Red), game.Actor{Role: game.Scribe}
	ply := 0
	for _, c := range []struct {
		name string
		by   game.Actor
		cmd  service.GameCommand
		kind command.Kind
		rule string
	}{
		{"a move without its ply", red, service.GameMove{Move: "C2.5"}, command.Invalid, ""},
		{"a scribe's draw naming no side", scribe, service.GameDraw{Action: "offer"}, command.Invalid, ""},
		{"a player's draw for the other side", red, service.GameDraw{Action: "offer", Side: "black"}, command.Forbidden, ""},
		{"an unknown draw action", red, service.GameDraw{Action: "maybe"}, command.Invalid, ""},
		{"a scribe resigning", scribe, service.GameResign{Side: "red"}, command.Forbidden, ""},
		{"a player's vote", red, service.GameVote{Side: "red"}, command.Forbidden, ""},
		{"a stroke of one number", scribe, service.GameSign{Line: "red", Name: "A", Strokes: [][]int{{1}}}, command.Invalid, "O-3"},
		{"a point off the box", scribe, service.GameSign{Line: "red", Name: "A", Strokes: [][]int{{0, game.SignatureBox + 1}}}, command.Invalid, "O-3"},
	} {
		err := run(c.by, c.cmd)
		if kind, _ := refusal(t, err); kind != c.kind || err.(*command.Error).Rule != c.rule {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if err := run(scribe, service.GameMove{Move: "C2.5", Ply: &ply}); err != nil || g.Ply() != 1 {
		t.Fatalf("the scribe's move for red: %v (ply %d)", err, g.Ply())
	}
}

// Whom a token acts as on a game (O-1): its seat for a player of the game,
// a scribe only at the tables it keeps, the officials and the organiser of
// its event; a token of another event, or a player of another game, is refused.
func TestGameActor(t *testing.T) {
	it := &games.Item{ID: "gaaaaaaaaaaaaaaaa", Link: games.Link{Tournament: "taaaaaaaaaaaaaaaa", Red: "p1", Black: "p2", Table: 3}}
	if service.GameScope(it) != "taaaaaaaaaaaaaaaa" || service.GameScope(&games.Item{ID: "gbbbbbbbbbbbbbbbb"}) != "gbbbbbbbbbbbbbbbb" {
		t.Fatal("a game's scope is its event's, or a standalone game's own id")
	}
	in := func(id, role string, tables ...int) service.Caller {
		return service.Caller{Scope: "taaaaaaaaaaaaaaaa", ID: id, Role: role, Tables: tables}
	}
	for _, c := range []struct {
		name   string
		caller service.Caller
		want   game.Actor
	}{
		{"the red player", in("p1", service.Player), game.PlayerOf(xiangqi.Red)},
		{"the black player", in("p2", service.Player), game.PlayerOf(xiangqi.Black)},
		{"a scribe of every table", in("o1", service.Scribe), game.Actor{Role: game.Scribe}},
		{"the table's scribe", in("o1", service.Scribe, 2, 3), game.Actor{Role: game.Scribe}},
		{"the chief arbiter", in("o2", service.ChiefArbiter), game.Actor{Role: game.ChiefArbiter}},
		{"the organiser", in("taaaaaaaaaaaaaaaa", service.Organiser), game.Actor{Role: game.Organiser}},
	} {
		if by, err := service.GameActor(it, c.caller); err != nil || by != c.want {
			t.Errorf("%s: %+v, %v", c.name, by, err)
		}
	}
	for name, c := range map[string]service.Caller{
		"another event's organiser": {Scope: "tbbbbbbbbbbbbbbbb", ID: "tbbbbbbbbbbbbbbbb", Role: service.Organiser},
		"another table's scribe":    in("o1", service.Scribe, 1),
		"a player of another game":  in("p3", service.Player),
	} {
		if kind, _ := refusal(t, func() error { _, err := service.GameActor(it, c); return err }()); kind != command.Forbidden {
			t.Errorf("%s: %v", name, kind)
		}
	}
}
