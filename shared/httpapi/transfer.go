package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// An event export is JSON lines: a header, then every item of the event as
// the table holds it, in DynamoDB JSON — the tournament's partition (META,
// players, officials, rounds, results, teams, lineups) and the item of every
// game its rounds paired. Versions and token hashes travel as they are, so
// every token of the event works on the stack it is imported into, and no
// token (only its hash) is ever in the file.

// exportFormat names the header's format; partFormat names the header of
// every page of a paged export after the first.
const (
	exportFormat = "xqtour-event"
	partFormat   = "xqtour-event-part"
)

// MaxEventImportBody is the body limit of POST /tournaments/import: an
// export of a large event is well over MaxBody. (Behind API Gateway the HTTP
// API's own 10 MB payload limit, and Lambda's 6 MB request, apply first: an
// event larger than one export page goes in parts.)
const MaxEventImportBody = 32 << 20

// ExportPageBytes is the most one page of GET /tournaments/{tid}/export
// holds, counted as Lambda encodes the response (the body JSON-escaped):
// 4 MiB, well inside Lambda's 6 MB with room for the header line and the
// response's headers. A larger event is exported in pages.
const ExportPageBytes = 4 << 20

// importTTL is how long a multi-part import's state is kept: an import not
// finished by then is abandoned (its items stay invisible, the event never
// being found) and may be begun again.
const importTTL = 24 * time.Hour

// WithExportPageBytes sets the most one export page holds (ExportPageBytes
// by default), so a test can page a small event.
func WithExportPageBytes(n int) Option { return func(a *API) { a.exportPage = n } }

func (a *API) exportPageBytes() int {
	if a.exportPage > 0 {
		return a.exportPage
	}
	return ExportPageBytes
}

// exportHeader is the first line of an export. A paged export's first page
// adds the snapshot (a digest of every item of the whole export), how many
// items this page holds, and the next page's request.
type exportHeader struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	TournamentID string `json:"tournamentId"`
	ExportedAt   string `json:"exportedAt"`
	Items        int    `json:"items"`
	Snapshot     string `json:"snapshot,omitempty"`
	PartItems    int    `json:"partItems,omitempty"`
	Next         string `json:"next,omitempty"`
}

// partHeader is the first line of a paged export's later pages: which
// export (snapshot) they belong to and where their items start.
type partHeader struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	TournamentID string `json:"tournamentId"`
	Snapshot     string `json:"snapshot"`
	Offset       int    `json:"offset"`
	Items        int    `json:"items"`
	Total        int    `json:"total"`
	Next         string `json:"next,omitempty"`
}

type importOut struct {
	TournamentID string `json:"tournamentId"`
	Items        int    `json:"items"`
	Games        int    `json:"games"`
	// A multi-part import's answers add how many items the whole export
	// has, where to send the next part, and (first part only) the token
	// that authorises the parts.
	Total       int    `json:"total,omitempty"`
	Next        string `json:"next,omitempty"`
	ImportToken string `json:"importToken,omitempty"`
}

