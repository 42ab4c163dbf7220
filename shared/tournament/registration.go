package tournament

import (
	"errors"
	"fmt"
	"slices"

	"github.com/xqtour/xqtour/shared/rulebook"
)

// Status is an event's stage.
type Status string

// Event stages.
const (
	// Registration: players may enter; no round is paired yet.
	Registration Status = "registration"
	// Running: at least one round is paired.
	Running Status = "running"
	// Finished: the last round is complete.
	Finished Status = "finished"
)

// Tournament is the event aggregate.
type Tournament struct {
	ID       string
	Settings Settings
	Status   Status
	// CreatedAt is Unix ms.
	CreatedAt int64
	// OrganiserTokenHash is the SHA-256 of the organiser's token; the token itself is never kept.
	OrganiserTokenHash string
	// Key is the event's secret, made when it is created and never shown:
	// the event's id is derived from it (so an import can prove it carries
	// this event, not a stranger's forgery under its public id) and its
	// games' ids are keyed with it (so nobody can predict them). Events
	// made before it existed have none.
	Key string `json:",omitempty"`
	// Players counts registrations; it numbers the next player.
	Players int
	// Removed counts registrations taken back before round 1; their numbers
	// are not reused (Entrants is Players less Removed).
	Removed int
	// WithdrawnBeforeStart counts the entrants who withdrew before round 1
	// was paired: a round robin's table leaves them out (S-6), so its length
	// is known from this item alone.
	WithdrawnBeforeStart int
	// Round is the last paired round (0 before the first).
	Round int
	// TeamCount counts team registrations; it numbers the next team (T-*).
	TeamCount int
	// Officials counts the arbiters and scribes added, so a cap on them
	// needs no read of the officials themselves.
	Officials int
	// ExpiresAt, when non-zero, is when an event never paired may be deleted
	// (Unix ms): the deployment's retention after its creation or its start,
	// whichever is later. Pairing the first round clears it: a played event is kept.
	ExpiresAt int64
	// Entries is how the event takes entries from the players themselves
	// (E-1); nil until the organiser first opens it to entries.
	Entries *EntryPolicy `json:",omitempty"`
	// Festival is the championship this event is a section of (E-3), or "".
	Festival string `json:",omitempty"`
	// CheckInOpens, when set, is when the organiser opens a round's
	// check-in instead of at the previous round's pairing (E-2).
	CheckInOpens *CheckInWindow `json:",omitempty"`
}

// New starts an event from validated settings.
func New(id string, s Settings, organiserTokenHash string, now int64) (*Tournament, error) {
	if err := s.Normalize(); err != nil {
		return nil, err
	}
	return &Tournament{ID: id, Settings: s, Status: Registration, CreatedAt: now, OrganiserTokenHash: organiserTokenHash}, nil
}

// PlayerStatus is a player's standing in the event (S-6).
type PlayerStatus string

// Player states.
const (
	Active    PlayerStatus = "active"
	Withdrawn PlayerStatus = "withdrawn"
	// Paused players are not paired until they return (organisers' request, S-6).
	Paused PlayerStatus = "paused"
)

// Player is one registration.
type Player struct {
	ID string
	// Number is the entry number, the order of registration. It is the
	// number the event shows until an individual Swiss pairs round 1; from
	// then on the number drawn for round 1 is (ShownNumbers, P-3).
	Number int
	Name   string
	Rating int
	Club   string
	Seeded bool
	Status PlayerStatus
	// JoinedRound is the first round the player can be paired in (late entries join later).
	JoinedRound int
	// WithdrawnAfter is the last round the player was paired in before withdrawing.
	WithdrawnAfter int
	TokenHash      string
	RegisteredAt   int64
	// Expulsion is the player's expulsion (除名), proposed or decided; nil when none (O-2).
	Expulsion *Expulsion `json:",omitempty"`
	// CheckedIn is the last round the player checked in for (E-2).
	CheckedIn int `json:",omitempty"`
}

// Sentinel errors of the life cycle; each is wrapped with context.
var (
	// ErrRefused: the request is valid but the event's state or rules refuse it.
	ErrRefused = errors.New("refused")
)

// RuleError is a refusal that a rule decided: the core's one refusal type,
// rulebook.RuleError, with one of this package's codes.
type RuleError = rulebook.RuleError

// MaxPlayers is the most players one event registers, team members included:
// an online open of the size lichess's largest Swiss events reach, and a
// bound on every list an event's items hold per player (the service's cap
// playersPerEvent). A round of 100,000 players (18.5 MB) is written in
// parts outside the pairing's transaction and read in pages.
const MaxPlayers = 100_000

// Register adds a player, numbering them in entry order. Round robins and
// knockouts take entries only before the draw (S-1, S-3); a Swiss takes late
// entries, who join from the next round, until round LateEntries.UntilRound
// (else the last round) is paired (S-2).
func (t *Tournament) Register(p Player, now int64) (Player, error) {
	var err error
	if p.Name, err = cleanName("name", p.Name, 120); err != nil {
		return Player{}, err
	}
	if p.Rating < 0 || p.Rating > 4000 {
		return Player{}, &FieldError{Field: "rating", Message: "must be between 0 and 4000"}
	}
	if p.Club != "" {
		if p.Club, err = cleanName("club", p.Club, 120); err != nil {
			return Player{}, err
		}
	}
	if err := t.admitsPlayers(); err != nil {
		return Player{}, err
	}
	if t.Entrants() >= MaxPlayers {
		return Player{}, &RuleError{Code: "event_full", Message: fmt.Sprintf("cap playersPerEvent reached: an event holds at most %d players", MaxPlayers), Rule: "S-2"}
	}
	t.Players++
	p.Number = t.Players
	p.Status = Active
	p.JoinedRound = t.Round + 1
	p.RegisteredAt = now
	return p, nil
}

