package tournament_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/tournament"
)

func ptr[T any](v T) *T { return &v }

// O-1 and T-1: what an organiser's correction or removal may change, and when.
func TestEditAndRemovePlayer_O1(t *testing.T) {
	for _, tc := range []struct {
		name       string
		round      int
		teamMember bool
		edit       tournament.PlayerEdit
		wantCode   string // "" for success; "field" for a FieldError
		wantName   string
		wantRating int
		wantClub   string
	}{
		{"name, rating and club", 0, false, tournament.PlayerEdit{Name: ptr(" Hong Zhi "), Rating: ptr(2600), Club: ptr("Shanghai")}, "", "Hong Zhi", 2600, "Shanghai"},
		{"club cleared", 0, false, tournament.PlayerEdit{Club: ptr("")}, "", "Wang", 2400, ""},
		{"nothing to change", 0, false, tournament.PlayerEdit{}, "field", "", 0, ""},
		{"rating out of range", 0, false, tournament.PlayerEdit{Rating: ptr(4001)}, "field", "", 0, ""},
		{"after round 1", 1, false, tournament.PlayerEdit{Name: ptr("Late")}, tournament.CodeRegistrationFixed, "", 0, ""},
		{"team member's name", 0, true, tournament.PlayerEdit{Name: ptr("Li")}, "", "Li", 2400, "Beijing"},
		{"team member's rating", 0, true, tournament.PlayerEdit{Rating: ptr(2000)}, tournament.CodeTeamMember, "", 0, ""},
		{"team member's rating unchanged", 0, true, tournament.PlayerEdit{Rating: ptr(2400)}, "", "Wang", 2400, "Beijing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := &tournament.Tournament{Round: tc.round, Players: 4}
			p := &tournament.Player{ID: "p1", Number: 1, Name: "Wang", Rating: 2400, Club: "Beijing"}
			before := *p
			err := ev.EditPlayer(p, tc.edit, tc.teamMember)
			var re *tournament.RuleError
			var fe *tournament.FieldError
			switch {
			case tc.wantCode == "":
				if err != nil {
					t.Fatalf("got %v, want success", err)
				}
				if p.Name != tc.wantName || p.Rating != tc.wantRating || p.Club != tc.wantClub {
					t.Fatalf("got %+v, want %s %d %s", p, tc.wantName, tc.wantRating, tc.wantClub)
				}
			case tc.wantCode == "field":
				if !errors.As(err, &fe) || *p != before {
					t.Fatalf("got %v (player %+v), want a FieldError and no change", err, p)
				}
			default:
				if !errors.As(err, &re) || re.Code != tc.wantCode || *p != before {
					t.Fatalf("got %v (player %+v), want %s and no change", err, p, tc.wantCode)
				}
			}
		})
	}

	ev := &tournament.Tournament{Players: 4}
	p := &tournament.Player{ID: "p2", Number: 2}
	if err := ev.RemovePlayer(p, false); err != nil || ev.Entrants() != 3 || ev.Players != 4 {
		t.Fatalf("removal: %v, entrants %d, numbers issued %d", err, ev.Entrants(), ev.Players)
	}
	var re *tournament.RuleError
	if err := ev.RemovePlayer(p, true); !errors.As(err, &re) || re.Code != tournament.CodeTeamMember {
		t.Fatalf("a team member's removal: %v", err)
	}
	ev.Round = 1
	if err := ev.RemovePlayer(p, false); !errors.As(err, &re) || re.Code != tournament.CodeRegistrationFixed || ev.Entrants() != 3 {
		t.Fatalf("removal after round 1: %v", err)
	}
}