// GET /tournaments/{tid}/export — organiser: the whole event as JSON lines,
// in pages of at most exportPageBytes (?after= the cursor of the previous
// page's next, ?limit= at most this many items a page). An event that fits
// one page is answered exactly as an unpaged export.
//
// Consistency: every page is cut from a fresh read of the whole event, and
// the cursor carries the snapshot digest of the export it began; a page
// asked for after the event changed is 409 export_changed, so the pages a
// client gathers always make one export of one state of the event.
func (a *API) exportEvent(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil { // before the event-wide read
		return 0, nil, err
	}
	q := c.r.URL.Query()
	limit := 0
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return 0, nil, badRequest("invalid_query", "limit: want an item count ≥ 1")
		}
		limit = n
	}
	lines, err := a.eventLines(c, tid)
	if err != nil {
		return 0, nil, err
	}
	snapshot := snapshotOf(lines)
	start := 0
	if s := q.Get("after"); s != "" {
		off, snap, ok := parseCursor(s)
		if !ok || off < 1 || off >= len(lines) {
			return 0, nil, badRequest("invalid_cursor", "after: not a cursor of this event's export; take it from the previous page's next")
		}
		if snap != snapshot {
			return 0, nil, &Error{Status: http.StatusConflict, Code: "export_changed",
				Message: "the event changed since its export began: start the export again without after"}
		}
		start = off
	}
	end := pageEnd(lines, start, limit, a.exportPageBytes()-1024) // room for the header line
	var next *string
	var b bytes.Buffer
	var head []byte
	if end < len(lines) {
		link := "/tournaments/" + tid + "/export?after=" + makeCursor(end, snapshot)
		if limit > 0 {
			link += "&limit=" + strconv.Itoa(limit)
		}
		next = &link
	}
	nextPath := func() string {
		if next == nil {
			return ""
		}
		return *next
	}
	switch {
	case start == 0 && end == len(lines): // one page: the unpaged format
		head, _ = json.Marshal(exportHeader{Format: exportFormat, Version: 1, TournamentID: tid, ExportedAt: rfc3339(c.nowMs()), Items: len(lines)})
	case start == 0:
		head, _ = json.Marshal(exportHeader{Format: exportFormat, Version: 1, TournamentID: tid, ExportedAt: rfc3339(c.nowMs()), Items: len(lines),
			Snapshot: snapshot, PartItems: end, Next: nextPath()})
	default:
		head, _ = json.Marshal(partHeader{Format: partFormat, Version: 1, TournamentID: tid, Snapshot: snapshot,
			Offset: start, Items: end - start, Total: len(lines), Next: nextPath()})
	}
	b.Write(head)
	b.WriteByte('\n')
	for _, line := range lines[start:end] {
		b.Write(line)
		b.WriteByte('\n')
	}
	return http.StatusOK, raw{contentType: "application/x-ndjson", data: b.Bytes(), next: next}, nil
}

// eventLines is every item of event tid in DynamoDB JSON, one per line, in
// the export's order: the event item, the rest of the tournament's partition
// as the table holds it, then
// the items of every game its rounds paired, by game id.
func (a *API) eventLines(c *call, tid string) ([][]byte, error) {
	ev, err := a.loadEvent(c.ctx(), tid)
	if err != nil {
		return nil, err
	}
	items, err := a.store.Items(c.ctx(), store.TournamentPK(tid))
	if err != nil {
		return nil, err
	}
	// The event item first: the first page of a paged export must prove, by
	// the event's key, that it is of this event before anything is staged.
	if i := slices.IndexFunc(items, func(it *store.Item) bool { return it.SK == store.MetaSK }); i > 0 {
		meta := items[i]
		copy(items[1:i+1], items[:i])
		items[0] = meta
	}
	var gids []string
	for _, rec := range ev.Rounds {
		var r tournament.Round
		if err := service.DecodeItem(rec, &r); err != nil { // a staged round's pairings are in its body
			return nil, fmt.Errorf("decode round %s: %w", rec.SK, err)
		}
		for _, p := range r.Pairings {
			if p.GameID != "" {
				gids = append(gids, p.GameID)
			}
		}
	}
	slices.Sort(gids)
	for _, gid := range slices.Compact(gids) {
		game, err := a.store.Items(c.ctx(), store.GamePK(gid))
		if err != nil {
			return nil, err
		}
		items = append(items, game...)
	}
	lines := make([][]byte, len(items))
	for i, it := range items {
		if lines[i], err = it.MarshalJSON(); err != nil {
			return nil, err
		}
	}
	return lines, nil
}

// snapshotOf is the digest of an export's items: SHA-256 of every line and
// its newline, in order, in hex. The importer recomputes it over the parts
// it was sent.
func snapshotOf(lines [][]byte) string {
	h := sha256.New()
	for _, l := range lines {
		h.Write(l)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// makeCursor and parseCursor: an export cursor is the offset of the next
// page's first item and the export's snapshot, base64url-encoded.
func makeCursor(offset int, snapshot string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset) + "." + snapshot))
}

