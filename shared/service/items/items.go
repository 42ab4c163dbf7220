// Package items spells out the stored shape of every item kind of the
// table (shared/store's keys.go names the keys and kinds): one Go struct per
// document, each field with the JSON name it has always been stored under.
// The core's structs (shared/tournament …) are never marshalled for
// storage: shared/service converts between them and these shapes, so a core
// field can be renamed or retyped without changing a byte of what a table
// holds, and an item written by an earlier release decodes as it was
// written (the golden test, testdata/stored.golden, holds such items).
//
// The names are the ones the items were first written with (the core's
// field names then), kept as they are: renaming them would need every
// stored item rewritten or read both ways, for a few bytes an item. The
// game item's link, which was given short names from the start, is
// shared/service/games's Link.
//
// The package depends on nothing of the core's but leaf value types that
// carry their own stable text form (result.Result), so the game layer,
// which must not link the pairing engines, can write a result item.
package items

import (
	"encoding/json"
	"fmt"

	"github.com/xqtour/xqtour/shared/store"
)

// Decode reads rec's document into its shape v.
func Decode(rec *store.Record, v any) error {
	if err := json.Unmarshal(rec.Doc, v); err != nil {
		return fmt.Errorf("decode %s %s/%s: %w", rec.Kind, rec.PK, rec.SK, err)
	}
	return nil
}

// Encode puts the shape v into rec's document. The shapes are plain data
// and always marshal.
func Encode(rec *store.Record, v any) *store.Record {
	doc, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encode %s: %v", rec.Kind, err))
	}
	rec.Doc = doc
	return rec
}
