// Package store keeps xqtour's state in one DynamoDB table through aws-sdk-go-v2.
// It is the only package that talks to DynamoDB.
//
// # Key design
//
// Every item has a string partition key PK and sort key SK, a version number
// "ver", a kind, and the aggregate itself as a compact document "doc" (binary).
// keys.go is the one place the layout is spelled: every key below is built
// by a constructor or matched by a prefix constant declared here, and every
// kind is a Kind constant (a test refuses a bare prefix literal elsewhere).
//
//	PK            SK          holds
//	T#<tid>       META        tournament: settings, status, counts, organiser token hash
//	T#<tid>       P#<pid>     player: number, rating, status, token hash
//	T#<tid>       O#<oid>     official: role, tables, token hash
//	T#<tid>       R#<nnnn>    round n's head: its start, its games' mark, the build of its body
//	T#<tid>       R#<nnnn>#~part.<build>.NNN  round n's body (pairings, byes, matches,
//	                          explanations, audit log) in parts, staged before the head names them
//	T#<tid>       M#<mid>     team: roster, captain token hash
//	T#<tid>       X#<nnnn>#<tttt>  result of round n, table t: written once when the game ends
//	T#<tid>       L#<nnnn>#<mid>   a team's lineup for round n
//	G#<gid>       GAME        game: where it is played and who may move (the link), then
//	                          position, moves, clocks, offers, log in the game's binary form
//	I#<scope>     IDEM        Idempotency-Key record, expires through "ttl"; scope hashes
//	                          the caller's credentials with the key, the response is sealed
//	<PK>          <SK>#~partNNN    continuation of a document over MaxPart (a large round)
//	C#<cid>       CONN        live WebSocket connection: the topics it follows; expires through "ttl"
//	S#G#<gid>     C#<cid>     connection cid follows game gid; expires with its connection
//	S#T#<tid>     C#<cid>     connection cid follows event tid (rounds, results, players)
//	E#<tid>       P#<pid>     an entry awaiting the organiser's approval (E-1): name, rating, club, token hash
//	E#<tid>       N#<hash>    an entry's name and club (E-1), written once, so a likely duplicate is one read
//	F#<fid>       META        festival (championship, E-3): name, token hash, its sections, its officials
//	J#<tid>       IMPORT      a multi-part import of event tid under way: its token hash, snapshot, progress
//	J#<tid>       R#<nnnn>    the job pairing round n of a big event (service.PairJob): its state, the
//	                          organiser's pairing options, timings, the refusal when it failed
//	J#<tid>       Q#<offset>#<nnn>  a staged chunk of the import's part starting at item offset: the
//	                          part's lines, kept apart from the event's keys until the last part is in
//	V#<tid>       STAMP       counters advanced after every write to T#<tid> (stamp.go): g for the
//	                          event item, players, officials, teams and lineups; p<nnnn> for round n's
//	                          item, x<nnnn> for its results created, c<nnnn> for results rewritten
//	V#<tid>       D#<view>    a materialised public read (round#<nnnn>, standings#<nnnn|last|live>,
//	                          crosstable#…): the counters it was built from and the response head
//	V#<tid>       D#<view>#<build>#<nnn>  500 rows of that view's build, gzipped JSON
//	Y#<id>        RO          a mirror's read-only mark on event or game id (shared/service/mirror): on a copy,
//	                          where its writes come from; on a source after a takeover, where they went
//	Y#<tid>       COPY        a mirrored copy's state: its source, the stream's token hash, last change
//	Y#<tid>       Q#<nnnnnnnnnnnn>  a change to event tid waiting to be sent to its mirror, in commit order
//	Y#mirrors     <tid>       a mirror this stack sends: its target, token, progress, last error
//	Y#marks       RO          present once this table holds any read-only mark (the refusal's shortcut)
//	U#<tid>       USAGE       event tid's usage counters (requests, Lambda ms, DynamoDB units),
//	                          added to by atomic ADDs (AddCounters); apart from T#<tid> so no
//	                          event Query or export reads them; expires through "ttl"
//	W#due         <ms>#<tid>#<nnnn>[#<gid>.<ver>]  work due on round n of event tid from
//	                          Unix ms <ms> on (shared/service's due.go): a team round's lineups
//	                          drawn at its deadline (T-3), a knockout's next games after a game
//	                          ended (S-3); deleted once done. The ms are zero-padded, so one Query
//	                          (SK below now) reads what is due, oldest first
//
// Who writes them: the event items (T#) and game items (G#) only the
// application layer, shared/service (its commands through Exec) and
// shared/service/games (every game write through Store.Mutate), in the
// stored shapes of shared/service/items and games.Link; the views (V#)
// shared/service/viewcache; the entries (E#), festivals (F#), imports (J#)
// and usage (U#) the HTTP layer (shared/httpapi); the work due (W#) the
// application layer, in the writes that make it due; connections and
// subscriptions (C#, S#) the live layer (shared/live); Idempotency-Key
// records (I#) this package for the HTTP
// layer.
//
// Access patterns:
//   - the event page, its players, officials, rounds and teams: one Query on
//     PK = T#<tid> (optionally begins_with(SK, prefix)), paginated: a large event
//     exceeds DynamoDB's 1 MB page, so Query always follows LastEvaluatedKey;
//   - a game and every change to it: GetItem / conditional PutItem on G#<gid>;
//   - live fan-out: who follows a changed game or event is one Query on
//     PK = S#G#<gid> or S#T#<tid> (the connection ids are the sort keys); a
//     connection's own item lists its topics, so a disconnect deletes exactly
//     its subscriptions. Connection and subscription items carry a kind the
//     stream's event filter leaves out, so they never invoke the fan-out;
//   - public reads (a round, standings, crosstable) of an individual event:
//     one BatchGetItem of the event item, the stamp and the view's head,
//     then a BatchGetItem of the chunks the page needs; the event's
//     partition is read (one Query, as above) only to rebuild a view whose
//     counters moved, so a read costs what it returns, and repeated reads
//     do not all land on the event's partition;
//   - authorisation: the token names its principal, so the hash to compare is in
//     an item the request reads anyway (or one extra GetItem for officials).
//   - the work due by now: one Query on PK = W#due, SK < DueBefore(now+1),
//     once a minute (shared/service's RunDue); what it finds is a few items.
//
// # Concurrency
//
// A staged document (a Record's Body: every round) has its body written
// before the head's write, outside its transaction, as parts of a build the
// head then names (parts.go): any size, within a key's throughput, whole or
// not at all for readers.
//
// A document larger than MaxPart written whole (no Body) is split:
// the head item keeps the version and the first part, continuation items the
// rest, all written in one transaction under the head's condition and joined
// again by Get, GetMany and Query, so callers never see the split. Parts carry
// the head's version and TTL: a read that raced a writer and caught a head
// with another write's parts is detected and repeated (parts.go).
//
// Every aggregate carries "ver". Put writes ver+1 under the condition that the
// stored ver is the one that was read (or that the item does not exist yet), so
// a lost race surfaces as ErrConflict instead of a lost update. Transact does the
// same for several items atomically.
//
// # Where each concept lives
//
//	keys.go         the key design above: every key, prefix, fixed sort key and kind
//	store.go        Store, Record; Get, GetMany, Put, Query, Transact, Delete;
//	                documents split over MaxPart; errors from the SDK's
//	idempotency.go  Idempotency-Key records (Reserve, Complete, Release)
//	items.go        a partition as NDJSON items, for export and import
//	change.go       a stream record's change (Change, RecordOf) and Replace
//	counters.go     usage counters (AddCounters, Counters)
//	stamp.go        stamps: counters advanced by every write, for views' freshness
//	limits.go       DynamoDB's limits on one transaction, kept before sending
//	meter.go        the capacity a request consumed (Meter)
package store

