package items

// The mirror's items (shared/service/mirror): all under Y#, none of them an
// event's, so no export and no event Query reads them. Their names are the
// ones they were first written with.

// Mark is the stored shape of a read-only mark (Y#<id>/RO) on an event or
// a game: on a copy, Source is the stack its writes come from; on a source
// after a takeover, To is where the event is written now. The flag item
// Y#marks/RO (present once a table holds any mark) is an empty Mark.
type Mark struct {
	Tournament string `json:"t,omitempty"`
	Source     string `json:"source,omitempty"`
	To         string `json:"to,omitempty"`
}

// Copy is the stored shape of a mirrored copy's state (Y#<tid>/COPY).
type Copy struct {
	Source       string `json:"source"`
	TokenHash    string `json:"tokenHash"`
	LastSeq      int64  `json:"lastSeq"`
	LastChangeAt int64  `json:"lastChangeAt,omitempty"`
	TakenOver    bool   `json:"takenOver,omitempty"`
	// Games are the games the stream brought (those of the import and of
	// the rounds are found through the event's rounds as well).
	Games []string `json:"games,omitempty"`
}

// Mirror is the stored shape of a mirror this stack sends (Y#mirrors/<tid>).
type Mirror struct {
	Target string `json:"target"`
	Source string `json:"source"`
	// Token authorises the change stream on the target (which keeps its
	// hash); the source keeps it whole, as it sends it with every batch.
	Token string `json:"token"`
	// State: running, stopped or handedOver (the target took the event over).
	State       string `json:"state"`
	SentSeq     int64  `json:"sentSeq"`
	Sent        int64  `json:"sent"`
	StartedAt   int64  `json:"startedAt"`
	LastSentAt  int64  `json:"lastSentAt,omitempty"`
	LastError   string `json:"lastError,omitempty"`
	LastErrorAt int64  `json:"lastErrorAt,omitempty"`
}

// Queued is the stored shape of a change waiting to be sent to a mirror
// (Y#<tid>/Q#<seq>): the keys one committed write changed, or the whole
// event (a full resend).
type Queued struct {
	Keys []Key `json:"keys,omitempty"`
	Full bool  `json:"full,omitempty"`
}

// Key is an item's keys as a stored document names them.
type Key struct {
	PK string `json:"PK"`
	SK string `json:"SK"`
}
