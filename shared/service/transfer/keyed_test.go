package transfer_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/transfer"
	"github.com/xqtour/xqtour/shared/service/viewcache"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
	"github.com/xqtour/xqtour/shared/tournament"
)

// source is a stack to build events on, over the API (its request log
// left out of the test's output).
func source(t *testing.T) *apitest.Server {
	return apitest.New(t, httpapi.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
}

// transfers is the transfer service over st, as the API builds it.
func transfers(st *store.Store, opts transfer.Options) *transfer.Service {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	now := func() time.Time { return time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC) }
	svc := service.New(st, now, service.Options{}, nil, log)
	gs := &games.Store{Store: st, Log: log, Own: svc.PairingsGame, Ending: svc.EndingItems, Ended: svc.GameEnded}
	svc.Games = gs
	return transfer.New(svc, st, gs, opts)
}

// organiser is the credential of event tid's organiser.
func organiser(_ context.Context, t *tournament.Tournament) (service.Caller, error) {
	return service.Caller{Scope: t.ID, Role: service.Organiser}, nil
}

// event makes, over the API of s, an event of eight players whose first
// round is played out (every game resigned) and whose second is paired
// and started, its rounds' bodies staged in parts of 200 bytes: an event
// with games in two rounds and split documents to cut pages between. It
// returns the event's id and its organiser's token.
func event(t *testing.T, s *apitest.Server) (tid, token string) {
	t.Helper()
	oldPart, oldRate := store.StagedPart, store.StageRate
	store.StagedPart, store.StageRate = 200, 1e9
	t.Cleanup(func() { store.StagedPart, store.StageRate = oldPart, oldRate })
	var ev struct{ ID, Token string }
	s.Post("/tournaments", "", `{"name":"Keyed Open","rounds":3}`).Want(t, http.StatusCreated).Decode(t, &ev)
	tokens := map[string]string{}
	for _, name := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
		var p struct{ ID, Token string }
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
		tokens[p.ID] = p.Token
	}
	s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"arbiter","name":"Arb"}`).Want(t, http.StatusCreated)
	for n := 1; n <= 2; n++ {
		var round struct {
			Pairings []struct {
				Red    string
				GameID string `json:"gameId"`
			}
		}
		s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
		s.Post("/tournaments/"+ev.ID+"/rounds/"+string(rune('0'+n))+"/start", ev.Token, nil).Want(t, http.StatusOK)
		if n == 2 {
			break
		}
		for _, p := range round.Pairings {
			s.Post("/games/"+p.GameID+"/resign", tokens[p.Red], `{}`).Want(t, http.StatusOK)
		}
	}
	return ev.ID, ev.Token
}

// page is one page of an export as a client reads it.
type page struct {
	head  []byte
	lines [][]byte
	next  string
}

func split(t *testing.T, p *transfer.Page) page {
	t.Helper()
	rows := bytes.Split(bytes.TrimSuffix(p.Body, []byte{'\n'}), []byte{'\n'})
	return page{head: rows[0], lines: rows[1:], next: p.Next}
}

// cursorLink makes a page's next its bare cursor.
func cursorLink(c string) string { return c }

// exportAll follows event tid's export from its first page to its last.
func exportAll(t *testing.T, x *transfer.Service, tid string) []page {
	t.Helper()
	var pages []page
	after := ""
	for len(pages) < 1000 {
		p, err := x.Export(t.Context(), tid, organiser, transfer.Query{After: after, Link: cursorLink})
		if err != nil {
			t.Fatalf("page %d: %v", len(pages)+1, err)
		}
		pages = append(pages, split(t, p))
		if p.Next == "" {
			return pages
		}
		after = p.Next
	}
	t.Fatal("no end to the pages")
	return nil
}

// importAll imports pages into x: the first as an export, the rest as its
// parts; it returns the last answer and error.
func importAll(t *testing.T, x *transfer.Service, pages []page) (*transfer.Imported, error) {
	t.Helper()
	var head transfer.Header
	if err := json.Unmarshal(pages[0].head, &head); err != nil {
		t.Fatal(err)
	}
	got, err := x.Import(t.Context(), head, pages[0].lines, nil)
	token := ""
	if err == nil {
		token = got.Token // the first answer's alone
	}
	for _, p := range pages[1:] {
		if err != nil {
			return got, err
		}
		var ph transfer.PartHeader
		if err := json.Unmarshal(p.head, &ph); err != nil {
			t.Fatal(err)
		}
		got, err = x.ImportPart(t.Context(), ph, p.lines, token, nil)
	}
	return got, err
}

func joined(lines [][]byte) string { return string(bytes.Join(lines, []byte{'\n'})) }

// A big event's export (version 2: here every event, past a threshold of
// one entrant) in many small pages holds exactly version 1's lines, in
// version 1's order, and its last page names their total and version 1's
// snapshot; imported into a fresh stack, part by part, it makes the same
// event, item for item. Every page stays within its budget, and a round
// larger than a page is cut between its parts.
func TestKeyedExportRoundTrip(t *testing.T) {
	src := source(t)
	tid, _ := event(t, src)
	whole, err := transfers(src.Store, transfer.Options{}).Lines(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	const budget = 1024 + 3000
	keyed := transfers(src.Store, transfer.Options{PageBytes: budget, KeyPagedPlayers: 1})
	pages := exportAll(t, keyed, tid)
	if len(pages) < 5 {
		t.Fatalf("%d pages of %d bytes, want many", len(pages), budget)
	}
	var got [][]byte
	cut := false
	for i, p := range pages {
		got = append(got, p.lines...)
		size := 0
		for _, l := range p.lines {
			size += len(l) + 1
		}
		if size > budget-1024 {
			t.Errorf("page %d holds %d bytes, over %d", i+1, size, budget-1024)
		}
		if i > 0 && bytes.Contains(p.lines[0], []byte(`"S":"R#`)) && bytes.Contains(p.lines[0], []byte(`#~part`)) {
			cut = true
		}
	}
	if joined(got) != joined(whole) {
		t.Fatalf("the pages' %d lines are not version 1's %d, in order", len(got), len(whole))
	}
	if !cut {
		t.Error("no page begins inside a round: the test cuts no split document")
	}
	var first transfer.Header
	var last transfer.PartHeader
	if err := json.Unmarshal(pages[0].head, &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(pages[len(pages)-1].head, &last); err != nil {
		t.Fatal(err)
	}
	if first.Version != 2 || first.Items != 0 || first.Snapshot != "" || first.Total != 0 || first.PartItems != len(pages[0].lines) {
		t.Errorf("first header %s", pages[0].head)
	}
	if last.Version != 2 || last.Total != len(whole) || last.Snapshot != transfer.Snapshot(whole) || last.Next != "" {
		t.Errorf("last header %s, want total %d and snapshot %s", pages[len(pages)-1].head, len(whole), transfer.Snapshot(whole))
	}

	dst, _ := storetest.New(t)
	dst.StampWrites(viewcache.Stamp)
	into := transfers(dst, transfer.Options{})
	res, err := importAll(t, into, pages)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != transfer.Made || res.Items != len(whole) {
		t.Fatalf("import answered %+v", res)
	}
	there, err := into.Lines(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	if joined(there) != joined(whole) {
		t.Errorf("the imported event's %d lines are not the source's %d", len(there), len(whole))
	}

	// One page: its first header is its last, naming total and snapshot,
	// and it imports whole.
	one := exportAll(t, transfers(src.Store, transfer.Options{KeyPagedPlayers: 1}), tid)
	var only transfer.Header
	if err := json.Unmarshal(one[0].head, &only); err != nil {
		t.Fatal(err)
	}
	if len(one) != 1 || only.Total != len(whole) || only.Snapshot != transfer.Snapshot(whole) || only.Next != "" {
		t.Fatalf("a one-page export: %d pages, header %s; want %d items, snapshot %s", len(one), one[0].head, len(whole), transfer.Snapshot(whole))
	}
	dst2, _ := storetest.New(t)
	if res, err := importAll(t, transfers(dst2, transfer.Options{}), one); err != nil || res.Outcome != transfer.Made {
		t.Fatalf("a one-page version 2 import: %+v, %v", res, err)
	}
}

// wantCode fails unless err is a refusal of kind with code.
func wantCode(t *testing.T, what string, err error, kind command.Kind, code string) {
	t.Helper()
	var ce *command.Error
	if !errors.As(err, &ce) || ce.Kind != kind || ce.Code != code {
		t.Errorf("%s: %v, want %s", what, err, code)
	}
}

// A page asked for after a write to the event is 409 export_changed, as
// a version 1 page is: the stamp the export began under moved.
func TestKeyedExportRefusesAChangedEvent(t *testing.T) {
	src := source(t)
	tid, org := event(t, src)
	keyed := transfers(src.Store, transfer.Options{PageBytes: 1024 + 3000, KeyPagedPlayers: 1})
	p, err := keyed.Export(t.Context(), tid, organiser, transfer.Query{Link: cursorLink})
	if err != nil || p.Next == "" {
		t.Fatalf("first page: %v, next %q", err, p.Next)
	}
	second, err := keyed.Export(t.Context(), tid, organiser, transfer.Query{After: p.Next, Link: cursorLink})
	if err != nil || second.Next == "" {
		t.Fatalf("second page before any change: %v", err)
	}
	src.Post("/tournaments/"+tid+"/players", org, `{"name":"Late"}`).Want(t, http.StatusCreated)
	_, err = keyed.Export(t.Context(), tid, organiser, transfer.Query{After: second.Next, Link: cursorLink})
	wantCode(t, "a page after a write", err, command.Conflict, "export_changed")
}

// A cursor not made by this event's export is 400 invalid_cursor, and no
// page is read from it: not base64url, not a cursor, of another event's
// export, of no phase, at a game of another event, with a broken digest.
func TestKeyedExportRefusesForeignCursors(t *testing.T) {
	src := source(t)
	tid, _ := event(t, src)
	other, _ := event(t, src)
	keyed := transfers(src.Store, transfer.Options{PageBytes: 1024 + 3000, KeyPagedPlayers: 1})
	pages := exportAll(t, keyed, tid)
	theirs := exportAll(t, keyed, other)
	var cursor, theirGames map[string]any
	decode := func(c string) map[string]any {
		b, err := base64.RawURLEncoding.DecodeString(c)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	cursor = decode(pages[0].next)
	for _, p := range theirs {
		if c := p.next; c != "" && decode(c)["p"] == "G" && decode(c)["a"] != nil {
			theirGames = decode(c)
		}
	}
	if theirGames == nil {
		t.Fatal("the other event's export has no cursor inside its games")
	}
	encode := func(change func(m map[string]any)) string {
		m := map[string]any{}
		for k, v := range cursor {
			m[k] = v
		}
		change(m)
		b, _ := json.Marshal(m)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	for what, after := range map[string]string{
		"not base64url":               "!!" + pages[0].next,
		"not a cursor":                base64.RawURLEncoding.EncodeToString([]byte(`{"x":1}`)),
		"another event's":             theirs[0].next,
		"no such phase":               encode(func(m map[string]any) { m["p"] = "Q" }),
		"another event's game":        encode(func(m map[string]any) { m["p"], m["a"] = "G", theirGames["a"] }),
		"no game id":                  encode(func(m map[string]any) { m["p"], m["a"] = "G", "P#x" }),
		"a broken digest":             encode(func(m map[string]any) { m["h"] = base64.StdEncoding.EncodeToString([]byte("sha")) }),
		"no items before it":          encode(func(m map[string]any) { m["n"] = 0 }),
		"a version 1 cursor gone bad": base64.RawURLEncoding.EncodeToString([]byte("3." + strings.Repeat("0", 63))),
	} {
		p, err := keyed.Export(t.Context(), tid, organiser, transfer.Query{After: after, Link: cursorLink})
		wantCode(t, what, err, command.Invalid, "invalid_cursor")
		if p != nil {
			t.Errorf("%s: a page of %d bytes", what, len(p.Body))
		}
	}
}

// A version 2 import whose last part names a snapshot or total the parts
// do not make is refused (400 invalid_export), the import ended and no
// event made; the export sent again, intact, imports.
func TestKeyedImportChecksTheLastPart(t *testing.T) {
	src := source(t)
	tid, _ := event(t, src)
	pages := exportAll(t, transfers(src.Store, transfer.Options{PageBytes: 1024 + 3000, KeyPagedPlayers: 1}), tid)
	dst, _ := storetest.New(t)
	into := transfers(dst, transfer.Options{})
	lastAt := len(pages) - 1
	var last transfer.PartHeader
	if err := json.Unmarshal(pages[lastAt].head, &last); err != nil {
		t.Fatal(err)
	}
	for what, change := range map[string]func(h *transfer.PartHeader){
		"a wrong snapshot": func(h *transfer.PartHeader) { h.Snapshot = strings.Repeat("0", 64) },
		"a wrong total":    func(h *transfer.PartHeader) { h.Total++ },
		"no snapshot":      func(h *transfer.PartHeader) { h.Snapshot = "" },
		"a part left out":  nil,
	} {
		sent := append([]page(nil), pages...)
		if change != nil {
			h := last
			change(&h)
			b, _ := json.Marshal(h)
			sent[lastAt] = page{head: b, lines: pages[lastAt].lines}
		} else { // the last but one left out, the last's offset moved to follow on
			h := last
			h.Offset -= len(pages[lastAt-1].lines)
			b, _ := json.Marshal(h)
			sent = append(sent[:lastAt-1:lastAt-1], page{head: b, lines: pages[lastAt].lines})
		}
		_, err := importAll(t, into, sent)
		wantCode(t, what, err, command.Invalid, "invalid_export")
		for _, k := range []store.Key{{PK: store.TournamentPK(tid), SK: store.MetaSK}, {PK: store.ImportPK(tid), SK: store.ImportSK}} {
			if _, err := dst.Get(t.Context(), k.PK, k.SK); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: %s/%s after the refusal: %v", what, k.PK, k.SK, err)
			}
		}
	}
	if res, err := importAll(t, into, pages); err != nil || res.Outcome != transfer.Made {
		t.Fatalf("the intact export after the refusals: %+v, %v", res, err)
	}
}
