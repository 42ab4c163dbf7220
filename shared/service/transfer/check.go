package transfer

import (
	"context"
	"fmt"
	"strings"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// What an import may write: exactly one event, whole, and nothing else.
// Every item of the export is decoded by the codec its kind is read with and
// checked against the others before anything is written (check):
//
//   - the event item (T#<tid>/META) names the event, and carries the key the
//     event's id is derived from (service.ProvenKey): nobody but a holder of
//     the event's own export can import under its id;
//   - every other item of T#<tid> is a player, official, team, round,
//     result or lineup under the sort key its body names; any other sort
//     key is refused;
//   - every game item (G#<gid>/GAME) decodes, and its link names this event
//     and a pairing of its rounds that has this game id, at its table, with
//     its players and (unless it is over) their token hashes; a pairing's game id without its
//     item in the export must be free on this stack;
//   - no item of any other partition (another event's, an idempotency
//     record, a connection), no attribute the table does not use.

// Checked is an export checked: the event and the items to create.
type Checked struct {
	T    *tournament.Tournament
	Meta *store.Item
	// Items are every item but Meta, which is written last. A mirror's
	// copy adds its games' read-only marks here (Marks).
	Items []*store.Item
	Games int
}

// Marks adds to an import checked the items the stack keeps beside the
// event's own (a mirror's copy: its games' read-only marks), created with
// them; nil adds none.
type Marks func(ev *Checked) error

// batch is what the items of one export page bring to an import.
type batch struct {
	items  []*store.Item // to create; the tournament item is kept apart
	meta   *store.Item
	metaAt int // the tournament item's line in the body
	games  int
	counts map[string]int // the event's items by kind: the caps hold for an imported event too
}

// parseLines reads the item lines of a page of tid's export (line 2 of the
// body on), refusing any item that is not the event's.
func parseLines(tid string, lines [][]byte) (batch, error) {
	b := batch{items: make([]*store.Item, 0, len(lines)), counts: map[string]int{}}
	for i, line := range lines {
		it, err := store.ParseItem(line)
		if err != nil {
			return b, command.BadRequest("invalid_export", fmt.Sprintf("line %d: %v", i+2, err))
		}
		gid, isGame := store.GameOf(it.PK)
		switch {
		case it.PK == store.TournamentPK(tid) && it.SK == store.MetaSK:
			if b.meta != nil || it.Kind != store.KindTournament {
				return b, command.BadRequest("invalid_export", fmt.Sprintf("line %d: a second or malformed tournament item", i+2))
			}
			b.meta, b.metaAt = it, i+2
			continue
		case it.PK == store.TournamentPK(tid):
			b.counts[store.SKPrefix(it.SK)]++
		case isGame && !service.ValidID('g', gid):
			return b, command.BadRequest("invalid_export", fmt.Sprintf("line %d: %s is not a game id", i+2, quote(clip(it.PK, 40))))
		case isGame && it.SK == store.GameSK && it.Kind == store.KindGame:
			b.games++
		case isGame && store.IsPartOf(it.SK, store.GameSK) && it.Kind == store.KindPart:
		default:
			return b, command.BadRequest("invalid_export", fmt.Sprintf("line %d: item %s/%s does not belong to tournament %s", i+2, it.PK, it.SK, tid))
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

// check decodes and checks every item of event tid's export (all of its
// parts, in export order) as described above.
func (s *Service) check(ctx context.Context, tid string, items []*store.Item) (*Checked, error) {
	recs, err := store.Documents(items)
	if err != nil {
		return nil, command.BadRequest("invalid_export", err.Error()+"; nothing was imported")
	}
	out := &Checked{}
	for _, it := range items {
		if it.PK == store.TournamentPK(tid) && it.SK == store.MetaSK {
			out.Meta = it
		} else {
			out.Items = append(out.Items, it)
		}
	}
	var (
		players []*tournament.Player
		rounds  []*tournament.Round
		found   []*games.Item
	)
	counts := map[string]int{}
	pk := store.TournamentPK(tid)
	for _, rec := range recs {
		if gid, ok := store.GameOf(rec.PK); ok {
			if !service.ValidID('g', gid) || rec.SK != store.GameSK || rec.Kind != store.KindGame {
				return nil, service.RefuseItem(rec.PK, rec.SK, "not a game item (G#<game id>/GAME, kind game)")
			}
			sg, err := games.Decode(gid, rec)
			if err != nil {
				return nil, service.RefuseItem(rec.PK, rec.SK, "a corrupt game: "+err.Error())
			}
			if err := service.Renders(sg); err != nil {
				return nil, service.RefuseItem(rec.PK, rec.SK, "a corrupt game: "+err.Error())
			}
			found = append(found, sg)
			continue
		}
		if rec.PK != pk {
			return nil, service.RefuseItem(rec.PK, rec.SK, "not an item of tournament "+tid)
		}
		prefix := store.SKPrefix(rec.SK)
		var want string // the sort key the body names (when it decoded)
		switch {
		case rec.SK == store.MetaSK:
			t := new(tournament.Tournament)
			if err := service.DecodeSent(rec, store.KindTournament, t); err != nil {
				return nil, err
			}
			if t.ID != tid {
				return nil, service.RefuseItem(rec.PK, rec.SK, "its body names tournament "+quote(clip(t.ID, 40)))
			}
			out.T = t
			continue
		case prefix == store.PlayerPrefix:
			p := new(tournament.Player)
			err = service.DecodeSent(rec, store.KindPlayer, p)
			want = store.PlayerSK(p.ID)
			players = append(players, p)
		case prefix == store.OfficialPrefix:
			o := new(tournament.Official)
			err = service.DecodeSent(rec, store.KindOfficial, o)
			want = store.OfficialSK(o.ID)
		case prefix == store.TeamPrefix:
			m := new(tournament.Team)
			err = service.DecodeSent(rec, store.KindTeam, m)
			want = store.TeamSK(m.ID)
		case prefix == store.RoundPrefix:
			r := new(tournament.Round)
			err = service.DecodeSent(rec, store.KindRound, r)
			want = store.RoundSK(r.Number)
			rounds = append(rounds, r)
		case prefix == store.ResultPrefix:
			var x tournament.Result
			err = service.DecodeSent(rec, store.KindResult, &x)
			want = store.ResultSK(x.Round, x.Table)
		case prefix == store.LineupPrefix:
			var l tournament.Lineup
			err = service.DecodeSent(rec, store.KindLineup, &l)
			want = store.LineupSK(l.Round, l.Team)
		default:
			return nil, service.RefuseItem(rec.PK, rec.SK, "not a sort key an event has (META, P#, O#, M#, R#, X#, L#)")
		}
		if err != nil {
			return nil, err
		}
		if rec.SK != want {
			return nil, service.RefuseItem(rec.PK, rec.SK, "its body is of "+quote(clip(want, 60)))
		}
		counts[prefix]++
	}
	if out.T == nil || out.Meta == nil {
		return nil, command.BadRequest("invalid_export", "the export has no tournament item ("+store.TournamentPK(tid)+"/"+store.MetaSK+")")
	}
	if err := s.checkProvenance(out.T); err != nil {
		return nil, err
	}
	if err := checkCaps(counts); err != nil {
		return nil, err
	}
	h := tournament.NewHistory(players, rounds, nil)
	type paired struct {
		round int
		p     tournament.Pairing
	}
	pairings := map[string]paired{}
	for _, r := range rounds {
		for _, p := range r.Pairings {
			for _, id := range []string{p.Red, p.Black} {
				if id != "" && h.Player(id) == nil && !service.ValidID('m', id) {
					return nil, service.RefuseItem(pk, store.RoundSK(r.Number), fmt.Sprintf("table %d names %s, not a player of the event", p.Table, quote(clip(id, 40))))
				}
			}
			if p.GameID == "" {
				continue
			}
			if !service.ValidID('g', p.GameID) {
				return nil, service.RefuseItem(pk, store.RoundSK(r.Number), fmt.Sprintf("table %d: %s is not a game id", p.Table, quote(clip(p.GameID, 40))))
			}
			if _, dup := pairings[p.GameID]; dup {
				return nil, service.RefuseItem(pk, store.RoundSK(r.Number), "game "+p.GameID+" is paired twice")
			}
			pairings[p.GameID] = paired{r.Number, p}
		}
	}
	have := map[string]bool{}
	for _, sg := range found {
		l, gpk := sg.Link, store.GamePK(sg.ID)
		pp, ok := pairings[sg.ID]
		switch {
		case l.Tournament != tid:
			return nil, service.RefuseItem(gpk, store.GameSK, "its link names tournament "+quote(clip(l.Tournament, 40))+", not the imported "+tid)
		case !ok:
			return nil, service.RefuseItem(gpk, store.GameSK, "no pairing of the event's rounds has this game")
		case l.Round != pp.round || l.Table != pp.p.Table:
			return nil, service.RefuseItem(gpk, store.GameSK, fmt.Sprintf("its link names round %d, table %d, but the event pairs it in round %d, table %d", l.Round, l.Table, pp.round, pp.p.Table))
		case l.Red != pp.p.Red || l.Black != pp.p.Black:
			return nil, service.RefuseItem(gpk, store.GameSK, "its players are not the pairing's")
		}
		red, black := h.Player(l.Red), h.Player(l.Black)
		if red == nil || black == nil {
			return nil, service.RefuseItem(gpk, store.GameSK, "its players are not the event's")
		}
		// The hashes let their holders play: an open game's must be the
		// players' own (a finished game may keep one a reissue replaced last).
		if sg.Game.Status() != game.Over && (red.TokenHash != l.RedHash || black.TokenHash != l.BlackHash) {
			return nil, service.RefuseItem(gpk, store.GameSK, "its players' token hashes are not those of the event's players")
		}
		have[sg.ID] = true
		out.Games++
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
		found, err := s.store.GetMany(ctx, free...)
		if err != nil {
			return nil, err
		}
		for k := range found {
			return nil, &command.Error{Kind: command.Conflict, Code: "already_exists",
				Message: "a pairing of the export names game " + strings.TrimPrefix(k.PK, store.GamePrefix) + ", which exists here already and is not in the export; nothing was imported"}
		}
	}
	return out, nil
}

// checkProvenance refuses an event item that does not prove it is of its
// event: its key must derive its id. An event made before events had keys
// cannot prove it; it may be imported only where the stack has a creation
// key (its holder vouches for the import), never on an open stack, where
// anyone could claim any public id.
func (s *Service) checkProvenance(t *tournament.Tournament) error {
	switch {
	case service.ProvenKey(t):
		return nil
	case t.Key != "":
		return &command.Error{Kind: command.Forbidden, Code: "unproven_export",
			Message: "the event item's key does not derive its id " + t.ID + ": this is not an export of that event; nothing was imported"}
	case s.opts.Keyed:
		return nil
	}
	return &command.Error{Kind: command.Forbidden, Code: "unproven_export",
		Message: "the event item carries no key its id is derived from (an event made before events had keys), so nothing proves it is the event " + t.ID +
			": such an export is imported only into a stack with a creation key; nothing was imported"}
}
