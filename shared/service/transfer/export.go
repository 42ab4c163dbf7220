package transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Page is one page of an event's export: its body (the header line, then
// its items' lines) and, when more pages follow, the request of the next.
type Page struct {
	Body []byte
	Next string
}

// Query asks for one page of an export.
type Query struct {
	// After is the cursor of the previous page's next ("" for the first
	// page); Limit, when positive, the most items a page holds.
	After string
	Limit int
	// Malformed is the refusal of a query the caller sent malformed: it is
	// returned once the caller is known to be the organiser, so a stranger
	// learns nothing of the event.
	Malformed error
	// Link is the request of the page a cursor starts (Limit included).
	Link func(cursor string) string
}

// Export is a page of event tid's export, for its organiser (cred). An
// event of at most Options.KeyPagedPlayers entrants is exported in version
// 1, and one that fits one page is answered exactly as an unpaged export;
// a larger event in version 2 (exportKeyed), each page reading only its
// own items.
//
// Consistency (version 1): every page is cut from a fresh read of the
// whole event, and the cursor carries the snapshot digest of the export it
// began; a page asked for after the event changed is a conflict
// (export_changed), so the pages a client gathers always make one export
// of one state of the event. Version 2 carries the event's change stamp
// instead, with what that does not count (keyed.go).
func (s *Service) Export(ctx context.Context, tid string, cred service.Credential, q Query) (*Page, error) {
	t, _, err := s.svc.Tournament(ctx, tid) // the caller checked before the event-wide read
	if err != nil {
		return nil, err
	}
	by, err := cred(ctx, t)
	if err != nil {
		return nil, err
	}
	if err := by.May(tid, service.Organiser); err != nil {
		return nil, err
	}
	if q.Malformed != nil {
		return nil, q.Malformed
	}
	// A big event's export is version 2, each page reading its own items
	// (keyed.go); its cursors say so, whatever the event's size since.
	if q.After == "" && s.keyPaged(t) || q.After != "" && isKeyCursor(q.After) {
		return s.exportKeyed(ctx, t, q)
	}
	lines, err := s.Lines(ctx, tid)
	if err != nil {
		return nil, err
	}
	snapshot := Snapshot(lines)
	start := 0
	if q.After != "" {
		off, snap, ok := parseCursor(q.After)
		if !ok || off < 1 || off >= len(lines) {
			return nil, command.BadRequest("invalid_cursor", "after: not a cursor of this event's export; take it from the previous page's next")
		}
		if snap != snapshot {
			return nil, exportChanged()
		}
		start = off
	}
	end := PageEnd(lines, start, q.Limit, s.PageBudget()-1024) // room for the header line
	page := &Page{}
	if end < len(lines) {
		page.Next = q.Link(makeCursor(end, snapshot))
	}
	page.Body = pageBody(tid, lines, start, end, snapshot, games.RFC3339(s.svc.NowMs(ctx)), page.Next, page.Next)
	return page, nil
}

// ImportBodies are the bodies of the requests that import event tid's
// export lines into another stack (POST /tournaments/import), in order and
// paged as Export pages them: the export whole, or its first page and its
// parts; now stamps them. A mirror sends them to its target.
func (s *Service) ImportBodies(tid string, lines [][]byte, now int64) [][]byte {
	var bodies [][]byte
	snapshot, at := Snapshot(lines), games.RFC3339(now)
	for start := 0; start < len(lines); {
		end := PageEnd(lines, start, 0, s.PageBudget()-1024)
		bodies = append(bodies, pageBody(tid, lines, start, end, snapshot, at, "/tournaments/import", ""))
		start = end
	}
	return bodies
}

// pageBody is the page of an export holding lines[start:end]: its header
// line, then those lines. An export that fits one page has the unpaged
// header; a paged one's first page names next as the request of its
// second, and its later pages partNext (an import's parts name none).
func pageBody(tid string, lines [][]byte, start, end int, snapshot, at, next, partNext string) []byte {
	var head []byte
	switch {
	case start == 0 && end == len(lines): // one page: the unpaged format
		head, _ = json.Marshal(Header{Format: Format, Version: 1, TournamentID: tid, ExportedAt: at, Items: len(lines)})
	case start == 0:
		head, _ = json.Marshal(Header{Format: Format, Version: 1, TournamentID: tid, ExportedAt: at, Items: len(lines),
			Snapshot: snapshot, PartItems: end, Next: next})
	default:
		head, _ = json.Marshal(PartHeader{Format: PartFormat, Version: 1, TournamentID: tid, Snapshot: snapshot,
			Offset: start, Items: end - start, Total: len(lines), Next: partNext})
	}
	var b bytes.Buffer
	b.Write(head)
	b.WriteByte('\n')
	for _, line := range lines[start:end] {
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// gamesPerRead is how many games one read of Lines asks for: BatchGetItem's
// most keys.
const gamesPerRead = 100

// Lines is every item of event tid in DynamoDB JSON, one per line, in the
// export's order: the event item, the rest of the tournament's partition as
// the table holds it, then the items of every game its rounds paired, by
// game id. It checks no caller: Export does for the organiser, and the
// stack's own mirror sends what it reads.
func (s *Service) Lines(ctx context.Context, tid string) ([][]byte, error) {
	ev, err := s.svc.Load(ctx, tid)
	if err != nil {
		return nil, err
	}
	items, err := s.store.Items(ctx, store.TournamentPK(tid))
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
	gids = slices.Compact(gids)
	// A game's partition holds its item and that item's parts alone, so
	// the games are read by key, a batch of gamesPerRead at a time and
	// several batches at once: one Query per game, one after another, took
	// 8–29 s for a 10,000-player event's export, past API Gateway's 29 s.
	chunks := make([]map[store.Key][]*store.Item, (len(gids)+gamesPerRead-1)/gamesPerRead)
	err = service.InParallel(len(chunks), func(c int) error {
		part := gids[c*gamesPerRead : min((c+1)*gamesPerRead, len(gids))]
		keys := make([]store.Key, len(part))
		for i, gid := range part {
			keys[i] = store.Key{PK: store.GamePK(gid), SK: store.GameSK}
		}
		var err error
		chunks[c], err = s.store.ItemsOf(ctx, keys...)
		return err
	})
	if err != nil {
		return nil, err
	}
	for i, gid := range gids {
		items = append(items, chunks[i/gamesPerRead][store.Key{PK: store.GamePK(gid), SK: store.GameSK}]...)
	}
	lines := make([][]byte, len(items))
	for i, it := range items {
		if lines[i], err = it.MarshalJSON(); err != nil {
			return nil, err
		}
	}
	return lines, nil
}

// Snapshot is the digest of an export's items: SHA-256 of every line and
// its newline, in order, in hex. The importer recomputes it over the parts
// it was sent.
func Snapshot(lines [][]byte) string {
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

// PageEnd is the index after the last item of the page that starts at
// start: as many items as fit budget bytes as Lambda encodes them (at least
// one; an item is at most 400 KB), and at most limit when limit > 0.
func PageEnd(lines [][]byte, start, limit, budget int) int {
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
