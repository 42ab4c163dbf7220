package tournament

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Self-entry (E-1), check-in (E-2) and the sections of a championship (E-3).
//
// An organiser opens an event to entries; anyone may then enter, and the
// entry becomes a registration at once or, when the organiser approves
// entries, once approved. A place is held from the entry on, so that the
// capacity counts pending entries too: approving one never overfills the
// event, and rejecting one frees its place.

// Entry field names an EntryPolicy may require (E-1).
const (
	EntryFieldClub   = "club"
	EntryFieldRating = "rating"
)

// Refusal codes of entries and check-in (E-1, E-2).
const (
	CodeEntriesClosed     = "entries_closed"
	CodeIndividualEntries = "individual_entries_only"
	CodeEventFull         = "event_full"
	CodeLikelyDuplicate   = "likely_duplicate"
	CodeNotPending        = "not_pending"
	CodeCheckInOff        = "checkin_off"
	CodeCheckInNotOpen    = "checkin_not_open"
	CodeCheckInClosed     = "checkin_closed"
	CodeCheckInNotActive  = "checkin_not_active"
	CodeCheckInFixed      = "checkin_fixed"
)

// EntryPolicy is how an event takes entries from the players themselves (E-1).
type EntryPolicy struct {
	// Open is true between the organiser's opening and closing.
	Open bool
	// Capacity caps the places (registrations and pending entries); 0 is
	// the event's own cap, MaxPlayers.
	Capacity int `json:",omitempty"`
	// ClosesAt, when non-zero, is when entries close by themselves (Unix ms).
	ClosesAt int64 `json:",omitempty"`
	// Approval holds every entry for the organiser's approval.
	Approval bool `json:",omitempty"`
	// Fields are the fields an entry must give besides the name.
	Fields []string `json:",omitempty"`
	// Pending counts the entries awaiting approval; each holds a place.
	Pending int `json:",omitempty"`
}

// Entry is what a player sends to enter an event (E-1).
type Entry struct {
	Name   string
	Rating *int
	Club   string
}

// OpenEntries opens the event to entries under policy p (E-1); opening an
// open event again replaces its terms (the pending entries stay).
func (t *Tournament) OpenEntries(p EntryPolicy, now int64) error {
	if t.Status == Finished {
		return &RuleError{Code: "event_finished", Message: "the event is finished", Rule: "E-1"}
	}
	if t.Settings.Teams {
		return &RuleError{Code: CodeIndividualEntries, Message: "a team event takes its teams from their captains' rosters (POST /tournaments/{tid}/teams), not single entries", Rule: "E-1"}
	}
	if p.Capacity < 0 || p.Capacity > MaxPlayers {
		return &FieldError{Field: "capacity", Message: fmt.Sprintf("must be between 1 and %d (0: the event's cap)", MaxPlayers), Rule: "E-1"}
	}
	if p.ClosesAt != 0 && p.ClosesAt <= now {
		return &FieldError{Field: "closesAt", Message: "must be in the future", Rule: "E-1"}
	}
	for i, f := range p.Fields {
		if f != EntryFieldClub && f != EntryFieldRating {
			return &FieldError{Field: fmt.Sprintf("fields[%d]", i), Message: fmt.Sprintf("unknown field %q (want club or rating)", f), Rule: "E-1"}
		}
	}
	slices.Sort(p.Fields)
	p.Fields = slices.Compact(p.Fields)
	if t.Entries != nil {
		p.Pending = t.Entries.Pending
	}
	p.Open = true
	t.Entries = &p
	return nil
}

// CloseEntries stops taking entries (E-1); pending entries may still be
// approved or rejected.
func (t *Tournament) CloseEntries() error {
	if t.Entries == nil || !t.Entries.Open {
		return &RuleError{Code: CodeEntriesClosed, Message: "the event is not taking entries", Rule: "E-1"}
	}
	t.Entries.Open = false
	return nil
}

// EntriesOpen reports whether the event takes entries at now: opened, not
// closed, not past its closing time, and its rounds still admitting a new
// player (the registration rules of S-1 and S-2 apply to entries as to any
// registration).
func (t *Tournament) EntriesOpen(now int64) bool {
	return t.Entries != nil && t.Entries.Open && (t.Entries.ClosesAt == 0 || now < t.Entries.ClosesAt) && t.Status != Finished
}

// places is how many places the event has for entries.
func (t *Tournament) places() int {
	if t.Entries != nil && t.Entries.Capacity > 0 {
		return t.Entries.Capacity
	}
	return MaxPlayers
}

