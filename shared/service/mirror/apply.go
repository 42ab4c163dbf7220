package mirror

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/service/transfer"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The copy's side of a mirror. What a change stream may write, and why
// nothing else:
//
//   - the copy is claimed (Claim) by whoever holds this stack's creation
//     key (the HTTP layer checks it) AND the event's key (its id derives
//     from it, service.EventIDOf), and only while no event of that id is
//     here, or to renew the token of a copy of that event not taken over;
//   - the event itself arrives through this stack's import, with every
//     check of an import;
//   - a batch of changes carries the stream's token (its hash is in the
//     copy's state), and every item in it is the event's own: an item of
//     its partition under a sort key an event has, decoded by its kind's
//     codec (the event item keeping its id and key), or a game whose link
//     names the event and whose id the event's key made (or one of its
//     rounds pairs) — a game of this stack that is not the event's is never
//     written; removals are of the event's items and games only.

// Claim claims the copy of event tid here, read-only from now on, fed by
// the stream whose token c names; existing reports that the event was here
// already (a copy an earlier mirror made, whose token is renewed).
func (s *Service) Claim(ctx context.Context, tid string, c Claim) (existing bool, err error) {
	source, err := CheckTarget(c.Source)
	if err != nil {
		return false, command.BadRequest("invalid_field", "source: want the base URL of the stack the event is mirrored from")
	}
	if !strings.HasPrefix(c.Token, "mirror."+tid+".") || len(c.Token) > 200 {
		return false, command.BadRequest("invalid_field", "token: want the mirror's token (mirror."+tid+".…)")
	}
	if !service.ProvenKey(&tournament.Tournament{ID: tid, Key: c.EventKey}) {
		return false, &command.Error{Kind: command.Forbidden, Code: "unproven_export",
			Message: "eventKey is not the key tournament " + tid + "'s id is derived from: only the event's own stack can mirror it"}
	}
	for range 5 {
		in, rec, err := s.loadCopy(ctx, tid)
		if err != nil {
			return false, err
		}
		_, _, terr := s.Service.Tournament(ctx, tid)
		var e *command.Error
		exists := terr == nil
		if terr != nil && !(errors.As(terr, &e) && e.Kind == command.NotFound) {
			return false, terr
		}
		if exists && (in == nil || in.TakenOver) {
			return false, conflict("already_exists", "tournament "+tid+" exists here and is written here: it cannot become a mirror's copy")
		}
		if rec == nil {
			rec = &store.Record{PK: store.MirrorPK(tid), SK: store.MirrorInSK, Kind: store.KindMirrorIn}
			in = &items.Copy{}
		}
		// A new stream: its seqs start again from 1 (a copy renewed by a
		// second mirror of the event gets the event whole as its first change).
		in.Source, in.TokenHash, in.LastSeq = source, service.HashToken(c.Token), 0
		if err := s.holdMarks(ctx, true); err != nil {
			return false, err
		}
		// The mark first: the event is read-only before its first item lands.
		if err := s.Store.Replace(ctx, markItem(tid, items.Mark{Tournament: tid, Source: source}, 1)); err != nil {
			return false, err
		}
		if err := s.Store.Put(ctx, items.Encode(rec, in)); errors.Is(err, store.ErrConflict) {
			continue
		} else if err != nil {
			return false, err
		}
		return exists, nil
	}
	return false, conflict("conflict", "the copy was claimed at the same time: send this again")
}

