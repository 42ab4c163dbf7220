package transfer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"maps"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Outcome is what an import's request did.
type Outcome int

// The outcomes.
const (
	// Made: the event was created, whole (the export, or its last part).
	Made Outcome = iota + 1
	// Staged: a multi-part import was begun or moved on; parts remain.
	Staged
	// Repeated: a part received before was sent again; nothing changed.
	Repeated
)

// Imported is an import's answer: the event, how many of its items and
// games are in, and for a multi-part import how many items the whole
// export has, whether parts remain, and (first part only) the token that
// authorises the others.
type Imported struct {
	Outcome      Outcome
	TournamentID string
	Items        int
	Games        int
	Total        int
	More         bool
	Token        string
}

// Import creates the event of an export, or begins a multi-part import with
// the first page of a paged one (head and lines: the body's header and
// item lines). Anyone may, as anyone may create an event. The import
// creates its own event, whole, and nothing else: every item is decoded
// and checked first (check), the event item must prove it is of its event
// (its key derives the id), and an event that exists here already, or
// whose import is staged, is a conflict. The items are created, never
// overwritten, the META item last, so the event is found only once
// everything else is in place; a failed import removes what it wrote, and
// sending the same export again completes it. marks adds a mirror's items.
func (s *Service) Import(ctx context.Context, head Header, lines [][]byte, marks Marks) (*Imported, error) {
	if head.Format != Format {
		return nil, command.BadRequest("invalid_export", `the first line must be an export header {"format":"xqtour-event",…}`)
	}
	if head.Version != 1 && head.Version != 2 {
		return nil, command.BadRequest("invalid_export", fmt.Sprintf("export version %d is not one this server reads (1 or 2)", head.Version))
	}
	tid := head.TournamentID
	if !service.ValidID('t', tid) {
		return nil, command.BadRequest("invalid_export", "the header's tournamentId is missing or malformed")
	}
	// Version 1 names the whole export's size on its first page; version 2
	// knows it only on its last, so its first page is paged when a next
	// follows, and names its total and snapshot when it is also the last.
	paged, want := head.PartItems > 0 && head.PartItems < head.Items, head.Items
	if paged {
		want = head.PartItems
	}
	if head.Version == 2 {
		paged, want = head.Next != "", head.PartItems
	}
	if len(lines) != want {
		return nil, command.BadRequest("invalid_export", fmt.Sprintf("the header announces %d items but %d follow: the export is incomplete", want, len(lines)))
	}
	if head.Version == 1 && paged && len(head.Snapshot) != 64 {
		return nil, command.BadRequest("invalid_export", "the first page of a paged export must name its snapshot")
	}
	if head.Version == 2 && !paged && (head.Total != len(lines) || head.Snapshot != Snapshot(lines)) {
		return nil, command.BadRequest("invalid_export", fmt.Sprintf("a version 2 export of one page must name its total (%d items) and the snapshot of its items", len(lines)))
	}
	b, err := parseLines(tid, lines)
	if err != nil {
		return nil, err
	}
	if !paged && b.meta == nil {
		return nil, command.BadRequest("invalid_export", "the export has no tournament item ("+store.TournamentPK(tid)+"/"+store.MetaSK+")")
	}
	if err := checkCaps(b.counts); err != nil {
		return nil, err
	}
	if err := s.refuseExisting(ctx, tid); err != nil {
		return nil, err
	}
	if paged {
		return s.begin(ctx, head, lines, b)
	}
	ev, err := s.create(ctx, tid, append(b.items, b.meta), marks)
	if err != nil {
		return nil, err
	}
	return &Imported{Outcome: Made, TournamentID: tid, Items: len(ev.Items) + 1, Games: ev.Games}, nil // a mirror's marks counted, as they are created
}