import (
	"fmt"
	"strconv"
	"strings"
)

// Key prefixes. Every prefix is two characters, a letter and '#', so an
// item's SK[:2] names what it holds.
const (
	// TournamentPrefix starts an event's partition: T#<tid>.
	TournamentPrefix = "T#"
	// GamePrefix starts a game's partition: G#<gid>.
	GamePrefix = "G#"
	// PlayerPrefix starts a player's sort key: P#<pid>.
	PlayerPrefix = "P#"
	// OfficialPrefix starts an official's sort key: O#<oid>.
	OfficialPrefix = "O#"
	// RoundPrefix starts a round's sort key: R#<nnnn>.
	RoundPrefix = "R#"
	// TeamPrefix starts a team's sort key: M#<mid>.
	TeamPrefix = "M#"
	// ResultPrefix starts a result's sort key: X#<nnnn>#<tttt>.
	ResultPrefix = "X#"
	// LineupPrefix starts a lineup's sort key: L#<nnnn>#<mid>.
	LineupPrefix = "L#"
	// IdempotencyPrefix starts an Idempotency-Key record's partition: I#<scope>.
	IdempotencyPrefix = "I#"
	// ConnectionPrefix starts a live connection's partition (C#<cid>) and a
	// subscription's sort key.
	ConnectionPrefix = "C#"
	// SubscriptionPrefix starts a subscription partition: S#<topic>.
	SubscriptionPrefix = "S#"
	// ViewPrefix starts an event's views partition: V#<tid>.
	ViewPrefix = "V#"
	// ViewDocPrefix starts a view's sort key under V#<tid>: D#<view>.
	ViewDocPrefix = "D#"
	// UsagePrefix starts an event's usage partition: U#<tid>.
	UsagePrefix = "U#"
	// EntriesPrefix starts an event's entries partition: E#<tid>, apart
	// from T#<tid> so the event's Query, export and import never meet them.
	EntriesPrefix = "E#"
	// EntryNamePrefix starts an entry's name key under E#<tid>: N#<hash>.
	EntryNamePrefix = "N#"
	// FestivalPrefix starts a festival's partition: F#<fid>.
	FestivalPrefix = "F#"
	// ImportPrefix starts the partition of event tid's jobs, J#<tid>: a
	// multi-part import, the pairing jobs of a big event's rounds.
	ImportPrefix = "J#"
	// StagedPrefix starts the sort key of a staged chunk of a multi-part
	// import under J#<tid>: Q#<offset>#<nnn>.
	StagedPrefix = "Q#"
	// MirrorPrefix starts a mirror's partitions (shared/service/mirror): Y#<id> and Y#mirrors.
	MirrorPrefix = "Y#"
	// QueuedPrefix starts the sort key of a change waiting under Y#<tid>: Q#<seq>.
	QueuedPrefix = "Q#"
	// DuePrefix starts the partition of the work due (DuePK).
	DuePrefix = "W#"
)