func parseCursor(s string) (offset int, snapshot string, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return 0, "", false
	}
	n, snap, found := strings.Cut(string(b), ".")
	offset, err = strconv.Atoi(n)
	return offset, snap, found && err == nil && len(snap) == 64
}

// pageEnd is the index after the last item of the page that starts at
// start: as many items as fit budget bytes as Lambda encodes them (at least
// one; an item is at most 400 KB), and at most limit when limit > 0.
func pageEnd(lines [][]byte, start, limit, budget int) int {
	size, n := 0, start
	for ; n < len(lines); n++ {
		if limit > 0 && n-start >= limit {
			break
		}
		s := escapedLen(lines[n]) + 2 // the newline, escaped
		if n > start && size+s > budget {
			break
		}
		size += s
	}
	return n
}

// escapedLen is the length of line inside a JSON string as aws-lambda-go
// writes it: a quote or backslash doubles, U+2028 and U+2029 become \uXXXX,
// a control character \uXXXX (an export line, being JSON, has none raw).
func escapedLen(line []byte) int {
	n := len(line)
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"' || c == '\\':
			n++
		case c < 0x20:
			n += 5
		case c == 0xE2 && i+2 < len(line) && line[i+1] == 0x80 && (line[i+2] == 0xA8 || line[i+2] == 0xA9):
			n += 3
		}
	}
	return n
}

// importBatch is what the items of one export page bring to an import.
type importBatch struct {
	items  []*store.Item // to create; the tournament item is kept apart
	meta   *store.Item
	metaAt int // the tournament item's line in the body
	games  int
	counts map[string]int // the event's items by kind: the caps hold for an imported event too
}

// parseImportLines reads the item lines of a page of tid's export (line 2
// of the body on), refusing any item that is not the event's.
func parseImportLines(tid string, lines [][]byte) (importBatch, error) {
	b := importBatch{items: make([]*store.Item, 0, len(lines)), counts: map[string]int{}}
	for i, line := range lines {
		it, err := store.ParseItem(line)
		if err != nil {
			return b, badRequest("invalid_export", fmt.Sprintf("line %d: %v", i+2, err))
		}
		gid, isGame := store.GameOf(it.PK)
		switch {
		case it.PK == store.TournamentPK(tid) && it.SK == store.MetaSK:
			if b.meta != nil || it.Kind != store.KindTournament {
				return b, badRequest("invalid_export", fmt.Sprintf("line %d: a second or malformed tournament item", i+2))
			}
			b.meta, b.metaAt = it, i+2
			continue
		case it.PK == store.TournamentPK(tid):
			b.counts[store.SKPrefix(it.SK)]++
		case isGame && !service.ValidID('g', gid):
			return b, badRequest("invalid_export", fmt.Sprintf("line %d: %s is not a game id", i+2, quote(clip(it.PK, 40))))
		case isGame && it.SK == store.GameSK && it.Kind == store.KindGame:
			b.games++
		case isGame && store.IsPartOf(it.SK, store.GameSK) && it.Kind == store.KindPart:
		default:
			return b, badRequest("invalid_export", fmt.Sprintf("line %d: item %s/%s does not belong to tournament %s", i+2, it.PK, it.SK, tid))
		}
		b.items = append(b.items, it)
	}
	return b, nil
}

// checkCaps refuses an event with more players, teams or officials than any
// event may have.
func checkCaps(counts map[string]int) error {
	for prefix, name := range map[string]string{store.PlayerPrefix: service.CapPlayers, store.TeamPrefix: service.CapTeams, store.OfficialPrefix: service.CapOfficials} {
		if counts[prefix] > service.LimitOf(name).Max {
			return service.TooMany(name, counts[prefix])
		}
	}
	return nil
}

