package service

import (
	"cmp"
	"context"
	"slices"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// DisciplineEntry is one entry of an event's discipline report (O-2): a
// game's discipline line with where it was and whom it concerns, and who
// gave it by name. Its JSON is the entry as GET
// /tournaments/{tid}/discipline shows it.
type DisciplineEntry struct {
	Round      int    `json:"round"`
	Table      int    `json:"table"`
	GameID     string `json:"gameId"`
	Player     string `json:"player"`
	PlayerName string `json:"playerName"`
	ByName     string `json:"byName,omitempty"`
	games.Discipline
}

// DisciplineReport is a page of an event's discipline report (O-2, 000
// ch.3 裁判长 7 无论给予哪种纪律处分，都应及时向竞赛组织机构提交详细的书面报告).
type DisciplineReport struct {
	Event *Event
	// Entries are the page's games' entries in round and table order, a
	// game's in its log's order; [] for none.
	Entries []DisciplineEntry
	// Expulsions are the players with an expulsion proposed or decided, by
	// when it was proposed, then by entry number; [] for none.
	Expulsions []*tournament.Player
	// Games is how many games the report reads over all its pages: what
	// the pages are counted in, not the entries.
	Games int
}

// Discipline reads the discipline report of event tid: of round only when
// it is positive, else of every round paired (Event.RoundsOf). The games
// are paged, offset of them skipped and at most limit read (every one
// left when limit < 0), in round and table order (Event.Games); the
// expulsions are the whole event's on every page. An entry names its player, and who gave it
// by name: an official's, or "organiser". A game not created yet (an
// interrupted pairing) has no entries.
func (s *Service) Discipline(ctx context.Context, tid string, only, offset, limit int) (*DisciplineReport, error) {
	ev, err := s.Load(ctx, tid)
	if err != nil {
		return nil, err
	}
	paired, err := ev.Games(only)
	if err != nil {
		return nil, err
	}
	names, err := s.officialNames(ctx, tid)
	if err != nil {
		return nil, err
	}
	names[tid] = "organiser"
	var all []RoundPairing
	for _, g := range paired {
		if g.GameID != "" { // a bye or an absence has no game
			all = append(all, g)
		}
	}
	rows := pageOf(all, offset, limit)
	ids := make([]string, len(rows))
	for i, g := range rows {
		ids[i] = g.GameID
	}
	found, err := s.GamesByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	name := func(id string) string {
		if p := ev.H.Player(id); p != nil {
			return p.Name
		}
		return ""
	}
	rep := &DisciplineReport{Event: ev, Entries: []DisciplineEntry{}, Expulsions: []*tournament.Player{}, Games: len(all)}
	for _, g := range rows {
		sg := found[g.GameID]
		if sg == nil {
			continue // a game not created yet (an interrupted pairing)
		}
		for _, d := range games.DisciplineOf(sg.Game.Log()) {
			e := DisciplineEntry{Round: g.Round, Table: g.Table, GameID: g.GameID, Player: g.Red, PlayerName: name(g.Red), ByName: names[d.ByID], Discipline: d}
			if d.Side == xiangqi.Black.String() {
				e.Player, e.PlayerName = g.Black, name(g.Black)
			}
			rep.Entries = append(rep.Entries, e)
		}
	}
	for _, p := range ev.H.Players {
		if p.Expulsion != nil {
			rep.Expulsions = append(rep.Expulsions, p)
		}
	}
	slices.SortFunc(rep.Expulsions, func(x, y *tournament.Player) int {
		return cmp.Or(cmp.Compare(x.Expulsion.ProposedAt, y.Expulsion.ProposedAt), cmp.Compare(x.Number, y.Number))
	})
	return rep, nil
}

// officialNames maps event tid's officials' ids to their names.
func (s *Service) officialNames(ctx context.Context, tid string) (map[string]string, error) {
	officials, err := s.Officials(ctx, tid)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(officials)+1)
	for _, o := range officials {
		names[o.ID] = o.Name
	}
	return names, nil
}

// pageOf is the page of rows that skips offset of them and holds at most
// limit (every one left when limit < 0).
func pageOf[T any](rows []T, offset, limit int) []T {
	if offset >= len(rows) {
		return nil
	}
	end := len(rows)
	if limit >= 0 {
		end = min(end, offset+limit)
	}
	return rows[offset:end]
}
