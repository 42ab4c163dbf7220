package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
)

// unstarted builds a game whose round has not started (StartMs 0).
func unstarted(t *testing.T, s game.Setup) *game.Game {
	t.Helper()
	g, err := game.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// C-1: before its round starts no clock runs and no player acts, however long
// the wait; arrivals are recorded; Start runs the first clock from then.
func TestStart_C1_NoClockBeforeTheRoundStarts(t *testing.T) {
	g := unstarted(t, game.Setup{Control: clock.SuddenDeath(15 * sec)})
	steps := []step{
		{at: 18 * sec, do: "move", by: red, move: "h2e2", code: game.CodeRoundNotStarted, rule: "C-1"},
		{at: 18 * sec, do: "press", by: red, code: game.CodeRoundNotStarted},
		{at: 18 * sec, do: "offer", by: red, code: game.CodeRoundNotStarted},
		{at: 18 * sec, do: "resign", by: black, code: game.CodeRoundNotStarted},
		{at: 18 * sec, do: "claimTime", by: black, code: game.CodeRoundNotStarted},
	}
	run(t, g, steps)
	v := g.View(t0 + 60*sec)
	if v.Status != game.Playing || v.Clock.Running != clock.None || v.Clock.Faces[clock.Red].RemainingMs != 15*sec || v.Started {
		t.Fatalf("unstarted view = status %v running %v red %d started %v; want playing, nothing running, 15 s, not started",
			v.Status, v.Clock.Running, v.Clock.Faces[clock.Red].RemainingMs, v.Started)
	}
	if err := g.Arrive(t0+60*sec, red); err != nil {
		t.Fatalf("arrival before the start: %v", err)
	}
	if err := g.Start(t0 + 100*sec); err != nil {
		t.Fatal(err)
	}
	if err := g.Start(t0 + 101*sec); !isCode(err, game.CodeRoundAlreadyStarted) {
		t.Fatalf("second Start: %v, want %s", err, game.CodeRoundAlreadyStarted)
	}
	run(t, g, []step{{at: 110 * sec, do: "move+press", by: red, move: "h2e2"}})
	if f := g.View(t0 + 110*sec).Clock.Faces[clock.Red]; f.RemainingMs != 5*sec {
		t.Fatalf("red has %d ms after 10 s of its 15, want 5000", f.RemainingMs)
	}
	roundTrip(t, g, t0+110*sec)
}

// C-6: late arrival counts from the actual start, not from when the game was
// made: a player absent before an explicit start is not late.
func TestStart_C6_LateLimitCountsFromTheActualStart(t *testing.T) {
	g := unstarted(t, game.Setup{Control: preset(t, "60/30+10/10"), LateLimitMs: 15 * mn})
	if v := g.View(t0 + 60*mn); v.Status != game.Playing {
		t.Fatalf("an unstarted game forfeited: %v %v", v.Result, v.Reason)
	}
	start := t0 + 60*mn
	if err := g.Start(start); err != nil {
		t.Fatal(err)
	}
	if err := g.Arrive(start+14*mn, red); err != nil {
		t.Fatal(err)
	}
	if v := g.View(start + 15*mn - 1); v.Status != game.Playing {
		t.Fatalf("forfeit before the limit counted from the start: %v", v.Result)
	}
	g.Settle(start + 15*mn)
	wantResult(t, g, result.RedByForfeit, game.Forfeit)
	roundTrip(t, g, start+15*mn)
}

// A round with a start time in the future: moves wait for it; starting it
// early moves the start to now.
func TestStart_C1_ScheduledStart(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30"), StartMs: t0 + 10*mn})
	run(t, g, []step{{at: 5 * mn, do: "move", by: red, move: "h2e2", code: game.CodeRoundNotStarted}})
	if v := g.View(t0 + 5*mn); v.Started || v.StartsAt != t0+10*mn {
		t.Fatalf("view before the start: started %v startsAt %d", v.Started, v.StartsAt)
	}
	if err := g.Start(t0 + 6*mn); err != nil {
		t.Fatal(err)
	}
	run(t, g, []step{{at: 6*mn + sec, do: "move", by: red, move: "h2e2"}})
	if g.StartsAt() != t0+6*mn {
		t.Fatalf("StartsAt = %d, want the early start", g.StartsAt())
	}
}

func isCode(err error, code string) bool {
	re, ok := err.(*game.RuleError)
	return ok && re.Code == code
}