// exportBody splits an import body into its header line and item lines.
func exportBody(body []byte) (head []byte, items [][]byte) {
	lines := bytes.Split(bytes.TrimSpace(body), []byte("\n"))
	for i := range lines {
		lines[i] = bytes.TrimSpace(lines[i]) // a CRLF file reads the same
	}
	return lines[0], lines[1:]
}

// decodeHeader decodes an export's first line into v.
func decodeHeader(c *call, line []byte, v any) error {
	if err := (&call{r: c.r, body: line}).decode(v); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return badRequest(e.Code, "the first line must be the export header: "+e.Message)
		}
		return err
	}
	return nil
}

// POST /tournaments/import — anyone, as creating an event is: the body is an
// export, or the first page of a paged export. The import creates its own
// event, whole, and nothing else: every item is decoded and checked first
// (checkImport), the event item must prove it is of its event (its key
// derives the id), and an event that exists here already, or whose import
// is staged, is 409. The items are created, never overwritten, the META
// item last, so the event is found only once everything else is in place;
// a failed import removes what it wrote, and sending the same export again
// completes it. The first page of a paged export begins a multi-part import
// (202 with the import's token); its other pages follow, in order, to the
// same route with that token (importEventPart), staged apart from the
// event's keys until the last is in.
func (a *API) importEvent(c *call) (int, any, error) {
	if err := checkExportType(c.r); err != nil {
		return 0, nil, err
	}
	first, lines := exportBody(c.body)
	var format struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(first, &format) == nil && format.Format == partFormat {
		return a.importEventPart(c, first, lines)
	}
	var head exportHeader
	if err := decodeHeader(c, first, &head); err != nil {
		return 0, nil, err
	}
	if head.Format != exportFormat {
		return 0, nil, badRequest("invalid_export", `the first line must be an export header {"format":"xqtour-event",…}`)
	}
	if head.Version != 1 {
		return 0, nil, badRequest("invalid_export", fmt.Sprintf("export version %d is not one this server reads (1)", head.Version))
	}
	tid := head.TournamentID
	if !service.ValidID('t', tid) {
		return 0, nil, badRequest("invalid_export", "the header's tournamentId is missing or malformed")
	}
	paged := head.PartItems > 0 && head.PartItems < head.Items
	if want := head.Items; paged && len(lines) != head.PartItems || !paged && len(lines) != want {
		if paged {
			want = head.PartItems
		}
		return 0, nil, badRequest("invalid_export", fmt.Sprintf("the header announces %d items but %d follow: the export is incomplete", want, len(lines)))
	}
	if paged && len(head.Snapshot) != 64 {
		return 0, nil, badRequest("invalid_export", "the first page of a paged export must name its snapshot")
	}
	batch, err := parseImportLines(tid, lines)
	if err != nil {
		return 0, nil, err
	}
	if !paged && batch.meta == nil {
		return 0, nil, badRequest("invalid_export", "the export has no tournament item ("+store.TournamentPK(tid)+"/"+store.MetaSK+")")
	}
	if err := checkCaps(batch.counts); err != nil {
		return 0, nil, err
	}
	if err := a.refuseExisting(c, tid); err != nil {
		return 0, nil, err
	}
	if paged {
		return a.beginImport(c, head, lines, batch)
	}
	ev, err := a.checkImport(c, tid, append(batch.items, batch.meta))
	if err != nil {
		return 0, nil, err
	}
	if err := a.copyMarks(c, tid, ev); err != nil { // a mirror's copy: its games read-only from their first moment (mirrorapply.go)
		return 0, nil, err
	}
	if err := a.store.CreateItems(c.ctx(), append(ev.items, ev.meta)); err != nil {
		return 0, nil, importConflict(err)
	}
	return http.StatusCreated, importOut{TournamentID: tid, Items: len(ev.items) + 1, Games: ev.games}, nil
}

