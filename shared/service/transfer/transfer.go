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
//	keyed.go      version 2 of the export, for big events: pages read by key,
//	              the digest carried page to page in the cursor
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
	"github.com/xqtour/xqtour/shared/tournament"
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

// Header is the first line of an export. Version 1 (an event of at most
// Options.KeyPagedPlayers entrants) names how many items the whole export
// has; a paged one's first page adds the snapshot (a digest of every item
// of the whole export), how many items this page holds, and the next
// page's request. Version 2 (a larger event, paged by key) knows neither
// the whole's size nor its snapshot when its first page is cut: that page
// names how many items it holds and the next page's request, and only an
// export whose first page is also its last names its total and snapshot
// here.
type Header struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	TournamentID string `json:"tournamentId"`
	ExportedAt   string `json:"exportedAt"`
	Items        int    `json:"items,omitempty"` // version 1: every export has at least its event item
	Snapshot     string `json:"snapshot,omitempty"`
	PartItems    int    `json:"partItems,omitempty"`
	Total        int    `json:"total,omitempty"` // version 2, one page only
	Next         string `json:"next,omitempty"`
}

// PartHeader is the first line of a paged export's later pages: where
// their items start and how many they are. In version 1 every part names
// which export it belongs to (its snapshot) and the whole's total; in
// version 2 only the last part (no next) does, the snapshot then being
// the digest of every item of every page, in order.
type PartHeader struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	TournamentID string `json:"tournamentId"`
	Snapshot     string `json:"snapshot,omitempty"`
	Offset       int    `json:"offset"`
	Items        int    `json:"items"`
	Total        int    `json:"total,omitempty"`
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
	// KeyPagedPlayers, when positive, is the most entrants an event has
	// whose export is version 1, every page cut from a read of the whole
	// event (service.DefaultPairJobPlayers by default: the size past which
	// rounds are paired as jobs, the request being unable to afford the
	// whole event). A larger event's export is version 2, each page reading
	// its own items alone (exportKeyed), its pages kept to one state of
	// the event by the event's stamp, which the store must advance
	// (viewcache.Stamp, as the API's store does); a test sets it small to
	// page a small event so.
	KeyPagedPlayers int
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

// keyPaged reports whether event t is exported in version 2: it has more
// entrants than Options.KeyPagedPlayers.
func (s *Service) keyPaged(t *tournament.Tournament) bool {
	n := s.opts.KeyPagedPlayers
	if n <= 0 {
		n = service.DefaultPairJobPlayers
	}
	return t.Entrants() > n
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