// Enter checks an entry against the event's policy (E-1) and returns it
// cleaned. It holds a place: when the organiser approves entries, Pending
// is counted up and the caller stores the entry aside; otherwise the caller
// registers it at once (Register).
func (t *Tournament) Enter(e Entry, now int64) (Entry, bool, error) {
	if !t.EntriesOpen(now) {
		return Entry{}, false, &RuleError{Code: CodeEntriesClosed, Message: "the event is not taking entries", Rule: "E-1"}
	}
	var err error
	if e.Name, err = cleanName("name", e.Name, 120); err != nil {
		return Entry{}, false, err
	}
	if e.Club = strings.TrimSpace(e.Club); e.Club != "" {
		if e.Club, err = cleanName("club", e.Club, 120); err != nil {
			return Entry{}, false, err
		}
	}
	if e.Rating != nil && (*e.Rating < 0 || *e.Rating > 4000) {
		return Entry{}, false, &FieldError{Field: "rating", Message: "must be between 0 and 4000"}
	}
	for _, f := range t.Entries.Fields {
		if (f == EntryFieldClub && e.Club == "") || (f == EntryFieldRating && e.Rating == nil) {
			return Entry{}, false, &FieldError{Field: f, Message: "this event asks every entry for its " + f, Rule: "E-1"}
		}
	}
	if err := t.admitsPlayers(); err != nil {
		return Entry{}, false, err
	}
	if t.Entrants()+t.Entries.Pending >= t.places() {
		return Entry{}, false, &RuleError{Code: CodeEventFull, Message: fmt.Sprintf("all %d places are taken", t.places()), Rule: "E-1"}
	}
	if t.Entries.Approval {
		t.Entries.Pending++
		return e, true, nil
	}
	return e, false, nil
}

// Approve turns a pending entry into a registration (E-1): its place was
// held, so it counts down Pending; the caller then calls Register.
func (t *Tournament) Approve() error {
	if t.Entries == nil || t.Entries.Pending == 0 {
		return &RuleError{Code: CodeNotPending, Message: "no entry awaits approval", Rule: "E-1"}
	}
	t.Entries.Pending--
	return nil
}

// Reject refuses a pending entry (E-1) and frees its place.
func (t *Tournament) Reject() error { return t.Approve() }

// DuplicateKey is what two entries share when they are likely the same
// person (E-1): the name and the club, case and spacing ignored.
func DuplicateKey(name, club string) string {
	norm := func(s string) string {
		return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
	}
	return norm(name) + "\x00" + norm(club)
}

