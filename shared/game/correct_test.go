package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/game"
)

// O-1: the organiser records a result (a small event has no arbiter); a
// second record is refused; a correction of the finished game by the
// organiser or an arbiter is logged with who, when, before and after.
func TestCorrectResult_O1_AuditedCorrection(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30")})
	org := game.Actor{Role: game.Organiser, ID: "tevent"}
	if err := g.CorrectResult(t0, org, game.BlackWins, game.NoReason, "why"); !isCode(err, game.CodeNotFinished) {
		t.Fatalf("correcting a game without result: %v", err)
	}
	if err := g.RecordResult(t0+mn, org, game.RedWins, game.NoReason); err != nil {
		t.Fatalf("organiser records: %v", err)
	}
	if err := g.RecordResult(t0+2*mn, arb, game.BlackWins, game.NoReason); !isCode(err, game.CodeGameOver) {
		t.Fatalf("a second record: %v", err)
	}
	if err := g.CorrectResult(t0+2*mn, game.Actor{Role: game.Scribe}, game.BlackWins, game.NoReason, "sheet"); !isCode(err, game.CodeForbidden) {
		t.Fatalf("a scribe's correction: %v", err)
	}
	if err := g.CorrectResult(t0+2*mn, org, game.RedWins, game.ArbiterDecision, "same"); !isCode(err, game.CodeInvalidRuling) {
		t.Fatalf("a correction to the same result: %v", err)
	}
	if err := g.CorrectResult(t0+3*mn, org, game.BlackWins, game.Resignation, "the score sheet shows red resigned"); err != nil {
		t.Fatal(err)
	}
	wantResult(t, g, game.BlackWins, game.Resignation)
	log := g.Log()
	e := log[len(log)-1]
	if e.By != org || e.At != t0+3*mn || e.Ruling.Kind != game.RulingResult || e.Ruling.Before != game.RedWins ||
		e.Ruling.BeforeReason != game.ArbiterDecision || e.Ruling.Result != game.BlackWins || e.Ruling.Note == "" {
		t.Fatalf("audit entry: %+v", e)
	}
	roundTrip(t, g, t0+3*mn)
}

// A version-1 item (before the log kept who and what a correction replaced)
// still decodes.
func TestDecode_FormatVersion1(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30")})
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b[0] = 1 // no log entries: the forms differ only in the version byte
	if _, err := game.Decode(b); err != nil {
		t.Fatalf("version 1: %v", err)
	}
}
