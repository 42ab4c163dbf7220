package service_test

import (
	"errors"
	"testing"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/tournament"
)

// refusal is err's kind and code, or a failure when err is not a refusal.
func refusal(t *testing.T, err error) (command.Kind, string) {
	t.Helper()
	var ce *command.Error
	if !errors.As(err, &ce) {
		t.Fatalf("want a refusal, got %v", err)
	}
	return ce.Kind, ce.Code
}

// E-1 through Exec: an entrant without a token may enter and nothing else;
// a closed event is forbidden; a name and club entered again is a likely
// duplicate unless the entrant says otherwise; a pending entry rejected
// takes its name key with it, so the person may enter again.
func TestEntries_AnyoneEntersOnly(t *testing.T) {
	svc, tid, organiser := newService(t)
	ctx := t.Context()
	if _, err := svc.Exec(ctx, tid, service.Anyone, service.OpenEntries{}); err == nil {
		t.Fatal("an entrant opened the entries")
	} else if k, _ := refusal(t, err); k != command.Forbidden {
		t.Fatalf("an entrant opening the entries: kind %v", k)
	}
	_, err := svc.Exec(ctx, tid, service.Anyone, service.Enter{Name: "Early"})
	if k, code := refusal(t, err); k != command.Forbidden || code != tournament.CodeEntriesClosed {
		t.Fatalf("entry before the opening: %v %s", k, code)
	}
	if _, err := svc.Exec(ctx, tid, organiser, service.OpenEntries{Policy: tournament.EntryPolicy{Approval: true}}); err != nil {
		t.Fatal(err)
	}
	res, err := svc.Exec(ctx, tid, service.Anyone, service.Enter{Name: "Wang Tianyi", Club: "Hangzhou"})
	if err != nil {
		t.Fatal(err)
	}
	e := res.(service.Entered)
	if !e.Pending || e.Token == "" || e.T.Entries.Pending != 1 {
		t.Fatalf("entry on approval: %+v", e)
	}
	_, err = svc.Exec(ctx, tid, service.Anyone, service.Enter{Name: " wang  tianyi ", Club: "HANGZHOU"})
	if k, code := refusal(t, err); k != command.Refused || code != tournament.CodeLikelyDuplicate {
		t.Fatalf("the same person again: %v %s", k, code)
	}
	pending, err := svc.PendingEntries(ctx, tid)
	if err != nil || len(pending) != 1 || pending[0].ID != e.Player.ID {
		t.Fatalf("pending entries: %+v, %v", pending, err)
	}
	res, err = svc.Exec(ctx, tid, organiser, service.RejectEntry{Player: e.Player.ID})
	if err != nil {
		t.Fatal(err)
	}
	if ev := res.(*tournament.Tournament); ev.Entries.Pending != 0 {
		t.Fatalf("rejected, %d still pending", ev.Entries.Pending)
	}
	if _, err := svc.Exec(ctx, tid, service.Anyone, service.Enter{Name: "Wang Tianyi", Club: "Hangzhou"}); err != nil {
		t.Fatalf("entering again after the rejection: %v", err)
	}
	_, err = svc.Exec(ctx, tid, organiser, service.ApproveEntry{Player: e.Player.ID})
	if k, _ := refusal(t, err); k != command.NotFound {
		t.Fatalf("approving the rejected entry: kind %v", k)
	}
}
