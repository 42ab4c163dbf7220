package httpapi_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// pageBytes is the export page of these tests: a few items a page, so the
// four-player fixture pages as a 10,000-player event does at 4 MiB.
const pageBytes = 3000

// exportPages follows an export's next links from its first page.
func exportPages(t *testing.T, s *apitest.Server, tid, token, query string) [][]byte {
	t.Helper()
	var pages [][]byte
	path := "/tournaments/" + tid + "/export" + query
	for path != "" && len(pages) < 100 {
		r := s.Do(apitest.Req{Method: "GET", Path: path, Token: token}).Want(t, http.StatusOK)
		pages = append(pages, r.Body)
		var head struct{ Next string }
		if err := json.Unmarshal(r.Body[:bytes.IndexByte(r.Body, '\n')], &head); err != nil {
			t.Fatal(err)
		}
		link := r.Header.Get("Link")
		if head.Next == "" && link != "" || head.Next != "" && link != "<"+head.Next+`>; rel="next"` {
			t.Fatalf("page %d: Link %q, header next %q", len(pages), link, head.Next)
		}
		path = head.Next
	}
	return pages
}

func importPart(s *apitest.Server, body []byte, token string) *apitest.Resp {
	return s.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: body, Header: ndjson, Token: token})
}

// An event whose export needs several pages goes across page by page: each
// page stays within the page size, the first begins an import that the
// others continue with its token, and only the last makes the event appear —
// the same event as the one exported.
func TestPagedExportImportRoundTrip(t *testing.T) {
	src := apitest.New(t, httpapi.WithExportPageBytes(pageBytes))
	dst := apitest.New(t)
	f := newFixture(t, src)
	src.Post("/games/"+f.gid+"/resign", f.ptoken, `{}`).Want(t, http.StatusOK)

	pages := exportPages(t, src, f.tid, f.org, "")
	if len(pages) < 3 {
		t.Fatalf("an export of %d pages; want several at %d bytes a page", len(pages), pageBytes)
	}
	var head struct {
		Items, PartItems int
		Snapshot         string
	}
	if err := json.Unmarshal(pages[0][:bytes.IndexByte(pages[0], '\n')], &head); err != nil {
		t.Fatal(err)
	}
	items := 0
	for i, p := range pages {
		if len(p) > pageBytes {
			t.Errorf("page %d is %d bytes, over %d", i+1, len(p), pageBytes)
		}
		items += bytes.Count(p, []byte("\n")) - 1
	}
	if items != head.Items || head.PartItems < 1 || len(head.Snapshot) != 64 {
		t.Fatalf("pages hold %d items; the first header says %+v", items, head)
	}
	var begun struct {
		TournamentID string `json:"tournamentId"`
		Items, Total int
		Next         string
		ImportToken  string `json:"importToken"`
	}
	importEvent(dst, pages[0]).Want(t, http.StatusAccepted).Decode(t, &begun)
	if begun.TournamentID != f.tid || begun.Total != head.Items || begun.Items != head.PartItems || begun.ImportToken == "" || begun.Next != "/tournaments/import" {
		t.Fatalf("first page answered %+v", begun)
	}
	for i, p := range pages[1:] {
		dst.Get("/tournaments/"+f.tid).Want(t, http.StatusNotFound) // not until the last part is in
		want := http.StatusAccepted
		if i == len(pages)-2 {
			want = http.StatusCreated
		}
		importPart(dst, p, begun.ImportToken).Want(t, want)
	}
	for _, path := range []string{"/tournaments/" + f.tid, "/tournaments/" + f.tid + "/players", "/tournaments/" + f.tid + "/rounds/1",
		"/tournaments/" + f.tid + "/standings", "/games/" + f.gid, "/games/" + f.gid + "/record"} {
		a, b := src.Get(path).Want(t, http.StatusOK), dst.Get(path).Want(t, http.StatusOK)
		if !bytes.Equal(a.Body, b.Body) {
			t.Errorf("%s differs after the round trip:\n%s\n%s", path, a.Body, b.Body)
		}
	}
	dst.Post("/tournaments/"+f.tid+"/players", f.org, `{"name":"Late"}`).Want(t, http.StatusCreated) // tokens work
}

