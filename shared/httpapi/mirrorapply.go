package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/transfer"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The copy's side of a mirror. What a change stream may write, and why
// nothing else:
//
//   - the copy is claimed (POST …/mirror/replica) by whoever holds this
//     stack's creation key AND the event's key (its id derives from it,
//     eventIDOf), and only while no event of that id is here, or to renew
//     the token of a copy of that event not taken over;
//   - the event itself arrives through POST /tournaments/import, with every
//     check of an import (shared/service/transfer, check.go);
//   - a batch of changes carries the stream's token (its hash is in the
//     copy's state), and every item in it is the event's own: an item of
//     its partition under a sort key an event has, decoded by its kind's
//     codec (the event item keeping its id and key), or a game whose link
//     names the event and whose id the event's key made (or one of its
//     rounds pairs) — a game of this stack that is not the event's is never
//     written; removals are of the event's items and games only.

// replicaBody is POST /tournaments/{tid}/mirror/replica's body.
type replicaBody struct {
	Source   string `json:"source"`
	Token    string `json:"token"`
	EventKey string `json:"eventKey"`
}

// replicaOut answers a claim: whether the copy was here already (its event
// is then sent as changes, not imported).
type replicaOut struct {
	TournamentID string `json:"tournamentId"`
	Existing     bool   `json:"existing"`
}

// POST /tournaments/{tid}/mirror/replica — anyone with this stack's
// creation key and the event's key: claim the copy of event tid, read-only
// from now on, fed by the stream whose token this names.
func (a *API) replicaMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var body replicaBody
	if err := c.decode(&body); err != nil {
		return 0, nil, err
	}
	source, err := checkTarget(body.Source)
	if err != nil {
		return 0, nil, badRequest("invalid_field", "source: want the base URL of the stack the event is mirrored from")
	}
	if !strings.HasPrefix(body.Token, "mirror."+tid+".") || len(body.Token) > 200 {
		return 0, nil, badRequest("invalid_field", "token: want the mirror's token (mirror."+tid+".…)")
	}
	if !service.ProvenKey(&tournament.Tournament{ID: tid, Key: body.EventKey}) {
		return 0, nil, &Error{Status: http.StatusForbidden, Code: "unproven_export",
			Message: "eventKey is not the key tournament " + tid + "'s id is derived from: only the event's own stack can mirror it"}
	}
	for range 5 {
		in, rec, err := a.loadMirrorIn(c, tid)
		if err != nil {
			return 0, nil, err
		}
		_, _, terr := a.loadTournament(c.ctx(), tid)
		var e *Error
		exists := terr == nil
		if terr != nil && !(errors.As(terr, &e) && e.Status == http.StatusNotFound) {
			return 0, nil, terr
		}
		if exists && (in == nil || in.TakenOver) {
			return 0, nil, &Error{Status: http.StatusConflict, Code: "already_exists", Message: "tournament " + tid + " exists here and is written here: it cannot become a mirror's copy"}
		}
		if rec == nil {
			rec = &store.Record{PK: store.MirrorPK(tid), SK: store.MirrorInSK, Kind: store.KindMirrorIn}
			in = &mirrorIn{}
		}
		// A new stream: its seqs start again from 1 (a copy renewed by a
		// second mirror of the event gets the event whole as its first change).
		in.Source, in.TokenHash, in.LastSeq = source, service.HashToken(body.Token), 0
		rec.Doc, _ = json.Marshal(in)
		if err := a.holdMarks(c, true); err != nil {
			return 0, nil, err
		}
		mark, _ := json.Marshal(mirrorMark{Tournament: tid, Source: source})
		// The mark first: the event is read-only before its first item lands.
		if err := a.store.Replace(c.ctx(), &store.Record{PK: store.MirrorPK(tid), SK: store.ReadOnlySK, Kind: store.KindReadOnly, Doc: mark, Version: 1}); err != nil {
			return 0, nil, err
		}
		if err := a.store.Put(c.ctx(), rec); errors.Is(err, store.ErrConflict) {
			continue
		} else if err != nil {
			return 0, nil, err
		}
		status := http.StatusCreated
		if exists {
			status = http.StatusOK
		}
		return status, replicaOut{TournamentID: tid, Existing: exists}, nil
	}
	return 0, nil, &Error{Status: http.StatusConflict, Code: "conflict", Message: "the copy was claimed at the same time: send this again"}
}

