package items

// Due is the stored shape of work due on an event's round (W#due/<ms>#…,
// shared/service's due.go): written with the write that makes the work due
// (a team round paired or started with its lineups open, an event game of
// a knockout ending), deleted under its version once the work is done. The
// tags are short and fixed, as a job's are: an item of an earlier release
// must still be read (testdata/stored.golden holds one).
type Due struct {
	// Tournament and Round are the event and the round the work is on.
	Tournament string `json:"t"`
	Round      int    `json:"n"`
	// At is when the work is due (Unix ms), as the sort key says.
	At int64 `json:"a"`
	// Why says what made it due: "deadline" (a team round's lineups, T-3),
	// "ended" (a game of an event whose rounds grow as played, S-3),
	// "games" (a paired round whose games were not all made after it) or
	// "moved" (an event that arrived on this stack played).
	Why string `json:"w"`
	// Attempts counts the runs that failed; each pushes the next one later.
	Attempts int `json:"k,omitempty"`
	// Error is the last failed run's error, for whoever reads the table.
	Error string `json:"e,omitempty"`
}