// A small event's export is one page in the unpaged format: no snapshot,
// no next, no Link — what exports were before pages.
func TestSmallExportIsOnePage(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	r := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/export", Token: f.org}).Want(t, http.StatusOK)
	var head map[string]any
	if err := json.Unmarshal(r.Body[:bytes.IndexByte(r.Body, '\n')], &head); err != nil {
		t.Fatal(err)
	}
	if len(head) != 5 || r.Header.Get("Link") != "" {
		t.Fatalf("one-page export: header %v, Link %q", head, r.Header.Get("Link"))
	}
	// ?limit= pages it all the same, items a page.
	if pages := exportPages(t, s, f.tid, f.org, "?limit=4"); len(pages) != (int(head["items"].(float64))+3)/4 {
		t.Fatalf("%d pages of 4 items for %v items", len(pages), head["items"])
	}
}

// Each part of an import is idempotent: sent again it is acknowledged (200)
// and changes nothing; a part sent too early is 409 out_of_order, a part of
// another export of the event 409 foreign_part, a part without the import's
// token 401 and with another token 403 — none of them changing anything.
func TestImportPartsInOrderOnce(t *testing.T) {
	src := apitest.New(t, httpapi.WithExportPageBytes(pageBytes))
	dst := apitest.New(t)
	f := newFixture(t, src)
	pages := exportPages(t, src, f.tid, f.org, "")
	if len(pages) < 3 {
		t.Fatalf("%d pages", len(pages))
	}
	var begun struct {
		ImportToken string `json:"importToken"`
	}
	importEvent(dst, pages[0]).Want(t, http.StatusAccepted).Decode(t, &begun)
	if r := importEvent(dst, pages[0]); r.Status != http.StatusConflict || r.ErrorCode() != "import_in_progress" {
		t.Fatalf("first page again: %d %s", r.Status, r.Body)
	}
	importPart(dst, pages[1], begun.ImportToken).Want(t, http.StatusAccepted)
	before := tableItems(t, dst.Store)

	if r := importPart(dst, pages[1], begun.ImportToken); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"next":"/tournaments/import"`) {
		t.Fatalf("part 2 again: %d %s", r.Status, r.Body)
	}
	if len(pages) > 3 {
		if r := importPart(dst, pages[3], begun.ImportToken); r.Status != http.StatusConflict || r.ErrorCode() != "out_of_order" {
			t.Fatalf("part 4 before part 3: %d %s", r.Status, r.Body)
		}
	}
	src.Post("/tournaments/"+f.tid+"/players", f.org, `{"name":"Late"}`).Want(t, http.StatusCreated)
	changed := exportPages(t, src, f.tid, f.org, "")
	if r := importPart(dst, changed[2], begun.ImportToken); r.Status != http.StatusConflict || r.ErrorCode() != "foreign_part" {
		t.Fatalf("a part of another export: %d %s", r.Status, r.Body)
	}
	if r := dst.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: pages[2], Header: ndjson, Invalid: true}); r.Status != http.StatusUnauthorized {
		t.Fatalf("a part without a token: %d %s", r.Status, r.Body)
	}
	forged := begun.ImportToken[:len(begun.ImportToken)-4] + "aaaa"
	if r := importPart(dst, pages[2], forged); r.Status != http.StatusForbidden {
		t.Fatalf("a part with another token: %d %s", r.Status, r.Body)
	}
	if after := tableItems(t, dst.Store); after != before {
		t.Fatalf("refused and repeated parts changed the table: %d items, then %d", before, after)
	}
	for _, p := range pages[2:] {
		importPart(dst, p, begun.ImportToken)
	}
	dst.Get("/tournaments/"+f.tid).Want(t, http.StatusOK)
	// The last part again: acknowledged, the event as it was.
	if r := importPart(dst, pages[len(pages)-1], begun.ImportToken); r.Status != http.StatusOK || strings.Contains(string(r.Body), `"next"`) {
		t.Fatalf("last part again: %d %s", r.Status, r.Body)
	}
}

// A page asked for after the event changed is 409 export_changed: the pages
// of one export are all of one state of the event.
func TestExportPagesAreOneSnapshot(t *testing.T) {
	s := apitest.New(t, httpapi.WithExportPageBytes(pageBytes))
	f := newFixture(t, s)
	first := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/export", Token: f.org}).Want(t, http.StatusOK)
	next := strings.TrimSuffix(strings.TrimPrefix(first.Header.Get("Link"), "<"), `>; rel="next"`)
	if next == "" {
		t.Fatal("no next page")
	}
	s.Post("/tournaments/"+f.tid+"/players", f.org, `{"name":"Late"}`).Want(t, http.StatusCreated)
	if r := s.Do(apitest.Req{Method: "GET", Path: next, Token: f.org}); r.Status != http.StatusConflict || r.ErrorCode() != "export_changed" {
		t.Fatalf("a page after a change: %d %s", r.Status, r.Body)
	}
	if r := s.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/export?after=nonsense", Token: f.org}); r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_cursor" {
		t.Fatalf("a bad cursor: %d %s", r.Status, r.Body)
	}
}

// A part whose items were altered (its header intact) is refused when the
// last part shows the digest of the parts is not the export's snapshot, and
// the event never appears.
func TestImportOfAlteredPartsNeverAppears(t *testing.T) {
	src := apitest.New(t, httpapi.WithExportPageBytes(pageBytes))
	dst := apitest.New(t)
	f := newFixture(t, src)
	pages := exportPages(t, src, f.tid, f.org, "")
	var begun struct {
		ImportToken string `json:"importToken"`
	}
	importEvent(dst, pages[0]).Want(t, http.StatusAccepted).Decode(t, &begun)
	lines := bytes.Split(bytes.TrimSpace(pages[1]), []byte("\n"))
	lines = append(lines[:1], lines[2:]...)    // drop an item…
	lines = append(lines, lines[len(lines)-1]) // …and repeat another in its place
	importPart(dst, bytes.Join(lines, []byte("\n")), begun.ImportToken).Want(t, http.StatusAccepted)
	var last *apitest.Resp
	for _, p := range pages[2:] {
		last = dst.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: p, Header: ndjson, Token: begun.ImportToken, Invalid: true})
	}
	if last.Status != http.StatusBadRequest || !strings.Contains(string(last.Body), "snapshot") {
		t.Fatalf("last part of altered parts: %d %s", last.Status, last.Body)
	}
	dst.Get("/tournaments/"+f.tid).Want(t, http.StatusNotFound)
}

// A big event's export (version 2, here past a threshold of one entrant)
// reads each page's own items: its first header names no total or
// snapshot, its parts follow on by offset, and only the last names the
// total and the snapshot of every item of every page. Its pages import in
// parts as version 1's do, and the event there is the one exported; a page
// asked for after the event changed is 409 export_changed, and a cursor of
// nothing is 400 invalid_cursor.
func TestKeyPagedExportImportRoundTrip(t *testing.T) {
	src := apitest.New(t, httpapi.WithExportPageBytes(pageBytes), httpapi.WithExportKeyPagedPlayers(1))
	dst := apitest.New(t)
	f := newFixture(t, src)
	src.Post("/games/"+f.gid+"/resign", f.ptoken, `{}`).Want(t, http.StatusOK)

	pages := exportPages(t, src, f.tid, f.org, "")
	if len(pages) < 3 {
		t.Fatalf("an export of %d pages; want several at %d bytes a page", len(pages), pageBytes)
	}
	var first map[string]any
	if err := json.Unmarshal(pages[0][:bytes.IndexByte(pages[0], '\n')], &first); err != nil {
		t.Fatal(err)
	}
	if first["version"] != 2.0 || first["items"] != nil || first["snapshot"] != nil || first["total"] != nil || first["partItems"] == nil {
		t.Fatalf("first page's header %v", first)
	}
	items := 0
	var body []byte // every item line, in order
	for i, p := range pages {
		if len(p) > pageBytes {
			t.Errorf("page %d is %d bytes, over %d", i+1, len(p), pageBytes)
		}
		nl := bytes.IndexByte(p, '\n')
		body = append(body, p[nl+1:]...)
		if i == 0 {
			items += bytes.Count(p, []byte("\n")) - 1
			continue
		}
		var h struct {
			Format          string
			Version, Offset int
			Items, Total    int
			Snapshot, Next  string
		}
		if err := json.Unmarshal(p[:nl], &h); err != nil {
			t.Fatal(err)
		}
		last := i == len(pages)-1
		if h.Format != "xqtour-event-part" || h.Version != 2 || h.Offset != items || h.Items != bytes.Count(p, []byte("\n"))-1 ||
			last != (h.Total > 0) || last != (h.Snapshot != "") {
			t.Errorf("page %d's header %s", i+1, p[:nl])
		}
		items += h.Items
		if last {
			sum := sha256.Sum256(body)
			if h.Total != items || h.Snapshot != hex.EncodeToString(sum[:]) {
				t.Errorf("last page names %d items, snapshot %s; the pages hold %d, digest %x", h.Total, h.Snapshot, items, sum)
			}
		}
	}
	var begun struct {
		ImportToken string `json:"importToken"`
		Total       int
	}
	importEvent(dst, pages[0]).Want(t, http.StatusAccepted).Decode(t, &begun)
	if begun.ImportToken == "" || begun.Total != 0 {
		t.Fatalf("first page answered %+v", begun)
	}
	for i, p := range pages[1:] {
		dst.Get("/tournaments/"+f.tid).Want(t, http.StatusNotFound) // not until the last part is in
		want := http.StatusAccepted
		if i == len(pages)-2 {
			want = http.StatusCreated
		}
		importPart(dst, p, begun.ImportToken).Want(t, want)
	}
	for _, path := range []string{"/tournaments/" + f.tid, "/tournaments/" + f.tid + "/players", "/tournaments/" + f.tid + "/rounds/1",
		"/tournaments/" + f.tid + "/standings", "/games/" + f.gid, "/games/" + f.gid + "/record"} {
		a, b := src.Get(path).Want(t, http.StatusOK), dst.Get(path).Want(t, http.StatusOK)
		if !bytes.Equal(a.Body, b.Body) {
			t.Errorf("%s differs after the round trip:\n%s\n%s", path, a.Body, b.Body)
		}
	}

	again := src.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/export", Token: f.org}).Want(t, http.StatusOK)
	next := strings.TrimSuffix(strings.TrimPrefix(again.Header.Get("Link"), "<"), `>; rel="next"`)
	src.Post("/tournaments/"+f.tid+"/players", f.org, `{"name":"Late"}`).Want(t, http.StatusCreated)
	if r := src.Do(apitest.Req{Method: "GET", Path: next, Token: f.org}); r.Status != http.StatusConflict || r.ErrorCode() != "export_changed" {
		t.Fatalf("a page after a change: %d %s", r.Status, r.Body)
	}
	if r := src.Do(apitest.Req{Method: "GET", Path: "/tournaments/" + f.tid + "/export?after=eyJ0IjoxfQ", Token: f.org}); r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_cursor" {
		t.Fatalf("a malformed cursor: %d %s", r.Status, r.Body)
	}
}