// POST /tournaments/{tid}/mirror/changes — the mirror's stream (its own
// token): apply a batch of the source's changes. A batch at or before the
// last applied changes nothing (200); one after it lands in one
// transaction with the copy's state (in as few as DynamoDB's limits allow
// when it is larger than one may hold).
func (a *API) applyMirror(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var body mirrorChanges
	if err := c.decode(&body); err != nil {
		return 0, nil, err
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(c.r.Header.Get("Authorization")), " ")
	switch token = strings.TrimSpace(token); {
	case strings.EqualFold(scheme, "Bearer") && strings.HasPrefix(token, "mirror."+tid+"."):
	case strings.EqualFold(scheme, "Bearer") && strings.Count(token, ".") == 2:
		return 0, nil, forbidden("this route takes the mirror's own token (mirror." + tid + ".…), not an event's or a game's")
	default:
		return 0, nil, &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "a mirror's changes need its token (mirror." + tid + ".…) as Authorization: Bearer"}
	}
	for range 5 {
		in, rec, err := a.loadMirrorIn(c, tid)
		if err != nil {
			return 0, nil, err
		}
		if in == nil || !tokenMatches(token, in.TokenHash) {
			return 0, nil, errUnknownToken
		}
		if in.TakenOver {
			return 0, nil, &Error{Status: http.StatusConflict, Code: "mirror_taken_over", Message: "the copy of tournament " + tid + " was taken over: it is written here now, and takes no more changes"}
		}
		if body.To <= in.LastSeq {
			return http.StatusOK, map[string]int64{"lastSeq": in.LastSeq}, nil // sent before
		}
		t, _, err := a.loadTournament(c.ctx(), tid)
		if err != nil {
			return 0, nil, &Error{Status: http.StatusConflict, Code: "not_a_mirror", Message: "tournament " + tid + " has not been imported here yet: a mirror sends the event whole first"}
		}
		items := make([]*store.Item, len(body.Items))
		for i, l := range body.Items {
			if items[i], err = store.ParseItem(l); err != nil {
				return 0, nil, badRequest("invalid_export", fmt.Sprintf("item %d: %v", i+1, err))
			}
		}
		games, err := a.checkChanges(c, t, in, items, body.Deleted)
		if err != nil {
			return 0, nil, err
		}
		mark, _ := json.Marshal(mirrorMark{Tournament: tid, Source: in.Source})
		var marks []*store.Record
		for _, gid := range games {
			marks = append(marks, &store.Record{PK: store.MirrorPK(gid), SK: store.ReadOnlySK, Kind: store.KindReadOnly, Doc: mark})
		}
		in.Games = append(in.Games, games...)
		in.LastChangeAt = c.nowMs()
		if body.Final {
			in.LastSeq = body.To
		}
		rec.Doc, _ = json.Marshal(in)
		if err := a.store.ApplyItems(c.ctx(), items, body.Deleted, marks, rec); errors.Is(err, store.ErrConflict) {
			continue // another batch landed meanwhile: read the state again
		} else if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, map[string]int64{"lastSeq": in.LastSeq}, nil
	}
	return 0, nil, &Error{Status: http.StatusConflict, Code: "conflict", Message: "other batches landed at the same time: send this one again"}
}

