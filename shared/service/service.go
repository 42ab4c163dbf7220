// Package service is xqtour's application layer, between the HTTP layer
// (shared/httpapi, which speaks only HTTP: routes, decoding, tokens,
// errors, views) and the core (shared/tournament, shared/game …) and the
// store: it loads an event aggregate (Load), runs every event command
// through one policy (Exec: load, authorise, apply, one conditional
// transaction, bounded retry on the store's contention), and keeps the
// game layer (shared/service/games) and the items' stored shapes
// (shared/service/items). Nothing here imports net/http: a refusal is a
// *command.Error of a kind, or the core's *rulebook.RuleError, which the
// HTTP layer turns into a status in one place.
//
// Where each concept lives:
//
//	service.go      Service, its options and the request's instant (WithNow, NowMs)
//	caller.go       Role (the one list of roles) and Caller, who a token speaks for
//	event.go        Event, the aggregate, and Load; the rounds a ?round= read shows
//	                (Event.RoundsOf); InParallel, the one worker pool
//	exec.go         Command, Exec (the one write policy of event commands), Txn,
//	                Serial, Reporter, Resolver; Authorise, the same check for a read;
//	                reading one item (Tournament, Player)
//	reads.go        a round's results alone (RoundResults), for a round's view
//	codec.go        DecodeItem, EncodeItem: every event item through its stored shape
//	eventitem.go    the event item (T#<tid>/META) to and from items.Tournament
//	players.go      a player's status: withdraw, pause, resume (S-6)
//	registration.go entering players and officials (S-1, S-2, O-1), the broadcast delay
//	entries.go      entries by the players (E-1): open, close, enter, approve, reject,
//	                the entries pending, the organiser's list with duplicates (EntryList)
//	checkin.go      check-in (E-2) and the desk's list of a round (CheckInDesk);
//	                expulsion.go expulsions (O-2), decided or by ruling
//	discipline.go   the discipline report (O-2): a page of an event's games'
//	                entries with players and officials named, the expulsions (Discipline)
//	festivals.go    festivals (E-3), their officials, whether an event is a section
//	                (InFestival), and creating an event (CreateEvent)
//	people.go       editing and removing players, tokens reissued or rotated
//	me.go           what a token shows its holder (Me: a player's current and next
//	                games, an official's item and a scribe's round, a captain's team)
//	teamentries.go  entering and withdrawing teams (T-1); lineups.go their lineups (T-2…T-4);
//	                the queries of an event's players, officials and teams, and the
//	                orders they are listed in (PlayersByNumber, OfficialsByRole)
//	rosters.go      a team's roster as clients see it (RosterOf), the event's teams
//	                with theirs (TeamRosters)
//	pairing.go      pairing the next round (PairRound), the finished status
//	pairjob.go      a big event's round paired as a job (PairRoundOrJob, RunPairJob):
//	                where it runs and its retries (StartPairJob, PairJobStarter),
//	                a run logged (RunJob)
//	rounds.go       starting a round (StartRound); changes.go its manual changes (C-1)
//	roundexec.go    a round's command and the work after its commit, in order: its
//	                games made, lineups due drawn, clocks started (ExecPair, ExecStart,
//	                ExecChange, ExecLineup)
//	roundview.go    a round as clients see it (Event.RoundView, RoundViewOf): the
//	                pairings with names, numbers and results, a team round's matches
//	                and a knockout's ties (S-3), the explanations in a language (In);
//	                the event's games in round and table order (Event.Games,
//	                GameViews), for the games list and the discipline report
//	roundgames.go   a round's games: read, made, repaired, started (EnsureGames …)
//	catchup.go      a round's catch-up, the writer side's (CatchUpRound); a read of a
//	                round as stored, writing nothing (ReadRound)
//	due.go          the work due on rounds at a time of their own: its index (W#due),
//	                written with the write that makes it due; a game's end followed up
//	                (EndingItems, GameEnded); the runner (RunDue)
//	standings.go    the standings reads: the round a table is after (Event.Tables),
//	                the players', group, boards, team and R-9 tables, the
//	                crosstable, the final places (Event.Places); ring.go a
//	                challenge event's ring with its players named (Ring, S-8)
//	teams.go        team events: teams and lineups loaded, lineups due (T-3),
//	                a knockout's extension (S-3)
//	eventkey.go     an event's key, its id and keyed game ids; a game's own pairing
//	gameplay.go     whom a token acts as on a game (GameActor); the game commands
//	                (GameCommand: moves, clock, draws, claims, results, rulings,
//	                votes, adjournment, signatures) run by the game layer's
//	                write loop (OnGame)
//	gamereads.go    a standalone game created; games read by id (GamesByID, the one
//	                batch read of games), a game record's header (RecordInfo);
//	                eventrecords.go an event's games as one PGN file (EventRecords)
//	ids.go          ids and tokens (TokenMatches); limits.go the caps on lists (Limits)
//	credentials.go  who a token speaks for and the hash it must match (TokenHolder)
//	expiry.go       an unpaired event's expiry, kept once paired
//	itemcheck.go    the checks of one item another stack sent (an import, a mirror)
//	command/        refusals by kind, the retry of the store's contention, sequencing
//	games/          the game item, its write loop, its view
//	transfer/       an event's export and import (paged, staged, checked item
//	                by item), PGN records imported or loaded into a game
//	items/          the stored shape of every item kind
//	mirror/         an event mirrored live to another stack: sender, queue, the
//	                copy's apply, takeover, the read-only refusal; mirror/httptransport
//	                its Transport over net/http (requests to the other stack)
//	replay/         the records an Idempotency-Key replays: scoped, fingerprinted,
//	                sealed, reserved and settled with retry
//	usage/          each event's usage counters: gathered per process, written
//	                with one atomic ADD at most every interval (pricing: shared/pricing);
//	                which event a request's usage counts for (Note)
//	viewcache/      the public views kept under V#<tid>: stamps, builds, a table's
//	                rows in chunks, whole answers, which view a query names; a view
//	                opened to serve, a page of it or word to read the event, a round's
//	                view patched from its results (Open, Page, Patchable); which
//	                response view a query names and whether its answer may be served
//	                (ResponseKey, View.Response)
package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
)

