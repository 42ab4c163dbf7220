package items

// PairJob is the stored shape of a pairing job (J#<tid>/R#<nnnn>): a big
// event's round paired outside the request that asked for it
// (shared/service's PairJob). It is written once under
// attribute_not_exists when the round is asked for, then rewritten under
// its version as the job runs, so every request for the same round finds
// the same job. The tags are short and fixed: a job of an earlier release
// must still be read (testdata/stored.golden holds such items).
type PairJob struct {
	// Round is the round the job pairs.
	Round int `json:"n"`
	// State is queued, running, done or failed.
	State string `json:"s"`
	// By is the id of the organiser's principal that asked for the round.
	By string `json:"by,omitempty"`
	// UnfinishedAsDraws, Forbidden and StartsAt are the pairing's options
	// as the request gave them (PairRound).
	UnfinishedAsDraws bool        `json:"d,omitempty"`
	Forbidden         [][2]string `json:"f,omitempty"`
	StartsAt          int64       `json:"a,omitempty"`
	// Queued, Started and Ended are Unix ms: when the round was asked for,
	// when the current attempt began, when the job finished.
	Queued  int64 `json:"q"`
	Started int64 `json:"b,omitempty"`
	Ended   int64 `json:"e,omitempty"`
	// Attempt counts the runs begun (a rerun after an interruption, or a
	// new request after a failure, begins another).
	Attempt int `json:"k,omitempty"`
	// Tables and Byes are the paired round's size, once done.
	Tables int `json:"t,omitempty"`
	Byes   int `json:"y,omitempty"`
	// Code, Message and Rule are the refusal of a failed job.
	Code    string `json:"c,omitempty"`
	Message string `json:"m,omitempty"`
	Rule    string `json:"r,omitempty"`
}