// checkChanges refuses a batch that would write anything but event t's own
// items (see the top of this file); it returns the games new to the copy.
func (a *API) checkChanges(c *call, t *tournament.Tournament, in *mirrorIn, items []*store.Item, deleted []store.Key) ([]string, error) {
	tid, pk := t.ID, store.TournamentPK(t.ID)
	recs, err := store.Documents(items)
	if err != nil {
		return nil, badRequest("invalid_export", err.Error())
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
		marks, err := a.store.GetMany(c.ctx(), markKeys...)
		if err != nil {
			return nil, err
		}
		for k, rec := range marks {
			var m mirrorMark
			if json.Unmarshal(rec.Doc, &m) == nil && m.Tournament == tid {
				known[strings.TrimPrefix(k.PK, store.MirrorPrefix)] = true
			}
		}
	}
	var rounds []*tournament.Round
	var found []*games.Item
	for _, rec := range recs {
		if gid, ok := store.GameOf(rec.PK); ok {
			if !service.ValidID('g', gid) || rec.SK != store.GameSK || rec.Kind != store.KindGame {
				return nil, transfer.RefuseItem(rec.PK, rec.SK, "not a game item (G#<game id>/GAME, kind game)")
			}
			sg, err := games.Decode(gid, rec)
			if err == nil {
				err = transfer.Renders(sg)
			}
			if err != nil {
				return nil, transfer.RefuseItem(rec.PK, rec.SK, "a corrupt game: "+err.Error())
			}
			if sg.Link.Tournament != tid {
				return nil, transfer.RefuseItem(rec.PK, rec.SK, "its link names tournament "+quote(clip(sg.Link.Tournament, 40))+", not the mirrored "+tid)
			}
			found = append(found, sg)
			continue
		}
		if rec.PK != pk {
			return nil, transfer.RefuseItem(rec.PK, rec.SK, "not an item of tournament "+tid)
		}
		var want string
		switch prefix := store.SKPrefix(rec.SK); {
		case rec.SK == store.MetaSK:
			nt := new(tournament.Tournament)
			if err := transfer.DecodeItem(rec, store.KindTournament, nt); err != nil {
				return nil, err
			}
			if nt.ID != tid || nt.Key != t.Key {
				return nil, transfer.RefuseItem(rec.PK, rec.SK, "an event item must keep its event's id and key")
			}
			continue
		case prefix == store.PlayerPrefix:
			p := new(tournament.Player)
			err, want = transfer.DecodeItem(rec, store.KindPlayer, p), store.PlayerSK(p.ID)
		case prefix == store.OfficialPrefix:
			o := new(tournament.Official)
			err, want = transfer.DecodeItem(rec, store.KindOfficial, o), store.OfficialSK(o.ID)
		case prefix == store.TeamPrefix:
			m := new(tournament.Team)
			err, want = transfer.DecodeItem(rec, store.KindTeam, m), store.TeamSK(m.ID)
		case prefix == store.RoundPrefix:
			r := new(tournament.Round)
			err, want = transfer.DecodeItem(rec, store.KindRound, r), store.RoundSK(r.Number)
			rounds = append(rounds, r)
		case prefix == store.ResultPrefix:
			var x tournament.Result
			err, want = transfer.DecodeItem(rec, store.KindResult, &x), store.ResultSK(x.Round, x.Table)
		case prefix == store.LineupPrefix:
			var l tournament.Lineup
			err, want = transfer.DecodeItem(rec, store.KindLineup, &l), store.LineupSK(l.Round, l.Team)
		default:
			return nil, transfer.RefuseItem(rec.PK, rec.SK, "not a sort key an event has (META, P#, O#, M#, R#, X#, L#)")
		}
		if err != nil {
			return nil, err
		}
		if rec.SK != want {
			return nil, transfer.RefuseItem(rec.PK, rec.SK, "its body is of "+quote(clip(want, 60)))
		}
	}
	var fresh []string
	var unknown []store.Key
	for _, sg := range found {
		if known[sg.ID] {
			continue
		}
		ok, err := a.eventsGame(c, t, sg, rounds)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, transfer.RefuseItem(store.GamePK(sg.ID), store.GameSK, "no pairing of the event's rounds has this game")
		}
		fresh = append(fresh, sg.ID)
		unknown = append(unknown, store.Key{PK: store.GamePK(sg.ID), SK: store.GameSK})
	}
	// A game new to the copy must not be one of this stack's own.
	if len(unknown) > 0 {
		found, err := a.store.GetMany(c.ctx(), unknown...)
		if err != nil {
			return nil, err
		}
		for k := range found {
			return nil, &Error{Status: http.StatusConflict, Code: "already_exists", Message: "game " + strings.TrimPrefix(k.PK, store.GamePrefix) + " exists here and is not the mirrored event's"}
		}
	}
	for _, k := range deleted {
		gid, isGame := store.GameOf(k.PK)
		switch {
		case isGame && known[gid] && k.SK == store.GameSK:
		case k.PK == pk && k.SK != store.MetaSK && slices.Contains([]string{store.PlayerPrefix, store.OfficialPrefix, store.TeamPrefix, store.RoundPrefix, store.ResultPrefix, store.LineupPrefix}, store.SKPrefix(k.SK)):
		default:
			return nil, transfer.RefuseItem(k.PK, k.SK, "a removal of an item that is not the mirrored event's")
		}
	}
	return fresh, nil
}

// copyMarks adds, to an import of event tid that a mirror claimed here
// (its copy), the read-only marks of the games it brings, so that they are
// read-only from the moment they exist, like the event (whose mark the
// claim wrote).
func (a *API) copyMarks(c *call, tid string, ev *transfer.Checked) error {
	in, _, err := a.loadMirrorIn(c, tid)
	if err != nil || in == nil || in.TakenOver {
		return err
	}
	mark, _ := json.Marshal(mirrorMark{Tournament: tid, Source: in.Source})
	for _, it := range ev.Items {
		if gid, ok := store.GameOf(it.PK); ok && it.SK == store.GameSK {
			ev.Items = append(ev.Items, store.ItemOf(&store.Record{PK: store.MirrorPK(gid), SK: store.ReadOnlySK, Kind: store.KindReadOnly, Doc: mark, Version: 1}))
		}
	}
	return nil
}

// eventsGame reports whether sg is a game event t pairs: its id keyed with
// the event's key at its link's table, or named by its round (in the batch
// or here).
func (a *API) eventsGame(c *call, t *tournament.Tournament, sg *games.Item, batch []*tournament.Round) (bool, error) {
	l := sg.Link
	if key := service.GameKey(t); key != "" {
		for n := 1; n <= service.KeyedGames; n++ {
			if service.GameID(key, t.ID, l.Round, l.Table, n) == sg.ID {
				return true, nil
			}
		}
	}
	rounds := batch
	var r tournament.Round
	if _, err := a.load(c.ctx(), store.TournamentPK(t.ID), store.RoundSK(l.Round), "round", &r); err == nil {
		rounds = append(rounds, &r)
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
