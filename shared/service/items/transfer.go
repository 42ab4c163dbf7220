package items

// Import is the stored shape of a multi-part event import between its
// parts (J#<tid>/IMPORT): who may continue it (the hash of its token),
// which export it is (the snapshot of the export's first page), how many
// of its items are in, the games and items by kind so far (the caps hold
// for an imported event too), the running SHA-256 state of the lines
// received (checked against the snapshot when the last is in), and where
// its parts are staged.
type Import struct {
	TokenHash string         `json:"tokenHash"`
	Snapshot  string         `json:"snapshot"`
	Total     int            `json:"total"`
	Received  int            `json:"received"`
	Games     int            `json:"games"`
	Counts    map[string]int `json:"counts"`
	Digest    []byte         `json:"digest"`
	// Pages are the parts staged, in order.
	Pages    []StagedPage `json:"pages"`
	Complete bool         `json:"complete,omitempty"`
	// Version is the export's format version (0: version 1, staged before
	// there were others). A version 2 import learns its Snapshot and Total
	// from its last part only.
	Version int `json:"version,omitempty"`
}

// StagedPage is one part of a multi-part import as staged: the item it
// starts at and how many chunks (J#<tid>/Q#<offset>#<nnn>) hold its lines.
type StagedPage struct {
	Offset int `json:"offset"`
	Chunks int `json:"chunks"`
}

// Staged is the document of a staged chunk of a multi-part import
// (J#<tid>/Q#<offset>#<nnn>): a run of the part's item lines exactly as
// they were sent, each ending in a newline, split anywhere. It is bytes,
// not JSON: the chunks of a part are joined and split into lines again
// when the last part is in, so a line is read back as it came.
type Staged []byte
