package httpapi

import (
	"fmt"
	"net/http"

	"github.com/xqtour/xqtour/shared/tournament"
)

// Limit is one cap on a list a caller can grow: every list the model keeps
// that a request can add to has one, so no caller — an organiser with a
// free event, a player, an anonymous client — can make an item or a
// partition, and so every read of it, grow without bound (denial of wallet).
// A request past a cap is refused with 422 limit_exceeded naming the cap
// (400 when one request alone asks for more); nothing changes.
type Limit struct {
	// Name is the cap's stable name, quoted in the error and the README.
	Name string
	// Max is the most the list may hold.
	Max int
	// What says what is counted, for the error message and the README.
	What string
	// Why says why the number is what it is.
	Why string
}

// The caps, by name; Limits lists them all in one table.
const (
	capPlayers       = "playersPerEvent"
	capTeams         = "teamsPerEvent"
	capTeamPlayers   = "playersPerTeam"
	capOfficials     = "officialsPerEvent"
	capScribeTables  = "tablesPerScribe"
	capRoundAudit    = "auditEntriesPerRound"
	capGameLog       = "logEntriesPerGame"
	capMoves         = "movesPerGame"
	capForbiddenPair = "forbiddenPairsPerRequest"
)

// Limits is every cap, in one place; README.md's "Security and cost limits"
// lists the same table (a test holds them equal).
var Limits = []Limit{
	{capPlayers, tournament.MaxPlayers, "players registered in one event (team members included)",
		"twice the largest open Swiss events; a round of 20,000 players is about 3.4 MB, which the store splits over items and a standings read pages through"},
	{capTeams, 1000, "teams registered in one team event",
		"a 1,000-team Swiss round is 500 matches of up to 32 boards; larger team events are unknown"},
	{capTeamPlayers, 32, "members and substitutes of one team",
		"the largest team formats field 10 boards and a few substitutes; one team registers in one transaction of at most 34 items"},
	{capOfficials, 200, "arbiters and scribes of one event",
		"a scribe per table of a 400-player event and its arbiters; each official is one item of the event's partition"},
	{capScribeTables, 100, "tables one scribe keeps",
		"a scribe watches a few boards; the list is in the official's item and in every game request the scribe makes"},
	{capRoundAudit, 200, "manual changes (audit entries) of one round",
		"each change is kept in the round's item, which every public read of the round returns"},
	{capGameLog, 100, "rulings and recorded results in one game's log",
		"each entry is kept in the game's item, which every move and every view reads; fouls end a game at the third (G-2)"},
	{capMoves, 2000, "moves (plies) of one game",
		"the longest recorded games are a few hundred plies; without a cap two seats that avoid repeating and capturing grow the game's item — read and written whole by every move — without end"},
	{capForbiddenPair, 1000, "forbidden pairs in one pairing request",
		"an organiser separates family members or team-mates, a few dozen pairs at most"},
}

// limitOf returns the cap named name; the names above are all in Limits.
func limitOf(name string) Limit {
	for _, l := range Limits {
		if l.Name == name {
			return l
		}
	}
	panic("httpapi: no cap " + name)
}

// overLimit refuses a request that would take the list past its cap: 422,
// the list is full; nothing was changed.
func overLimit(name string) *Error {
	l := limitOf(name)
	return &Error{Status: http.StatusUnprocessableEntity, Code: "limit_exceeded",
		Message: fmt.Sprintf("cap %s reached: at most %d %s", l.Name, l.Max, l.What)}
}

// tooMany refuses a request that alone asks for more than the cap: 400.
func tooMany(name string, got int) *Error {
	l := limitOf(name)
	return &Error{Status: http.StatusBadRequest, Code: "limit_exceeded",
		Message: fmt.Sprintf("cap %s: at most %d %s, got %d", l.Name, l.Max, l.What, got)}
}
