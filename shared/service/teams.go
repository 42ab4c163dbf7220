package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Team events: the teams and lineups of a loaded event, the lineups due at
// a round's start (T-3) and a knockout's additional matches (S-3).
//
// T-3 "drawn by the server": a round's start is its lineup deadline, and
// once it has passed every lineup still missing is drawn by the first of
// the writer side's requests to get there: the due work's runner at the
// deadline (RunDue, due.go: the pairing or the start indexed it), the
// start itself (CompleteDue), a captain's lineup for the round, or the
// organiser pairing the next round. A read of the round draws nothing. The
// draw is a pure function of event, round, team and roster
// (tournament.LineupSeed), and each write carries the round item's version
// and creates the lineup items only if absent, so of two requests drawing
// at once one writes and the other rereads the event and finds the matches
// set: every match is set exactly once.

// TeamEvent is a loaded event with its teams and lineups.
type TeamEvent struct {
	*Event
	// TH is the teams, their rosters and lineups as the core reads them.
	TH *tournament.TeamHistory
	// TeamRecs are the team items by id, LineRecs the lineup items by SK.
	TeamRecs map[string]*store.Record
	LineRecs map[string]*store.Record
}

// Teams decodes a loaded event's teams and lineups.
func (ev *Event) Teams() (*TeamEvent, error) {
	te := &TeamEvent{Event: ev, TeamRecs: map[string]*store.Record{}, LineRecs: map[string]*store.Record{}}
	var teams []*tournament.Team
	var lineups []tournament.Lineup
	for _, rec := range ev.Other {
		var err error
		switch {
		case strings.HasPrefix(rec.SK, store.TeamPrefix):
			tm := new(tournament.Team)
			err = decodeItem(rec, tm)
			teams = append(teams, tm)
			te.TeamRecs[tm.ID] = rec
		case strings.HasPrefix(rec.SK, store.LineupPrefix):
			var l tournament.Lineup
			err = decodeItem(rec, &l)
			lineups = append(lineups, l)
			te.LineRecs[rec.SK] = rec
		}
		if err != nil {
			return nil, fmt.Errorf("decode %s %s: %w", rec.Kind, rec.SK, err)
		}
	}
	te.TH = tournament.NewTeamHistory(ev.H, teams, lineups)
	return te, nil
}

// PairNext pairs the next round: teams for a team event, players otherwise.
func (ev *Event) PairNext(o tournament.PairOptions, gameID tournament.GameIDFunc) (*tournament.Round, error) {
	if !ev.T.Settings.Teams {
		return tournament.PairNext(ev.T, ev.H, o, gameID)
	}
	te, err := ev.Teams()
	if err != nil {
		return nil, err
	}
	return tournament.PairNextTeams(ev.T, te.TH, o, gameID)
}

// lineupsPerWrite bounds one transaction's lineup items, leaving room in
// DynamoDB's 100-item transaction for the round item and its parts. A round
// with more missing lineups is drawn in several writes; a match is set in the
// write that brings its second lineup.
const lineupsPerWrite = 80

// WriteLineups stores lineups of round n of ev with the matches they set, in
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
func (s *Service) WriteLineups(ctx context.Context, ev *Event, te *TeamEvent, n int, lineups []tournament.Lineup, gameID tournament.GameIDFunc) (int, error) {
	stored := ev.Round(n)
	done := 0
	for {
		chunk := lineups[done:min(len(lineups), done+lineupsPerWrite)]
		changed := *stored
		changed.Pairings = slices.Clone(stored.Pairings)
		var recs []*store.Record
		for _, l := range chunk {
			te.TH.AddLineup(l)
			rec := te.LineRecs[store.LineupSK(n, l.Team)]
			if rec == nil {
				rec = &store.Record{PK: store.TournamentPK(ev.T.ID), SK: store.LineupSK(n, l.Team), Kind: store.KindLineup}
			}
			recs = append(recs, encodeItem(rec, l))
		}
		if _, err := te.TH.SetMatches(ev.T, &changed, gameID); err != nil {
			return done, err
		}
		// The round item is always rewritten: its version serialises the
		// lineups of one round.
		recs = append(recs, encodeItem(ev.Rounds[n], &changed))
		if err := s.store.Transact(ctx, recs); err != nil {
			return done, err
		}
		*stored = changed
		if done += len(chunk); done == len(lineups) {
			return done, nil
		}
	}
}

