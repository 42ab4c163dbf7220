package tournament_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/tournament"
)

// E-1: the entry terms are checked when set; entries are refused while
// closed, past the closing time, without a required field and when every
// place is held — pending entries holding one each until approved or
// rejected.
func TestEntries_Policy_E1(t *testing.T) {
	ev, _ := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 1)
	_, _, err := ev.Enter(tournament.Entry{Name: "A"}, 0)
	wantRefusal(t, "never opened", err, tournament.CodeEntriesClosed, "E-1")
	var fe *tournament.FieldError
	if err := ev.OpenEntries(tournament.EntryPolicy{Fields: []string{"email"}}, 0); !errors.As(err, &fe) || fe.Field != "fields[0]" {
		t.Errorf("unknown field: %v", err)
	}
	if err := ev.OpenEntries(tournament.EntryPolicy{ClosesAt: 5}, 10); !errors.As(err, &fe) || fe.Field != "closesAt" {
		t.Errorf("closing in the past: %v", err)
	}
	if err := ev.OpenEntries(tournament.EntryPolicy{Capacity: 3, Approval: true, Fields: []string{"club", "club"}, ClosesAt: 100}, 10); err != nil {
		t.Fatal(err)
	}
	if got := ev.Entries.Fields; len(got) != 1 {
		t.Errorf("fields %v, want club once", got)
	}
	if _, _, err := ev.Enter(tournament.Entry{Name: "No club"}, 20); !errors.As(err, &fe) || fe.Field != "club" {
		t.Errorf("club missing: %v", err)
	}
	for i := range 2 {
		if _, held, err := ev.Enter(tournament.Entry{Name: "Held", Club: "C"}, 20); err != nil || !held {
			t.Fatalf("entry %d: held %v, %v", i, held, err)
		}
	}
	_, _, err = ev.Enter(tournament.Entry{Name: "Fourth", Club: "C"}, 20)
	wantRefusal(t, "one registered and two pending fill three places", err, tournament.CodeEventFull, "E-1")
	if err := ev.Reject(); err != nil {
		t.Fatal(err)
	}
	if _, held, err := ev.Enter(tournament.Entry{Name: "Freed", Club: "C"}, 20); err != nil || !held {
		t.Fatalf("a rejection frees its place: %v", err)
	}
	_, _, err = ev.Enter(tournament.Entry{Name: "Late", Club: "C"}, 100)
	wantRefusal(t, "at the closing time", err, tournament.CodeEntriesClosed, "E-1")
	if err := ev.CloseEntries(); err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, "closing twice", ev.CloseEntries(), tournament.CodeEntriesClosed, "E-1")
	if tournament.DuplicateKey(" Wang  Tianyi", "hangzhou") != tournament.DuplicateKey("wang tianyi", "HANGZHOU ") {
		t.Error("the duplicate key minds case or spacing")
	}
	team := &tournament.Tournament{Settings: tournament.Settings{System: tournament.Swiss, Teams: true}}
	wantRefusal(t, "team event", team.OpenEntries(tournament.EntryPolicy{}, 0), tournament.CodeIndividualEntries, "E-1")
	rr, _ := event(t, tournament.Settings{Name: "x", System: tournament.RoundRobin}, 2)
	rr.Round = 1
	if err := rr.OpenEntries(tournament.EntryPolicy{Approval: true}, 0); err != nil {
		t.Fatal(err)
	}
	_, _, err = rr.Enter(tournament.Entry{Name: "Too late"}, 0)
	wantRefusal(t, "a drawn round robin holds no entry for approval", err, "registration_closed", "S-1")
}

// E-2: check-in is for individual Swiss systems; a round's window is open
// from the previous pairing (or the organiser's time) to its own.
func TestCheckIn_Window_E2(t *testing.T) {
	if _, err := tournament.New("t", tournament.Settings{Name: "x", System: tournament.RoundRobin, CheckIn: true}, "", 0); err == nil {
		t.Error("a round robin took check-in")
	}
	ev, ps := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 3, CheckIn: true}, 2)
	wantRefusal(t, "round 2 before round 1 is paired", ev.CheckIn(ps[0], 2, 0), tournament.CodeCheckInNotOpen, "E-2")
	at := int64(50)
	if err := ev.ConfigureCheckIn(nil, &at, 0); err != nil {
		t.Fatal(err)
	}
	wantRefusal(t, "before the organiser's time", ev.CheckIn(ps[0], 1, 49), tournament.CodeCheckInNotOpen, "E-2")
	if err := ev.CheckIn(ps[0], 1, 50); err != nil || !ev.CheckedIn(ps[0], 1) || ev.CheckedIn(ps[1], 1) {
		t.Fatalf("check-in at the time: %v", err)
	}
	ps[1].Status = tournament.Paused
	wantRefusal(t, "a paused player", ev.CheckIn(ps[1], 1, 50), tournament.CodeCheckInNotActive, "E-2")
	ev.Round = 1
	wantRefusal(t, "round 1 once paired", ev.CheckIn(ps[0], 1, 60), tournament.CodeCheckInClosed, "E-2")
	if err := ev.CheckIn(ps[0], 2, 0); err != nil {
		t.Errorf("round 2 opens at round 1's pairing, the organiser's time was for round 1: %v", err)
	}
	off := false
	wantRefusal(t, "turning it off after round 1", ev.ConfigureCheckIn(&off, nil, 0), tournament.CodeCheckInFixed, "E-2")
	ev.Round = 3
	wantRefusal(t, "past the last round", ev.CheckIn(ps[0], 4, 0), tournament.CodeEventComplete, "E-2")
}

// E-1: entries sharing a name and club, case and spacing aside, flag each
// other as likely the same person; the free places count the capacity
// less the registered players and the pending entries.
func TestEntries_DuplicatesAndFreePlaces_E1(t *testing.T) {
	d := tournament.Duplicates([]string{"Li Wei", "li  wei", "Li Wei", "Zhang"}, []string{"Club", "club", "Other", "Club"})
	if len(d) != 4 || len(d[0]) != 1 || d[0][0] != 1 || len(d[1]) != 1 || d[1][0] != 0 || d[2] != nil || d[3] != nil {
		t.Errorf("Duplicates = %v, want [[1] [0] [] []]", d)
	}
	ev, _ := event(t, tournament.Settings{Name: "x", System: tournament.Swiss, Rounds: 5}, 1)
	if got, want := ev.FreePlaces(), tournament.MaxPlayers-ev.Entrants(); got != want {
		t.Errorf("FreePlaces without terms = %d, want %d", got, want)
	}
	if err := ev.OpenEntries(tournament.EntryPolicy{Capacity: ev.Entrants() + 2, Approval: true}, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ev.Enter(tournament.Entry{Name: "A"}, 0); err != nil {
		t.Fatal(err)
	}
	if got := ev.FreePlaces(); got != 1 {
		t.Errorf("FreePlaces with one pending of two = %d, want 1", got)
	}
}
