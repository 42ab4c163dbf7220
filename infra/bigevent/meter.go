package main

import "context"

// units is the DynamoDB capacity one request consumed.
type units struct{ read, write float64 }

// meter gives the context a request runs under and, once it has run, the
// units its store calls consumed, and whether they were measured.
func meter(ctx context.Context) (context.Context, func() (units, bool)) {
	return ctx, func() (units, bool) { return units{}, false }
}
