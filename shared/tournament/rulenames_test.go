package tournament

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
)

// Named options read into the typed rules and back; no options are the
// rule book's defaults (a dropped piece loses, O-2); an unknown name is
// refused by its field and rule.
func TestRuleNames(t *testing.T) {
	def, err := (*RuleNames)(nil).Rules()
	if err != nil || def.Repetition != game.ArbiterRuling || def.IllegalMoves != game.RejectIllegal || !def.DroppedPieceLoses {
		t.Fatalf("no options: %+v, %v", def, err)
	}
	off := false
	in := RuleNames{Repetition: "perpetualCheckLoses", IllegalMoves: "foul", NoCaptureMoves: 80, DrawOfferLimit: -1,
		DeadPositionDraw: true, LateForfeitMs: 600000, RecordArrivals: true, OfferLoses: true, DroppedPieceLoses: &off}
	r, err := in.Rules()
	if err != nil {
		t.Fatal(err)
	}
	if r.Repetition != game.PerpetualCheckLoses || r.IllegalMoves != game.IllegalIsFoul || r.NoCaptureMoves != 80 || r.DrawOfferLimit != -1 ||
		!r.DeadPositionDraw || r.LateForfeitMs != 600000 || !r.RecordArrivals || !r.OfferLoses || r.DroppedPieceLoses {
		t.Fatalf("read: %+v", r)
	}
	back := r.Names()
	if back.Repetition != in.Repetition || back.IllegalMoves != in.IllegalMoves || back.DroppedPieceLoses == nil || *back.DroppedPieceLoses {
		t.Fatalf("named again: %+v", back)
	}
	for _, bad := range []struct {
		in          RuleNames
		field, rule string
	}{
		{RuleNames{Repetition: "asian"}, "rules.repetition", "G-6"},
		{RuleNames{IllegalMoves: "warn"}, "rules.illegalMoves", "G-2"},
	} {
		_, err := bad.in.Rules()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != bad.field || fe.Rule != bad.rule {
			t.Errorf("%+v: %v", bad.in, err)
		}
	}
}

// A standalone game's named rules: none named is perpetual check loses
// (G-6, no arbiter to rule), the arbiters' ruling named is refused.
func TestRuleNames_Standalone(t *testing.T) {
	r, err := (*RuleNames)(nil).Standalone(clock.Control{})
	if err != nil || r.Repetition != game.PerpetualCheckLoses {
		t.Errorf("none named: %+v, %v", r, err)
	}
	var fe *FieldError
	if _, err := (&RuleNames{Repetition: "ruling"}).Standalone(clock.Control{}); !errors.As(err, &fe) || fe.Rule != "G-6" {
		t.Errorf("the ruling named: %v", err)
	}
}
