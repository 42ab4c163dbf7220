package main

import (
	"context"

	"github.com/xqtour/xqtour/shared/store"
)

// units is the DynamoDB capacity one request consumed.
type units struct{ read, write float64 }

// meter gives the context a request runs under and, once it has run, the
// units its store calls consumed (store.Meter: DynamoDB's reported
// capacity, or the embedded server's items sized as DynamoDB bills them),
// and whether they were measured.
func meter(ctx context.Context) (context.Context, func() (units, bool)) {
	m := new(store.Meter)
	return store.WithMeter(ctx, m), func() (units, bool) { return units{m.ReadUnits(), m.WriteUnits()}, true }
}