// Apply applies a batch of the source's changes to the copy of event tid,
// sent with the stream's token; it returns the last change applied. A
// batch at or before the last applied changes nothing; one after it lands
// in one transaction with the copy's state (in as few as DynamoDB's limits
// allow when it is larger than one may hold).
func (s *Service) Apply(ctx context.Context, tid, token string, b Batch) (lastSeq int64, err error) {
	for range 5 {
		in, rec, err := s.loadCopy(ctx, tid)
		if err != nil {
			return 0, err
		}
		if in == nil || !service.TokenMatches(token, in.TokenHash) {
			return 0, &command.Error{Kind: command.Unauthorized, Code: "unauthorized", Message: "unknown token"}
		}
		if in.TakenOver {
			return 0, conflict("mirror_taken_over", "the copy of tournament "+tid+" was taken over: it is written here now, and takes no more changes")
		}
		if b.To <= in.LastSeq {
			return in.LastSeq, nil // sent before
		}
		t, _, err := s.Service.Tournament(ctx, tid)
		if err != nil {
			return 0, conflict("not_a_mirror", "tournament "+tid+" has not been imported here yet: a mirror sends the event whole first")
		}
		puts := make([]*store.Item, len(b.Items))
		for i, l := range b.Items {
			if puts[i], err = store.ParseItem(l); err != nil {
				return 0, command.BadRequest("invalid_export", fmt.Sprintf("item %d: %v", i+1, err))
			}
		}
		fresh, err := s.checkChanges(ctx, t, puts, b.Deleted)
		if err != nil {
			return 0, err
		}
		var marks []*store.Record
		for _, gid := range fresh {
			marks = append(marks, markItem(gid, items.Mark{Tournament: tid, Source: in.Source}, 0))
		}
		in.Games = append(in.Games, fresh...)
		in.LastChangeAt = s.Service.NowMs(ctx)
		if b.Final {
			in.LastSeq = b.To
		}
		if err := s.Store.ApplyItems(ctx, puts, b.Deleted, marks, items.Encode(rec, in)); errors.Is(err, store.ErrConflict) {
			continue // another batch landed meanwhile: read the state again
		} else if err != nil {
			return 0, err
		}
		return in.LastSeq, nil
	}
	return 0, conflict("conflict", "other batches landed at the same time: send this one again")
}

// checkChanges refuses a batch that would write anything but event t's own
// items (see the top of this file); it returns the games new to the copy.
func (s *Service) checkChanges(ctx context.Context, t *tournament.Tournament, puts []*store.Item, deleted []store.Key) ([]string, error) {
	tid, pk := t.ID, store.TournamentPK(t.ID)
	recs, err := store.Documents(puts)
	if err != nil {
		return nil, command.BadRequest("invalid_export", err.Error())
	}
	// The games this copy has already are the event's by their marks.
	var markKeys []store.Key
	for _, rec := range recs {
		if gid, ok := store.GameOf(rec.PK); ok {
			markKeys = append(markKeys, store.Key{PK: store.MirrorPK(gid), SK: store.ReadOnlySK})
		}
	}
	for _, k := range deleted {
		if gid, ok := store.GameOf(k.PK); ok {
			markKeys = append(markKeys, store.Key{PK: store.MirrorPK(gid), SK: store.ReadOnlySK})
		}
	}
	known := map[string]bool{}
	if len(markKeys) > 0 {
		marks, err := s.Store.GetMany(ctx, markKeys...)
		if err != nil {
			return nil, err
		}
		for k, rec := range marks {
			var m items.Mark
			if items.Decode(rec, &m) == nil && m.Tournament == tid {
				known[strings.TrimPrefix(k.PK, store.MirrorPrefix)] = true
			}
		}
	}
	var rounds []*tournament.Round
	var found []*games.Item
	for _, rec := range recs {
		if gid, ok := store.GameOf(rec.PK); ok {
			if !service.ValidID('g', gid) || rec.SK != store.GameSK || rec.Kind != store.KindGame {
				return nil, service.RefuseItem(rec.PK, rec.SK, "not a game item (G#<game id>/GAME, kind game)")
			}
			sg, err := games.Decode(gid, rec)
			if err == nil {
				err = service.Renders(sg)
			}
			if err != nil {
				return nil, service.RefuseItem(rec.PK, rec.SK, "a corrupt game: "+err.Error())
			}
			if sg.Link.Tournament != tid {
				return nil, service.RefuseItem(rec.PK, rec.SK, "its link names tournament "+quote(service.Clip(sg.Link.Tournament, 40))+", not the mirrored "+tid)
			}
			found = append(found, sg)
			continue
		}
		if rec.PK != pk {
			return nil, service.RefuseItem(rec.PK, rec.SK, "not an item of tournament "+tid)
		}
		var want string
		switch prefix := store.SKPrefix(rec.SK); {
		case rec.SK == store.MetaSK:
			nt := new(tournament.Tournament)
			if err := service.DecodeSent(rec, store.KindTournament, nt); err != nil {
				return nil, err
			}
			if nt.ID != tid || nt.Key != t.Key {
				return nil, service.RefuseItem(rec.PK, rec.SK, "an event item must keep its event's id and key")
			}
			continue
		case prefix == store.PlayerPrefix:
			p := new(tournament.Player)
			err, want = service.DecodeSent(rec, store.KindPlayer, p), store.PlayerSK(p.ID)
		case prefix == store.OfficialPrefix:
			o := new(tournament.Official)
			err, want = service.DecodeSent(rec, store.KindOfficial, o), store.OfficialSK(o.ID)
		case prefix == store.TeamPrefix:
			m := new(tournament.Team)
			err, want = service.DecodeSent(rec, store.KindTeam, m), store.TeamSK(m.ID)
		case prefix == store.RoundPrefix:
			r := new(tournament.Round)
			err, want = service.DecodeSent(rec, store.KindRound, r), store.RoundSK(r.Number)
			rounds = append(rounds, r)
		case prefix == store.ResultPrefix:
			var x tournament.Result
			err, want = service.DecodeSent(rec, store.KindResult, &x), store.ResultSK(x.Round, x.Table)
		case prefix == store.LineupPrefix:
			var l tournament.Lineup
			err, want = service.DecodeSent(rec, store.KindLineup, &l), store.LineupSK(l.Round, l.Team)
		default:
			return nil, service.RefuseItem(rec.PK, rec.SK, "not a sort key an event has (META, P#, O#, M#, R#, X#, L#)")
		}
		if err != nil {
			return nil, err
		}
		if rec.SK != want {
			return nil, service.RefuseItem(rec.PK, rec.SK, "its body is of "+quote(service.Clip(want, 60)))
		}
	}
	var fresh []string
	var unknown []store.Key
	for _, sg := range found {
		if known[sg.ID] {
			continue
		}
		ok, err := s.eventsGame(ctx, t, sg, rounds)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, service.RefuseItem(store.GamePK(sg.ID), store.GameSK, "no pairing of the event's rounds has this game")
		}
		fresh = append(fresh, sg.ID)
		unknown = append(unknown, store.Key{PK: store.GamePK(sg.ID), SK: store.GameSK})
	}
	// A game new to the copy must not be one of this stack's own.
	if len(unknown) > 0 {
		found, err := s.Store.GetMany(ctx, unknown...)
		if err != nil {
			return nil, err
		}
		for k := range found {
			return nil, conflict("already_exists", "game "+strings.TrimPrefix(k.PK, store.GamePrefix)+" exists here and is not the mirrored event's")
		}
	}
	for _, k := range deleted {
		gid, isGame := store.GameOf(k.PK)
		switch {
		case isGame && known[gid] && k.SK == store.GameSK:
		case k.PK == pk && k.SK != store.MetaSK && slices.Contains([]string{store.PlayerPrefix, store.OfficialPrefix, store.TeamPrefix, store.RoundPrefix, store.ResultPrefix, store.LineupPrefix}, store.SKPrefix(k.SK)):
		default:
			return nil, service.RefuseItem(k.PK, k.SK, "a removal of an item that is not the mirrored event's")
		}
	}
	return fresh, nil
}