// Service is the application layer over one store.
type Service struct {
	store *store.Store
	clock func() time.Time
	opts  Options
	log   *slog.Logger
	// Games is the game layer over the same store.
	Games *games.Store
}

// Options are a deployment's settings the commands follow.
type Options struct {
	// Retention, when positive, is how long a finished standalone game and
	// an event never paired are kept before DynamoDB's TTL may delete them.
	Retention time.Duration
	// PairJobPlayers is the size above which an event's rounds are paired
	// as jobs (PairRoundOrJob): more entrants than this; 0 is
	// DefaultPairJobPlayers.
	PairJobPlayers int
	// StartPairJob, when set, is where a pairing job runs (an asynchronous
	// Lambda invocation); nil runs it in this process (StartPairJob).
	StartPairJob PairJobStarter
}

// New builds the service over st, reading time from clock unless a
// request fixed its instant (WithNow); gs is its game layer, log where what
// a command leaves to a later one is told.
func New(st *store.Store, clock func() time.Time, opts Options, gs *games.Store, log *slog.Logger) *Service {
	return &Service{store: st, clock: clock, opts: opts, Games: gs, log: log}
}

type nowKey struct{}

// WithNow fixes the instant a request's decisions are made at, so every
// decision in it agrees (the HTTP layer fixes it once per request).
func WithNow(ctx context.Context, now time.Time) context.Context {
	return context.WithValue(ctx, nowKey{}, now)
}

// now is the request's instant in Unix ms.
func (s *Service) now(ctx context.Context) int64 {
	if t, ok := ctx.Value(nowKey{}).(time.Time); ok {
		return t.UnixMilli()
	}
	return s.clock().UnixMilli()
}

// NowMs is the request's instant in Unix ms (WithNow), or the clock's
// outside a request: what the layers beside this one (the mirror) stamp
// their items with, the transfer its import's state and its export's header.
func (s *Service) NowMs(ctx context.Context) int64 { return s.now(ctx) }
