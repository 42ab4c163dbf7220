package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
	"github.com/xqtour/xqtour/shared/tournament"
)

// posted is one request a test's target was sent.
type posted struct {
	URL   string
	Batch Batch
}

// target stands for the other stack: it records what it is sent and
// answers as answer says (200 by default).
type target struct {
	mu     sync.Mutex
	got    []posted
	answer func(url string) Answer
}

func (t *target) Post(_ context.Context, url, _ string, _ map[string]string, body []byte) (Answer, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := posted{URL: url}
	_ = json.Unmarshal(body, &p.Batch)
	t.got = append(t.got, p)
	if t.answer != nil {
		return t.answer(url), nil
	}
	return Answer{Status: 200, Body: []byte(`{}`)}, nil
}

// newTest is the mirror's service over a fresh embedded store holding
// one event, sending to tg.
func newTest(t *testing.T, tg *target) (*Service, string) {
	t.Helper()
	st, _, _ := storetest.Start(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	now := func() time.Time { return time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC) }
	svc := service.New(st, now, service.Options{}, nil, log)
	tid := service.NewID('t')
	ev, err := tournament.New(tid, tournament.Settings{Name: "Mirror Open", Rounds: 5}, "hash", now().UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(t.Context(), service.EncodeItem(&store.Record{PK: store.TournamentPK(tid), SK: store.MetaSK, Kind: store.KindTournament}, ev)); err != nil {
		t.Fatal(err)
	}
	return New(Config{Store: st, Service: svc, Clock: now, Log: log, Transport: tg}), tid
}

// A target must be the base URL of another server: no credentials, query,
// fragment or link-local address (a cloud's instance metadata).
func TestCheckTarget(t *testing.T) {
	for in, want := range map[string]string{
		"https://xqtour.example.org/":    "https://xqtour.example.org",
		" http://192.168.1.20:3000 ":     "http://192.168.1.20:3000",
		"https://example.org/xqtour/api": "https://example.org/xqtour/api",
	} {
		if got, err := CheckTarget(in); err != nil || got != want {
			t.Errorf("CheckTarget(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ftp://example.org", "https://user:pw@example.org", "https://example.org/?a=1",
		"https://example.org/#x", "http://169.254.169.254/latest", "http://0.0.0.0:3000", "http://[ff02::1]/", "example.org"} {
		var e *command.Error
		if _, err := CheckTarget(in); !errors.As(err, &e) || e.Kind != command.Invalid || e.Code != "invalid_field" {
			t.Errorf("CheckTarget(%q): %v, want invalid_field", in, err)
		}
	}
}

// A change of more items than a batch holds goes in requests of at most
// batchItems items, each naming the last change it covers, only the last
// Final; a key without an item is sent as removed.
func TestSendKeys_BatchBounds(t *testing.T) {
	tg := &target{}
	s, tid := newTest(t, tg)
	m := &Sender{s: s, ctx: t.Context(), runs: map[string]*run{}, games: map[string]string{}}
	var keys []store.Key
	for i := range 130 {
		rec := &store.Record{PK: store.TournamentPK(tid), SK: fmt.Sprintf("P#p%016d", i), Kind: store.KindPlayer, Doc: []byte(`{}`)}
		if err := s.Store.Put(t.Context(), rec); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, store.Key{PK: rec.PK, SK: rec.SK})
	}
	gone := store.Key{PK: store.TournamentPK(tid), SK: "P#gone"}
	keys = append(keys, gone)
	o := &items.Mirror{Target: "http://copy.example", Token: "mirror." + tid + ".x"}
	if err := m.sendKeys(t.Context(), o, tid, 7, keys); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for i, p := range tg.got {
		sizes = append(sizes, len(p.Batch.Items))
		if p.URL != "http://copy.example/tournaments/"+tid+"/mirror/changes" || p.Batch.To != 7 || p.Batch.Final != (i == len(tg.got)-1) {
			t.Errorf("request %d: %s to %d final %v", i, p.URL, p.Batch.To, p.Batch.Final)
		}
	}
	if fmt.Sprint(sizes) != "[60 60 10]" {
		t.Errorf("requests of %v items, want [60 60 10]", sizes)
	}
	if last := tg.got[len(tg.got)-1].Batch.Deleted; len(last) != 1 || last[0] != gone {
		t.Errorf("removed: %v, want %v", last, gone)
	}
}

// A copy that answers mirror_taken_over ends the mirror on the source: the
// event is read-only here from then on (naming where it is written), the
// mirror handed over and its queue dropped.
func TestDrain_TakenOverHandsOver(t *testing.T) {
	tg := &target{answer: func(string) Answer {
		return Answer{Status: 409, Code: "mirror_taken_over", Message: "the copy was taken over"}
	}}
	s, tid := newTest(t, tg)
	ctx := t.Context()
	m := &Sender{s: s, ctx: ctx, runs: map[string]*run{}, games: map[string]string{}}
	s.sender = m
	if err := s.Refusal(ctx, tid); err != nil {
		t.Fatalf("before any mark: %v", err)
	}
	rec := items.Encode(&store.Record{PK: store.MirrorsPK, SK: tid, Kind: store.KindMirrorOut},
		items.Mirror{Target: "http://copy.example", Token: "mirror." + tid + ".x", State: Running})
	if err := s.Store.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	r := &run{tid: tid, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	if err := m.enqueue(r, items.Queued{Keys: []items.Key{{PK: store.TournamentPK(tid), SK: store.MetaSK}}}); err != nil {
		t.Fatal(err)
	}
	if err := m.drain(r); err != nil {
		t.Fatal(err)
	}
	st, err := s.StateOf(ctx, tid)
	if err != nil || st.State != HandedOver || st.Waiting != 0 {
		t.Fatalf("state after the copy's answer: %+v, %v", st, err)
	}
	var e *command.Error
	if err := s.Refusal(ctx, tid); !errors.As(err, &e) || e.Code != "mirror_read_only" || !strings.Contains(e.Message, "http://copy.example") {
		t.Errorf("a write after the handover: %v", err)
	}
}

// The capture turns each commit into one queue item per mirrored event it
// touches: the event's own keys and its games' (known by their link), a
// part by its head, and nothing of an event not mirrored.
func TestCapture_QueuesTheEventsKeys(t *testing.T) {
	s, tid := newTest(t, &target{})
	ctx, cancel := context.WithCancel(t.Context())
	m, err := s.StartSending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); m.Wait() }()
	r, err := m.register(tid, 0)
	if err != nil {
		t.Fatal(err)
	}
	gid := service.NewID('g')
	game := &store.Record{PK: store.GamePK(gid), SK: store.GameSK, Kind: store.KindGame, Doc: linkDoc(t, tid)}
	m.Feed([]store.Change{
		{Key: store.Key{PK: store.TournamentPK(tid), SK: store.RoundSK(1)}},
		{Key: store.Key{PK: store.TournamentPK(tid), SK: store.RoundSK(1) + "#~part001"}},
		{Key: store.Key{PK: store.GamePK(gid), SK: store.GameSK}, New: game},
		{Key: store.Key{PK: store.TournamentPK("tother"), SK: store.MetaSK}},
	})
	var q []*store.Record
	for range 100 {
		if q, err = s.Store.Query(t.Context(), store.MirrorPK(r.tid), store.QueuedPrefix, 0); err != nil || len(q) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(q) != 1 {
		t.Fatalf("%d queue items, want 1", len(q))
	}
	var got items.Queued
	if err := items.Decode(q[0], &got); err != nil {
		t.Fatal(err)
	}
	want := []items.Key{{PK: store.TournamentPK(tid), SK: store.RoundSK(1)}, {PK: store.GamePK(gid), SK: store.GameSK}}
	if fmt.Sprint(got.Keys) != fmt.Sprint(want) || got.Full {
		t.Errorf("queued %+v, want keys %v", got, want)
	}
}

// linkDoc is a game item's document as far as its link: the link's JSON
// after its length, which is all the capture reads of a game.
func linkDoc(t *testing.T, tid string) []byte {
	t.Helper()
	l, _ := json.Marshal(map[string]any{"t": tid, "r": 1, "n": 1})
	return append([]byte{byte(len(l))}, l...)
}