// Fixed sort keys of the items alone in their kind under a partition.
const (
	// MetaSK is the event item's sort key under T#<tid>.
	MetaSK = "META"
	// GameSK is the game item's sort key under G#<gid>.
	GameSK = "GAME"
	// IdempotencySK is the Idempotency-Key record's sort key under I#<scope>.
	IdempotencySK = "IDEM"
	// ConnectionSK is the connection item's sort key under C#<cid>.
	ConnectionSK = "CONN"
	// StampSK is the stamp item's sort key under V#<tid>.
	StampSK = "STAMP"
	// UsageSK is the usage counters' sort key under U#<tid>.
	UsageSK = "USAGE"
	// ImportSK is a multi-part import's state under J#<tid>.
	ImportSK = "IMPORT"
	// ReadOnlySK is a mirror's read-only mark under Y#<id>.
	ReadOnlySK = "RO"
	// MirrorInSK is a mirrored copy's state under Y#<tid>.
	MirrorInSK = "COPY"
)

// Item kinds: what a Record's Doc holds. The live fan-out and the stream's
// event filter select changes by kind.
const (
	KindTournament   = "tournament"   // T#<tid>/META
	KindPlayer       = "player"       // T#<tid>/P#<pid>
	KindOfficial     = "official"     // T#<tid>/O#<oid>
	KindRound        = "round"        // T#<tid>/R#<nnnn>
	KindTeam         = "team"         // T#<tid>/M#<mid>
	KindResult       = "result"       // T#<tid>/X#<nnnn>#<tttt>
	KindLineup       = "lineup"       // T#<tid>/L#<nnnn>#<mid>
	KindGame         = "game"         // G#<gid>/GAME
	KindIdempotency  = "idempotency"  // I#<scope>/IDEM
	KindConnection   = "connection"   // C#<cid>/CONN
	KindSubscription = "subscription" // S#<topic>/C#<cid>
	KindPart         = "part"         // <PK>/<SK>#~partNNN
	KindStamp        = "stamp"        // V#<tid>/STAMP
	KindView         = "view"         // V#<tid>/D#<view>
	KindViewChunk    = "viewpart"     // V#<tid>/D#<view>#<build>#<nnn>
	KindUsage        = "usage"        // U#<tid>/USAGE
	KindImport       = "import"       // J#<tid>/IMPORT
	KindEntry        = "entry"        // E#<tid>/P#<pid>
	KindEntryName    = "entryname"    // E#<tid>/N#<hash>
	KindFestival     = "festival"     // F#<fid>/META
	KindStaged       = "staged"       // J#<tid>/Q#<offset>#<nnn>
	KindPairJob      = "pairjob"      // J#<tid>/R#<nnnn>
	KindReadOnly     = "readonly"     // Y#<id>/RO
	KindMirrorIn     = "mirrorin"     // Y#<tid>/COPY
	KindQueued       = "queued"       // Y#<tid>/Q#<seq>
	KindMirrorOut    = "mirrorout"    // Y#mirrors/<tid>
	KindDue          = "due"          // W#due/<ms>#<tid>#<nnnn>…
)

