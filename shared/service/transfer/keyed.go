package transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"maps"
	"slices"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Version 2 of the export: paged by key, for big events.
//
// Version 1 cuts every page from a read of the whole event and its games
// (Lines), which at 50,000 entrants takes 18 s a page. Version 2 reads, on
// each page, only that page's items and the event's change stamp, and once
// its pages reach the games the round items, which alone say which games
// the event has (each round read at once, as a big event's read does): the
// items are the same, in the same order (the event item, the rest of
// T#<tid> in key order, then every game its rounds paired by game id), so
// the same import checks apply and the last page's snapshot is the one
// version 1 would name. What a page carries on to the next is in its
// cursor (keyCursor): where the export is (the phase and the last key or
// game id), how many items came before, the SHA-256 state of every line so
// far, and the stamp the export began under.
//
// Consistency: the event's stamp (V#<tid>/STAMP: counters every write to
// T#<tid> advances after it) is made before the first page reads anything,
// and every page reads it before and after its items: a page whose stamp
// is not the cursor's is 409 export_changed, so the T#<tid> part of the
// pages is one state of the event. Two things the stamp does not count:
// a game's own moves and clocks (G#<gid> is not T#<tid>; each game's items
// are read together, so each game is whole as of its page, and a game
// that ended between pages wrote its result to T#<tid>, which is counted),
// and a write whose counter was lost after it (the process died between
// the two; see store.StampFunc) or lags it across a page's second read,
// which only the next page, or none after the last, would notice.

// The phases of a version 2 export: the tournament's partition, then its games.
const (
	phaseEvent = "T"
	phaseGames = "G"
)

// keyCursor is where a version 2 export is, carried from page to page as
// base64url JSON. Its positions are keys within the event's own key space
// (a sort key of T#<tid>, a game id of its rounds' pairings), so no cursor
// reads outside the event, however it was made.
type keyCursor struct {
	Tournament string `json:"t"`
	Phase      string `json:"p"`
	// After is the last sort key of T#<tid> read (phase T; "" from the
	// first) or the last game id (phase G; "" from the first).
	After  string `json:"a,omitempty"`
	Items  int    `json:"n"`
	Stamp  string `json:"s"`
	Digest []byte `json:"h"`
}

// isKeyCursor reports whether after is a version 2 cursor (base64url of a
// JSON object), not version 1's offset and snapshot.
func isKeyCursor(after string) bool {
	b, err := base64.RawURLEncoding.DecodeString(after)
	return err == nil && len(b) > 0 && b[0] == '{'
}

func invalidCursor(why string) error {
	return command.BadRequest("invalid_cursor", "after: not a cursor of this event's export ("+why+"); take it from the previous page's next")
}

func exportChanged() error {
	return &command.Error{Kind: command.Conflict, Code: "export_changed",
		Message: "the event changed since its export began: start the export again without after"}
}

