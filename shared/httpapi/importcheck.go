package httpapi

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// What an import may write: exactly one event, whole, and nothing else.
// Every item of the export is decoded by the codec its kind is read with and
// checked against the others before anything is written (checkImport):
//
//   - the event item (T#<tid>/META) names the event, and carries the key the
//     event's id is derived from (provenKey): nobody but a holder of the
//     event's own export can import under its id;
//   - every other item of T#<tid> is a player, official, team, round,
//     result or lineup under the sort key its body names; any other sort
//     key is refused;
//   - every game item (G#<gid>/GAME) decodes, and its link names this event
//     and a pairing of its rounds that has this game id, at its table, with
//     its players and (unless it is over) their token hashes; a pairing's game id without its
//     item in the export must be free on this stack;
//   - no item of any other partition (another event's, an idempotency
//     record, a connection), no attribute the table does not use.

// importedEvent is an export checked: the event and the items to create.
type importedEvent struct {
	t      *tournament.Tournament
	meta   *store.Item
	items  []*store.Item // every item but meta, which is written last
	games  int
	counts map[string]int
}

// refuseItem is the 400 refusing an import for one of its items
// (service.RefuseItem, as the *Error the import's callers test for).
func refuseItem(pk, sk, problem string) error { return toError(service.RefuseItem(pk, sk, problem)) }

// checkImport decodes and checks every item of event tid's export (all of
// its parts, in export order) as described above.
func (a *API) checkImport(c *call, tid string, items []*store.Item) (*importedEvent, error) {
	recs, err := store.Documents(items)
	if err != nil {
		return nil, badRequest("invalid_export", err.Error()+"; nothing was imported")
	}
	out := &importedEvent{counts: map[string]int{}}
	for _, it := range items {
		if it.PK == store.TournamentPK(tid) && it.SK == store.MetaSK {
			out.meta = it
		} else {
			out.items = append(out.items, it)
		}
	}
	var (
		players []*tournament.Player
		rounds  []*tournament.Round
		found   []*games.Item
	)
	pk := store.TournamentPK(tid)
	for _, rec := range recs {
		if gid, ok := store.GameOf(rec.PK); ok {
			if !service.ValidID('g', gid) || rec.SK != store.GameSK || rec.Kind != store.KindGame {
				return nil, refuseItem(rec.PK, rec.SK, "not a game item (G#<game id>/GAME, kind game)")
			}
			sg, err := games.Decode(gid, rec)
			if err != nil {
				return nil, refuseItem(rec.PK, rec.SK, "a corrupt game: "+err.Error())
			}
			if err := renders(sg); err != nil {
				return nil, refuseItem(rec.PK, rec.SK, "a corrupt game: "+err.Error())
			}
			found = append(found, sg)
			continue
		}
		if rec.PK != pk {
			return nil, refuseItem(rec.PK, rec.SK, "not an item of tournament "+tid)
		}
		prefix := store.SKPrefix(rec.SK)
		var want string // the sort key the body names (when it decoded)
		switch {
		case rec.SK == store.MetaSK:
			t := new(tournament.Tournament)
			if err := decodeItem(rec, store.KindTournament, t); err != nil {
				return nil, err
			}
			if t.ID != tid {
				return nil, refuseItem(rec.PK, rec.SK, "its body names tournament "+quote(clip(t.ID, 40)))
			}
			out.t = t
			continue
		case prefix == store.PlayerPrefix:
			p := new(tournament.Player)
			err = decodeItem(rec, store.KindPlayer, p)
			want = store.PlayerSK(p.ID)
			players = append(players, p)
		case prefix == store.OfficialPrefix:
			o := new(tournament.Official)
			err = decodeItem(rec, store.KindOfficial, o)
			want = store.OfficialSK(o.ID)
		case prefix == store.TeamPrefix:
			m := new(tournament.Team)
			err = decodeItem(rec, store.KindTeam, m)
			want = store.TeamSK(m.ID)
		case prefix == store.RoundPrefix:
			r := new(tournament.Round)
			err = decodeItem(rec, store.KindRound, r)
			want = store.RoundSK(r.Number)
			rounds = append(rounds, r)
		case prefix == store.ResultPrefix:
			var x tournament.Result
			err = decodeItem(rec, store.KindResult, &x)
			want = store.ResultSK(x.Round, x.Table)
		case prefix == store.LineupPrefix:
			var l tournament.Lineup
			err = decodeItem(rec, store.KindLineup, &l)
			want = store.LineupSK(l.Round, l.Team)
		default:
			return nil, refuseItem(rec.PK, rec.SK, "not a sort key an event has (META, P#, O#, M#, R#, X#, L#)")
		}
		if err != nil {
			return nil, err
		}
		if rec.SK != want {
			return nil, refuseItem(rec.PK, rec.SK, "its body is of "+quote(clip(want, 60)))
		}
		out.counts[prefix]++
	}
	if out.t == nil || out.meta == nil {
		return nil, badRequest("invalid_export", "the export has no tournament item ("+store.TournamentPK(tid)+"/"+store.MetaSK+")")
	}
	if err := a.checkProvenance(out.t); err != nil {
		return nil, err
	}
	if err := checkCaps(out.counts); err != nil {
		return nil, err
	}
	h := tournament.NewHistory(players, rounds, nil)
	pairings := map[string]struct {
		round int
		p     tournament.Pairing
	}{}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			for _, id := range []string{p.Red, p.Black} {
				if id != "" && h.Player(id) == nil && !service.ValidID('m', id) {
					return nil, refuseItem(pk, store.RoundSK(r.Number), fmt.Sprintf("table %d names %s, not a player of the event", p.Table, quote(clip(id, 40))))
				}
			}
			if p.GameID == "" {
				continue
			}
			if !service.ValidID('g', p.GameID) {
				return nil, refuseItem(pk, store.RoundSK(r.Number), fmt.Sprintf("table %d: %s is not a game id", p.Table, quote(clip(p.GameID, 40))))
			}
			if _, dup := pairings[p.GameID]; dup {
				return nil, refuseItem(pk, store.RoundSK(r.Number), "game "+p.GameID+" is paired twice")
			}
			pairings[p.GameID] = struct {
				round int
				p     tournament.Pairing
			}{r.Number, p}
		}
	}
	have := map[string]bool{}
	for _, sg := range found {
		l, gpk := sg.Link, store.GamePK(sg.ID)
		pp, ok := pairings[sg.ID]
		switch {
		case l.Tournament != tid:
			return nil, refuseItem(gpk, store.GameSK, "its link names tournament "+quote(clip(l.Tournament, 40))+", not the imported "+tid)
		case !ok:
			return nil, refuseItem(gpk, store.GameSK, "no pairing of the event's rounds has this game")
		case l.Round != pp.round || l.Table != pp.p.Table:
			return nil, refuseItem(gpk, store.GameSK, fmt.Sprintf("its link names round %d, table %d, but the event pairs it in round %d, table %d", l.Round, l.Table, pp.round, pp.p.Table))
		case l.Red != pp.p.Red || l.Black != pp.p.Black:
			return nil, refuseItem(gpk, store.GameSK, "its players are not the pairing's")
		}
		red, black := h.Player(l.Red), h.Player(l.Black)
		if red == nil || black == nil {
			return nil, refuseItem(gpk, store.GameSK, "its players are not the event's")
		}
		// The hashes let their holders play: an open game's must be the
		// players' own (a finished game may keep one a reissue replaced last).
		if sg.Game.Status() != game.Over && (red.TokenHash != l.RedHash || black.TokenHash != l.BlackHash) {
			return nil, refuseItem(gpk, store.GameSK, "its players' token hashes are not those of the event's players")
		}
		have[sg.ID] = true
		out.games++
	}
	// A pairing whose game the export does not carry (not made yet) must
	// not name a game of this stack: the event would reach into it.
	var free []store.Key
	for gid := range pairings {
		if !have[gid] {
			free = append(free, store.Key{PK: store.GamePK(gid), SK: store.GameSK})
		}
	}
	if len(free) > 0 {
		found, err := a.store.GetMany(c.ctx(), free...)
		if err != nil {
			return nil, err
		}
		for k := range found {
			return nil, &Error{Status: http.StatusConflict, Code: "already_exists",
				Message: "a pairing of the export names game " + strings.TrimPrefix(k.PK, store.GamePrefix) + ", which exists here already and is not in the export; nothing was imported"}
		}
	}
	return out, nil
}

