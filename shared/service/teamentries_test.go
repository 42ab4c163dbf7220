package service_test

import (
	"slices"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
)

// The players' list (P-3) is in the numbers the event shows: the entry
// numbers before round 1, a removed registration's left unused, then the
// numbers drawn for round 1 of a Swiss, 1…n without gaps.
func TestPlayersByNumber(t *testing.T) {
	svc, tid, organiser := newService(t)
	ctx := t.Context()
	ids := map[string]string{}
	for i, name := range []string{"Wang", "Li", "Zhao", "Chen", "Sun"} {
		res, err := svc.Exec(ctx, tid, organiser, service.RegisterPlayer{Name: name, Rating: 1500 + 100*i})
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = res.(service.Registered).Player.ID
	}
	if _, err := svc.Exec(ctx, tid, organiser, service.RemovePlayer{Player: ids["Li"]}); err != nil {
		t.Fatal(err)
	}
	players, number, err := svc.PlayersByNumber(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var numbers []int
	for _, p := range players {
		names, numbers = append(names, p.Name), append(numbers, number[p.ID])
	}
	if !slices.Equal(names, []string{"Wang", "Zhao", "Chen", "Sun"}) || !slices.Equal(numbers, []int{1, 3, 4, 5}) {
		t.Errorf("before round 1: %v numbered %v, want the entry order and numbers, 2 unused", names, numbers)
	}

	one := 1
	if _, err := svc.Exec(ctx, tid, organiser, service.PairRound{Round: &one}); err != nil {
		t.Fatal(err)
	}
	players, number, err = svc.PlayersByNumber(ctx, tid)
	if err != nil || len(players) != 4 {
		t.Fatalf("after round 1: %d players, %v", len(players), err)
	}
	for i, p := range players {
		if number[p.ID] != i+1 {
			t.Errorf("after round 1, row %d is %s numbered %d, want the drawn numbers 1…4 in order", i+1, p.Name, number[p.ID])
		}
	}
}

// The organiser's list of officials (O-1) is by role, then name, then id.
func TestOfficialsByRole(t *testing.T) {
	svc, tid, organiser := newService(t)
	ctx := t.Context()
	var li []string // the two arbiters named Li, to be listed by id
	for _, o := range []struct{ role, name string }{
		{service.Scribe, "Wu"}, {service.Arbiter, "Zhang"}, {service.ChiefArbiter, "Chief"},
		{service.Arbiter, "Li"}, {service.Arbiter, "Li"},
	} {
		res, err := svc.Exec(ctx, tid, organiser, service.AddOfficial{Role: o.role, Name: o.name})
		if err != nil {
			t.Fatal(err)
		}
		if o.name == "Li" {
			li = append(li, res.(service.Appointed).Official.ID)
		}
	}
	slices.Sort(li)
	officials, err := svc.OfficialsByRole(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range officials {
		got = append(got, o.Role+" "+o.Name)
	}
	want := []string{"arbiter Li", "arbiter Li", "arbiter Zhang", service.ChiefArbiter + " Chief", "scribe Wu"}
	if !slices.Equal(got, want) || officials[0].ID != li[0] || officials[1].ID != li[1] {
		t.Errorf("officials %v (first %s, %s), want %v, the two named Li by id (%v)", got, officials[0].ID, officials[1].ID, want, li)
	}
}