// refuseExisting is 409 when event tid exists here already, or an import of
// it is staged: a second import is refused, never merged into the first.
func (a *API) refuseExisting(c *call, tid string) error {
	got, err := a.store.GetMany(c.ctx(), store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}, store.Key{PK: store.ImportPK(tid), SK: store.ImportSK})
	if err != nil {
		return err
	}
	if got[store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}] != nil {
		return &Error{Status: http.StatusConflict, Code: "already_exists", Message: "tournament " + tid + " exists here already: it was imported or created before"}
	}
	if st := got[store.Key{PK: store.ImportPK(tid), SK: store.ImportSK}]; st != nil && st.Expires > c.nowMs()/1000 {
		var state importState
		if json.Unmarshal(st.Doc, &state) == nil && !state.Complete {
			return importInProgress(tid)
		}
	}
	return nil
}

func importInProgress(tid string) error {
	return &Error{Status: http.StatusConflict, Code: "import_in_progress",
		Message: "an import of tournament " + tid + " is under way: send its other parts with its token, or begin again after it expires (24 hours)"}
}

func importConflict(err error) error {
	if errors.Is(err, store.ErrConflict) {
		return &Error{Status: http.StatusConflict, Code: "already_exists", Message: "an item of this export exists here with other content; nothing was imported"}
	}
	return err
}

// importState is a multi-part import between its parts (J#<tid>/IMPORT):
// who may continue it, which export it is, how many of its items are in,
// the running digest of those items (checked against the snapshot when the
// last is in), and where its parts are staged.
type importState struct {
	TokenHash string         `json:"tokenHash"`
	Snapshot  string         `json:"snapshot"`
	Total     int            `json:"total"`
	Received  int            `json:"received"`
	Games     int            `json:"games"`
	Counts    map[string]int `json:"counts"`
	Digest    []byte         `json:"digest"`
	// Pages are the parts staged, in order: the item each starts at and
	// how many chunks (J#<tid>/Q#<offset>#<nnn>) hold its lines.
	Pages    []stagedPage `json:"pages"`
	Complete bool         `json:"complete,omitempty"`
}

// stagedPage is one part of a multi-part import as staged.
type stagedPage struct {
	Offset int `json:"offset"`
	Chunks int `json:"chunks"`
}

// stagedChunk is the most of a part's lines one staged item holds: within
// an item's 400 KB with room for its keys, and within MaxPart so that a
// chunk is never split itself.
const stagedChunk = 300_000

// beginImport starts a multi-part import with an export's first page: the
// page must hold the event item (exports put it first), which must prove it
// is of its event before anything is stored; then the import is claimed
// (409 while another is under way), the page staged apart from the event's
// keys, and the token the parts need answered.
func (a *API) beginImport(c *call, head exportHeader, lines [][]byte, batch importBatch) (int, any, error) {
	tid := head.TournamentID
	if batch.meta == nil {
		return 0, nil, badRequest("invalid_export", "the first page of a paged export must hold the tournament item ("+store.TournamentPK(tid)+"/"+store.MetaSK+"): export the event again")
	}
	recs, err := store.Documents([]*store.Item{batch.meta})
	if err != nil {
		return 0, nil, badRequest("invalid_export", err.Error())
	}
	var t tournament.Tournament
	if err := decodeItem(recs[0], store.KindTournament, &t); err != nil {
		return 0, nil, err
	}
	if t.ID != tid {
		return 0, nil, refuseItem(recs[0].PK, recs[0].SK, "its body names tournament "+quote(clip(t.ID, 40)))
	}
	if err := a.checkProvenance(&t); err != nil {
		return 0, nil, err
	}
	rec, err := a.store.Get(c.ctx(), store.ImportPK(tid), store.ImportSK)
	switch {
	case errors.Is(err, store.ErrNotFound):
		rec = &store.Record{PK: store.ImportPK(tid), SK: store.ImportSK, Kind: store.KindImport}
	case err != nil:
		return 0, nil, err
	case rec.Expires > c.nowMs()/1000: // an abandoned import (TTL passed, not yet deleted) may be begun again
		return 0, nil, importInProgress(tid)
	}
	token := "import." + tid + "." + service.NewID('k')[1:]
	digest := sha256.New()
	for _, l := range lines {
		digest.Write(l)
		digest.Write([]byte{'\n'})
	}
	st := importState{TokenHash: service.HashToken(token), Snapshot: head.Snapshot, Total: head.Items, Received: len(lines),
		Games: batch.games, Counts: batch.counts}
	if st.Digest, err = digest.(encoding.BinaryMarshaler).MarshalBinary(); err != nil {
		return 0, nil, err
	}
	expires := (c.nowMs() + importTTL.Milliseconds()) / 1000
	// The claim first, then the page: a concurrent first page loses the
	// claim and stages nothing.
	rec.Doc, _ = json.Marshal(st)
	rec.Expires = expires
	if err := a.store.Put(c.ctx(), rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return 0, nil, &Error{Status: http.StatusConflict, Code: "import_in_progress", Message: "another import of tournament " + tid + " began at the same moment"}
		}
		return 0, nil, err
	}
	n, err := a.stage(c, tid, 0, lines, expires)
	if err == nil {
		st.Pages = []stagedPage{{Offset: 0, Chunks: n}}
		rec.Doc, _ = json.Marshal(st)
		err = a.store.Put(c.ctx(), rec)
	}
	if err != nil {
		_ = a.store.Delete(context.WithoutCancel(c.ctx()), rec.PK, rec.SK) // a retry begins afresh
		return 0, nil, err
	}
	return http.StatusAccepted, importOut{TournamentID: tid, Items: st.Received, Games: st.Games, Total: st.Total,
		Next: "/tournaments/import", ImportToken: token}, nil
}

