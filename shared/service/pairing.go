package service

import (
	"errors"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// PairRound pairs the next round (S-*, P-*). The round is a staged
// document (encodeRound): its body is written first, in parts outside the
// transaction and paced within the event key's throughput, so a round of
// any size fits; then the round's head (only if it does not exist) and the
// event's round counter are written in one transaction, which publishes it,
// so round n is paired exactly once and read whole or not at all. A request
// that loses the race, or names a round already paired (Round), gets the
// stored round, and the parts it staged are deleted. The games are made
// afterwards under deterministic ids (EnsureGamesAfterCommit), so a retry
// of the pairing repairs a crash between the two steps and recreates
// nothing. A team round paired with its lineups open and a deadline has
// the deadline's work indexed in the same transaction (due.go, T-3).
type PairRound struct {
	// Round, when given, names the round the organiser means to pair: a
	// retry of a round already paired returns it instead of pairing the next.
	Round             *int
	UnfinishedAsDraws bool
	Forbidden         [][2]string
	// StartsAt is the round's start (Unix ms), 0 for none yet.
	StartsAt int64
}

// Paired is PairRound's answer: the event as it now is, the round, whether
// this request created it, and its record when it did (so its games are
// made without reading it again).
type Paired struct {
	Event   *Event
	Round   *tournament.Round
	Created bool
	Stored  *store.Record
	// Due is the work the pairing made due and stored (a team round's
	// lineups at its deadline, T-3), for the request to do at once when
	// the deadline has passed already (CompleteDue); nil when none.
	Due *store.Record
}

// Roles implements Command: the organiser's.
func (PairRound) Roles() []Role { return []Role{Organiser} }

// Apply implements Command.
func (c PairRound) Apply(x *Txn) (any, error) {
	ev, err := x.Event()
	if err != nil {
		return nil, err
	}
	if err := x.S.ExtendRound(x.Ctx, ev); err != nil {
		return nil, err
	}
	if _, err := x.S.DrawDueLineups(x.Ctx, ev, ev.DueRounds(x.Now)); err != nil { // T-3, before the pairing reads the matches
		return nil, err
	}
	if c.Round != nil && *c.Round <= ev.T.Round {
		return Paired{Event: ev, Round: ev.Round(*c.Round)}, nil
	}
	n := ev.T.Round + 1
	if c.Round != nil {
		if err := ev.T.CheckNextRound(*c.Round); err != nil {
			return nil, err
		}
	}
	r, err := ev.PairNext(tournament.PairOptions{UnfinishedAsDraws: c.UnfinishedAsDraws, Forbidden: c.Forbidden, Now: x.Now}, EventGameID(ev.T))
	var re *tournament.RuleError
	if errors.As(err, &re) && re.Code == tournament.CodeEventComplete {
		x.S.markFinished(x, ev) // every round is paired: finished once every result is in
	}
	if err != nil {
		return nil, err
	}
	if c.StartsAt != 0 {
		r.StartsAt = c.StartsAt
	}
	// T-3: a team round whose lineups are open with a deadline has them
	// drawn then by the due work (due.go), indexed in this transaction.
	due, err := x.S.deadlineDue(x.Ctx, ev.T, r)
	if err != nil {
		return nil, err
	}
	if ev.T.ExpiresAt != 0 { // the first pairing: the event is played, so it is kept
		if err := x.S.KeepEvent(x.Ctx, x.TID); err != nil {
			return nil, err
		}
		ev.Meta.Expires = 0
	}
	t := *ev.T
	t.MarkPaired(n)
	rec := encodeItem(&store.Record{PK: store.TournamentPK(x.TID), SK: store.RoundSK(n), Kind: store.KindRound}, r)
	x.Put(rec, encodeItem(ev.Meta, &t))
	if due != nil {
		x.Put(due)
	}
	ev.SetTournament(&t) // round 1 paired: the drawn numbers now show (P-3)
	return Paired{Event: ev, Round: r, Created: true, Stored: rec, Due: due}, nil
}

// Resolve implements Resolver: when round n was paired by another request
// meanwhile, this request's answer is that round.
func (c PairRound) Resolve(x *Txn) (any, bool, error) {
	n := x.ev.T.Round // the event as this request would have left it
	var stored tournament.Round
	if _, err := x.S.get(x.Ctx, store.TournamentPK(x.TID), store.RoundSK(n), "round", &stored); err != nil {
		return nil, false, nil // the event changed for another reason: pair afresh
	}
	return Paired{Event: x.ev, Round: &stored}, true, nil
}

// markFinished stores the finished status after a pairing refused with
// event_complete, when every game has a result; a lost race is left to the
// next request.
func (s *Service) markFinished(x *Txn, ev *Event) {
	if ev.T.Status == tournament.Finished || !ev.Over() {
		return
	}
	t := *ev.T
	t.Finish()
	if err := s.store.Put(x.Ctx, encodeItem(ev.Meta, &t)); err != nil && !errors.Is(err, store.ErrConflict) {
		s.log.Error("storing the finished status", "tournament", t.ID, "error", err)
	}
}

// Over reports whether the event is over (tournament.Over, TeamsOver).
func (ev *Event) Over() bool {
	if !ev.T.Settings.Teams {
		return tournament.Over(ev.T, ev.H)
	}
	te, err := ev.Teams()
	return err == nil && tournament.TeamsOver(ev.T, te.TH)
}
