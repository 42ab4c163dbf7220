package game_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// pendingGame plays six cycles so the game waits for the arbiters (G-6).
func pendingGame(t *testing.T) *game.Game {
	t.Helper()
	g := newGame(t, game.Setup{Control: preset(t, "world")})
	run(t, g, cycles(6))
	if g.Status() != game.PendingRuling {
		t.Fatalf("status %v after 6 cycles", g.Status())
	}
	return g
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var re *game.RuleError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("err = %v, want code %s", err, code)
	}
}

// TestVote_G6_SealedUntilTheThird: three arbiters vote from their own
// devices (000 ch.8 请裁制度); two votes change nothing, the third rules at
// once by the majority (2:1 here), and the log keeps each vote with who cast
// it beside the ruling.
func TestVote_G6_SealedUntilTheThird(t *testing.T) {
	g := pendingGame(t)
	a1 := game.Actor{Role: game.Arbiter, ID: "o1"}
	a2 := game.Actor{Role: game.Arbiter, ID: "o2"}
	a3 := game.Actor{Role: game.ChiefArbiter, ID: "o3"}
	if err := g.Vote(t0+mn, a1, xiangqi.Black, "black chased the chariot"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, g.Vote(t0+mn, a1, xiangqi.Red, ""), game.CodeInvalidRuling) // one vote each
	if err := g.Vote(t0+2*mn, a2, xiangqi.Red, ""); err != nil {
		t.Fatal(err)
	}
	if g.Status() != game.PendingRuling || len(g.SealedVotes()) != 2 {
		t.Fatalf("after two votes: status %v, %d votes", g.Status(), len(g.SealedVotes()))
	}
	roundTrip(t, g, t0+2*mn)
	if err := g.Vote(t0+3*mn, a3, xiangqi.Black, ""); err != nil {
		t.Fatal(err)
	}
	wantResult(t, g, result.RedWins, game.RepetitionRuling)
	log := g.Log()
	last := log[len(log)-1]
	if last.Ruling.Kind != game.RulingRepetition || last.Ruling.Votes != [3]xiangqi.Color{xiangqi.Black, xiangqi.Red, xiangqi.Black} || last.By.ID != "o3" {
		t.Fatalf("ruling entry %+v", last)
	}
	votes := g.SealedVotes()
	if len(votes) != 3 || votes[0].By.ID != "o1" || votes[0].Ruling.Note != "black chased the chariot" {
		t.Fatalf("votes %+v", votes)
	}
	roundTrip(t, g, t0+4*mn)
	wantCode(t, g.Vote(t0+4*mn, game.Actor{Role: game.Arbiter, ID: "o4"}, xiangqi.Red, ""), game.CodeGameOver)
}

// TestVote_G6_Refusals: a vote needs a pending position, an official who
// rules, the official's identity and a side; an agreed draw before the third
// vote ends the game and the sealed votes decide nothing.
func TestVote_G6_Refusals(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "world")})
	a1 := game.Actor{Role: game.Arbiter, ID: "o1"}
	wantCode(t, g.Vote(t0, a1, xiangqi.Red, ""), game.CodeInvalidRuling)
	g = pendingGame(t)
	wantCode(t, g.Vote(t0+mn, game.Actor{Role: game.Scribe, ID: "s1"}, xiangqi.Red, ""), game.CodeForbidden)
	wantCode(t, g.Vote(t0+mn, game.Actor{Role: game.Arbiter}, xiangqi.Red, ""), game.CodeInvalidArgument)
	wantCode(t, g.Vote(t0+mn, a1, xiangqi.Color(7), ""), game.CodeInvalidArgument)
	if err := g.Vote(t0+mn, a1, xiangqi.Red, ""); err != nil {
		t.Fatal(err)
	}
	if err := g.RecordResult(t0+2*mn, a1, result.Draw, game.Agreement); err != nil {
		t.Fatal(err)
	}
	wantResult(t, g, result.Draw, game.Agreement)
	wantCode(t, g.Vote(t0+3*mn, game.Actor{Role: game.Arbiter, ID: "o2"}, xiangqi.Red, ""), game.CodeGameOver)
}
