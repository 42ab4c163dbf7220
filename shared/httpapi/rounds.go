package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// event is the event aggregate (service.Event) with the HTTP layer's views of it.
type event struct{ *service.Event }

// loadEvent reads event tid whole (service.Service.Load).
func (a *API) loadEvent(ctx context.Context, tid string) (*event, error) {
	ev, err := a.svc.Load(ctx, tid)
	if err != nil {
		return nil, err
	}
	return &event{ev}, nil
}

// pairIn is POST /tournaments/{tid}/rounds.
type pairIn struct {
	// Round, when given, names the round the organiser means to pair: a
	// retry of a round already paired returns it instead of pairing the next.
	Round             *int        `json:"round"`
	UnfinishedAsDraws bool        `json:"unfinishedAsDraws"`
	ForbiddenPairs    [][2]string `json:"forbiddenPairs"`
	StartsAt          *time.Time  `json:"startsAt"`
}

// POST /tournaments/{tid}/rounds — organiser: pair the next round (S-*, P-*).
// The round item and the event's round counter are written in one
// transaction, the round item only if it does not exist, so round n is paired
// exactly once; a request that loses the race, or names a round already
// paired, gets the stored round with 200. The games are created afterwards
// under deterministic ids, so a retry (or GET of the round) repairs a crash
// between the two steps and recreates nothing.
func (a *API) pairRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var in pairIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	if in.Round != nil && *in.Round < 1 {
		return 0, nil, badRequest("invalid_field", "round: want a round number ≥ 1")
	}
	if err := checkRoundStart(in.StartsAt, c.now); err != nil {
		return 0, nil, err
	}
	if n := len(in.ForbiddenPairs); n > limitOf(capForbiddenPair).Max {
		return 0, nil, tooMany(capForbiddenPair, n)
	}
	if err := a.requireOrganiser(c, tid); err != nil { // before the event-wide read
		return 0, nil, err
	}
	var (
		ev     *event
		r      *tournament.Round
		status int
		stored *store.Record // the round's record, when this request created it
	)
	err := command.Retry(func() error {
		var err error
		if ev, err = a.loadEvent(c.ctx(), tid); err != nil {
			return err
		}
		if err := a.extendRound(c, ev); err != nil {
			return err
		}
		if _, err := a.drawDueLineups(c, ev, ev.dueRounds(c.nowMs())); err != nil { // T-3, before the pairing reads the matches
			return err
		}
		if in.Round != nil && *in.Round <= ev.T.Round {
			r, status = ev.Round(*in.Round), http.StatusOK
			return nil
		}
		n := ev.T.Round + 1
		if in.Round != nil {
			if err := ev.T.CheckNextRound(*in.Round); err != nil {
				return err
			}
		}
		opts := tournament.PairOptions{UnfinishedAsDraws: in.UnfinishedAsDraws, Forbidden: in.ForbiddenPairs, Now: c.nowMs()}
		if r, err = ev.pairNext(opts, eventGameID(ev.T)); err != nil {
			return err
		}
		if in.StartsAt != nil {
			r.StartsAt = in.StartsAt.UnixMilli()
		}
		if ev.T.ExpiresAt != 0 { // the first pairing: the event is played, so it is kept
			if err := a.keepEvent(c, tid); err != nil {
				return err
			}
			ev.Meta.Expires = 0
		}
		t := *ev.T
		t.Round, t.Status, t.ExpiresAt = n, tournament.Running, 0
		rec := encode(&store.Record{PK: store.TournamentPK(tid), SK: store.RoundSK(n), Kind: store.KindRound}, r)
		stored = nil
		err = a.store.Transact(c.ctx(), []*store.Record{rec, encode(ev.Meta, &t)})
		if errors.Is(err, store.ErrConflict) {
			var stored tournament.Round
			if _, lerr := a.load(c.ctx(), store.TournamentPK(tid), store.RoundSK(n), "round", &stored); lerr == nil {
				r, status = &stored, http.StatusOK // another request paired it: the same round
				ev.SetTournament(&t)               // as that request left the event: round n paired (P-3 numbers)
				return nil
			}
			return err // the event changed for another reason: pair afresh
		}
		if err != nil {
			return err
		}
		status, stored = http.StatusCreated, rec
		ev.SetTournament(&t) // round 1 paired: the drawn numbers now show (P-3)
		return nil
	})
	if re := (*tournament.RuleError)(nil); errors.As(err, &re) && re.Code == tournament.CodeEventComplete {
		a.markFinished(c, ev) // every round is paired: finished once every result is in
	}
	if err != nil {
		return 0, nil, err
	}
	if err := a.ensureGamesAfterCommit(c, ev.T, r, ev.H, stored); err != nil {
		return 0, nil, err
	}
	return status, ev.roundView(r, false, c.nowMs()), nil
}