// parseKeyCursor reads a version 2 cursor of event tid's export, and the
// digest state it carries; anything else is invalid_cursor.
func parseKeyCursor(after, tid string) (*keyCursor, hash.Hash, error) {
	b, err := base64.RawURLEncoding.DecodeString(after)
	if err != nil {
		return nil, nil, invalidCursor("not base64url")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c keyCursor
	if err := dec.Decode(&c); err != nil || dec.More() {
		return nil, nil, invalidCursor("malformed")
	}
	digest := sha256.New()
	switch {
	case c.Tournament != tid:
		return nil, nil, invalidCursor("it is of another event's export")
	case c.Phase != phaseEvent && c.Phase != phaseGames:
		return nil, nil, invalidCursor("no such phase")
	case c.Phase == phaseGames && c.After != "" && !service.ValidID('g', c.After):
		return nil, nil, invalidCursor("not a game id")
	case c.Items < 1:
		return nil, nil, invalidCursor("no items before it")
	case len(c.Stamp) != 64:
		return nil, nil, invalidCursor("no stamp")
	case digest.(encoding.BinaryUnmarshaler).UnmarshalBinary(c.Digest) != nil:
		return nil, nil, invalidCursor("no digest")
	}
	return &c, digest, nil
}

// stampDigest names a state of the event's stamp: its epoch and every
// counter, in name order.
func stampDigest(st store.Stamp) string {
	h := sha256.New()
	h.Write([]byte(st.Epoch))
	for _, name := range slices.Sorted(maps.Keys(st.Counters)) {
		fmt.Fprintf(h, "\n%s=%d", name, st.Counters[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sameStamp is export_changed unless event tid's stamp is still want.
func (s *Service) sameStamp(ctx context.Context, tid, want string) error {
	st, err := s.store.ReadStamp(ctx, store.ViewPK(tid))
	if err != nil {
		return err
	}
	if stampDigest(st) != want {
		return exportChanged()
	}
	return nil
}

// keyPage is a version 2 page being filled: its lines, their size as
// PageEnd counts it, within budget bytes and, when limit is positive,
// limit items.
type keyPage struct {
	lines         [][]byte
	size          int
	budget, limit int
	sized         map[*store.Item][]byte // lines marshalled to be measured
	err           error
}

// line is it's export line (marshalled once, whether to measure or to add).
func (p *keyPage) line(it *store.Item) []byte {
	if l, ok := p.sized[it]; ok {
		return l
	}
	l, err := it.MarshalJSON()
	if err != nil && p.err == nil {
		p.err = err
	}
	p.sized[it] = l
	return l
}

// lineSize is what one item adds to the page, as PageEnd counts it.
func (p *keyPage) lineSize(it *store.Item) int { return escapedLen(p.line(it)) + 2 }

// full reports whether the page has room for nothing more.
func (p *keyPage) full() bool {
	return p.size >= p.budget || p.limit > 0 && len(p.lines) >= p.limit
}

// fits reports whether items, together, go on the page: always on an
// empty one (a page holds at least one game, however large).
func (p *keyPage) fits(items []*store.Item) bool {
	if len(p.lines) == 0 {
		return true
	}
	n := 0
	for _, it := range items {
		n += p.lineSize(it)
	}
	return p.size+n <= p.budget && (p.limit <= 0 || len(p.lines)+len(items) <= p.limit)
}

func (p *keyPage) add(items ...*store.Item) {
	for _, it := range items {
		p.size += p.lineSize(it)
		p.lines = append(p.lines, p.line(it))
	}
}

// exportKeyed is a page of event t's export in version 2 (see above).
func (s *Service) exportKeyed(ctx context.Context, t *tournament.Tournament, q Query) (*Page, error) {
	tid, pk := t.ID, store.TournamentPK(t.ID)
	var (
		cur    *keyCursor
		digest hash.Hash
	)
	if q.After == "" {
		// The stamp first: every write after it is counted, every write
		// before it is in what the pages read.
		st, err := s.store.CreateStamp(ctx, store.ViewPK(tid))
		if err != nil {
			return nil, err
		}
		cur, digest = &keyCursor{Tournament: tid, Phase: phaseEvent, Stamp: stampDigest(st)}, sha256.New()
	} else {
		var err error
		if cur, digest, err = parseKeyCursor(q.After, tid); err != nil {
			return nil, err
		}
		if err := s.sameStamp(ctx, tid, cur.Stamp); err != nil {
			return nil, err
		}
	}
	offset := cur.Items
	pg := &keyPage{budget: s.PageBudget() - 1024, limit: q.Limit, sized: map[*store.Item][]byte{}} // room for the header line
	if q.After == "" {
		// The event item first, as Lines puts it (alone: any parts of it
		// stay where the partition holds them), read after the stamp, so
		// that the rounds it counts are those the pages read.
		metaKey := store.Key{PK: pk, SK: store.MetaSK}
		got, err := s.store.ItemsOf(ctx, metaKey)
		if err != nil {
			return nil, err
		}
		if len(got[metaKey]) == 0 {
			return nil, command.NotFoundf("tournament %s", tid)
		}
		meta := got[metaKey][0]
		recs, err := store.Documents(got[metaKey])
		if err != nil {
			return nil, err
		}
		t = new(tournament.Tournament)
		if err := service.DecodeItem(recs[0], t); err != nil {
			return nil, fmt.Errorf("decode tournament %s: %w", tid, err)
		}
		pg.add(meta)
	}
	for cur.Phase == phaseEvent && !pg.full() {
		lim := store.PageLimit{Bytes: pg.budget - pg.size, Size: pg.lineSize, Started: len(pg.lines) > 0}
		if pg.limit > 0 {
			lim.Items = pg.limit - len(pg.lines)
		}
		items, more, err := s.store.ItemsAfter(ctx, pk, cur.After, lim)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.SK != store.MetaSK { // on the first page already
				pg.add(it)
			}
		}
		if len(items) > 0 {
			cur.After = items[len(items)-1].SK
		}
		if !more {
			cur.Phase, cur.After = phaseGames, ""
		} else if len(pg.lines) > 0 {
			break
		}
	}
	done := false
	if cur.Phase == phaseGames && !pg.full() {
		gids, err := s.gameIDs(ctx, tid, t.Round)
		if err != nil {
			return nil, err
		}
		from := 0
		if cur.After != "" {
			i, found := slices.BinarySearch(gids, cur.After)
			if !found {
				return nil, invalidCursor("not a game of this event")
			}
			from = i + 1
		}
		next, err := s.pageGames(ctx, gids, from, pg)
		if err != nil {
			return nil, err
		}
		if next > from {
			cur.After = gids[next-1]
		}
		done = next == len(gids)
	}
	if pg.err != nil {
		return nil, pg.err
	}
	// The stamp again, after the reads: a write counted meanwhile may be
	// in what this page read.
	if err := s.sameStamp(ctx, tid, cur.Stamp); err != nil {
		return nil, err
	}
	for _, l := range pg.lines {
		digest.Write(l)
		digest.Write([]byte{'\n'})
	}
	cur.Items += len(pg.lines)
	page := &Page{}
	var total int
	var snapshot string
	if done {
		total, snapshot = cur.Items, hex.EncodeToString(digest.Sum(nil))
	} else {
		var err error
		if cur.Digest, err = digest.(encoding.BinaryMarshaler).MarshalBinary(); err != nil {
			return nil, err
		}
		c, _ := json.Marshal(cur)
		page.Next = q.Link(base64.RawURLEncoding.EncodeToString(c))
	}
	var head []byte
	if q.After == "" {
		head, _ = json.Marshal(Header{Format: Format, Version: 2, TournamentID: tid, ExportedAt: games.RFC3339(s.svc.NowMs(ctx)),
			PartItems: len(pg.lines), Total: total, Snapshot: snapshot, Next: page.Next})
	} else {
		head, _ = json.Marshal(PartHeader{Format: PartFormat, Version: 2, TournamentID: tid, Offset: offset, Items: len(pg.lines),
			Total: total, Snapshot: snapshot, Next: page.Next})
	}
	var b bytes.Buffer
	b.Write(head)
	b.WriteByte('\n')
	for _, l := range pg.lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	page.Body = b.Bytes()
	return page, nil
}

// gameIDs are the game ids event tid's rounds 1…rounds paired, in order,
// each once: each round's key range read at once, as a big event's read
// does (eventItems), and decoded as Lines decodes them.
func (s *Service) gameIDs(ctx context.Context, tid string, rounds int) ([]string, error) {
	found := make([][]string, rounds)
	err := service.InParallel(rounds, func(i int) error {
		recs, err := s.store.Query(ctx, store.TournamentPK(tid), store.RoundSK(i+1), 0)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			if rec.SK != store.RoundSK(i+1) {
				continue
			}
			var r tournament.Round
			if err := service.DecodeItem(rec, &r); err != nil { // a staged round's pairings are in its body
				return fmt.Errorf("decode round %s: %w", rec.SK, err)
			}
			for _, p := range r.Pairings {
				if p.GameID != "" {
					found[i] = append(found[i], p.GameID)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	gids := slices.Concat(found...)
	slices.Sort(gids)
	return slices.Compact(gids), nil
}

// maxGameReads bounds how many batches of gamesPerRead games one read of
// pageGames asks for at once.
const maxGameReads = 16

// pageGames fills pg with the items of games gids[from:], each game's
// items together, and returns the index of the first game left for the
// next page. The games are read by key, gamesPerRead to a BatchGet and
// several at once, as many as the room left and the games read so far
// suggest, so a page reads little more than it holds.
func (s *Service) pageGames(ctx context.Context, gids []string, from int, pg *keyPage) (int, error) {
	i, reads, read, readBytes := from, 1, 0, 0
	for i < len(gids) && !pg.full() {
		n := min(reads*gamesPerRead, len(gids)-i)
		if pg.limit > 0 {
			n = min(n, pg.limit-len(pg.lines))
		}
		part := gids[i : i+n]
		chunks := make([]map[store.Key][]*store.Item, (len(part)+gamesPerRead-1)/gamesPerRead)
		err := service.InParallel(len(chunks), func(c int) error {
			batch := part[c*gamesPerRead : min((c+1)*gamesPerRead, len(part))]
			keys := make([]store.Key, len(batch))
			for k, gid := range batch {
				keys[k] = store.Key{PK: store.GamePK(gid), SK: store.GameSK}
			}
			var err error
			chunks[c], err = s.store.ItemsOf(ctx, keys...)
			return err
		})
		if err != nil {
			return 0, err
		}
		for k, gid := range part {
			items := chunks[k/gamesPerRead][store.Key{PK: store.GamePK(gid), SK: store.GameSK}]
			if !pg.fits(items) {
				return i, nil
			}
			for _, it := range items {
				readBytes += pg.lineSize(it)
			}
			read++
			pg.add(items...)
			i++
		}
		per := max(readBytes/max(read, 1), 1)
		reads = min(max((pg.budget-pg.size)/per/gamesPerRead+1, 1), maxGameReads)
	}
	return i, nil
}
