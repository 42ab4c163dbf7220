package service

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/service/command"
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
	// CapPlayers … CapForbiddenPair name the caps of Limits.
	CapPlayers       = "playersPerEvent"
	CapTeams         = "teamsPerEvent"
	CapTeamPlayers   = "playersPerTeam"
	CapOfficials     = "officialsPerEvent"
	CapScribeTables  = "tablesPerScribe"
	CapRoundAudit    = "auditEntriesPerRound"
	CapGameLog       = "logEntriesPerGame"
	CapMoves         = "movesPerGame"
	CapForbiddenPair = "forbiddenPairsPerRequest"
)

// Limits is every cap, in one place; README.md's "Security and cost limits"
// lists the same table (a test holds them equal).
var Limits = []Limit{
	{CapPlayers, tournament.MaxPlayers, "players registered in one event (team members included)",
		"an online open of lichess's largest size; a round of 100,000 players is about 18.5 MB, which the store stages in parts outside the pairing's transaction and a round read pages through"},
	{CapTeams, 1000, "teams registered in one team event",
		"a 1,000-team Swiss round is 500 matches of up to 32 boards; larger team events are unknown"},
	{CapTeamPlayers, 32, "members and substitutes of one team",
		"the largest team formats field 10 boards and a few substitutes; one team registers in one transaction of at most 34 items"},
	{CapOfficials, 200, "arbiters and scribes of one event",
		"a scribe per table of a 400-player event and its arbiters; each official is one item of the event's partition"},
	{CapScribeTables, 100, "tables one scribe keeps",
		"a scribe watches a few boards; the list is in the official's item and in every game request the scribe makes"},
	{CapRoundAudit, 200, "manual changes (audit entries) of one round",
		"each change is kept in the round's item, which every public read of the round returns"},
	{CapGameLog, 100, "rulings and recorded results in one game's log",
		"each entry is kept in the game's item, which every move and every view reads; fouls end a game at the third (G-2)"},
	{CapMoves, 2000, "moves (plies) of one game",
		"the longest recorded games are a few hundred plies; without a cap two seats that avoid repeating and capturing grow the game's item — read and written whole by every move — without end"},
	{CapForbiddenPair, 1000, "forbidden pairs in one pairing request",
		"an organiser separates family members or team-mates, a few dozen pairs at most"},
}

// LimitOf returns the cap named name; the names above are all in Limits.
func LimitOf(name string) Limit {
	for _, l := range Limits {
		if l.Name == name {
			return l
		}
	}
	panic("service: no cap " + name)
}

// OverLimit refuses a request that would take the list past its cap: 422,
// the list is full; nothing was changed.
func OverLimit(name string) *command.Error {
	l := LimitOf(name)
	return &command.Error{Kind: command.Refused, Code: "limit_exceeded",
		Message: fmt.Sprintf("cap %s reached: at most %d %s", l.Name, l.Max, l.What)}
}

// TooMany refuses a request that alone asks for more than the cap: 400.
func TooMany(name string, got int) *command.Error {
	l := LimitOf(name)
	return &command.Error{Kind: command.Invalid, Code: "limit_exceeded",
		Message: fmt.Sprintf("cap %s: at most %d %s, got %d", l.Name, l.Max, l.What, got)}
}
