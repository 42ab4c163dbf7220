package service

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// Work due. Some of what an event owes its rounds falls due at a moment no
// request names: a team round's missing lineups are drawn by the server at
// the round's deadline, its start (T-3), and a knockout's round grows by
// the next or additional games a match needs once a game ends (S-3). A read
// of the round does none of it (ReadRound writes nothing); the writer side
// does, from a small durable index of the work due, one item per round and
// cause (store.DuePK, items.Due):
//
//   - the write that makes work due stores its item in the same
//     transaction: pairing a team round whose lineups are open with a
//     deadline, or starting one (PairRound, StartRound: the deadline), and
//     an event game's end in an event whose rounds grow as played
//     (EndingItems, with the game's result item); a paired round whose
//     games could not all be made after its commit leaves one too
//     (EnsureGamesAfterCommit), and so does an event that arrives here
//     played (IndexDue, after an import or a takeover);
//   - the request that wrote it does the work at once when it is due
//     already (GameEnded after a game command; CompleteDue after a start,
//     or a pairing past its deadline), and RunDue, on a schedule
//     (functions/duework every minute; the local stack's ticker), does what
//     is due by now and not done: a deadline passed, or a follow-up that
//     failed or whose request stopped;
//   - the work is CatchUpRound of the item's round, idempotent and
//     deterministic (keyed game ids, lineups a function of the event, every
//     write conditional), and the item is deleted under the version read only
//     once it succeeded: two runners at once both run it, one write of each
//     lineup or game lands, one delete does, and an item re-armed meanwhile
//     (a new version) is kept for the next run. A run that fails puts its
//     item off (dueBackoff), so an event that keeps failing costs a load an
//     hour, not a minute.
//
// One partition holds the index, and it does not get hot. An item is ~150
// bytes: 1 write unit to create, 1 to delete (its create rides in a
// transaction that is written anyway, at 2 units). Its writers: a team
// round's pairing or start (a round every hour or two an event), and a
// knockout game's end — a 512-player knockout's first round ends 256 games
// within an hour or so, ~0.07 items a second. A thousand such knockouts at
// once are ~70 items a second, ~140 write units with their deletes; 200
// team sections of a festival pairing in the same second write 200 items:
// both a fifth or less of one partition's 1,000 write units a second, and
// each item lives seconds (the request that wrote it deletes it). RunDue
// reads the partition with one Query a minute, of what is due — a few
// items, one page, against 3,000 read units a second. A spread partition
// would buy nothing and cost RunDue a Query per shard a minute.

// Why work is due (items.Due.Why).
const (
	dueDeadline = "deadline" // a team round's lineups at its start (T-3)
	dueEnded    = "ended"    // a game ended in an event whose rounds grow as played (S-3)
	dueGames    = "games"    // a round stored whose games could not all be made after it
	dueMoved    = "moved"    // an event that arrived here played (an import, a takeover)
)

// dueRunBudget bounds one RunDue: what it has not begun by then waits for
// the next run (a minute later on Lambda, whose run is allowed a minute).
const dueRunBudget = 40 * time.Second

// dueBackoff is how long a run that failed puts its item off: a minute
// after the first failure, doubling up to an hour.
func dueBackoff(attempts int) time.Duration {
	return min(time.Minute<<min(attempts-1, 6), time.Hour)
}

// dueItem is a new item of work due at at on round n of event tid.
func dueItem(at int64, tid string, n int, why, tag string) *store.Record {
	rec := &store.Record{PK: store.DuePK, SK: store.DueSK(at, tid, n, tag), Kind: store.KindDue}
	return items.Encode(rec, items.Due{Tournament: tid, Round: n, At: at, Why: why})
}

// growsAsPlayed reports whether results alone may call for more games in
// event t's rounds: a knockout's next game of a match or additional rapid
// games while level (S-3), in every system with knockout matches (and the
// ring, whose games its pairing adds: its follow-up finds nothing to do).
// The Swiss systems and round robins pair a round once, whole.
func growsAsPlayed(t *tournament.Tournament) bool { return !t.Settings.ResultsKeepPairings() }