// roundStartWindow bounds a round's startsAt around the time of pairing. The
// games' clocks run from it (C-6), so a start years off — a typo — would make
// every game of the round lost on time at its first read, or give the
// players clocks that do not run: refused as malformed rather than stored.
const roundStartWindow = 24 * time.Hour

func checkRoundStart(startsAt *time.Time, now time.Time) error {
	if startsAt == nil {
		return nil
	}
	if startsAt.Before(now.Add(-roundStartWindow)) || startsAt.After(now.AddDate(1, 0, 0)) {
		return badRequest("invalid_field", "startsAt: a round starts between a day before it is paired and a year after (the have' clocks run from it, C-6)")
	}
	return nil
}

// GET /tournaments/{tid}/rounds/{n} — public; ?explain=true adds why each
// pair, ?format=csv gives the pairings as a spreadsheet.
func (a *API) getRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	explain, err := boolQuery(c, "explain")
	if err != nil {
		return 0, nil, err
	}
	format, err := formatQuery(c, "json", "csv")
	if err != nil {
		return 0, nil, err
	}
	vw, out, err := a.cachedRound(c, tid, n, explain)
	if err != nil || out != nil {
		return roundResponse(c, out, format, err)
	}
	if vw == nil { // explanations, or a team event: no round view; the response view serves it
		return a.serveViewed(c, "GET /tournaments/{tid}/rounds/{n}", func() (int, any, error) { return a.readRound(c, nil, tid, n, explain, format) })
	}
	return a.readRound(c, vw, tid, n, explain, format)
}

