package games

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Store reads and writes game items.
type Store struct {
	Store *store.Store
	Log   *slog.Logger
	// Retention, when positive, is how long a finished standalone game is
	// kept before DynamoDB's TTL may delete it.
	Retention time.Duration
	// Own reports whether an event game is the game its pairing made,
	// before its end writes that table's result (the event layer knows
	// the event's key and rounds).
	Own func(ctx context.Context, it *Item) (bool, error)
	// Loaded, when set, hears of every game read (the request's usage is
	// counted for its event).
	Loaded func(ctx context.Context, it *Item)
	// Ending, when set, gives the items an event game's end writes with its
	// result item, in the same transaction, and Ended hears of them once that
	// write has committed: the event layer's work the end makes due (a
	// knockout's next games, S-3), kept in the table before it is done, so a
	// request that stops after the game's write loses none of it, and then
	// done at once by the game command that ended the game (Mutate). Both
	// are asked only when the write creates or rewrites the result item.
	Ending func(ctx context.Context, it *Item, now int64) ([]*store.Record, error)
	Ended  func(ctx context.Context, it *Item, due []*store.Record)
}

// Load reads game gid with one strongly consistent read.
func (s *Store) Load(ctx context.Context, gid string) (*Item, error) {
	rec, err := s.Store.Get(ctx, store.GamePK(gid), store.GameSK)
	if errors.Is(err, store.ErrNotFound) {
		return nil, command.NotFoundf("game %s", gid)
	}
	if err != nil {
		return nil, err
	}
	it, err := Decode(gid, rec)
	if err == nil && s.Loaded != nil {
		s.Loaded(ctx, it)
	}
	return it, err
}

// Mutate is every game write: one strongly consistent read, the caller
// authorised (actor, which authenticates and says whom the caller acts
// as), then the operation (which validates its own fields, after auth, so
// an unauthenticated client learns nothing), and one conditional write
// when the game changed — with the result item created in the same
// transaction the moment an event game ends, so the result reaches the
// event exactly once. A refusal that still changed the game (a flag that
// fell first, an illegal move counted as a foul) is stored before it is
// returned. A write that loses a race is redone on the game as it now is (a
// move on a stale view then fails its ply check: a conflict with the
// current state), within the retry budget (command.Budget), after which it
// is the server's contention (command.Contended), not the client's. A write
// that ended an event game then does the work its end made due (Ended),
// which never changes the answer. The answer is the game's view as of now.
func (s *Store) Mutate(ctx context.Context, gid string, now int64, actor func(*Item) (game.Actor, error), op func(*Item, game.Actor) error) (View, error) {
	start := time.Now()
	for attempt := 1; ; attempt++ {
		it, err := s.Load(ctx, gid)
		if err != nil {
			return View{}, err
		}
		by, err := actor(it)
		if err != nil {
			return View{}, err
		}
		before, plyBefore := it.Game.Version(), it.Game.Ply()
		res, why := it.Game.Result()
		opErr := op(it, by)
		if it.Game.Version() != before {
			res2, why2 := it.Game.Result()
			corrected := it.Link.Reported && (res2 != res || why2 != why)
			if err := s.Save(ctx, it, now, corrected); err != nil {
				if it.Game.Ply() > plyBefore && errors.Is(err, store.ErrSuperseded) {
					// A move whose answer DynamoDB lost may be on the board
					// with the opponent's reply already after it (the store's
					// read-back then finds a later version, not its own): the
					// game as it now is tells, by holding these moves.
					if cur, lerr := s.Load(ctx, gid); lerr == nil && opErr == nil && slices.Equal(cur.Game.Moves()[:min(cur.Game.Ply(), it.Game.Ply())], it.Game.Moves()) {
						return ViewOf(cur, now, 0), nil
					}
				}
				if command.Retryable(err) {
					// The game changed between this read and write (or the
					// store failed and nothing was written): read it again
					// and redo the operation on what it is now, after a
					// jittered pause, within the retry budget.
					if pause := command.Backoff(attempt - 1); time.Since(start)+pause < command.Budget {
						time.Sleep(pause)
						continue
					}
					return View{}, command.Contended(err)
				}
				return View{}, err
			}
			if len(it.Due) > 0 && s.Ended != nil {
				s.Ended(ctx, it, it.Due)
			}
		}
		if opErr != nil {
			var re *game.RuleError
			if errors.As(opErr, &re) && re.Code == game.CodeStalePly {
				return View{}, s.conflict(ctx, gid, now, re.Message)
			}
			return View{}, opErr
		}
		return ViewOf(it, now, 0), nil
	}
}

// conflict is a stale move's refusal, with the game as it now is.
func (s *Store) conflict(ctx context.Context, gid string, now int64, msg string) error {
	e := command.ConflictWith(msg+"; the current state is attached", nil)
	if it, err := s.Load(ctx, gid); err == nil {
		e.Current = ViewOf(it, now, 0)
	}
	return e
}