// lineupsOwed reports whether round r of event t will owe a draw of lineups
// at its deadline, r.StartsAt (T-3): a team round with a deadline and a
// match not yet set.
func lineupsOwed(t *tournament.Tournament, r *tournament.Round) bool {
	return t.Settings.Teams && r.StartsAt != 0 && !tournament.AllMatchesSet(r)
}

// deadlineDue is the item of a team round's lineups due at its deadline,
// r.StartsAt (T-3), for the command that pairs or starts the round to put
// in its transaction; nil when nothing will be due: not a team event, no
// deadline yet, or every match set. An item already stored at that key
// (the same round due at the same instant) is taken at its version, so the
// write re-arms it instead of failing on it forever.
func (s *Service) deadlineDue(ctx context.Context, t *tournament.Tournament, r *tournament.Round) (*store.Record, error) {
	if !lineupsOwed(t, r) {
		return nil, nil
	}
	rec := dueItem(r.StartsAt, t.ID, r.Number, dueDeadline, "")
	old, err := s.store.Get(ctx, rec.PK, rec.SK)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return nil, err
	default:
		rec.Version = old.Version
	}
	return rec, nil
}

// EndingItems is what an event game's end writes with its result item, in
// the same transaction (games.Store.Ending): in an event whose rounds grow
// as played, the follow-up as work due now, so that it is done even when
// the request that ended the game stops before GameEnded has done it. Its
// key names the game and the version this write gives it, so no two ends
// (a result and its correction) ever share one. It costs a read of the
// event item (one small GetItem) per event game's end.
func (s *Service) EndingItems(ctx context.Context, it *games.Item, now int64) ([]*store.Record, error) {
	t, _, err := s.Tournament(ctx, it.Link.Tournament)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil || !growsAsPlayed(t) {
		return nil, err
	}
	tag := fmt.Sprintf("%s.%d", it.ID, it.Rec.Version+1)
	return []*store.Record{dueItem(now, t.ID, it.Link.Round, dueEnded, tag)}, nil
}

// GameEnded does the work an event game's end made due (EndingItems), at
// once, in the game command's request, after the game's write committed
// (games.Store.Ended), within the retry budget. The game's answer stands
// whatever happens here: what fails stays due, and RunDue does it.
func (s *Service) GameEnded(ctx context.Context, it *games.Item, due []*store.Record) {
	ctx = context.WithoutCancel(ctx) // a client that hangs up does not stop it halfway
	for _, rec := range due {
		if _, err := s.CompleteDue(ctx, nil, rec); err != nil {
			s.log.Warn("game ended, its event's follow-up left to the due work", "game", it.ID, "tournament", it.Link.Tournament,
				"round", it.Link.Round, "err", err.Error())
		}
	}
}

// CompleteDue does the work of due item rec, just stored by this request
// (a round's start: StartRound's Due; a pairing whose deadline has passed
// already: Paired's), and deletes the item: CatchUpRound of its round on
// ev, the event as the request left it (nil: loaded), within the retry
// budget; ran says whether it did (and so changed the round). An item not
// due yet by the request's instant (or none) is left for RunDue at its
// time, and an error leaves it for RunDue too.
func (s *Service) CompleteDue(ctx context.Context, ev *Event, rec *store.Record) (ran bool, err error) {
	if rec == nil {
		return false, nil
	}
	var d items.Due
	if err := items.Decode(rec, &d); err != nil {
		return false, err
	}
	if d.At > s.now(ctx) {
		return false, nil
	}
	if ev, err = s.doDue(ctx, ev, d); err != nil {
		return true, err
	}
	return true, s.finishDue(ctx, ev, d, []*store.Record{rec})
}