// create checks an export's items and creates them, the tournament item
// last, with what marks adds.
func (s *Service) create(ctx context.Context, tid string, all []*store.Item, marks Marks) (*Checked, error) {
	ev, err := s.check(ctx, tid, all)
	if err != nil {
		return nil, err
	}
	if marks != nil {
		if err := marks(ev); err != nil {
			return nil, err
		}
	}
	if err := s.store.CreateItems(ctx, append(ev.Items, ev.Meta)); err != nil {
		return nil, importConflict(err)
	}
	// The work its rounds owe is this stack's now (a mirror's read-only
	// copy's is its source's: the due work's runner drops those items).
	s.svc.IndexDue(ctx, tid)
	return ev, nil
}

// refuseExisting is a conflict when event tid exists here already, or an
// import of it is staged: a second import is refused, never merged into
// the first.
func (s *Service) refuseExisting(ctx context.Context, tid string) error {
	meta, state := store.Key{PK: store.TournamentPK(tid), SK: store.MetaSK}, store.Key{PK: store.ImportPK(tid), SK: store.ImportSK}
	got, err := s.store.GetMany(ctx, meta, state)
	if err != nil {
		return err
	}
	if got[meta] != nil {
		return &command.Error{Kind: command.Conflict, Code: "already_exists", Message: "tournament " + tid + " exists here already: it was imported or created before"}
	}
	if rec := got[state]; rec != nil && rec.Expires > s.svc.NowMs(ctx)/1000 {
		var st items.Import
		if items.Decode(rec, &st) == nil && !st.Complete {
			return importInProgress(tid)
		}
	}
	return nil
}

func importInProgress(tid string) error {
	return &command.Error{Kind: command.Conflict, Code: "import_in_progress",
		Message: "an import of tournament " + tid + " is under way: send its other parts with its token, or begin again after it expires (24 hours)"}
}

func importConflict(err error) error {
	if errors.Is(err, store.ErrConflict) {
		return &command.Error{Kind: command.Conflict, Code: "already_exists", Message: "an item of this export exists here with other content; nothing was imported"}
	}
	return err
}

// stagedChunk is the most of a part's lines one staged item holds: within
// an item's 400 KB with room for its keys, and within MaxPart so that a
// chunk is never split itself.
const stagedChunk = 300_000

// begin starts a multi-part import with an export's first page: the page
// must hold the event item (exports put it first), which must prove it is
// of its event before anything is stored; then the import is claimed
// (a conflict while another is under way), the page staged apart from the
// event's keys, and the token the parts need answered.
func (s *Service) begin(ctx context.Context, head Header, lines [][]byte, b batch) (*Imported, error) {
	tid := head.TournamentID
	if b.meta == nil {
		return nil, command.BadRequest("invalid_export", "the first page of a paged export must hold the tournament item ("+store.TournamentPK(tid)+"/"+store.MetaSK+"): export the event again")
	}
	recs, err := store.Documents([]*store.Item{b.meta})
	if err != nil {
		return nil, command.BadRequest("invalid_export", err.Error())
	}
	var t tournament.Tournament
	if err := service.DecodeSent(recs[0], store.KindTournament, &t); err != nil {
		return nil, err
	}
	if t.ID != tid {
		return nil, service.RefuseItem(recs[0].PK, recs[0].SK, "its body names tournament "+quote(clip(t.ID, 40)))
	}
	if err := s.checkProvenance(&t); err != nil {
		return nil, err
	}
	now := s.svc.NowMs(ctx)
	rec, err := s.store.Get(ctx, store.ImportPK(tid), store.ImportSK)
	switch {
	case errors.Is(err, store.ErrNotFound):
		rec = &store.Record{PK: store.ImportPK(tid), SK: store.ImportSK, Kind: store.KindImport}
	case err != nil:
		return nil, err
	case rec.Expires > now/1000: // an abandoned import (TTL passed, not yet deleted) may be begun again
		return nil, importInProgress(tid)
	}
	token := "import." + tid + "." + service.NewID('k')[1:]
	digest := sha256.New()
	for _, l := range lines {
		digest.Write(l)
		digest.Write([]byte{'\n'})
	}
	st := items.Import{TokenHash: service.HashToken(token), Snapshot: head.Snapshot, Total: head.Items, Received: len(lines),
		Games: b.games, Counts: b.counts}
	if head.Version == 2 { // its last part names them
		st.Version, st.Snapshot, st.Total = 2, "", 0
	}
	if err := saveDigest(&st, digest); err != nil {
		return nil, err
	}
	rec.Expires = (now + importTTL.Milliseconds()) / 1000
	// The claim first, then the page: a concurrent first page loses the
	// claim and stages nothing.
	if err := s.store.Put(ctx, items.Encode(rec, st)); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return nil, &command.Error{Kind: command.Conflict, Code: "import_in_progress", Message: "another import of tournament " + tid + " began at the same moment"}
		}
		return nil, err
	}
	n, err := s.stage(ctx, tid, 0, lines, rec.Expires)
	if err == nil {
		st.Pages = []items.StagedPage{{Offset: 0, Chunks: n}}
		err = s.store.Put(ctx, items.Encode(rec, st))
	}
	if err != nil {
		_ = s.store.Delete(context.WithoutCancel(ctx), rec.PK, rec.SK) // a retry begins afresh
		return nil, err
	}
	return &Imported{Outcome: Staged, TournamentID: tid, Items: st.Received, Games: st.Games, Total: st.Total, More: true, Token: token}, nil
}