// DrawDueLineups draws the missing lineups of the given rounds of a team
// event whose deadline has passed, writes them with the matches they set,
// creates the matches' board games, and returns the lineups it wrote. ev is
// updated to what was stored (or reloaded after a lost race), so the caller
// reads the set matches from it.
func (s *Service) DrawDueLineups(ctx context.Context, ev *Event, rounds []int) ([]tournament.Lineup, error) {
	if !ev.T.Settings.Teams {
		return nil, nil
	}
	tid := ev.T.ID
	gameID := EventGameID(ev.T)
	var (
		written []tournament.Lineup
		touched []int
	)
	conflicts := 0
	for _, n := range rounds {
		for {
			stored := ev.Round(n)
			if stored == nil || !tournament.LineupDeadlinePassed(stored, s.now(ctx)) || tournament.AllMatchesSet(stored) {
				break // the common case after the deadline: nothing to decode or draw
			}
			te, err := ev.Teams()
			if err != nil {
				return nil, err
			}
			due := te.TH.DueLineups(ev.T, stored, s.now(ctx))
			if len(due) > lineupsPerWrite {
				due = due[:lineupsPerWrite]
			}
			changed := *stored
			changed.Pairings = slices.Clone(stored.Pairings)
			var recs, lineRecs []*store.Record
			for _, l := range due {
				te.TH.AddLineup(l)
				rec := te.LineRecs[store.LineupSK(n, l.Team)]
				if rec == nil {
					rec = &store.Record{PK: store.TournamentPK(tid), SK: store.LineupSK(n, l.Team), Kind: store.KindLineup}
				}
				lineRecs = append(lineRecs, encodeItem(rec, l))
			}
			if _, err := te.TH.SetMatches(ev.T, &changed, gameID); err != nil {
				return nil, err
			}
			if len(due) == 0 && setCount(&changed) == setCount(stored) {
				break // nothing to draw, nothing more to set
			}
			// With nothing drawn the round is still rewritten when its
			// lineups are all in and a match is not set: the round was read
			// before the lineup that completes it (eventItems reads rounds
			// first), and its version decides who sets the match.
			recs = append(lineRecs, encodeItem(ev.Rounds[n], &changed))
			err = s.store.Transact(ctx, recs)
			if errors.Is(err, store.ErrConflict) {
				// Another request drew (or a captain's last lineup landed) first:
				// reread and draw only what is still missing.
				if conflicts++; conflicts > 5 {
					return nil, err
				}
				fresh, err := s.Load(ctx, tid)
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
				if _, known := te.LineRecs[rec.SK]; !known {
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
		if err := s.EnsureGames(ctx, ev.T, ev.Round(n), ev.H, s.now(ctx)); err != nil {
			return nil, err
		}
	}
	return written, nil
}

// DueRounds lists the rounds of ev whose lineup deadline has passed, oldest
// first: the rounds pairing the next one looks at.
func (ev *Event) DueRounds(now int64) []int {
	var out []int
	for _, r := range ev.H.Rounds {
		if tournament.LineupDeadlinePassed(r, now) && len(r.Matches) > 0 {
			out = append(out, r.Number)
		}
	}
	slices.Sort(out)
	return out
}

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

// extendTeamRound adds to the latest round of a team knockout the additional
// rapid matches its level ties need now (S-3, teamknockout.go in the core),
// as ExtendRound adds a knockout's further games: once a board's game ends
// (CatchUpRound, after the game command) or the next round is asked for.
// Their ids, numbers and tables follow from the round, so two requests doing
// this at once write the same round; the loser rereads it.
func (s *Service) extendTeamRound(ctx context.Context, ev *Event) error {
	r := ev.Round(ev.T.Round)
	if r == nil {
		return nil
	}
	te, err := ev.Teams()
	if err != nil {
		return err
	}
	changed := *r
	changed.Matches = slices.Clone(r.Matches)
	changed.Pairings = slices.Clone(r.Pairings)
	grew, err := te.TH.ExtendTeamKnockout(ev.T, &changed, EventGameID(ev.T))
	if err != nil || !grew {
		return err
	}
	changed.GamesReady = false // the added games are made by the catch-up that follows
	err = s.store.Put(ctx, encodeItem(ev.Rounds[r.Number], &changed))
	if errors.Is(err, store.ErrConflict) {
		fresh, err := s.Load(ctx, ev.T.ID)
		if err != nil {
			return err
		}
		*ev = *fresh
		return nil
	}
	if err != nil {
		return err
	}
	*r = changed
	return nil
}

// ExtendRound adds to the latest round of a knockout the games its matches
// need now (the next game of a multi-game match, additional rapid games while
// level; S-3): run by CatchUpRound once a game ends (the game command that
// ended it, or the due work) and by the pairing of the next round. The
// games' ids and tables are deterministic, so two requests doing this at
// once write the same round; the loser rereads it.
func (s *Service) ExtendRound(ctx context.Context, ev *Event) error {
	if ev.T.Settings.Teams {
		return s.extendTeamRound(ctx, ev)
	}
	add, ex, err := tournament.NextGames(ev.T, ev.H, EventGameID(ev.T))
	var re *tournament.RuleError
	if errors.As(err, &re) {
		return nil // an earlier round is undecided: the pairing reports it
	}
	if err != nil || len(add) == 0 {
		return err
	}
	r := ev.Round(ev.T.Round)
	changed := *r
	changed.GamesReady = false // the added games are made by the catch-up that follows
	changed.Pairings = append(slices.Clone(r.Pairings), add...)
	changed.Explanations = append(slices.Clone(r.Explanations), ex...)
	err = s.store.Put(ctx, encodeItem(ev.Rounds[r.Number], &changed))
	if errors.Is(err, store.ErrConflict) {
		fresh, err := s.Load(ctx, ev.T.ID)
		if err != nil {
			return err
		}
		*ev = *fresh
		return nil
	}
	if err != nil {
		return err
	}
	*r = changed // the history holds this round: pairing and views see the new games
	return nil
}