// TournamentPK is the partition of event tid: its event item, players,
// officials, rounds, results, teams and lineups.
func TournamentPK(tid string) string { return TournamentPrefix + tid }

// EntriesPK is the partition of event tid's pending entries and entry names (E-1).
func EntriesPK(tid string) string { return EntriesPrefix + tid }

// EntryNameSK is the sort key of an entry name's key (a hash of it) under EntriesPK.
func EntryNameSK(hash string) string { return EntryNamePrefix + hash }

// FestivalPK is the partition of festival fid (E-3).
func FestivalPK(fid string) string { return FestivalPrefix + fid }

// UsagePK is the partition of event tid's usage counters.
func UsagePK(tid string) string { return UsagePrefix + tid }

// ImportPK is the partition of event tid's jobs: a multi-part import, the
// pairing jobs of its rounds.
func ImportPK(tid string) string { return ImportPrefix + tid }

// PairJobSK is the sort key of the job pairing round n under ImportPK:
// apart from T#<tid>, so the event's Query, export and import never meet it
// and its writes spend none of the event key's throughput.
func PairJobSK(n int) string { return RoundSK(n) }

// StagedSK is the sort key of chunk i of the part of a multi-part import
// that starts at item offset: the import's parts, staged apart from the
// event's keys until the last is in.
func StagedSK(offset, i int) string { return fmt.Sprintf("%s%08d#%03d", StagedPrefix, offset, i) }

// MirrorPK is the partition of a mirror's items about event or game id.
func MirrorPK(id string) string { return MirrorPrefix + id }

// MarksPK is the item (under ReadOnlySK) that says this table holds some
// mirror's read-only mark: a stack that never had one reads no mark per write.
const MarksPK = MirrorPrefix + "marks"

// MirrorsPK is the partition listing the mirrors this stack sends, one item per event.
const MirrorsPK = MirrorPrefix + "mirrors"

// QueuedSK is the sort key of change seq waiting to be sent; twelve digits
// keep the queue in commit order.
func QueuedSK(seq int64) string { return fmt.Sprintf("%s%012d", QueuedPrefix, seq) }

// DuePK is the one partition of the work due on events' rounds (W#due).
// One partition is enough: see shared/service's due.go for the arithmetic.
const DuePK = DuePrefix + "due"

// DueSK is the sort key of work due at Unix ms at on round n of event tid:
// thirteen digits (Unix ms until the year 2286) keep the partition in due
// order, so the work due by now is the key range below DueBefore(now+1).
// tag, when not empty, tells apart items of the same round due in the same
// millisecond (the game write that made it due: "<gid>.<version>").
func DueSK(at int64, tid string, n int, tag string) string {
	sk := fmt.Sprintf("%013d#%s#%04d", at, tid, n)
	if tag != "" {
		sk += "#" + tag
	}
	return sk
}

// DueBefore is the sort key every DueSK of work due before Unix ms at sorts
// below: the upper bound of RunDue's Query.
func DueBefore(at int64) string { return fmt.Sprintf("%013d", at) }