// readRound answers GET …/rounds/{n} from the event, storing the round view
// vw (when given) or marking the answer for its response view.
func (a *API) readRound(c *call, vw *storedView, tid string, n int, explain bool, format string) (int, any, error) {
	ev, err := a.loadEvent(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	if n == ev.T.Round {
		if err := a.extendRound(c, ev); err != nil {
			return 0, nil, err
		}
	}
	drawn, err := a.drawDueLineups(c, ev, []int{n}) // T-3: drawn by the server at the deadline
	if err != nil {
		return 0, nil, err
	}
	r := ev.Round(n)
	if r == nil {
		return 0, nil, notFound(fmt.Sprintf("round %d of %s", n, tid))
	}
	// A public, polled read: once the round item says its games exist, the
	// view needs none of them (results come from the result items), so only
	// a round whose games are not known to exist — an interrupted pairing, a
	// knockout round extendRound just grew, a team round with matches still
	// unset — pays for reading them. A draw above has ensured them already.
	if !r.GamesReady && len(drawn) == 0 {
		if err := a.ensureGames(c, ev.T, r, ev.H); err != nil {
			return 0, nil, err
		}
	} else if len(drawn) == 0 {
		a.saveRound(vw, ev, r) // its games exist: the view serves the next reads
		c.keepView(ev.nextStart(c.nowMs()))
	}
	if format == "csv" {
		return roundResponse(c, ptr(ev.roundView(r, false, c.nowMs())), format, nil)
	}
	return roundResponse(c, ptr(ev.roundView(r, explain, c.nowMs())), format, nil)
}

// extendRound adds to the latest round of a knockout the games its matches
// need now (the next game of a multi-game match, additional rapid games while
// level; S-3), so they appear as soon as anyone reads the round or asks for
// the next one. The games' ids and tables are deterministic, so two requests
// doing this at once write the same round; the loser rereads it.
func (a *API) extendRound(c *call, ev *event) error {
	if ev.T.Settings.Teams {
		return a.extendTeamRound(c, ev)
	}
	add, ex, err := tournament.NextGames(ev.T, ev.H, eventGameID(ev.T))
	var re *tournament.RuleError
	if errors.As(err, &re) {
		return nil // an earlier round is undecided: the pairing reports it
	}
	if err != nil || len(add) == 0 {
		return err
	}
	r := ev.Round(ev.T.Round)
	changed := *r
	changed.GamesReady = false // the added games are created by the read that follows
	changed.Pairings = append(slices.Clone(r.Pairings), add...)
	changed.Explanations = append(slices.Clone(r.Explanations), ex...)
	err = a.store.Put(c.ctx(), encode(ev.Rounds[r.Number], &changed))
	if errors.Is(err, store.ErrConflict) {
		fresh, err := a.loadEvent(c.ctx(), ev.T.ID)
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

func boolQuery(c *call, name string) (bool, error) {
	switch c.r.URL.Query().Get(name) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, badRequest("invalid_query", name+`: want "true" or "false"`)
}

// changeIn is POST /tournaments/{tid}/rounds/{n}/changes.
type changeIn struct {
	Action string `json:"action"`
	Table  int    `json:"table"`
	Red    string `json:"red"`
	Black  string `json:"black"`
	Player string `json:"player"`
	Note   string `json:"note"`
}

// POST /tournaments/{tid}/rounds/{n}/changes — organiser: swap colours, force
// a pair or move the bye before the round starts; kept in the round's audit
// log. The changed tables keep their game ids: each game, not yet started, is
// rewritten with its new players.
func (a *API) changeRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	var in changeIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	if len(in.Note) > 500 {
		return 0, nil, badRequest("invalid_field", "note: at most 500 characters")
	}
	t, _, err := a.loadTournament(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	who, err := a.requireRole(c, tid, organiserKnown(t), roleOrganiser) // before the event-wide read
	if err != nil {
		return 0, nil, err
	}
	ev, err := a.loadEvent(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	r := ev.Round(n)
	if r == nil {
		return 0, nil, notFound(fmt.Sprintf("round %d of %s", n, tid))
	}
	if len(r.Audit) >= limitOf(capRoundAudit).Max {
		return 0, nil, overLimit(capRoundAudit)
	}
	if err := ev.T.CheckChange(r, ev.H, c.nowMs()); err != nil {
		return 0, nil, err
	}
	have, err := a.roundGames(c, r)
	if err != nil {
		return 0, nil, err
	}
	begun := func(p tournament.Pairing) bool { sg := have[p.GameID]; return sg != nil && sg.Begun() }
	if err := r.CheckGamesUnbegun(begun); err != nil {
		return 0, nil, err
	}
	for _, id := range []string{in.Red, in.Black, in.Player} {
		if id != "" && ev.H.Player(id) == nil {
			return 0, nil, notFound("player " + quote(clip(id, 40)))
		}
	}
	changed := *r
	if _, err := changed.Apply(tournament.Change{Action: in.Action, Table: in.Table, Red: in.Red, Black: in.Black, Player: in.Player, Note: in.Note}, who.ID, c.nowMs()); err != nil {
		return 0, nil, err
	}
	// The round, the games it gives new players (under the versions that
	// showed them unstarted) and the event (no round paired since) change
	// together: a move made or a round paired meanwhile makes this a 409.
	rewrites, err := a.gameWrites(ev.T, &changed, ev.H, have, false, c.nowMs())
	if err != nil {
		return 0, nil, err
	}
	// Every game was read above and the transaction rewrites the changed
	// ones under those versions, so the round knows its games exist when
	// each of its tables' games did; otherwise the next read repairs them.
	changed.GamesReady = true
	for _, p := range changed.Pairings {
		if have[p.GameID] == nil {
			changed.GamesReady = false
		}
	}
	if err := a.store.Transact(c.ctx(), append([]*store.Record{encode(ev.Rounds[n], &changed)}, rewrites...), ev.Meta); err != nil {
		return 0, nil, conflictWith(err, func() (any, error) {
			fresh, err := a.loadEvent(c.ctx(), tid)
			if err != nil {
				return nil, err
			}
			if r := fresh.Round(n); r != nil {
				return localizeRound(roundView(r, fresh.H, fresh.Numbers(), true, c.nowMs()), c.r), nil
			}
			return nil, notFound("round")
		})
	}
	if err := a.ensureGamesAfterCommit(c, ev.T, &changed, ev.H, nil); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, localizeRound(roundView(&changed, ev.H, ev.Numbers(), true, c.nowMs()), c.r), nil
}

// needsStart reports whether a game still waits for a round that has
// started by now: the round was started (perhaps before its start time) after
// the game was made. A game made after the start has started at its making.
func needsStart(sg *games.Item, r *tournament.Round, now int64) bool {
	return r.Started(now) && sg.Game.Status() != game.Over && !sg.Game.Started(now)
}

// POST /tournaments/{tid}/rounds/{n}/start — the organiser or an arbiter
// starts a paired round now: its games' clocks start, and late arrival
// counts from now (C-1, C-6). A round whose start time has not come starts
// early. Starting a round that has started changes nothing: 409 with the
// round; a round not yet paired is 422.
func (a *API) startRound(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	n, err := strconv.Atoi(c.r.PathValue("n"))
	if err != nil || n < 1 {
		return 0, nil, badRequest("invalid_path", "n: want a round number ≥ 1")
	}
	if err := c.decode(&struct{}{}); err != nil {
		return 0, nil, err
	}
	var ev *event
	var r *tournament.Round
	err = command.Retry(func() error {
		if ev, err = a.loadEvent(c.ctx(), tid); err != nil {
			return err
		}
		if _, err := a.requireRole(c, tid, organiserKnown(ev.T), roleOrganiser, roleArbiter, roleChief); err != nil {
			return err
		}
		if err := ev.T.CheckPaired(n); err != nil {
			return err
		}
		if r = ev.Round(n); r == nil {
			return notFound(fmt.Sprintf("round %d of %s", n, tid))
		}
		if r.Started(c.nowMs()) {
			return &Error{Status: http.StatusConflict, Code: "round_already_started", Rule: "C-1",
				Message: fmt.Sprintf("round %d started at %s; its clocks are running and nothing changed", n, rfc3339(r.StartsAt)),
				Current: ev.roundView(r, false, c.nowMs())}
		}
		changed := *r
		changed.StartsAt, changed.GamesReady = c.nowMs(), false
		if err := a.store.Put(c.ctx(), encode(ev.Rounds[n], &changed)); err != nil {
			return err
		}
		*r = changed
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	// T-3: a team round's lineups are due at its start; drawn ones make games.
	// The round has started: a failure here is left to the next read of the
	// round (which draws what is due), not returned, or a retry would be 409.
	if _, err := a.drawDueLineups(c, ev, ev.dueRounds(c.nowMs())); err != nil {
		a.log.Warn("round started, its lineups left to the next read", "tournament", tid, "round", n, "err", err.Error())
	}
	if fresh, err := a.loadEvent(c.ctx(), tid); err == nil {
		ev, r = fresh, fresh.Round(n)
	}
	a.startGames(c, ev.T, r, ev.H)
	return http.StatusOK, ev.roundView(r, false, c.nowMs()), nil
}

// startGames makes the round's games run from its start. A game changed by
// an arrival meanwhile loses the conditional write and is read and started
// again; what still fails is left to the next read of the round (the round
// item is not marked ready), and logged.
func (a *API) startGames(c *call, t *tournament.Tournament, r *tournament.Round, h *tournament.History) {
	detached := *c
	detached.r = c.r.WithContext(context.WithoutCancel(c.ctx()))
	for range 3 {
		if err := a.ensureGames(&detached, t, r, h); err != nil {
			a.log.Warn("round started, its have left to the next read", "tournament", t.ID, "round", r.Number, "err", err.Error())
			return
		}
		have, err := a.roundGames(&detached, r)
		if err != nil {
			return
		}
		waiting := false
		for _, sg := range have {
			waiting = waiting || needsStart(sg, r, c.nowMs())
		}
		if !waiting {
			return
		}
	}
}

// roundGames reads the round's games in batches of 100 keys, several
// batches at once (a 10,000-player round is 50 of them); missing games are
// absent.
func (a *API) roundGames(c *call, r *tournament.Round) (map[string]*games.Item, error) {
	keys := make([]store.Key, len(r.Pairings))
	for i, p := range r.Pairings {
		keys[i] = store.Key{PK: store.GamePK(p.GameID), SK: store.GameSK}
	}
	chunks := slices.Collect(slices.Chunk(keys, 100))
	found := make([]map[store.Key]*store.Record, len(chunks))
	err := service.InParallel(len(chunks), func(i int) error {
		var err error
		found[i], err = a.store.GetMany(c.ctx(), chunks[i]...)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]*games.Item, len(keys))
	for _, recs := range found {
		for k, rec := range recs {
			gid, _ := store.GameOf(k.PK)
			sg, err := games.Decode(gid, rec)
			if err != nil {
				return nil, err
			}
			out[gid] = sg
		}
	}
	return out, nil
}

// ensureGames makes every game of the round exist with the round's players:
// a missing game is created (a lost race with another request creating it is
// fine), and a game whose players an organiser's change replaced is rewritten
// while it has not started.
func (a *API) ensureGames(c *call, t *tournament.Tournament, r *tournament.Round, h *tournament.History) error {
	have, err := a.roundGames(c, r)
	if err != nil {
		return err
	}
	return a.makeGames(c, t, r, h, have, nil)
}

// makeGames writes what gameWrites finds missing or stale against games (the
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
func (a *API) makeGames(c *call, t *tournament.Tournament, r *tournament.Round, h *tournament.History, have map[string]*games.Item, stored *store.Record) error {
	recs, err := a.gameWrites(t, r, h, have, true, c.nowMs())
	if err != nil {
		return err
	}
	chunks := store.TransactChunks(recs) // within DynamoDB's 100 items and 4 MB
	lost := make([]bool, len(chunks))
	err = service.InParallel(len(chunks), func(i int) error {
		err := a.store.Transact(c.ctx(), chunks[i])
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
		for _, rec := range chunks[i] {
			rewrite := rec.Version != 0
			err := a.store.Put(c.ctx(), rec)
			switch {
			case errors.Is(err, store.ErrConflict) && !rewrite:
				// Another request made this game meanwhile — or an item
				// that is not this pairing's holds its id: never adopted.
				if err := a.madeByPairing(c, t, r, h, rec); err != nil {
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
		return nil // the next read of the round repairs them
	}
	a.markGamesReady(c, t.ID, r, stored)
	return nil
}

// markGamesReady sets GamesReady on the stored round once ensureGames has
// made every game of r exist, so later reads skip reading them. It writes
// only if the stored round still has r's pairings (a change or an extension
// meanwhile leaves the flag to the next read) and, in a team round, every
// match is set; the write is conditional on the version read, so it never
// overwrites a concurrent change. Given the record this request stored r
// under (stored), it writes under that version without reading the round
// again: any change since makes the write a conflict. A failure only costs
// a later read the games' reads again, so it is logged, not returned.
func (a *API) markGamesReady(c *call, tid string, r *tournament.Round, stored *store.Record) {
	if r.GamesReady || !allSet(r) {
		return
	}
	var err error
	if stored != nil {
		ready := *r
		ready.GamesReady = true
		err = a.store.Put(c.ctx(), encode(&store.Record{PK: stored.PK, SK: stored.SK, Kind: stored.Kind, Version: stored.Version, Parts: stored.Parts}, &ready))
	} else {
		var now tournament.Round
		rec, lerr := a.load(c.ctx(), store.TournamentPK(tid), store.RoundSK(r.Number), "round", &now)
		err = lerr
		if err == nil {
			if now.GamesReady || !allSet(&now) || !slices.Equal(now.Pairings, r.Pairings) {
				return
			}
			now.GamesReady = true
			err = a.store.Put(c.ctx(), encode(rec, &now))
		}
	}
	if err != nil && !errors.Is(err, store.ErrConflict) {
		a.log.Warn("have ensured, round not marked ready", "tournament", tid, "round", r.Number, "err", err.Error())
	}
}

// gameWrites returns the game records that make the round's games match its
// pairings, given the games read: missing games (when create is set) and
// games whose players changed, unless they have begun.
func (a *API) gameWrites(t *tournament.Tournament, r *tournament.Round, h *tournament.History, have map[string]*games.Item, create bool, now int64) ([]*store.Record, error) {
	var recs []*store.Record
	var numbers map[string]int // as the event shows them (P-3), worked out for the first game made
	for _, p := range r.Pairings {
		sg := have[p.GameID]
		if sg != nil {
			if err := a.ownGame(t, r, p, h, sg); err != nil {
				return nil, err
			}
		}
		if sg != nil && sg.Link.Red == p.Red && sg.Link.Black == p.Black {
			if needsStart(sg, r, now) {
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
			a.log.Error("a started game no longer matches its pairing", "game", p.GameID, "round", r.Number, "table", p.Table)
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
		rec, err := a.eventGame(&tt, r, p, red, black, numbers, now)
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

// ensureGamesAfterCommit creates a round's games once the round is stored.
// The request has done what it was asked, so a failure here (the store
// throttled) is logged, not returned: an error would let the client's retry,
// under the same Idempotency-Key or not, act again (pair the round after).
// Every read of the round creates what is still missing. stored, when not
// nil, is the round's record as this request has just created it: its games
// cannot exist yet (but for a concurrent read of the round making them,
// which the conditional creates allow for), so none is read first. The one
// failure returned is a game id held by an item that is not the pairing's
// (409 game_id_taken): the pairing fails loudly, and so does every read of
// the round until the operator removes the item.
func (a *API) ensureGamesAfterCommit(c *call, t *tournament.Tournament, r *tournament.Round, h *tournament.History, stored *store.Record) error {
	if r.GamesReady {
		return nil // a retry of a pairing, or a change that read every game
	}
	// Nor does a client that hangs up stop it halfway.
	detached := *c
	detached.r = c.r.WithContext(context.WithoutCancel(c.ctx()))
	var err error
	if stored != nil {
		err = a.makeGames(&detached, t, r, h, nil, stored)
	} else {
		err = a.ensureGames(&detached, t, r, h)
	}
	var e *Error
	if errors.As(err, &e) && e.Code == "game_id_taken" {
		return err
	}
	if err != nil {
		a.log.Warn("round stored, its have left to the next read", "tournament", t.ID, "round", r.Number, "err", err.Error())
	}
	return nil
}

// Round views.
type pairingOut struct {
	Table       int             `json:"table"`
	Red         string          `json:"red"`
	Black       string          `json:"black"`
	RedName     string          `json:"redName"`
	BlackName   string          `json:"blackName"`
	RedNumber   int             `json:"redNumber,omitempty"`
	BlackNumber int             `json:"blackNumber,omitempty"`
	GameID      string          `json:"gameId"`
	Match       string          `json:"match,omitempty"`
	Board       int             `json:"board,omitempty"`
	Group       string          `json:"group,omitempty"`
	Result      *string         `json:"result"`
	Reason      string          `json:"reason,omitempty"`
	Explanation *explanationOut `json:"explanation,omitempty"`
}

type explanationOut struct {
	ScoreGroup     int    `json:"scoreGroup"`
	Opponent       string `json:"opponent"`
	OpponentReason string `json:"opponentReason"`
	ColourReason   string `json:"colourReason"`
}

type auditOut struct {
	At     string `json:"at"`
	By     string `json:"by"`
	Action string `json:"action"`
	Detail string `json:"detail"`
}

type roundOut struct {
	Round             int             `json:"round"`
	PairedAt          string          `json:"pairedAt"`
	StartsAt          *string         `json:"startsAt,omitempty"`
	Started           bool            `json:"started"`
	Pairings          []pairingOut    `json:"pairings"`
	Bye               *string         `json:"bye"`
	ByeName           *string         `json:"byeName,omitempty"`
	Byes              []string        `json:"byes"`
	ByeExplanation    *explanationOut `json:"byeExplanation,omitempty"`
	UnfinishedAsDraws []string        `json:"unfinishedAsDraws"`
	Audit             []auditOut      `json:"audit"`
	Matches           []matchOut      `json:"matches,omitempty"`
	Eliminated        []string        `json:"eliminated,omitempty"`
	EliminatedNames   []string        `json:"eliminatedNames,omitempty"`
	Stage             string          `json:"stage,omitempty"`
	// Language is the explanations' language (zh, en) when the view has any.
	Language string `json:"language,omitempty"`
}

func explanationView(e tournament.Explanation) *explanationOut {
	return &explanationOut{ScoreGroup: e.ScoreGroup, Opponent: e.Opponent, OpponentReason: e.OpponentReason, ColourReason: e.ColourReason}
}

// roundView is round r as clients see it; numbers are the players' numbers
// as the event shows them (event.numbers), nil for a team round's teams.
func roundView(r *tournament.Round, h *tournament.History, numbers map[string]int, explain bool, now int64) roundOut {
	out := roundOut{Round: r.Number, PairedAt: rfc3339(r.PairedAt), Started: r.Started(now), Pairings: []pairingOut{}, Byes: []string{},
		UnfinishedAsDraws: []string{}, Audit: []auditOut{}}
	if r.StartsAt != 0 {
		s := rfc3339(r.StartsAt)
		out.StartsAt = &s
	}
	name := func(id string) string {
		if p := h.Player(id); p != nil {
			return p.Name
		}
		return ""
	}
	for i, p := range r.Pairings {
		po := pairingOut{Table: p.Table, Red: p.Red, Black: p.Black, RedName: name(p.Red), BlackName: name(p.Black),
			RedNumber: numbers[p.Red], BlackNumber: numbers[p.Black], GameID: p.GameID, Match: p.Match, Board: p.Board, Group: p.Group}
		if res, ok := h.Result(r.Number, p); ok {
			s := res.Result.String()
			po.Result, po.Reason = &s, res.Reason
		}
		if explain && i < len(r.Explanations) {
			po.Explanation = explanationView(r.Explanations[i])
		}
		out.Pairings = append(out.Pairings, po)
	}
	out.Byes = append(out.Byes, r.Byes...)
	if len(r.Byes) > 0 {
		out.Bye = &r.Byes[0]
		if n := name(r.Byes[0]); n != "" {
			out.ByeName = &n
		}
		if explain && len(r.Explanations) == len(r.Pairings)+1 {
			out.ByeExplanation = explanationView(r.Explanations[len(r.Pairings)])
		}
	}
	out.UnfinishedAsDraws = append(out.UnfinishedAsDraws, r.UnfinishedAsDraws...)
	out.Eliminated, out.Stage = r.Eliminated, r.Stage
	for _, id := range r.Eliminated {
		out.EliminatedNames = append(out.EliminatedNames, name(id))
	}
	for _, e := range r.Audit {
		out.Audit = append(out.Audit, auditOut{At: rfc3339(e.At), By: e.By, Action: e.Action, Detail: e.Detail})
	}
	return out
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
func (a *API) ownGame(t *tournament.Tournament, r *tournament.Round, p tournament.Pairing, h *tournament.History, sg *games.Item) error {
	gid, link := sg.ID, sg.Link
	ok := link.Tournament == t.ID && link.Round == r.Number && link.Table == p.Table
	if ok && link.Red == p.Red && link.Black == p.Black && sg.Game.Status() != game.Over {
		red, black := h.Player(p.Red), h.Player(p.Black)
		ok = red != nil && black != nil && link.RedHash == red.TokenHash && link.BlackHash == black.TokenHash
	}
	if ok {
		return nil
	}
	a.log.Error("a game item at a pairing's id is not the pairing's", "game", gid, "tournament", t.ID, "round", r.Number, "table", p.Table,
		"linkTournament", link.Tournament, "linkRound", link.Round, "linkTable", link.Table)
	return &Error{Status: http.StatusConflict, Code: "game_id_taken",
		Message: fmt.Sprintf("game %s of round %d, table %d exists but is not this pairing's (it names event %s, round %d, table %d, %s–%s): the table's game was not made; tell the operator",
			gid, r.Number, p.Table, quote(clip(link.Tournament, 40)), link.Round, link.Table, quote(clip(link.Red, 40)), quote(clip(link.Black, 40)))}
}

// madeByPairing checks, after a create of one of the round's games lost to
// an item already there, that the item is this pairing's game (ownGame).
func (a *API) madeByPairing(c *call, t *tournament.Tournament, r *tournament.Round, h *tournament.History, rec *store.Record) error {
	gid, _ := store.GameOf(rec.PK)
	sg, err := a.loadGame(c, gid)
	if err != nil {
		return err
	}
	for _, p := range r.Pairings {
		if p.GameID == gid {
			return a.ownGame(t, r, p, h, sg)
		}
	}
	return nil
}
