package service

import (
	"bytes"
	"cmp"
	"context"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/game"
)

// RecordRef names one game of an event's PGN export (GET …/games?format=pgn):
// its id, round and players' names, and whether the event holds its result.
type RecordRef struct {
	GameID     string
	Round      int
	Red, Black string
	Result     bool
}

// EventRecords is the PGN file of the games refs name, in their order, each
// headed with the event's name, its round and the players (Red and Black
// when a name is unknown), as the public sees them at now: a game under
// the broadcast delay as it stood the delay ago. A game not created yet (an
// interrupted pairing) has nothing to record and is left out. settled
// reports whether every game exists and has its result, and none is
// shown short of what was played: the file then changes only with a
// write to the event.
func (s *Service) EventRecords(ctx context.Context, event string, refs []RecordRef, now int64) (pgn []byte, settled bool, err error) {
	gids := make([]string, len(refs))
	for i, g := range refs {
		gids[i] = g.GameID
	}
	found, err := s.GamesByID(ctx, gids)
	if err != nil {
		return nil, false, err
	}
	var out bytes.Buffer
	settled = true
	for _, g := range refs {
		sg := found[g.GameID]
		settled = settled && sg != nil && g.Result
		if sg == nil {
			continue
		}
		at := now
		if d := sg.DelayMs(); d > 0 {
			if seen := sg.AsOf(at - d); seen != sg { // a game the delay hides part of: the clock alone changes it
				sg, at, settled = seen, at-d, false
			}
		}
		info := game.RecordInfo{Event: event, Round: strconv.Itoa(g.Round), Red: cmp.Or(g.Red, "Red"), Black: cmp.Or(g.Black, "Black")}
		text, err := sg.Game.Record(at, "pgn", info)
		if err != nil {
			return nil, false, err
		}
		if out.Len() > 0 {
			out.WriteString("\n")
		}
		out.WriteString(strings.TrimRight(text, "\n") + "\n")
	}
	return out.Bytes(), settled, nil
}
