package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The games of a round: made when the round is stored, repaired by the
// writer side (a retry of the pairing, the round's start, the due work's
// CatchUpRound), started with the round; never by a read.

// NeedsStart reports whether a game still waits for a round that has
// started by now: the round was started (perhaps before its start time) after
// the game was made. A game made after the start has started at its making.
func NeedsStart(sg *games.Item, r *tournament.Round, now int64) bool {
	return r.Started(now) && sg.Game.Status() != game.Over && !sg.Game.Started(now)
}

// StartGames makes the round's games run from its start. A game changed by
// an arrival meanwhile loses the conditional write and is read and started
// again, and a store failure is retried, with back-off, within the
// command's retry budget: no read of the round repairs a game left
// unstarted (a GET writes nothing), so the start itself must see every game
// running. What still fails after the budget is logged.
func (s *Service) StartGames(ctx context.Context, t *tournament.Tournament, r *tournament.Round, h *tournament.History, now int64) {
	ctx = context.WithoutCancel(ctx)
	began := time.Now()
	for attempt := 0; ; attempt++ {
		err := s.EnsureGames(ctx, t, r, h, now)
		waiting := err != nil
		if err == nil {
			have, rerr := s.RoundGames(ctx, r)
			waiting, err = rerr != nil, rerr
			for _, sg := range have {
				waiting = waiting || NeedsStart(sg, r, now)
			}
		}
		if !waiting {
			return
		}
		pause := command.Backoff(attempt)
		if time.Since(began)+pause >= command.Budget {
			msg := "games still waiting to start"
			if err != nil {
				msg = err.Error()
			}
			s.log.Warn("round started, some of its games not", "tournament", t.ID, "round", r.Number, "err", msg)
			return
		}
		time.Sleep(pause)
	}
}

// RoundGames reads the round's games (GamesByID); missing games are absent.
func (s *Service) RoundGames(ctx context.Context, r *tournament.Round) (map[string]*games.Item, error) {
	ids := make([]string, len(r.Pairings))
	for i, p := range r.Pairings {
		ids[i] = p.GameID
	}
	return s.GamesByID(ctx, ids)
}

// EnsureGames makes every game of the round exist with the round's players:
// a missing game is created (a lost race with another request creating it is
// fine), and a game whose players an organiser's change replaced is rewritten
// while it has not started.
func (s *Service) EnsureGames(ctx context.Context, t *tournament.Tournament, r *tournament.Round, h *tournament.History, now int64) error {
	have, err := s.RoundGames(ctx, r)
	if err != nil {
		return err
	}
	return s.makeGames(ctx, t, r, h, have, nil, now)
}