// stage writes one part's lines into its import's staging partition, in
// chunks of at most stagedChunk bytes; a chunk left by a failed attempt at
// the same part is overwritten. It returns how many chunks it wrote.
func (a *API) stage(c *call, tid string, offset int, lines [][]byte, expires int64) (int, error) {
	var buf []byte
	for _, l := range lines {
		buf = append(buf, l...)
		buf = append(buf, '\n')
	}
	n := 0
	for off := 0; off < len(buf); off += stagedChunk {
		n++
		rec := &store.Record{PK: store.ImportPK(tid), SK: store.StagedSK(offset, n), Kind: store.KindStaged, Doc: buf[off:min(off+stagedChunk, len(buf))], Expires: expires}
		err := a.store.Put(c.ctx(), rec)
		if errors.Is(err, store.ErrConflict) {
			old, gerr := a.store.Get(c.ctx(), rec.PK, rec.SK)
			if gerr != nil {
				return 0, gerr
			}
			rec.Version = old.Version
			err = a.store.Put(c.ctx(), rec)
		}
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// staged reads back every part of an import as staged, as item lines in
// export order.
func (a *API) staged(c *call, tid string, pages []stagedPage) ([][]byte, error) {
	recs, err := a.store.Query(c.ctx(), store.ImportPK(tid), store.StagedPrefix, 0)
	if err != nil {
		return nil, err
	}
	docs := make(map[string][]byte, len(recs))
	for _, r := range recs {
		docs[r.SK] = r.Doc
	}
	var buf []byte
	for _, p := range pages {
		for i := 1; i <= p.Chunks; i++ {
			d, ok := docs[store.StagedSK(p.Offset, i)]
			if !ok {
				return nil, fmt.Errorf("import of %s: staged chunk %s is missing", tid, store.StagedSK(p.Offset, i))
			}
			buf = append(buf, d...)
		}
	}
	return bytes.Split(bytes.TrimSuffix(buf, []byte{'\n'}), []byte{'\n'}), nil
}

// unstage deletes an import's staged chunks (best effort: they expire with
// the import anyway).
func (a *API) unstage(c *call, tid string, pages []stagedPage) {
	ctx := context.WithoutCancel(c.ctx())
	for _, p := range pages {
		for i := 1; i <= p.Chunks; i++ {
			_ = a.store.Delete(ctx, store.ImportPK(tid), store.StagedSK(p.Offset, i))
		}
	}
}

// importEventPart continues a multi-part import with a later page of a
// paged export (POST /tournaments/import, with the import's token): the
// pages go in order, each staged apart from the event's keys. A part
// already received is acknowledged and changes nothing (200); a part out of
// order is 409 out_of_order, one of another export 409 foreign_part. When
// the last part is in, the digest of all the parts must be the export's
// snapshot; then the whole export is read back, checked as an unpaged one
// is (checkImport), and created, the tournament item last: the event
// appears whole (201). An export refused then ends the import.
func (a *API) importEventPart(c *call, first []byte, lines [][]byte) (int, any, error) {
	var head partHeader
	if err := decodeHeader(c, first, &head); err != nil {
		return 0, nil, err
	}
	tid := head.TournamentID
	switch {
	case head.Version != 1:
		return 0, nil, badRequest("invalid_export", fmt.Sprintf("export version %d is not one this server reads (1)", head.Version))
	case !service.ValidID('t', tid):
		return 0, nil, badRequest("invalid_export", "the header's tournamentId is missing or malformed")
	case len(lines) != head.Items || head.Items < 1:
		return 0, nil, badRequest("invalid_export", fmt.Sprintf("the header announces %d items but %d follow: the part is incomplete", head.Items, len(lines)))
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(c.r.Header.Get("Authorization")), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(token, "import."+tid+".") {
		return 0, nil, &Error{Status: http.StatusUnauthorized, Code: "unauthorized",
			Message: "a part needs the import's token (importToken of the first page's answer) as Authorization: Bearer"}
	}
	for range 3 { // a concurrent part moved the import on: read it again
		rec, err := a.store.Get(c.ctx(), store.ImportPK(tid), store.ImportSK)
		if errors.Is(err, store.ErrNotFound) || err == nil && rec.Expires <= c.nowMs()/1000 {
			return 0, nil, &Error{Status: http.StatusNotFound, Code: "not_found",
				Message: "no import of tournament " + tid + " is under way here: send the export's first page to POST /tournaments/import"}
		} else if err != nil {
			return 0, nil, err
		}
		var st importState
		if err := json.Unmarshal(rec.Doc, &st); err != nil {
			return 0, nil, fmt.Errorf("decode import state: %w", err)
		}
		if !tokenMatches(token, st.TokenHash) {
			return 0, nil, forbidden("this token is not the one of tournament " + tid + "'s import")
		}
		progress := importOut{TournamentID: tid, Items: st.Received, Games: st.Games, Total: st.Total}
		if !st.Complete {
			progress.Next = "/tournaments/import"
		}
		switch {
		case head.Snapshot != st.Snapshot || head.Total != st.Total:
			return 0, nil, &Error{Status: http.StatusConflict, Code: "foreign_part",
				Message: "this part is of another export of the event (another snapshot): every part must come from the export whose first page began the import"}
		case head.Offset >= 0 && head.Offset+head.Items <= st.Received:
			return http.StatusOK, progress, nil // sent before: nothing changes
		case head.Offset != st.Received:
			return 0, nil, &Error{Status: http.StatusConflict, Code: "out_of_order",
				Message: fmt.Sprintf("this part starts at item %d, but the import holds %d items: send the part that starts at item %d first", head.Offset, st.Received, st.Received)}
		case st.Received+head.Items > st.Total:
			return 0, nil, badRequest("invalid_export", fmt.Sprintf("this part ends after item %d, but the export has %d", st.Received+head.Items, st.Total))
		}
		batch, err := parseImportLines(tid, lines)
		if err != nil {
			return 0, nil, err
		}
		if batch.meta != nil {
			return 0, nil, badRequest("invalid_export", fmt.Sprintf("line %d: a second tournament item", batch.metaAt))
		}
		counts := maps.Clone(st.Counts)
		if counts == nil {
			counts = map[string]int{}
		}
		for k, n := range batch.counts {
			counts[k] += n
		}
		if err := checkCaps(counts); err != nil {
			return 0, nil, err
		}
		digest := sha256.New()
		if err := digest.(encoding.BinaryUnmarshaler).UnmarshalBinary(st.Digest); err != nil {
			return 0, nil, fmt.Errorf("import state digest: %w", err)
		}
		for _, l := range lines {
			digest.Write(l)
			digest.Write([]byte{'\n'})
		}
		last := st.Received+head.Items == st.Total
		if last && hex.EncodeToString(digest.Sum(nil)) != st.Snapshot {
			a.abandonImport(c, rec, st.Pages)
			return 0, nil, badRequest("invalid_export", "the parts do not make up the export their snapshot names: an item was changed, or a part left out; the import is ended, begin it again")
		}
		n, err := a.stage(c, tid, head.Offset, lines, rec.Expires)
		if err != nil {
			return 0, nil, err
		}
		pages := append(slices.Clone(st.Pages), stagedPage{Offset: head.Offset, Chunks: n})
		if last { // every part is in: check the whole export, then make the event
			ev, err := a.finishImport(c, tid, pages)
			if err != nil {
				var e *Error
				if errors.As(err, &e) && e.Status < 500 {
					a.abandonImport(c, rec, pages)
				}
				return 0, nil, err
			}
			st.Games = ev.games
		} else {
			st.Games += batch.games
		}
		st.Received += head.Items
		st.Counts, st.Pages, st.Complete = counts, pages, last
		if st.Digest, err = digest.(encoding.BinaryMarshaler).MarshalBinary(); err != nil {
			return 0, nil, err
		}
		rec.Doc, _ = json.Marshal(st)
		if err := a.store.Put(c.ctx(), rec); errors.Is(err, store.ErrConflict) {
			continue
		} else if err != nil {
			return 0, nil, err
		}
		if last {
			a.unstage(c, tid, pages)
			return http.StatusCreated, importOut{TournamentID: tid, Items: st.Total, Games: st.Games}, nil
		}
		progress.Items, progress.Games = st.Received, st.Games
		return http.StatusAccepted, progress, nil
	}
	return 0, nil, &Error{Status: http.StatusConflict, Code: "conflict", Message: "other parts of this import were being written at the same time: send this part again"}
}

// finishImport reads a multi-part import's staged parts back, checks the
// whole export and creates the event, the tournament item last.
func (a *API) finishImport(c *call, tid string, pages []stagedPage) (*importedEvent, error) {
	lines, err := a.staged(c, tid, pages)
	if err != nil {
		return nil, err
	}
	items := make([]*store.Item, len(lines))
	for i, l := range lines {
		if items[i], err = store.ParseItem(l); err != nil {
			return nil, badRequest("invalid_export", fmt.Sprintf("item %d: %v", i+1, err))
		}
	}
	ev, err := a.checkImport(c, tid, items)
	if err != nil {
		return nil, err
	}
	if err := a.copyMarks(c, tid, ev); err != nil {
		return nil, err
	}
	if err := a.store.CreateItems(c.ctx(), append(ev.items, ev.meta)); err != nil {
		return nil, importConflict(err)
	}
	return ev, nil
}

// abandonImport ends a multi-part import whose export was refused: its
// state and staged parts are deleted, so it may be begun again.
func (a *API) abandonImport(c *call, rec *store.Record, pages []stagedPage) {
	tid := strings.TrimPrefix(rec.PK, store.ImportPrefix)
	a.unstage(c, tid, pages)
	_ = a.store.Delete(context.WithoutCancel(c.ctx()), rec.PK, rec.SK)
}

// checkExportType refuses an import body that is not an export: JSON lines
// (application/x-ndjson, application/jsonl, or text/plain); an absent
// Content-Type is read as an export too.
func checkExportType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/x-ndjson" || mt == "application/jsonl" || mt == "application/json" || mt == "text/plain") {
		return nil
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
		Message: "send the export as application/x-ndjson (JSON lines), not " + quote(ct)}
}
