package items

import "encoding/json"

// View is the stored shape of a view's head (V#<tid>/D#<view>,
// shared/service/viewcache): the counters of the event's stamp it was
// built from and the response without its rows, which are in Chunks
// chunk items (V#<tid>/D#<view>#<build>#<nnn>). A chunk item's document
// has no shape of its own: it is gzip bytes, a table's rows as gzipped
// JSON or a piece of a gzipped whole response.
type View struct {
	// Build names this build's chunk items.
	Build string `json:"build"`
	// Epoch is the stamp's incarnation the counters were read from.
	Epoch string `json:"epoch"`
	// Deps are the counters the view was built from.
	Deps map[string]int64 `json:"deps"`
	// Pending, for the default table (the last complete round), is the
	// round after it: the view stays current until that round may be complete.
	Pending *ViewPending `json:"pending,omitempty"`
	// BuiltAt is when the view was built (Unix ms).
	BuiltAt int64 `json:"builtAt"`
	// StartsAt is a round's start (Unix ms), for its started flag at read time.
	StartsAt int64 `json:"startsAt,omitempty"`
	// Head is the response without its rows, as JSON.
	Head json.RawMessage `json:"head"`
	// Rows counts the rows the chunks hold (a whole response: its pieces).
	Rows int `json:"rows"`
	// Chunks counts the chunk items.
	Chunks int `json:"chunks"`
}

// ViewPending is the round whose completion would move the default table
// on: its round item's counter and its created results when the view was
// built, and how many of its games had no result then.
type ViewPending struct {
	Round   int   `json:"round"`
	Paired  int64 `json:"paired"`
	Results int64 `json:"results"`
	Missing int   `json:"missing"`
}