// makeGames writes what GameWrites finds missing or stale against games (the
// round's games as read, or none for a round just stored) and, when every
// write went through, marks the round ready. stored, when not nil, is the
// round's record as this request wrote it: the mark is written under its
// version without reading the round again.
//
// The writes go out as transactions of up to 100 items (and 4 MB), several at once: a
// 10,000-player round is 50 requests instead of 5,000 (each game is still
// created only if it does not exist, or rewritten only at the version
// read). A transaction that loses a race — another request made one of its
// games meanwhile — is written again item by item, where a lost create is
// another request's same game and a lost rewrite (a start, new players) is
// a game that changed meanwhile and still needs it.
func (s *Service) makeGames(ctx context.Context, t *tournament.Tournament, r *tournament.Round, h *tournament.History, have map[string]*games.Item, stored *store.Record, now int64) error {
	recs, err := s.GameWrites(t, r, h, have, true, now)
	if err != nil {
		return err
	}
	chunks := store.TransactChunks(recs) // within DynamoDB's 100 items and 4 MB
	lost := make([]bool, len(chunks))
	err = InParallel(len(chunks), func(i int) error {
		err := s.store.Transact(ctx, chunks[i])
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
		for _, rec := range chunks[i] {
			rewrite := rec.Version != 0
			err := s.store.Put(ctx, rec)
			switch {
			case errors.Is(err, store.ErrConflict) && !rewrite:
				// Another request made this game meanwhile — or an item
				// that is not this pairing's holds its id: never adopted.
				if err := s.madeByPairing(ctx, t, r, h, rec); err != nil {
					return err
				}
			case errors.Is(err, store.ErrConflict):
				lost[i] = true
			case err != nil:
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if slices.Contains(lost, true) {
		// A game changed between its read and its rewrite: the caller's
		// retry reads it again (StartGames, CatchUpRound's, Exec's).
		return fmt.Errorf("round %d: a game changed while it was rewritten: %w", r.Number, store.ErrConflict)
	}
	s.markGamesReady(ctx, t.ID, r, stored)
	return nil
}

// markGamesReady sets GamesReady on the stored round once EnsureGames has
// made every game of r exist, so later catch-ups skip reading them. The mark
// is in the round's head (items.RoundHead): the round's body is unchanged,
// so the store writes the head alone, a few hundred bytes, never the round
// again. It writes only if the stored round still has r's pairings (a
// change or an extension meanwhile leaves the flag to the next catch-up)
// and, in a team round, every match is set; the write is conditional on
// the version read, so it never overwrites a concurrent change. Given the
// record this request stored r under (stored), it writes under that version
// and build without reading the round again: any change since makes the
// write a conflict. A failure only costs a later catch-up the games' reads
// again, so it is logged, not returned.
func (s *Service) markGamesReady(ctx context.Context, tid string, r *tournament.Round, stored *store.Record) {
	if r.GamesReady || !tournament.AllMatchesSet(r) {
		return
	}
	var err error
	if stored != nil {
		ready := *r
		ready.GamesReady = true
		err = s.store.Put(ctx, encodeItem(stored, &ready))
	} else {
		var now tournament.Round
		rec, lerr := s.get(ctx, store.TournamentPK(tid), store.RoundSK(r.Number), "round", &now)
		err = lerr
		if err == nil {
			if now.GamesReady || !tournament.AllMatchesSet(&now) || !slices.Equal(now.Pairings, r.Pairings) {
				return
			}
			now.GamesReady = true
			err = s.store.Put(ctx, encodeItem(rec, &now))
		}
	}
	if err != nil && !errors.Is(err, store.ErrConflict) {
		s.log.Warn("games ensured, round not marked ready", "tournament", tid, "round", r.Number, "err", err.Error())
	}
}

// GameWrites returns the game records that make the round's games match its
// pairings, given the games read: missing games (when create is set) and
// games whose players changed, unless they have begun.
func (s *Service) GameWrites(t *tournament.Tournament, r *tournament.Round, h *tournament.History, have map[string]*games.Item, create bool, now int64) ([]*store.Record, error) {
	var recs []*store.Record
	var numbers map[string]int // as the event shows them (P-3), worked out for the first game made
	for _, p := range r.Pairings {
		sg := have[p.GameID]
		if sg != nil {
			if err := s.ownGame(t, r, p, h, sg); err != nil {
				return nil, err
			}
		}
		if sg != nil && sg.Link.Red == p.Red && sg.Link.Black == p.Black {
			if NeedsStart(sg, r, now) {
				// The round started after the game was made: its clocks run
				// from the round's start, and late arrival counts from it (C-6).
				if err := sg.Game.Start(r.StartsAt); err != nil {
					return nil, err
				}
				rec, err := games.Encode(sg.Rec, sg.Link, sg.Game)
				if err != nil {
					return nil, err
				}
				recs = append(recs, rec)
			}
			continue
		}
		if sg == nil && !create {
			continue
		}
		if sg != nil && sg.Begun() {
			s.log.Error("a started game no longer matches its pairing", "game", p.GameID, "round", r.Number, "table", p.Table)
			continue
		}
		red, black := h.Player(p.Red), h.Player(p.Black)
		if red == nil || black == nil {
			return nil, fmt.Errorf("round %d table %d: unknown player", r.Number, p.Table)
		}
		if numbers == nil {
			numbers = tournament.ShownNumbers(t, h.Players)
		}
		tt := *t
		tt.Settings.TimeControl = tournament.GameControl(t, p) // additional rapid games have their own (S-3)
		rec, err := s.eventGame(&tt, r, p, red, black, numbers, now)
		if err != nil {
			return nil, err
		}
		if sg != nil {
			rec.Version = sg.Rec.Version
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// EnsureGamesAfterCommit creates a round's games once the round is stored.
// The request has done what it was asked, so a failure here (the store
// throttled) is logged, not returned: an error would let the client's retry,
// under the same Idempotency-Key or not, act again (pair the round after).
// What is still missing is left as work due now (due.go), which the due
// work's runner does (CatchUpRound), as do a retry of the pairing and the
// round's start. stored, when not nil, is the round's record as this
// request has just created it: its games cannot exist yet (but for a
// concurrent catch-up making them, which the conditional creates allow
// for), so none is read first. The one failure returned is a game id held
// by an item that is not the pairing's (409 game_id_taken): the pairing
// fails loudly, and so does every retry of it until the operator removes
// the item.
func (s *Service) EnsureGamesAfterCommit(ctx context.Context, t *tournament.Tournament, r *tournament.Round, h *tournament.History, stored *store.Record, now int64) error {
	if r.GamesReady {
		return nil // a retry of a pairing, or a change that read every game
	}
	// Nor does a client that hangs up stop it halfway.
	ctx = context.WithoutCancel(ctx)
	var err error
	if stored != nil {
		err = s.makeGames(ctx, t, r, h, nil, stored, now)
	} else {
		err = s.EnsureGames(ctx, t, r, h, now)
	}
	var e *command.Error
	if errors.As(err, &e) && e.Code == "game_id_taken" {
		return err
	}
	if err != nil {
		s.log.Warn("round stored, its games left to the due work", "tournament", t.ID, "round", r.Number, "err", err.Error())
		s.leaveDue(ctx, dueItem(s.now(ctx), t.ID, r.Number, dueGames, ""))
	}
	return nil
}

// ownGame checks that the game item found at pairing p's game id is this
// pairing's: made for event t's round r at p's table, and — while it still
// has p's players and is not over — with their current token hashes (a
// reissue rewrites a finished game's hash after the open ones, so a
// finished game may keep an old one harmlessly). Pairing never adopts
// an item it did not write (one planted under a predicted id, or imported
// with another event's link): such an item fails the pairing loudly, 409
// game_id_taken, and is logged as an error, never made the table's game.
// A game with other players of this table is this pairing's before an
// organiser's change, rewritten by the caller while it has not begun.
func (s *Service) ownGame(t *tournament.Tournament, r *tournament.Round, p tournament.Pairing, h *tournament.History, sg *games.Item) error {
	gid, link := sg.ID, sg.Link
	ok := link.Tournament == t.ID && link.Round == r.Number && link.Table == p.Table
	if ok && link.Red == p.Red && link.Black == p.Black && sg.Game.Status() != game.Over {
		red, black := h.Player(p.Red), h.Player(p.Black)
		ok = red != nil && black != nil && link.RedHash == red.TokenHash && link.BlackHash == black.TokenHash
	}
	if ok {
		return nil
	}
	s.log.Error("a game item at a pairing's id is not the pairing's", "game", gid, "tournament", t.ID, "round", r.Number, "table", p.Table,
		"linkTournament", link.Tournament, "linkRound", link.Round, "linkTable", link.Table)
	return &command.Error{Kind: command.Conflict, Code: "game_id_taken",
		Message: fmt.Sprintf("game %s of round %d, table %d exists but is not this pairing's (it names event %s, round %d, table %d, %s–%s): the table's game was not made; tell the operator",
			gid, r.Number, p.Table, quote(Clip(link.Tournament, 40)), link.Round, link.Table, quote(Clip(link.Red, 40)), quote(Clip(link.Black, 40)))}
}

// madeByPairing checks, after a create of one of the round's games lost to
// an item already there, that the item is this pairing's game (ownGame).
func (s *Service) madeByPairing(ctx context.Context, t *tournament.Tournament, r *tournament.Round, h *tournament.History, rec *store.Record) error {
	gid, _ := store.GameOf(rec.PK)
	sg, err := s.Games.Load(ctx, gid)
	if err != nil {
		return err
	}
	for _, p := range r.Pairings {
		if p.GameID == gid {
			return s.ownGame(t, r, p, h, sg)
		}
	}
	return nil
}

// eventGame builds the record of a pairing's game (Version 0: to be created),
// with the event's time control and rules; its clocks start at the round's
// start (C-6): a round with no start time yet waits, clocks still, until the
// organiser or an arbiter starts it. A game made after its round started (a
// knockout's next or play-off game, a team board set late) starts when it is
// made, now: its players could not have played it before. numbers are the
// players' numbers as the event shows them (P-3), the ones the game keeps.
func (s *Service) eventGame(t *tournament.Tournament, r *tournament.Round, p tournament.Pairing, red, black *tournament.Player, numbers map[string]int, now int64) (*store.Record, error) {
	start := r.StartsAt
	if start != 0 && now > start {
		start = now
	}
	setup := game.Setup{Control: t.Settings.TimeControl, Rules: t.Settings.Rules.Rules, StartMs: start}
	if t.Settings.Rules.RecordArrivals {
		setup.LateLimitMs = t.Settings.Rules.LateForfeitMs // C-6: absent at start + limit forfeits
	}
	g, err := game.New(setup)
	if err != nil {
		return nil, err
	}
	link := games.Link{Tournament: t.ID, Round: r.Number, Table: p.Table, Red: red.ID, Black: black.ID, RedHash: red.TokenHash, BlackHash: black.TokenHash,
		RedName: red.Name, BlackName: black.Name, RedNumber: numbers[red.ID], BlackNumber: numbers[black.ID], Delay: t.Settings.BroadcastDelaySeconds, SignedResults: t.Settings.SignedResults}
	return games.Encode(&store.Record{PK: store.GamePK(p.GameID), SK: store.GameSK, Kind: store.KindGame}, link, g)
}