// Save writes the game under its version; an event game that has just
// ended also gets its result item, in the same transaction, and a
// corrected result rewrites the result item with the game. Either writes
// the items Ending gives with them, and leaves them in it.Due once stored.
func (s *Store) Save(ctx context.Context, it *Item, now int64, corrected bool) error {
	it.Due = nil
	if corrected {
		return s.correctResult(ctx, it, now)
	}
	report := it.Link.Tournament != "" && !it.Link.Reported && it.Game.Status() == game.Over &&
		(!it.Link.SignedResults || it.Game.Signed()) // O-3: the event's option waits for the signatures
	if report {
		// Only the pairing's own game writes the table's result: an item
		// that merely names the table (planted before imports were
		// checked) ends, but reports nothing.
		own, err := s.Own(ctx, it)
		if err != nil {
			return err
		}
		if !own {
			s.Log.Error("a game that is not its pairing's ended: its result is not written", "game", it.ID,
				"tournament", it.Link.Tournament, "round", it.Link.Round, "table", it.Link.Table)
		}
		report = own
	}
	if report {
		it.Link.Reported = true
	}
	rec, err := Encode(it.Rec, it.Link, it.Game)
	if err != nil {
		return err
	}
	rec.Expires = s.TTL(it, now) // a finished standalone game expires after the retention
	if !report && len(it.Also) == 0 {
		return s.Store.Put(ctx, rec)
	}
	if !report {
		return s.Store.Transact(ctx, append([]*store.Record{rec}, it.Also...))
	}
	due, err := s.ending(ctx, it, now)
	if err != nil {
		return err
	}
	res, why := it.Game.Result()
	v := it.Game.View(now)
	item := items.Result{Round: it.Link.Round, Table: it.Link.Table, GameID: it.ID, Red: it.Link.Red, Black: it.Link.Black,
		Result: res, Reason: why.String(), RedFouls: v.Fouls[xiangqi.Red], BlackFouls: v.Fouls[xiangqi.Black], EndedAt: v.EndedAt}
	x := items.Encode(&store.Record{PK: store.TournamentPK(it.Link.Tournament), SK: store.ResultSK(it.Link.Round, it.Link.Table), Kind: store.KindResult}, item)
	if err := s.Store.Transact(ctx, slices.Concat([]*store.Record{rec, x}, it.Also, due)); err != nil {
		return err
	}
	it.Due = due
	return nil
}

// ending is what Ending gives for the end of it (nothing when unset).
func (s *Store) ending(ctx context.Context, it *Item, now int64) ([]*store.Record, error) {
	if s.Ending == nil {
		return nil, nil
	}
	return s.Ending(ctx, it, now)
}

// correctResult rewrites the result item of an event game whose result an
// arbiter corrected after it had been reported (O-1).
func (s *Store) correctResult(ctx context.Context, it *Item, now int64) error {
	rec, err := s.Store.Get(ctx, store.TournamentPK(it.Link.Tournament), store.ResultSK(it.Link.Round, it.Link.Table))
	if errors.Is(err, store.ErrNotFound) {
		return command.NotFoundf("result")
	}
	if err != nil {
		return err
	}
	var old items.Result
	if err := items.Decode(rec, &old); err != nil {
		return err
	}
	res, why := it.Game.Result()
	old.Result, old.Reason = res, why.String()
	g, err := Encode(it.Rec, it.Link, it.Game)
	if err != nil {
		return err
	}
	due, err := s.ending(ctx, it, now)
	if err != nil {
		return err
	}
	if err := s.Store.Transact(ctx, append([]*store.Record{g, items.Encode(rec, old)}, due...)); err != nil {
		return err
	}
	it.Due = due
	return nil
}

// SettleOnRead stores a flag that fell before a read: the game ends when
// anyone looks after the deadline, with no background job (C-3, C-4). The
// work its end makes due is stored with it (Ending) but not done here: a
// read does no event's catch-up, the due work's runner does it.
func (s *Store) SettleOnRead(ctx context.Context, it *Item, now int64) {
	if it.Game.Status() != game.Playing || !it.Game.Settle(now) {
		return
	}
	if err := s.Save(ctx, it, now, false); err != nil && !errors.Is(err, store.ErrConflict) {
		s.Log.Error("store settled game", "game", it.ID, "err", err.Error())
	}
}

// TTL is the item's expiry: a finished standalone game is kept for the
// retention after it ended; an event game is kept with its event.
func (s *Store) TTL(it *Item, now int64) int64 {
	if s.Retention <= 0 || it.Link.Tournament != "" || it.Game.Status() != game.Over {
		return 0
	}
	ended := it.Game.View(now).EndedAt
	if ended == 0 {
		ended = now
	}
	return time.UnixMilli(ended).Add(s.Retention).Unix()
}
