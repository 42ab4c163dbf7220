package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
)

// O-1: the organiser records a result (a small event has no arbiter); a
// second record is refused; a correction of the finished game by the
// organiser or an arbiter is logged with who, when, before and after.
func TestCorrectResult_O1_AuditedCorrection(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30")})
	org := game.Actor{Role: game.Organiser, ID: "tevent"}
	if err := g.CorrectResult(t0, org, result.BlackWins, game.NoReason, "why"); !isCode(err, game.CodeNotFinished) {
		t.Fatalf("correcting a game without result: %v", err)
	}
	if err := g.RecordResult(t0+mn, org, result.RedWins, game.NoReason); err != nil {
		t.Fatalf("organiser records: %v", err)
	}
	if err := g.RecordResult(t0+2*mn, arb, result.BlackWins, game.NoReason); !isCode(err, game.CodeGameOver) {
		t.Fatalf("a second record: %v", err)
	}
	if err := g.CorrectResult(t0+2*mn, game.Actor{Role: game.Scribe}, result.BlackWins, game.NoReason, "sheet"); !isCode(err, game.CodeForbidden) {
		t.Fatalf("a scribe's correction: %v", err)
	}
	if err := g.CorrectResult(t0+2*mn, org, result.RedWins, game.ArbiterDecision, "same"); !isCode(err, game.CodeInvalidRuling) {
		t.Fatalf("a correction to the same result: %v", err)
	}
	if err := g.CorrectResult(t0+3*mn, org, result.BlackWins, game.Resignation, "the score sheet shows red resigned"); err != nil {
		t.Fatal(err)
	}
	wantResult(t, g, result.BlackWins, game.Resignation)
	log := g.Log()
	e := log[len(log)-1]
	if e.By != org || e.At != t0+3*mn || e.Ruling.Kind != game.RulingResult || e.Ruling.Before != result.RedWins ||
		e.Ruling.BeforeReason != game.ArbiterDecision || e.Ruling.Result != result.BlackWins || e.Ruling.Note == "" {
		t.Fatalf("audit entry: %+v", e)
	}
	roundTrip(t, g, t0+3*mn)
}

// A version-1 item (before the log kept who and what a correction replaced),
// a version-2 item (before the O-2 penalty options) and a version-3 item
// (before adjournment) still decode, the options off.
func TestDecode_FormatVersion1(t *testing.T) {
	g := newGame(t, game.Setup{Control: preset(t, "rapid-5/30")})
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The penalty options' byte is where the encodings of the same game
	// with and without them differ; versions 1 and 2 have no such byte.
	h := newGame(t, game.Setup{Control: preset(t, "rapid-5/30"), Rules: game.Rules{OfferLoses: true}})
	hb, err := h.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for at < len(b) && b[at] == hb[at] {
		at++
	}
	// Version 4 ends with the sealed-move flag: no signature count (O-3)
	// after it; versions 1 to 3 end with the log: no sealed-move flag (C-7).
	v4 := append([]byte(nil), b[:len(b)-1]...)
	v4[0] = 4
	if _, err := game.Decode(v4); err != nil {
		t.Fatalf("version 4: %v", err)
	}
	v3 := append([]byte(nil), b[:len(b)-2]...)
	v3[0] = 3
	if _, err := game.Decode(v3); err != nil {
		t.Fatalf("version 3: %v", err)
	}
	old := append(append([]byte(nil), b[:at]...), b[at+1:len(b)-2]...)
	for _, v := range []byte{1, 2} {
		old[0] = v // no log entries: the forms differ only in the version byte
		back, err := game.Decode(old)
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if r := back.Rules(); r.OfferLoses || r.DroppedPieceLoses {
			t.Errorf("version %d: penalty options %+v, want off", v, r)
		}
	}
}