// DueLater is due sort key sk moved to Unix ms at: the same event, round
// and tag.
func DueLater(sk string, at int64) string { return DueBefore(at) + sk[min(len(sk), 13):] }

// GamePK is the partition of game gid.
func GamePK(gid string) string { return GamePrefix + gid }

// PlayerSK is player pid's sort key under its event.
func PlayerSK(pid string) string { return PlayerPrefix + pid }

// OfficialSK is official oid's sort key under its event.
func OfficialSK(oid string) string { return OfficialPrefix + oid }

// TeamSK is team mid's sort key under its event.
func TeamSK(mid string) string { return TeamPrefix + mid }

// RoundSK is round n's sort key under its event; four digits keep rounds in
// number order.
func RoundSK(n int) string { return fmt.Sprintf("%s%04d", RoundPrefix, n) }

// ResultSK is the sort key of the result of round n, table t.
func ResultSK(n, t int) string { return fmt.Sprintf("%s%04d#%04d", ResultPrefix, n, t) }

// ResultsOfRound is the prefix of the sort keys of round n's results: one
// key range holds them all.
func ResultsOfRound(n int) string { return fmt.Sprintf("%s%04d#", ResultPrefix, n) }

// LineupSK is the sort key of team mid's lineup for round n.
func LineupSK(n int, mid string) string { return fmt.Sprintf("%s%04d#%s", LineupPrefix, n, mid) }

// IdempotencyPK is the partition of an Idempotency-Key record; scope hashes
// the caller's credentials with the key.
func IdempotencyPK(scope string) string { return IdempotencyPrefix + scope }

// ConnectionPK is the partition of live connection cid.
func ConnectionPK(cid string) string { return ConnectionPrefix + cid }

// SubscriptionPK is the partition listing who follows topic, a game's or an
// event's partition key (G#<gid> or T#<tid>).
func SubscriptionPK(topic string) string { return SubscriptionPrefix + topic }

// SubscriptionSK is connection cid's sort key under a subscription partition.
func SubscriptionSK(cid string) string { return ConnectionPrefix + cid }

// SubscriberOf returns the connection id of a subscription's sort key.
func SubscriberOf(sk string) string { return strings.TrimPrefix(sk, ConnectionPrefix) }

// GameOf returns the game id of a game partition key, and whether pk is one.
func GameOf(pk string) (string, bool) { return strings.CutPrefix(pk, GamePrefix) }

// TournamentOf returns the event id of an event partition key, and whether
// pk is one.
func TournamentOf(pk string) (string, bool) { return strings.CutPrefix(pk, TournamentPrefix) }

// RoundOf returns the round number a round's, result's or lineup's sort key
// names (R#0003, X#0003#0012, L#0003#m1 → 3), and whether it names one.
func RoundOf(sk string) (int, bool) {
	switch SKPrefix(sk) {
	case RoundPrefix, ResultPrefix, LineupPrefix:
	default:
		return 0, false
	}
	digits, _, _ := strings.Cut(sk[len(RoundPrefix):], "#")
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// SKPrefix returns the prefix of a sort key (P#, R#, X#, …): what kind of
// item of its partition it is. A fixed sort key (META) gives its first two
// characters, which no prefix equals.
func SKPrefix(sk string) string { return sk[:min(len(TournamentPrefix), len(sk))] }

// partSuffix follows a head's sort key in its continuation items' keys.
const partSuffix = "#~part"

// partSK is the sort key of continuation item i of the document under sk.
func partSK(sk string, i int) string { return fmt.Sprintf("%s%s%03d", sk, partSuffix, i) }

// IsPartOf reports whether sk is the sort key of a continuation item of the
// document whose head has sort key head.
func IsPartOf(sk, head string) bool { return strings.HasPrefix(sk, head+partSuffix) }

// ViewPK is the partition of event tid's materialised views and its stamp.
func ViewPK(tid string) string { return ViewPrefix + tid }

// ViewSK is the sort key of view name's head under its event's views.
func ViewSK(name string) string { return ViewDocPrefix + name }

// ViewChunkSK is the sort key of chunk i of build of view name.
func ViewChunkSK(name, build string, i int) string {
	return fmt.Sprintf("%s#%s#%03d", ViewSK(name), build, i)
}
