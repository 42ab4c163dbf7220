package store

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
)

// A write whose answer was lost — an InternalServerError or a dropped
// connection after DynamoDB applied it — is retried by the SDK, and the
// retry meets the write's own effect: a conditional put finds the version it
// wrote and fails its condition. Reported as a conflict, the handler would
// run its step again on fresh state and act twice (a second registration, a
// move made twice); reported as unavailable, the client's retry would do the
// same. So a conditional write that failed after more than one attempt, or
// with a transient error, is checked against the table before its error is
// believed: if the item is there exactly as this call wrote it (its new
// version, its document), the write was applied and the call succeeds.
// DynamoDB's own idempotency (ClientRequestToken) covers TransactWriteItems
// only, not PutItem, and emulators ignore it; this covers both.

// attemptsKey carries a counter of the HTTP attempts an operation made.
type attemptsKey struct{}

// withAttempts returns ctx with a fresh attempt counter.
func withAttempts(ctx context.Context) (context.Context, *atomic.Int32) {
	n := new(atomic.Int32)
	return context.WithValue(ctx, attemptsKey{}, n), n
}

// attemptsMiddleware counts each attempt: it runs after the SDK's retry
// middleware (Finalize, appended after it), once per attempt.
func attemptsMiddleware(stack *middleware.Stack) error {
	return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("xqtourAttempts",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			if n, ok := ctx.Value(attemptsKey{}).(*atomic.Int32); ok {
				n.Add(1)
			}
			return next.HandleFinalize(ctx, in)
		}), middleware.After)
}

// maybeApplied reports whether a write that failed with err (as wrapped)
// after tries attempts may nonetheless have been applied.
func maybeApplied(err error, tries *atomic.Int32) bool {
	return err != nil && (tries.Load() > 1 || errors.Is(err, ErrUnavailable))
}

// landed reports whether a failed conditional write was applied after all:
// the first record written is stored at the version and with the document
// this write gave it (writes are all or nothing, so one tells for all); with
// no records written, every record deleted is gone. The read is retried
// while DynamoDB throttles or fails (four rounds of the SDK's four attempts,
// about a second); an error means the outcome is still unknown.
func (s *Store) landed(ctx context.Context, writes, deletes []*Record) (applied, superseded bool, err error) {
	for attempt := range 4 {
		if attempt > 0 {
			time.Sleep(jitter(50 * time.Millisecond << attempt))
		}
		if applied, superseded, err = s.landedOnce(ctx, writes, deletes); err == nil {
			return applied, superseded, nil
		}
		if !errors.Is(err, ErrThrottled) && !errors.Is(err, ErrUnavailable) {
			return false, false, err
		}
	}
	return false, false, err
}

// landedOnce is one read of landed; superseded says the item is at a later
// version than this write's, so whether this write came first cannot be
// told from the item alone.
func (s *Store) landedOnce(ctx context.Context, writes, deletes []*Record) (applied, superseded bool, err error) {
	if len(writes) > 0 {
		r := writes[0]
		head, parts := r.split()
		want := len(parts)
		if r.next != nil { // a staged document: its head names the build it published
			head, want = r.Doc, r.next.parts
		}
		out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(r.PK, r.SK), ConsistentRead: aws.Bool(true)})
		if err != nil {
			return false, false, wrap("get "+r.PK+"/"+r.SK, err)
		}
		if out.Item == nil {
			return false, false, nil
		}
		got, err := fromItem(out.Item)
		if err != nil {
			return false, false, err
		}
		mine := got.Version == r.Version+1 && got.Kind == r.Kind && got.Parts == want && bytes.Equal(got.Doc, head)
		if r.next != nil {
			mine = mine && got.Build == r.next.build
		}
		return mine, got.Version > r.Version+1, nil
	}
	for _, r := range deletes {
		out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{TableName: &s.table, Key: key(r.PK, r.SK), ConsistentRead: aws.Bool(true),
			ProjectionExpression: aws.String("PK")})
		if err != nil {
			return false, false, wrap("get "+r.PK+"/"+r.SK, err)
		}
		if out.Item != nil {
			return false, false, nil
		}
	}
	return len(deletes) > 0, false, nil
}

// jitter returns a random duration in [d/2, d): "equal jitter", so that
// writers that collided do not collide again on the same schedule.
func jitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2)
}