// doDue is the work of a due item: CatchUpRound of its round, within the
// retry budget, on ev or on the event loaded afresh (after a lost race,
// always). It returns the event as the work left it; nil and no error when
// the event is gone (an expired event owes nothing).
func (s *Service) doDue(ctx context.Context, ev *Event, d items.Due) (*Event, error) {
	err := command.Retry(func() error {
		if ev == nil {
			fresh, err := s.Load(ctx, d.Tournament)
			if err != nil {
				return err
			}
			ev = fresh
		}
		_, _, err := s.CatchUpRound(ctx, ev, d.Round)
		if err != nil {
			ev = nil
		}
		return err
	})
	if isNotFound(err) {
		return nil, nil // the event, or the round, is gone: nothing is owed
	}
	return ev, err
}

// finishDue deletes the items of work done on d's round, each under the
// version read: one another runner deleted first is done already, and one
// re-armed meanwhile is kept. A team round whose deadline is still ahead
// with lineups missing (an item done before it: a game's end) still owes
// the draw: its deadline's item is written (or re-armed) with the delete.
func (s *Service) finishDue(ctx context.Context, ev *Event, d items.Due, recs []*store.Record) error {
	var next *store.Record
	if r := roundOf(ev, d.Round); r != nil && r.StartsAt > s.now(ctx) {
		var err error
		if next, err = s.deadlineDue(ctx, ev.T, r); err != nil {
			return err
		}
	}
	var errs []error
	for i, rec := range recs {
		if next != nil && rec.SK == next.SK {
			continue // the deadline's own item, not due yet: kept as it is
		}
		var err error
		if i == 0 && next != nil {
			err = s.store.TransactDelete(ctx, []*store.Record{rec}, next)
		} else {
			err = s.store.TransactDelete(ctx, []*store.Record{rec})
		}
		if err != nil && !errors.Is(err, store.ErrConflict) {
			errs = append(errs, fmt.Errorf("delete due %s: %w", rec.SK, err))
		}
	}
	return errors.Join(errs...)
}

// roundOf is round n of ev, nil without an event.
func roundOf(ev *Event, n int) *tournament.Round {
	if ev == nil {
		return nil
	}
	return ev.Round(n)
}

// leaveDue stores work due that a request could not do after its write
// (a paired round's games): created, or already there (the same round in
// the same instant); a failure to store it too is logged.
func (s *Service) leaveDue(ctx context.Context, rec *store.Record) {
	err := command.Retry(func() error {
		if err := s.store.Put(ctx, rec); !errors.Is(err, store.ErrConflict) {
			return err
		}
		return nil // stored already
	})
	if err != nil {
		s.log.Error("work due not stored", "key", rec.SK, "err", err.Error())
	}
}

// IndexDue indexes the work owed by an event that arrives here already
// played — an import, a mirror's copy taken over — whose former stack's
// index of the work due did not come with it: each team round with a
// deadline and lineups missing, due at its deadline, and the latest round
// of an event whose rounds grow as played, due now. RunDue does the rest;
// CatchUpRound finds nothing to do where nothing is owed. An event with
// neither costs the read of its event item; a failure is logged (the
// event is here all the same, and its next write catches up what it can).
func (s *Service) IndexDue(ctx context.Context, tid string) {
	t, _, err := s.Tournament(ctx, tid)
	if err != nil || t.Round == 0 || !t.Settings.Teams && !growsAsPlayed(t) {
		if err != nil {
			s.log.Warn("event arrived, its work due not indexed", "tournament", tid, "err", err.Error())
		}
		return
	}
	ev, err := s.Load(ctx, tid)
	if err != nil {
		s.log.Warn("event arrived, its work due not indexed", "tournament", tid, "err", err.Error())
		return
	}
	if growsAsPlayed(ev.T) {
		s.leaveDue(ctx, dueItem(s.now(ctx), tid, ev.T.Round, dueMoved, ""))
	}
	for _, r := range ev.H.Rounds {
		if lineupsOwed(ev.T, r) {
			s.leaveDue(ctx, dueItem(r.StartsAt, tid, r.Number, dueDeadline, ""))
		}
	}
}

