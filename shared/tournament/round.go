package tournament

import "github.com/xqtour/xqtour/shared/result"

// Round is a paired round: who plays whom on which table, the bye, and the
// organiser's changes. It is stored once, when paired (P-*, S-*).
type Round struct {
	Number   int
	PairedAt int64
	// StartsAt is when the round's clocks start (late arrival counts from it, C-6).
	StartsAt int64
	Pairings []Pairing
	// Byes are the players (or teams) with a bye this round (S-7).
	Byes []string
	// Explanations, parallel to Pairings, say why each pair and its colours.
	Explanations []Explanation
	// Audit is every manual change made before the round started.
	Audit []AuditEntry
	// UnfinishedAsDraws lists games still open when this round was paired,
	// counted as draws for the pairing (P-12); in a team event, the
	// references (MatchRef) of the matches still open.
	UnfinishedAsDraws []string
	// Matches are a team event's matches (T-6: Home is listed first); their
	// board games join Pairings once both lineups are known.
	Matches []TeamMatch
	// Eliminated are the players a swissElimination event dropped after the
	// previous round's standings (S-4), fixed when this round was paired:
	// they are paired neither in this round nor later.
	Eliminated []string
	// Absent are the active players an event with check-in left out of
	// this round for not checking in (E-2): no game, no points, no bye.
	Absent []string `json:",omitempty"`
	// Stage names the stage of a groups event this round belongs to (S-5):
	// StageGroups, StageSamePlace or StageCross.
	Stage string
	// GamesReady records that every game of Pairings is known to exist with
	// its pairing's players, so a read of the round need not read them all
	// to repair an interrupted pairing. Whoever changes Pairings clears it
	// (or sets it only when it wrote or read every game); a team round keeps
	// it false while any match awaits its lineups (T-3).
	GamesReady bool
}

// Pairing is one board: red and black player (or team) ids and the game.
type Pairing struct {
	Table  int
	Red    string
	Black  string
	GameID string
	// Match groups the games of one multi-game match or team match.
	Match string
	Board int
	// Group names the group (A, B, …) or same-place final (F1, F2, …) a
	// game of a groups event belongs to (S-5).
	Group string
}

// Explanation says why a pair was made and why its colours (P-9…P-11).
type Explanation struct {
	ScoreGroup     int
	Opponent       string
	OpponentReason string
	ColourReason   string
}

// AuditEntry is one manual change before a round starts.
type AuditEntry struct {
	At     int64
	By     string
	Action string
	Detail string
}

// Result is the outcome of one pairing's game, written exactly once when the
// game ends (a conditional create), and overwritten only by an arbiter's
// result correction. Standings and the next pairing read these.
type Result struct {
	Round  int
	Table  int
	GameID string
	Red    string
	Black  string
	// Result is the game's result from red's side; it is stored as the API's
	// string (1-0, 0-1, 1/2-1/2, +-, -+, 0-0), as it always was.
	Result result.Result
	Reason string
	// Fouls per side in the game (R-1's fouls criterion).
	RedFouls, BlackFouls int
	EndedAt              int64
}

// Of reports whether the result is game gameID's: a result written for
// another game of the table (one replaced by an organiser's change before
// the round started) is not; either id unknown counts as a match.
func (r Result) Of(gameID string) bool { return gameID == "" || r.GameID == "" || r.GameID == gameID }