// stage writes one part's lines into its import's staging partition, in
// chunks of at most stagedChunk bytes; a chunk left by a failed attempt at
// the same part is overwritten. It returns how many chunks it wrote.
func (s *Service) stage(ctx context.Context, tid string, offset int, lines [][]byte, expires int64) (int, error) {
	var buf items.Staged
	for _, l := range lines {
		buf = append(buf, l...)
		buf = append(buf, '\n')
	}
	n := 0
	for off := 0; off < len(buf); off += stagedChunk {
		n++
		rec := &store.Record{PK: store.ImportPK(tid), SK: store.StagedSK(offset, n), Kind: store.KindStaged, Doc: buf[off:min(off+stagedChunk, len(buf))], Expires: expires}
		err := s.store.Put(ctx, rec)
		if errors.Is(err, store.ErrConflict) {
			old, gerr := s.store.Get(ctx, rec.PK, rec.SK)
			if gerr != nil {
				return 0, gerr
			}
			rec.Version = old.Version
			err = s.store.Put(ctx, rec)
		}
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// staged reads back every part of an import as staged, as item lines in
// export order.
func (s *Service) staged(ctx context.Context, tid string, pages []items.StagedPage) ([][]byte, error) {
	recs, err := s.store.Query(ctx, store.ImportPK(tid), store.StagedPrefix, 0)
	if err != nil {
		return nil, err
	}
	docs := make(map[string]items.Staged, len(recs))
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
func (s *Service) unstage(ctx context.Context, tid string, pages []items.StagedPage) {
	ctx = context.WithoutCancel(ctx)
	for _, p := range pages {
		for i := 1; i <= p.Chunks; i++ {
			_ = s.store.Delete(ctx, store.ImportPK(tid), store.StagedSK(p.Offset, i))
		}
	}
}

// ImportPart continues a multi-part import with a later page of a paged
// export (head and lines), sent with the import's token: the pages go in
// order, each staged apart from the event's keys. A part already received
// is acknowledged and changes nothing (Repeated); a part out of order is a
// conflict (out_of_order), one of another export too (foreign_part). When
// the last part is in, the digest of all the parts must be the export's
// snapshot; then the whole export is read back, checked as an unpaged one
// is (check), and created, the tournament item last: the event appears
// whole (Made). An export refused then ends the import.
//
// A version 2 export's parts name no snapshot or total until the last (the
// one without next), which must name both: the items received in all, and
// the digest chained over every part. A part of another export of the
// event is then told only at the last, whose snapshot the mixed parts do
// not make; the import ends as any refused export's does. That last part
// may hold no items (the pages' items ran out with the one before).
func (s *Service) ImportPart(ctx context.Context, head PartHeader, lines [][]byte, token string, marks Marks) (*Imported, error) {
	tid := head.TournamentID
	switch {
	case head.Version != 1 && head.Version != 2:
		return nil, command.BadRequest("invalid_export", fmt.Sprintf("export version %d is not one this server reads (1 or 2)", head.Version))
	case !service.ValidID('t', tid):
		return nil, command.BadRequest("invalid_export", "the header's tournamentId is missing or malformed")
	case len(lines) != head.Items || head.Items < 1 && (head.Version == 1 || head.Next != ""):
		return nil, command.BadRequest("invalid_export", fmt.Sprintf("the header announces %d items but %d follow: the part is incomplete", head.Items, len(lines)))
	case !strings.HasPrefix(token, "import."+tid+"."):
		return nil, &command.Error{Kind: command.Unauthorized, Code: "unauthorized",
			Message: "a part needs the import's token (importToken of the first page's answer) as Authorization: Bearer"}
	}
	for range 3 { // a concurrent part moved the import on: read it again
		out, err := s.receive(ctx, head, lines, token, marks)
		if !errors.Is(err, errMoved) {
			return out, err
		}
	}
	return nil, &command.Error{Kind: command.Conflict, Code: "conflict", Message: "other parts of this import were being written at the same time: send this part again"}
}

// errMoved is a part's write of the import's state losing to another part's.
var errMoved = errors.New("the import moved on meanwhile")

// receive is one attempt at a part: the import's state read, the part
// checked against it and staged, the state written under the version read
// (errMoved when another part's write came first).
func (s *Service) receive(ctx context.Context, head PartHeader, lines [][]byte, token string, marks Marks) (*Imported, error) {
	tid := head.TournamentID
	rec, err := s.store.Get(ctx, store.ImportPK(tid), store.ImportSK)
	if errors.Is(err, store.ErrNotFound) || err == nil && rec.Expires <= s.svc.NowMs(ctx)/1000 {
		return nil, &command.Error{Kind: command.NotFound, Code: "not_found",
			Message: "no import of tournament " + tid + " is under way here: send the export's first page to POST /tournaments/import"}
	} else if err != nil {
		return nil, err
	}
	var st items.Import
	if err := items.Decode(rec, &st); err != nil {
		return nil, err
	}
	if !service.TokenMatches(token, st.TokenHash) {
		return nil, command.Forbid("this token is not the one of tournament " + tid + "'s import")
	}
	progress := &Imported{Outcome: Repeated, TournamentID: tid, Items: st.Received, Games: st.Games, Total: st.Total, More: !st.Complete}
	version := max(st.Version, 1)
	switch {
	case head.Version != version:
		return nil, &command.Error{Kind: command.Conflict, Code: "foreign_part",
			Message: fmt.Sprintf("this part is of a version %d export, the import of version %d: every part must come from the export whose first page began the import", head.Version, version)}
	case version == 1 && (head.Snapshot != st.Snapshot || head.Total != st.Total):
		return nil, &command.Error{Kind: command.Conflict, Code: "foreign_part",
			Message: "this part is of another export of the event (another snapshot): every part must come from the export whose first page began the import"}
	case head.Offset >= 0 && head.Offset+head.Items <= st.Received && (head.Items > 0 || st.Complete):
		return progress, nil // sent before: nothing changes
	case head.Offset != st.Received:
		return nil, &command.Error{Kind: command.Conflict, Code: "out_of_order",
			Message: fmt.Sprintf("this part starts at item %d, but the import holds %d items: send the part that starts at item %d first", head.Offset, st.Received, st.Received)}
	case version == 1 && st.Received+head.Items > st.Total:
		return nil, command.BadRequest("invalid_export", fmt.Sprintf("this part ends after item %d, but the export has %d", st.Received+head.Items, st.Total))
	}
	b, err := parseLines(tid, lines)
	if err != nil {
		return nil, err
	}
	if b.meta != nil {
		return nil, command.BadRequest("invalid_export", fmt.Sprintf("line %d: a second tournament item", b.metaAt))
	}
	counts := maps.Clone(st.Counts)
	if counts == nil {
		counts = map[string]int{}
	}
	for k, n := range b.counts {
		counts[k] += n
	}
	if err := checkCaps(counts); err != nil {
		return nil, err
	}
	digest := sha256.New()
	if err := digest.(encoding.BinaryUnmarshaler).UnmarshalBinary(st.Digest); err != nil {
		return nil, fmt.Errorf("import state digest: %w", err)
	}
	for _, l := range lines {
		digest.Write(l)
		digest.Write([]byte{'\n'})
	}
	last, snapshot := st.Received+head.Items == st.Total, st.Snapshot
	if version == 2 {
		last, snapshot = head.Next == "", head.Snapshot
		if last && len(snapshot) != 64 {
			s.abandon(ctx, rec, st.Pages)
			return nil, command.BadRequest("invalid_export", "the last part of a version 2 export (no next) must name its total and snapshot; the import is ended, begin it again")
		}
		if last && head.Total != st.Received+head.Items {
			s.abandon(ctx, rec, st.Pages)
			return nil, command.BadRequest("invalid_export", fmt.Sprintf("the last part names a total of %d items, but the parts hold %d: a part was left out or added; the import is ended, begin it again", head.Total, st.Received+head.Items))
		}
	}
	if last && hex.EncodeToString(digest.Sum(nil)) != snapshot {
		s.abandon(ctx, rec, st.Pages)
		return nil, command.BadRequest("invalid_export", "the parts do not make up the export their snapshot names: an item was changed, or a part left out; the import is ended, begin it again")
	}
	n, err := s.stage(ctx, tid, head.Offset, lines, rec.Expires)
	if err != nil {
		return nil, err
	}
	pages := append(slices.Clone(st.Pages), items.StagedPage{Offset: head.Offset, Chunks: n})
	if last { // every part is in: check the whole export, then make the event
		ev, err := s.finish(ctx, tid, pages, marks)
		if err != nil {
			var ce *command.Error
			if errors.As(err, &ce) && ce.Kind != command.Throttled && ce.Kind != command.Unavailable {
				s.abandon(ctx, rec, pages) // the export is refused: the import ends
			}
			return nil, err
		}
		st.Games = ev.Games
	} else {
		st.Games += b.games
	}
	st.Received += head.Items
	st.Counts, st.Pages, st.Complete = counts, pages, last
	if last {
		st.Total, st.Snapshot = st.Received, snapshot
	}
	if err := saveDigest(&st, digest); err != nil {
		return nil, err
	}
	if err := s.store.Put(ctx, items.Encode(rec, st)); errors.Is(err, store.ErrConflict) {
		return nil, errMoved
	} else if err != nil {
		return nil, err
	}
	if last {
		s.unstage(ctx, tid, pages)
		return &Imported{Outcome: Made, TournamentID: tid, Items: st.Total, Games: st.Games}, nil
	}
	progress.Outcome, progress.Items, progress.Games = Staged, st.Received, st.Games
	return progress, nil
}

// saveDigest keeps the running digest's state in the import's.
func saveDigest(st *items.Import, digest hash.Hash) (err error) {
	st.Digest, err = digest.(encoding.BinaryMarshaler).MarshalBinary()
	return err
}

// finish reads a multi-part import's staged parts back, checks the whole
// export and creates the event, the tournament item last.
func (s *Service) finish(ctx context.Context, tid string, pages []items.StagedPage, marks Marks) (*Checked, error) {
	lines, err := s.staged(ctx, tid, pages)
	if err != nil {
		return nil, err
	}
	all := make([]*store.Item, len(lines))
	for i, l := range lines {
		if all[i], err = store.ParseItem(l); err != nil {
			return nil, command.BadRequest("invalid_export", fmt.Sprintf("item %d: %v", i+1, err))
		}
	}
	return s.create(ctx, tid, all, marks)
}

// abandon ends a multi-part import whose export was refused: its state and
// staged parts are deleted, so it may be begun again.
func (s *Service) abandon(ctx context.Context, rec *store.Record, pages []items.StagedPage) {
	tid := strings.TrimPrefix(rec.PK, store.ImportPrefix)
	s.unstage(ctx, tid, pages)
	_ = s.store.Delete(context.WithoutCancel(ctx), rec.PK, rec.SK)
}