// Duplicates is, for each of a list of entries (their names and clubs),
// the positions of the others that are likely the same person (E-1: the
// same DuplicateKey), in list order; nil for an entry with none.
func Duplicates(names, clubs []string) [][]int {
	byKey := map[string][]int{}
	keys := make([]string, len(names))
	for i := range names {
		keys[i] = DuplicateKey(names[i], clubs[i])
		byKey[keys[i]] = append(byKey[keys[i]], i)
	}
	out := make([][]int, len(names))
	for i, k := range keys {
		for _, j := range byKey[k] {
			if j != i {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

// FreePlaces is how many entries the event can still take (E-1): its
// entry capacity when the organiser set one, else MaxPlayers, less the
// players registered and the entries awaiting approval.
func (t *Tournament) FreePlaces() int {
	places, pending := MaxPlayers, 0
	if p := t.Entries; p != nil {
		pending = p.Pending
		if p.Capacity > 0 {
			places = p.Capacity
		}
	}
	return max(0, places-t.Entrants()-pending)
}

// checkCheckIn validates the check-in option (E-2): it decides who is
// paired round by round, which only a Swiss does; a round robin's table
// and a knockout's bracket are fixed.
func (s *Settings) checkCheckIn() error {
	if !s.CheckIn {
		return nil
	}
	if s.Teams || !isSwiss(s.System) {
		return &FieldError{Field: "checkIn", Message: "check-in decides who a round pairs, which only an individual Swiss does; a fixed table seats everyone", Rule: "E-2"}
	}
	return nil
}

// CheckInWindow is when the organiser opens the next round's check-in
// (E-2), instead of at the previous round's pairing.
type CheckInWindow struct {
	// Round is the round the opening time is for; a later round opens at
	// its previous round's pairing again.
	Round int
	// OpensAt is when its check-in opens (Unix ms).
	OpensAt int64
}

// ConfigureCheckIn turns check-in on or off (before round 1 only: the
// rounds paired so far paired everyone, or only those present) and sets,
// or with opensAt 0 clears, when the next round's check-in opens (E-2).
func (t *Tournament) ConfigureCheckIn(on *bool, opensAt *int64, now int64) error {
	if t.Status == Finished {
		return &RuleError{Code: "event_finished", Message: "the event is finished", Rule: "E-2"}
	}
	if on != nil && *on != t.Settings.CheckIn {
		if t.Round > 0 {
			return &RuleError{Code: CodeCheckInFixed, Message: "check-in is turned on or off before round 1 is paired; the rounds paired so far decided who plays", Rule: "E-2"}
		}
		s := t.Settings
		s.CheckIn = *on
		if err := s.checkCheckIn(); err != nil {
			return err
		}
		t.Settings.CheckIn = *on
	}
	if opensAt != nil {
		if !t.Settings.CheckIn {
			return &RuleError{Code: CodeCheckInOff, Message: "this event pairs every active player; it was not created with \"checkIn\": true", Rule: "E-2"}
		}
		if *opensAt == 0 {
			t.CheckInOpens = nil
		} else if *opensAt < now-24*3600*1000 || *opensAt > now+366*24*3600*1000 {
			return &FieldError{Field: "opensAt", Message: "must be within a day before now and a year after", Rule: "E-2"}
		} else {
			t.CheckInOpens = &CheckInWindow{Round: t.Round + 1, OpensAt: *opensAt}
		}
	}
	return nil
}

// CheckInOpensAt is when round n's check-in opens, 0 at the previous
// round's pairing (E-2).
func (t *Tournament) CheckInOpensAt(n int) int64 {
	if w := t.CheckInOpens; w != nil && w.Round == n {
		return w.OpensAt
	}
	return 0
}

// CheckInOpen reports whether round n's check-in is open at now (E-2).
func (t *Tournament) CheckInOpen(n int, now int64) bool {
	return t.Settings.CheckIn && t.Status != Finished && n == t.Round+1 && (t.Settings.Rounds == 0 || n <= t.Settings.Rounds) && now >= t.CheckInOpensAt(n)
}

// CheckIn records that player p is present for round n (E-2). Round n's
// window opens when round n-1 is paired (round 1's at registration), or
// at the time the organiser set, and closes when round n is paired.
func (t *Tournament) CheckIn(p *Player, n int, now int64) error {
	switch {
	case !t.Settings.CheckIn:
		return &RuleError{Code: CodeCheckInOff, Message: "this event pairs every active player; it was not created with \"checkIn\": true", Rule: "E-2"}
	case t.Status == Finished:
		return &RuleError{Code: "event_finished", Message: "the event is finished", Rule: "E-2"}
	case n <= t.Round:
		return &RuleError{Code: CodeCheckInClosed, Message: fmt.Sprintf("round %d is already paired; check-in closed with its pairing", n), Rule: "E-2"}
	case n > t.Round+1:
		return &RuleError{Code: CodeCheckInNotOpen, Message: fmt.Sprintf("check-in for round %d opens when round %d is paired", n, n-1), Rule: "E-2"}
	case t.Settings.Rounds > 0 && n > t.Settings.Rounds:
		return &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("the event has %d rounds", t.Settings.Rounds), Rule: "E-2"}
	case now < t.CheckInOpensAt(n):
		return &RuleError{Code: CodeCheckInNotOpen, Message: fmt.Sprintf("check-in for round %d opens at the time the organiser set", n), Rule: "E-2"}
	case p.Status != Active:
		return &RuleError{Code: CodeCheckInNotActive, Message: fmt.Sprintf("%s (entry no. %d) is %s and is not paired", p.Name, p.Number, p.Status), Rule: "E-2"}
	}
	p.CheckedIn = n
	return nil
}

// CheckedIn reports whether p is checked in for round n (E-2): always true
// in an event without check-in.
func (t *Tournament) CheckedIn(p *Player, n int) bool {
	return !t.Settings.CheckIn || p.CheckedIn >= n
}

// absent reports whether round n leaves p out for not checking in (E-2):
// an active player who has joined but is not checked in.
func (t *Tournament) absent(p *Player, n int) bool {
	return p.Status == Active && p.JoinedRound <= n && !t.CheckedIn(p, n)
}

// absentees lists, in number order, the players round n leaves out for not
// checking in (E-2).
func absentees(t *Tournament, h *History, n int) []string {
	var out []string
	for _, p := range h.Players {
		if t.absent(p, n) {
			out = append(out, p.ID)
		}
	}
	return out
}