// decodeItem decodes an event item's JSON body, refusing the wrong kind
// (service.DecodeSent, as the *Error the import's callers test for).
func decodeItem(rec *store.Record, kind string, v any) error {
	if err := service.DecodeSent(rec, kind, v); err != nil {
		return toError(err)
	}
	return nil
}

// renders reports whether every public read of a game works on sg (service.Renders).
func renders(sg *games.Item) error { return service.Renders(sg) }

// checkProvenance refuses an event item that does not prove it is of its
// event: its key must derive its id. An event made before events had keys
// cannot prove it; it may be imported only where the stack has a creation
// key (its holder vouches for the import), never on an open stack, where
// anyone could claim any public id.
func (a *API) checkProvenance(t *tournament.Tournament) error {
	switch {
	case service.ProvenKey(t):
		return nil
	case t.Key != "":
		return &Error{Status: http.StatusForbidden, Code: "unproven_export",
			Message: "the event item's key does not derive its id " + t.ID + ": this is not an export of that event; nothing was imported"}
	case a.creationKey != "":
		return nil
	}
	return &Error{Status: http.StatusForbidden, Code: "unproven_export",
		Message: "the event item carries no key its id is derived from (an event made before events had keys), so nothing proves it is the event " + t.ID +
			": such an export is imported only into a stack with a creation key; nothing was imported"}
}