// putOff moves the items of a run that failed later (dueBackoff), each with
// its attempts counted and the error kept; an item another runner moved or
// deleted meanwhile is left to it.
func (s *Service) putOff(ctx context.Context, recs []*store.Record, now int64, why error) error {
	var errs []error
	for _, rec := range recs {
		var d items.Due
		if err := items.Decode(rec, &d); err != nil {
			errs = append(errs, err)
			continue
		}
		d.Attempts++
		d.Error = Clip(why.Error(), 500)
		d.At = now + dueBackoff(d.Attempts).Milliseconds()
		next := items.Encode(&store.Record{PK: store.DuePK, SK: store.DueLater(rec.SK, d.At), Kind: store.KindDue}, d)
		if err := s.store.TransactDelete(ctx, []*store.Record{rec}, next); err != nil && !errors.Is(err, store.ErrConflict) {
			errs = append(errs, fmt.Errorf("put off due %s: %w", rec.SK, err))
		}
	}
	return errors.Join(errs...)
}

// DueRun is what one RunDue did.
type DueRun struct {
	// Found is the items due by now; Done those whose work was done (or
	// owed to nobody any more) and deleted; Failed those whose work failed
	// and were put off; Left those not begun within the run's budget, for
	// the next run.
	Found, Done, Failed, Left int
}

// RunDue does the work due by now: one Query of the index for the items
// due, then, for each event and round among them, CatchUpRound (once for
// all of that round's items) and the items deleted (finishDue), or put off
// when it failed (putOff). Events run several at once (InParallel); a run
// begins no event after dueRunBudget, leaving it to the next run. refusal
// is the mirror's read-only check (nil: none): an event written on another
// stack owes this one nothing, and its items are deleted. It is safe to run
// anywhere at any time, and several at once: see the comment at the top of
// this file. The error is the Query's, or a failure to delete or put off
// an item (the item then stays due as it was).
func (s *Service) RunDue(ctx context.Context, now int64, refusal func(ctx context.Context, id string) error) (DueRun, error) {
	ctx = WithNow(context.WithoutCancel(ctx), time.UnixMilli(now))
	recs, err := s.store.QueryBelow(ctx, store.DuePK, store.DueBefore(now+1))
	if err != nil {
		return DueRun{}, err
	}
	type work struct {
		d    items.Due
		recs []*store.Record
	}
	var order []string
	groups := map[string]*work{}
	var errs []error
	for _, rec := range recs {
		var d items.Due
		if err := items.Decode(rec, &d); err != nil {
			errs = append(errs, err) // never deleted: someone must look at it
			continue
		}
		key := fmt.Sprintf("%s#%d", d.Tournament, d.Round)
		if groups[key] == nil {
			groups[key] = &work{d: d}
			order = append(order, key)
		}
		groups[key].recs = append(groups[key].recs, rec)
	}
	run := DueRun{Found: len(recs)}
	var mu sync.Mutex
	count := func(field *int, n int) { mu.Lock(); *field += n; mu.Unlock() }
	began := time.Now()
	err = InParallel(len(order), func(i int) error {
		w := groups[order[i]]
		if time.Since(began) > dueRunBudget {
			count(&run.Left, len(w.recs))
			return nil
		}
		if refusal != nil {
			var ce *command.Error
			switch err := refusal(ctx, w.d.Tournament); {
			case errors.As(err, &ce) && ce.Kind == command.Conflict: // read-only here: written elsewhere
				count(&run.Done, len(w.recs))
				return s.finishDue(ctx, nil, w.d, w.recs)
			case err != nil:
				count(&run.Failed, len(w.recs))
				return s.putOff(ctx, w.recs, now, err)
			}
		}
		ev, err := s.doDue(ctx, nil, w.d)
		if err != nil {
			s.log.Warn("due work failed, put off", "tournament", w.d.Tournament, "round", w.d.Round, "items", len(w.recs), "err", err.Error())
			count(&run.Failed, len(w.recs))
			return s.putOff(ctx, w.recs, now, err)
		}
		count(&run.Done, len(w.recs))
		return s.finishDue(ctx, ev, w.d, w.recs)
	})
	return run, errors.Join(append(errs, err)...)
}
