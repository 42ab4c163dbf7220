package service

import (
	"github.com/xqtour/xqtour/shared/service/items"
	"github.com/xqtour/xqtour/shared/store"
)

// decodeItem and encodeItem are the one place event items are read from
// and written to their documents (the shapes of shared/service/items).
func decodeItem(rec *store.Record, v any) error { return items.Decode(rec, v) }

func encodeItem(rec *store.Record, v any) *store.Record { return items.Encode(rec, v) }
