// Package transfer moves whole events and game records in and out of a
// stack: an event's export (a query: every item of the event as the table
// holds it, in pages), its import (commands that create the event whole,
// every item checked first, so that an import cannot plant games, players
// or officials in someone else's event), and PGN records, imported as
// standalone games or loaded into a game as its scoresheet. Nothing here
// speaks HTTP: a refusal is a *command.Error of a kind, which the HTTP layer
// turns into a status in one place.
//
// An event export is JSON lines: a header, then every item of the event as
// the table holds it, in DynamoDB JSON — the tournament's partition (META,
// players, officials, rounds, results, teams, lineups) and the item of every
// game its rounds paired. Versions and token hashes travel as they are, so
// every token of the event works on the stack it is imported into, and no
// token (only its hash) is ever in the file.
//
// Where each concept lives:
//
//	transfer.go   Service, the export's headers (Header, PartHeader), its limits
//	export.go     Lines, Snapshot, PageEnd, cursors; Export, the paged query
//	importing.go  Import and ImportPart: an export created whole, a paged one
//	              staged apart from the event's keys until its last part is in
//	check.go      Checked, Marks: what an import may write, item by item, with the
//	              checks of one item any stack's items pass (service.RefuseItem,
//	              DecodeSent, Renders) and the export's provenance
//	records.go    PGN records: RecordText, ImportRecords, LoadRecord
package transfer

import (
	"strconv"
	"time"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
)

// Format names an export's header; PartFormat names the header of every
// page of a paged export after the first.
const (
	Format     = "xqtour-event"
	PartFormat = "xqtour-event-part"
)

// PageBytes is the most one page of an export holds by default, counted
// as Lambda encodes the response (the body JSON-escaped): 4 MiB, well
// inside Lambda's 6 MB with room for the header line and the response's
// headers. A larger event is exported in pages.
const PageBytes = 4 << 20

// importTTL is how long a multi-part import's state is kept: an import not
// finished by then is abandoned (its items stay invisible, the event never
// being found) and may be begun again.
const importTTL = 24 * time.Hour

// Header is the first line of an export. A paged export's first page adds
// the snapshot (a digest of every item of the whole export), how many items
// this page holds, and the next page's request.
type Header struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	TournamentID string `json:"tournamentId"`
	ExportedAt   string `json:"exportedAt"`
	Items        int    `json:"items"`
	Snapshot     string `json:"snapshot,omitempty"`
	PartItems    int    `json:"partItems,omitempty"`
	Next         string `json:"next,omitempty"`
}

// PartHeader is the first line of a paged export's later pages: which
// export (snapshot) they belong to and where their items start.
type PartHeader struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	TournamentID string `json:"tournamentId"`
	Snapshot     string `json:"snapshot"`
	Offset       int    `json:"offset"`
	Items        int    `json:"items"`
	Total        int    `json:"total"`
	Next         string `json:"next,omitempty"`
}

// Options are a stack's settings the transfers follow.
type Options struct {
	// Keyed is whether the stack has a creation key: an export of an event
	// made before events had keys is imported only where its holder vouches
	// for it (checkProvenance).
	Keyed bool
	// PageBytes, when positive, is the most one export page holds
	// (PageBytes by default), so a test can page a small event.
	PageBytes int
}

// Service is the transfers over one store.
type Service struct {
	svc   *service.Service
	store *store.Store
	games *games.Store
	opts  Options
}

// New builds the transfers over st: svc reads events and the request's
// instant, gs is the game layer imported records are written through.
func New(svc *service.Service, st *store.Store, gs *games.Store, opts Options) *Service {
	return &Service{svc: svc, store: st, games: gs, opts: opts}
}

// PageBudget is the most one export page holds.
func (s *Service) PageBudget() int {
	if s.opts.PageBytes > 0 {
		return s.opts.PageBytes
	}
	return PageBytes
}

func quote(v string) string { return strconv.Quote(v) }

func clip(v string, n int) string { return service.Clip(v, n) }