// CopyMarks is what an import of event tid adds (transfer.Marks) when a
// mirror claimed the event here (its copy): the read-only marks of the
// games the import brings, created with them, so that they are read-only
// from the moment they exist, like the event (whose mark the claim wrote).
// It adds none to any other import.
func (s *Service) CopyMarks(ctx context.Context, tid string) transfer.Marks {
	return func(ev *transfer.Checked) error {
		in, _, err := s.loadCopy(ctx, tid)
		if err != nil || in == nil || in.TakenOver {
			return err
		}
		mark := items.Mark{Tournament: tid, Source: in.Source}
		for _, it := range ev.Items {
			if gid, ok := store.GameOf(it.PK); ok && it.SK == store.GameSK {
				ev.Items = append(ev.Items, store.ItemOf(markItem(gid, mark, 1)))
			}
		}
		return nil
	}
}

// eventsGame reports whether sg is a game event t pairs: its id keyed with
// the event's key at its link's table, or named by its round (in the batch
// or here).
func (s *Service) eventsGame(ctx context.Context, t *tournament.Tournament, sg *games.Item, batch []*tournament.Round) (bool, error) {
	l := sg.Link
	if key := service.GameKey(t); key != "" {
		for n := 1; n <= service.KeyedGames; n++ {
			if service.GameID(key, t.ID, l.Round, l.Table, n) == sg.ID {
				return true, nil
			}
		}
	}
	rounds := batch
	if rec, err := s.Store.Get(ctx, store.TournamentPK(t.ID), store.RoundSK(l.Round)); err == nil {
		var r tournament.Round
		if service.DecodeItem(rec, &r) == nil {
			rounds = append(rounds, &r)
		}
	}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			if r.Number == l.Round && p.GameID == sg.ID && p.Table == l.Table {
				return true, nil
			}
		}
	}
	return false, nil
}
