package rulebook_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/rulebook"
	"github.com/xqtour/xqtour/shared/team"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A refusal reads one way whichever package refused: "code: message (rule)",
// without the parentheses when no rule decided.
func TestRuleErrorHasOneFormat(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&game.RuleError{Code: game.CodeNotYourTurn, Rule: "C-1", Message: "only red may move now"}, "not_your_turn: only red may move now (C-1)"},
		{&team.RuleError{Code: team.CodeLineupSize, Rule: "T-3", Message: "2 players for 4 boards"}, "lineup_size: 2 players for 4 boards (T-3)"},
		{&tournament.RuleError{Code: "event_finished", Rule: "S-6", Message: "the event is finished"}, "event_finished: the event is finished (S-6)"},
		{&rulebook.RuleError{Code: game.CodeStalePly, Message: "ply 3, the game is at 0"}, "stale_ply: ply 3, the game is at 0"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// The packages' RuleError names are one type: a team refusal is found as a
// game or tournament one, and the error behind a refusal unwraps.
func TestRuleErrorIsOneTypeAcrossPackages(t *testing.T) {
	var err error = &team.RuleError{Code: team.CodeRosterSize, Rule: "T-1", Message: "3 members for 4 boards", Err: fs.ErrInvalid}
	var ge *game.RuleError
	var te *tournament.RuleError
	if !errors.As(err, &ge) || !errors.As(err, &te) || ge != te {
		t.Fatalf("errors.As found %v and %v in %v", ge, te, err)
	}
	if !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("%v does not unwrap to the error behind it", err)
	}
	if _, ok := rulebook.Lookup(ge.Rule); !ok {
		t.Errorf("rule %s is not in the book", ge.Rule)
	}
}
