package service_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A table read while round 1 is in play is the table before it by default,
// round 1 with Live or when named, and a round not paired is not found;
// before round 1 every entrant is level. A Swiss has no final places.
func TestTables_RoundAsked(t *testing.T) {
	svc, tid, organiser := newService(t)
	for i := range 4 {
		if _, err := svc.Exec(t.Context(), tid, organiser, service.RegisterPlayer{Name: fmt.Sprintf("P%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Exec(t.Context(), tid, organiser, service.PairRound{}); err != nil {
		t.Fatal(err)
	}
	ev, err := svc.Load(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	now := int64(1) << 50 // long after the pairing, with no result in: round 1 is not complete
	for _, tc := range []struct {
		name       string
		q          service.TableQuery
		round      int
		live, gone bool
	}{
		{"default", service.TableQuery{}, 0, false, false},
		{"live", service.TableQuery{Live: true}, 1, true, false},
		{"round 1", service.TableQuery{Round: 1}, 1, true, false},
		{"round 2", service.TableQuery{Round: 2, Live: true}, 0, false, true},
	} {
		tb, err := ev.Tables(tc.q, now)
		var ce *command.Error
		if tc.gone {
			if !errors.As(err, &ce) || ce.Kind != command.NotFound {
				t.Errorf("%s: %v, want not found", tc.name, err)
			}
			continue
		}
		if err != nil || tb.Round != tc.round || tb.Live != tc.live {
			t.Errorf("%s: %+v, %v; want round %d, live %v", tc.name, tb, err, tc.round, tc.live)
		}
	}
	tb, err := ev.Tables(service.TableQuery{}, now)
	if err != nil {
		t.Fatal(err)
	}
	table, err := tb.Players()
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Rows) != 4 {
		t.Fatalf("%d rows, want the 4 players", len(table.Rows))
	}
	for _, r := range table.Rows {
		if r.Points != 0 || r.Games != 0 || r.Rank != 1 {
			t.Errorf("before round 1: %+v, want every player level on nothing", r)
		}
	}
	var re *tournament.RuleError
	if _, err := ev.Places(); !errors.As(err, &re) || re.Code != "no_overall_places" {
		t.Errorf("a Swiss's final places: %v, want no_overall_places", err)
	}
}
