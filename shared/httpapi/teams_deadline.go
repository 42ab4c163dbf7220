package httpapi

import (
	"errors"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// T-3 "drawn by the server" with no background job: a round's start is its
// lineup deadline, and once it has passed, the first request that reads the
// round (GET rounds/{n}), submits a lineup for it or asks to pair the next
// round draws every lineup still missing — as flags fall on read for games
// (C-4). The draw is a pure function of event, round, team and roster
// (tournament.LineupSeed), and each write carries the round item's version
// and creates the lineup items only if absent, so of two requests drawing at
// once one writes and the other rereads the event and finds the matches set:
// every match is set exactly once.

// lineupsPerWrite bounds one transaction's lineup items, leaving room in
// DynamoDB's 100-item transaction for the round item and its parts. A round
// with more missing lineups is drawn in several writes; a match is set in the
// write that brings its second lineup.
const lineupsPerWrite = 80

// writeLineups stores lineups of round n of ev with the matches they set, in
// transactions of at most lineupsPerWrite lineups, each with the round item
// under the version last read or written: DynamoDB takes at most 100 items
// in one transaction, and the organiser's draw of every missing lineup of a
// 1,000-team round is 1,000. It returns how many lineups are stored (a
// prefix of lineups); on success every one, and ev's round n is the round
// as stored.
//
// Why chunks are safe here: each match is set in the chunk that brings its
// second lineup, together with that lineup, so no reader sees a match
// half-set; what a reader may see between chunks — some matches set, some
// not — is a state captains reach anyway by submitting one by one. A write
// that fails leaves the chunks before it stored, and a repeat of the request
// draws only what is still missing (drawn lineups are a pure function of
// event, round and team, T-3), so the job resumes where it stopped and
// nothing is drawn twice: the round's version makes a concurrent writer's
// chunk a conflict, after which the caller rereads.
func (a *API) writeLineups(c *call, ev *event, te *teamEvent, n int, lineups []tournament.Lineup, gameID tournament.GameIDFunc) (int, error) {
	stored := ev.Round(n)
	done := 0
	for {
		chunk := lineups[done:min(len(lineups), done+lineupsPerWrite)]
		changed := *stored
		changed.Pairings = slices.Clone(stored.Pairings)
		var recs []*store.Record
		for _, l := range chunk {
			te.th.AddLineup(l)
			rec := te.lineRecs[store.LineupSK(n, l.Team)]
			if rec == nil {
				rec = &store.Record{PK: store.TournamentPK(ev.T.ID), SK: store.LineupSK(n, l.Team), Kind: store.KindLineup}
			}
			recs = append(recs, encode(rec, l))
		}
		if _, err := te.th.SetMatches(ev.T, &changed, gameID); err != nil {
			return done, err
		}
		// The round item is always rewritten: its version serialises the
		// lineups of one round.
		recs = append(recs, encode(ev.Rounds[n], &changed))
		if err := a.store.Transact(c.ctx(), recs); err != nil {
			return done, err
		}
		*stored = changed
		if done += len(chunk); done == len(lineups) {
			return done, nil
		}
	}
}

// drawDueLineups draws the missing lineups of the given rounds of a team
// event whose deadline has passed, writes them with the matches they set,
// creates the matches' board games, and returns the lineups it wrote. ev is
// updated to what was stored (or reloaded after a lost race), so the caller
// reads the set matches from it.
func (a *API) drawDueLineups(c *call, ev *event, rounds []int) ([]tournament.Lineup, error) {
	if !ev.T.Settings.Teams {
		return nil, nil
	}
	tid := ev.T.ID
	gameID := service.EventGameID(ev.T)
	var (
		written []tournament.Lineup
		touched []int
	)
	conflicts := 0
	for _, n := range rounds {
		for {
			stored := ev.Round(n)
			if stored == nil || !tournament.LineupDeadlinePassed(stored, c.nowMs()) || tournament.AllMatchesSet(stored) {
				break // the common case after the deadline: nothing to decode or draw
			}
			te, err := ev.teams()
			if err != nil {
				return nil, err
			}
			due := te.th.DueLineups(ev.T, stored, c.nowMs())
			if len(due) > lineupsPerWrite {
				due = due[:lineupsPerWrite]
			}
			changed := *stored
			changed.Pairings = slices.Clone(stored.Pairings)
			var recs, lineRecs []*store.Record
			for _, l := range due {
				te.th.AddLineup(l)
				rec := te.lineRecs[store.LineupSK(n, l.Team)]
				if rec == nil {
					rec = &store.Record{PK: store.TournamentPK(tid), SK: store.LineupSK(n, l.Team), Kind: store.KindLineup}
				}
				lineRecs = append(lineRecs, encode(rec, l))
			}
			if _, err := te.th.SetMatches(ev.T, &changed, gameID); err != nil {
				return nil, err
			}
			if len(due) == 0 && setCount(&changed) == setCount(stored) {
				break // nothing to draw, nothing more to set
			}
			// With nothing drawn the round is still rewritten when its
			// lineups are all in and a match is not set: the round was read
			// before the lineup that completes it (eventItems reads rounds
			// first), and its version decides who sets the match.
			recs = append(lineRecs, encode(ev.Rounds[n], &changed))
			err = a.store.Transact(c.ctx(), recs)
			if errors.Is(err, store.ErrConflict) {
				// Another request drew (or a captain's last lineup landed) first:
				// reread and draw only what is still missing.
				if conflicts++; conflicts > 5 {
					return nil, err
				}
				fresh, err := a.loadEvent(c.ctx(), tid)
				if err != nil {
					return nil, err
				}
				*ev = *fresh
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("draw lineups of round %d: %w", n, err)
			}
			*stored = changed // the history holds this round: views and pairing see the set matches
			for _, rec := range lineRecs {
				if _, known := te.lineRecs[rec.SK]; !known {
					ev.Other = append(ev.Other, rec)
				}
			}
			written = append(written, due...)
			if !slices.Contains(touched, n) {
				touched = append(touched, n)
			}
		}
	}
	for _, n := range touched {
		if err := a.svc.EnsureGames(c.ctx(), ev.T, ev.Round(n), ev.H, c.nowMs()); err != nil {
			return nil, err
		}
	}
	return written, nil
}

// dueRounds lists the rounds of ev whose lineup deadline has passed, oldest
// first: the rounds pairing the next one looks at.
func (ev *event) dueRounds(now int64) []int {
	var out []int
	for _, r := range ev.H.Rounds {
		if tournament.LineupDeadlinePassed(r, now) && len(r.Matches) > 0 {
			out = append(out, r.Number)
		}
	}
	slices.Sort(out)
	return out
}

// allSet reports whether every match of r has its board games.
// setCount is how many of r's matches are set.
func setCount(r *tournament.Round) int {
	n := 0
	for _, m := range r.Matches {
		if tournament.MatchSet(r, m) {
			n++
		}
	}
	return n
}