// admitsPlayers refuses a registration the event's state does not admit:
// a finished event, a fixed table already drawn (S-1), a Swiss past its
// late entries (S-2). Entries (E-1) are checked by it too, before one is
// held for approval.
func (t *Tournament) admitsPlayers() error {
	if t.Status == Finished {
		return &RuleError{Code: "event_finished", Message: "the event is finished", Rule: "S-6"}
	}
	if t.Round > 0 && !isSwiss(t.Settings.System) && t.Settings.System != ChallengeSystem { // S-8: challengers join the queue at any time
		return &RuleError{Code: "registration_closed", Message: fmt.Sprintf("a %s takes entries only before the first round is paired", t.Settings.System), Rule: "S-1"}
	}
	if t.Round > 0 && !t.Settings.Teams && t.Settings.System != ChallengeSystem && t.Round >= t.Settings.lateEntryLimit() {
		return &RuleError{Code: "registration_closed", Message: fmt.Sprintf("late entries close once round %d is paired; round %d is", t.Settings.lateEntryLimit(), t.Round), Rule: "S-2"}
	}
	return nil
}

// Withdraw takes a player out of the event (S-6): in a Swiss the results stand
// and the player is no longer paired; in a round robin the standings annul or
// keep the results depending on how many games were played.
func (t *Tournament) Withdraw(p *Player) error {
	if p.Status == Withdrawn {
		return &RuleError{Code: "already_withdrawn", Message: fmt.Sprintf("%s (entry no. %d) has already withdrawn", p.Name, p.Number), Rule: "S-6"}
	}
	p.Status = Withdrawn
	p.WithdrawnAfter = t.Round
	if t.Round == 0 {
		t.WithdrawnBeforeStart++
	}
	return nil
}

// Roles of officials (O-1). The chief arbiter (裁判长) has the arbiters'
// powers and, besides, disqualifies from the game and proposes expulsion
// (000 ch.3 裁判长 7); the organiser may act as one.
const (
	RoleArbiter      = "arbiter"
	RoleScribe       = "scribe"
	RoleChiefArbiter = "chiefArbiter"
)

// Official is an arbiter, a chief arbiter or a scribe.
type Official struct {
	ID   string
	Role string
	Name string
	// Tables limits a scribe to these tables; empty means every table.
	Tables    []int
	TokenHash string
}

// NewOfficial validates an arbiter, chief arbiter or scribe (O-1).
func NewOfficial(id, role, name string, tables []int, tokenHash string) (Official, error) {
	if role != RoleArbiter && role != RoleScribe && role != RoleChiefArbiter {
		return Official{}, &FieldError{Field: "role", Message: fmt.Sprintf("unknown role %q (want arbiter, chiefArbiter or scribe)", role), Rule: "O-1"}
	}
	name, err := cleanName("name", name, 120)
	if err != nil {
		return Official{}, err
	}
	if len(tables) > 0 && role != RoleScribe {
		return Official{}, &FieldError{Field: "tables", Message: "only a scribe is limited to tables", Rule: "O-1"}
	}
	for _, n := range tables {
		if n < 1 || n > 10000 {
			return Official{}, &FieldError{Field: "tables", Message: fmt.Sprintf("table %d is not a table number", n)}
		}
	}
	tables = slices.Clone(tables)
	slices.Sort(tables)
	for i := 1; i < len(tables); i++ {
		if tables[i] == tables[i-1] {
			// A repeated table is a typo for another one, more likely than not.
			return Official{}, &FieldError{Field: "tables", Message: fmt.Sprintf("table %d is listed twice", tables[i]), Rule: "O-1"}
		}
	}
	return Official{ID: id, Role: role, Name: name, Tables: tables, TokenHash: tokenHash}, nil
}

// Covers reports whether the official may act on the given table.
func (o Official) Covers(table int) bool {
	return o.Role != RoleScribe || len(o.Tables) == 0 || slices.Contains(o.Tables, table)
}

// Team is a team entry of a team event (T-*): its roster and captain.
type Team struct {
	ID     string
	Name   string
	Number int
	// Members and Substitutes are player ids in board order.
	Members     []string
	Substitutes []string
	// Roster is every player in board order, members and substitutes in the
	// one order a T-2 lineup keeps (001 §11.2 ranks substitutes by the same
	// principle as members, so a substitute may rank above a member).
	Roster []string
	Status PlayerStatus
	// JoinedRound is the first round the team can be paired in.
	JoinedRound int
	// WithdrawnAfter is the last round paired before the team withdrew.
	WithdrawnAfter int
	// CaptainTokenHash is the SHA-256 of the captain's token.
	CaptainTokenHash string
	RegisteredAt     int64
}
