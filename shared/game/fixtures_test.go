package game_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

const (
	sec = int64(1000)
	mn  = 60 * sec
	t0  = int64(1_800_000_000_000) // the round's start, Unix ms
)

var (
	red    = game.PlayerOf(xiangqi.Red)
	black  = game.PlayerOf(xiangqi.Black)
	scribe = game.Actor{Role: game.Scribe}
	arb    = game.Actor{Role: game.Arbiter}
	chief  = game.Actor{Role: game.ChiefArbiter}
)

func preset(t testing.TB, name string) clock.Control {
	t.Helper()
	c, ok := clock.Preset(name)
	if !ok {
		t.Fatalf("no preset %q", name)
	}
	return c
}

func newGame(t testing.TB, s game.Setup) *game.Game {
	t.Helper()
	if s.StartMs == 0 {
		s.StartMs = t0
	}
	g, err := game.New(s)
	if err != nil {
		t.Fatalf("New(%+v): %v", s, err)
	}
	return g
}

// step is one thing that happens in a scripted game.
type step struct {
	at   int64 // ms after t0
	do   string
	by   game.Actor
	move string
	// code is the RuleError code expected, "" for success.
	code string
	rule string
}

// run plays the steps; every step's error must match its code (and rule, when
// given). After each step the game must survive an encode/decode round trip.
func run(t testing.TB, g *game.Game, steps []step) {
	t.Helper()
	for i, s := range steps {
		now := t0 + s.at
		var err error
		switch s.do {
		case "move":
			err = g.Move(now, s.by, s.move, g.Ply(), false)
		case "move+press":
			err = g.Move(now, s.by, s.move, g.Ply(), true)
		case "press":
			err = g.Press(now, s.by)
		case "offer":
			err = g.OfferDraw(now, s.by)
		case "accept":
			err = g.AcceptDraw(now, s.by)
		case "decline":
			err = g.DeclineDraw(now, s.by)
		case "resign":
			err = g.Resign(now, s.by)
		case "claimTime":
			err = g.Claim(now, s.by, game.ClaimTime)
		case "claimNoCapture":
			err = g.Claim(now, s.by, game.ClaimNoCapture)
		case "claimRuling":
			err = g.Claim(now, s.by, game.ClaimRuling)
		default:
			t.Fatalf("step %d: unknown action %q", i, s.do)
		}
		checkErr(t, i, s, err)
		roundTrip(t, g, now)
	}
}

func checkErr(t testing.TB, i int, s step, err error) {
	t.Helper()
	var re *game.RuleError
	switch {
	case s.code == "" && err != nil:
		t.Fatalf("step %d %s %q by %v: %v", i, s.do, s.move, s.by, err)
	case s.code != "" && !errors.As(err, &re):
		t.Fatalf("step %d %s %q: error %v, want code %s", i, s.do, s.move, err, s.code)
	case s.code != "" && (re.Code != s.code || s.rule != "" && re.Rule != s.rule):
		t.Fatalf("step %d %s %q: got %s (%s) %q, want %s (%s)", i, s.do, s.move, re.Code, re.Rule, re.Message, s.code, s.rule)
	}
}

// roundTrip checks that the packed game reads back to the same view.
func roundTrip(t testing.TB, g *game.Game, now int64) {
	t.Helper()
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	d, err := game.Decode(b)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if got, want := d.View(now), g.View(now); !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded view differs:\n got %+v\nwant %+v", got, want)
	}
	if !reflect.DeepEqual(d.Log(), g.Log()) {
		t.Fatalf("decoded log differs:\n got %+v\nwant %+v", d.Log(), g.Log())
	}
	b2, _ := d.MarshalBinary()
	if !reflect.DeepEqual(b, b2) {
		t.Fatal("re-encoding the decoded game gives other bytes")
	}
}

func wantResult(t testing.TB, g *game.Game, r result.Result, why game.Reason) {
	t.Helper()
	if gr, gw := g.Result(); gr != r || gw != why {
		t.Fatalf("result = %v (%v), want %v (%v)", gr, gw, r, why)
	}
	if r != result.None && g.Status() != game.Over {
		t.Fatalf("status = %v with a result", g.Status())
	}
}
