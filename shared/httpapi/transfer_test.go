package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

var ndjson = map[string]string{"Content-Type": "application/x-ndjson"}

func export(t *testing.T, s *apitest.Server, tid, token string) []byte {
	t.Helper()
	r := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + tid + "/export", Token: token}).Want(t, http.StatusOK)
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-ndjson") {
		t.Fatalf("export content type %q", r.Header.Get("Content-Type"))
	}
	return r.Body
}

func importEvent(s *apitest.Server, body []byte) *apitest.Resp {
	return s.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: body, Header: ndjson})
}

// An event exported from one stack and imported into another is the same
// event there: its pages read the same, and every token of it (organiser,
// players, officials) works, since the export carries their hashes.
func TestExportImportRoundTrip(t *testing.T) {
	src, dst := apitest.New(t), apitest.New(t)
	f := newFixture(t, src)
	src.Post("/games/"+f.gid+"/resign", f.ptoken, `{}`).Want(t, http.StatusOK)

	body := export(t, src, f.tid, f.org)
	lines := bytes.Split(bytes.TrimSpace(body), []byte("\n"))
	if len(lines) < 1+1+4+2+1+2 { // header, META, players, officials, round, games
		t.Fatalf("export has %d lines:\n%s", len(lines), body)
	}
	if bytes.Contains(body, []byte(f.org)) || bytes.Contains(body, []byte(f.ptoken)) {
		t.Fatal("the export holds a token, not only its hash")
	}
	var out struct {
		TournamentID string `json:"tournamentId"`
		Items, Games int
	}
	importEvent(dst, body).Want(t, http.StatusCreated).Decode(t, &out)
	if out.TournamentID != f.tid || out.Items != len(lines)-1 || out.Games != 2 {
		t.Fatalf("import answered %+v for %d items", out, len(lines)-1)
	}
	for _, path := range []string{"/tournaments/" + f.tid, "/tournaments/" + f.tid + "/players", "/tournaments/" + f.tid + "/rounds/1",
		"/tournaments/" + f.tid + "/standings", "/games/" + f.gid, "/games/" + f.gid + "/record"} {
		a, b := src.Get(path).Want(t, http.StatusOK), dst.Get(path).Want(t, http.StatusOK)
		if !bytes.Equal(a.Body, b.Body) {
			t.Errorf("%s differs after the round trip:\n%s\n%s", path, a.Body, b.Body)
		}
	}
	// Tokens stay valid: the organiser registers, the arbiter rules, on the new stack.
	dst.Post("/tournaments/"+f.tid+"/players", f.org, `{"name":"Late"}`).Want(t, http.StatusCreated)
	dst.Post("/games/"+f.gid+"/result", f.arb, `{"result":"1-0","reason":"arbiter"}`)
	// The same export again changes nothing.
	before := export(t, dst, f.tid, f.org)
	if r := importEvent(dst, body); r.Status != http.StatusConflict || r.ErrorCode() != "already_exists" {
		t.Fatalf("second import: %d %s", r.Status, r.Body)
	}
	if after := export(t, dst, f.tid, f.org); !bytes.Equal(exportItems(before), exportItems(after)) {
		t.Fatal("a refused import changed the event")
	}
}

// exportItems drops the header, whose exportedAt is the time of the export.
func exportItems(b []byte) []byte { return b[bytes.IndexByte(b, '\n')+1:] }

// Only the organiser exports.
func TestExportIsTheOrganisers(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	for token, status := range map[string]int{"": http.StatusUnauthorized, f.ptoken: http.StatusForbidden, f.arb: http.StatusForbidden} {
		if r := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/export", Token: token}); r.Status != status {
			t.Errorf("token %q: %d %s, want %d", token, r.Status, r.Body, status)
		}
	}
	s.Do(apitest.Req{Method: "GET", Path: "/tournaments/tnosuchevent23456/export", Token: f.org}).Want(t, http.StatusNotFound)
}

// A truncated or foreign export is refused with 400 and writes nothing.
func TestImportRefusesBadExports(t *testing.T) {
	src, dst := apitest.New(t), apitest.New(t)
	f := newFixture(t, src)
	body := bytes.TrimSpace(export(t, src, f.tid, f.org))
	lines := bytes.Split(body, []byte("\n"))
	withItems := func(items ...[]byte) []byte { // a header announcing exactly these items
		var head map[string]any
		if err := json.Unmarshal(lines[0], &head); err != nil {
			t.Fatal(err)
		}
		head["items"] = len(items)
		h, _ := json.Marshal(head)
		return bytes.Join(append([][]byte{h}, items...), []byte("\n"))
	}
	foreign := []byte(`{"PK":{"S":"I#x"},"SK":{"S":"IDEM"},"kind":{"S":"idempotency"},"ver":{"N":"1"}}`)
	for name, c := range map[string]struct {
		body []byte
		want string
	}{
		"truncated":   {bytes.Join(lines[:len(lines)-1], []byte("\n")), "incomplete"},
		"no header":   {bytes.Join(lines[1:], []byte("\n")), "export header"},
		"bad item":    {withItems(append(lines[1:], []byte(`{"PK":{"S":"T#x"},"SK":{"X":"1"}}`))...), "type S, N or B"},
		"not its own": {withItems(append(lines[1:], foreign)...), "does not belong"},
		"no META":     {withItems(lines[2:]...), "no tournament item"},
	} {
		r := dst.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: c.body, Header: ndjson, Invalid: true})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), c.want) {
			t.Errorf("%s: %d %s, want 400 saying %q", name, r.Status, r.Body, c.want)
		}
	}
	if n := tableItems(t, dst.Store); n != 0 {
		t.Fatalf("refused imports left %d items", n)
	}
}

// An import that fails part-way (the store fails as the tournament item, the
// last, is written) leaves no trace, and the same export sent again completes.
func TestFailedImportLeavesNothingAndCanBeRetried(t *testing.T) {
	src, dst := apitest.New(t), apitest.New(t)
	f := newFixture(t, src)
	body := export(t, src, f.tid, f.org)
	var fail atomic.Bool
	fail.Store(true)
	dst.DB.Intercept(func(op string, req []byte) embedded.Fault {
		if op == "TransactWriteItems" && bytes.Contains(req, []byte(`"META"`)) && fail.Load() {
			return embedded.Unavailable
		}
		return embedded.Serve
	})
	if r := importEvent(dst, body); r.Status != http.StatusServiceUnavailable {
		t.Fatalf("failing import: %d %s", r.Status, r.Body)
	}
	if n := tableItems(t, dst.Store); n != 0 {
		t.Fatalf("a failed import left %d items", n)
	}
	dst.Get("/tournaments/"+f.tid).Want(t, http.StatusNotFound)
	fail.Store(false)
	importEvent(dst, body).Want(t, http.StatusCreated)
	dst.Get("/tournaments/"+f.tid).Want(t, http.StatusOK)
}
