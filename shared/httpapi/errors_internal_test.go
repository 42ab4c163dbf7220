package httpapi

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/team"
	"github.com/xqtour/xqtour/shared/tournament"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// A refusal from each core package — game, team, tournament — is the one
// rulebook.RuleError and reaches the client through the one mapping in
// errors.go with its status, code and rule. The refusals are produced by the
// core itself, not built here.
func TestRuleRefusalFromEveryCorePackageMapsToItsStatus(t *testing.T) {
	const t0 = int64(1_800_000_000_000)
	newGame := func() *game.Game {
		ctl, _ := clock.Preset("rapid")
		g, err := game.New(game.Setup{Control: ctl, StartMs: t0})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	red, black := game.PlayerOf(xiangqi.Red), game.PlayerOf(xiangqi.Black)
	_, badRules := game.New(game.Setup{Rules: game.Rules{NoCaptureMoves: -1}, StartMs: t0})
	finished := &tournament.Tournament{Status: tournament.Finished}
	_, registerErr := finished.Register(tournament.Player{Name: "Lü Qin", Rating: 2000}, t0)
	cases := []struct {
		name       string
		err        error
		status     int
		code, rule string
	}{
		{"game: C-1 not your turn", newGame().Move(t0+1000, black, "h9g7", 0, true), 422, game.CodeNotYourTurn, "C-1"},
		{"game: stale ply", newGame().Move(t0+1000, red, "h2e2", 3, true), 409, game.CodeStalePly, ""},
		{"game: B-8 illegal move", newGame().Move(t0+1000, red, "b2b8", 0, true), 422, game.CodeIllegalMove, "B-8"},
		{"game: invalid argument", badRules, 400, game.CodeInvalidArgument, ""},
		{"team: T-1 settings", team.Settings{Format: team.FixedBoards, Boards: 0}.Validate(), 422, team.CodeInvalidSettings, "T-1"},
		{"tournament: S-6 finished event", registerErr, 422, "event_finished", "S-6"},
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("the core accepted the request")
			}
			w := httptest.NewRecorder()
			writeError(w, log, c.err)
			var body errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q: %v", w.Body, err)
			}
			if w.Code != c.status || body.Error.Code != c.code || body.Error.Rule != c.rule {
				t.Errorf("got %d %s (rule %q), want %d %s (rule %q): %s", w.Code, body.Error.Code, body.Error.Rule, c.status, c.code, c.rule, w.Body)
			}
			if body.Error.Message == "" {
				t.Errorf("no message: %s", w.Body)
			}
		})
	}
}
