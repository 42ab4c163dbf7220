package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// IdempotencyTTL is how long a replayable response is kept. DynamoDB's TTL
// deletes the record some time after it expires; Reserve ignores expired ones.
const IdempotencyTTL = 24 * time.Hour

// ReservationLease is how long a reservation holds its key while the first
// request is served. A request that never completes nor releases (a Lambda
// killed at its 29 s timeout, a crashed process) must not block the key for
// a whole day: once the lease has passed, a retry takes the key over.
const ReservationLease = time.Minute

// Response is a stored answer to a mutating request, replayed unchanged for a
// retry that carries the same Idempotency-Key.
type Response struct {
	// RequestHash fingerprints method, path, principal and body; a different
	// request under the same key is refused.
	RequestHash string
	// Done is false while the first request is still being served.
	Done bool
	// Holder is a random id of the reservation, so that a reservation whose
	// answer was lost and retried by the SDK is recognised as this call's
	// own (the store's read-back compares documents), never as another
	// request's holding the same key with the same hash.
	Holder string `json:",omitempty"`
	Status int
	Body   []byte
}

// ErrKeyInUse: the Idempotency-Key is held by a request still being served.
var ErrKeyInUse = errors.New("store: idempotency key in use")

func idemKey(scope string) (string, string) { return IdempotencyPK(scope), IdempotencySK }

// Reserve claims an idempotency key for a new request. It returns (nil, nil)
// when the caller holds the key and must serve the request, then Complete or
// Release it; the stored response when the key already served a request (the
// caller compares RequestHash); ErrKeyInUse while another request holds it.
// It does not rely on DynamoDB's ClientRequestToken, which emulators ignore.
func (s *Store) Reserve(ctx context.Context, scope, requestHash string, now time.Time) (*Response, error) {
	pk, sk := idemKey(scope)
	doc, _ := json.Marshal(Response{RequestHash: requestHash, Holder: newEpoch()})
	rec := &Record{PK: pk, SK: sk, Kind: KindIdempotency, Doc: doc, Expires: now.Add(ReservationLease).Unix()}
	var old *Record
	for range 3 {
		err := s.Put(ctx, rec)
		if err == nil {
			return nil, nil
		}
		if !errors.Is(err, ErrConflict) {
			return nil, err
		}
		old, err = s.Get(ctx, pk, sk)
		if errors.Is(err, ErrNotFound) {
			// Released between our write and read, or the write lost to a
			// transaction on DynamoDB's side (TransactionConflict): no one
			// holds the key, so try for it again.
			old = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	if old == nil {
		return nil, ErrKeyInUse // the key keeps changing hands; the client retries
	}
	if old.Expires != 0 && old.Expires < now.Unix() {
		// Expired but not yet swept by TTL: take it over under its version,
		// and with its parts, so the write deletes those it no longer needs.
		rec.Version, rec.Parts = old.Version, old.Parts
		if err := s.Put(ctx, rec); err != nil {
			if errors.Is(err, ErrConflict) {
				return nil, ErrKeyInUse
			}
			return nil, err
		}
		return nil, nil
	}
	var resp Response
	if err := json.Unmarshal(old.Doc, &resp); err != nil {
		return nil, fmt.Errorf("store: idempotency record %s: %w", scope, err)
	}
	if !resp.Done {
		if resp.RequestHash != requestHash {
			return &resp, nil // the caller refuses the mismatch at once
		}
		return nil, ErrKeyInUse
	}
	return &resp, nil
}

// Complete stores the response served for a reserved key.
func (s *Store) Complete(ctx context.Context, scope string, resp Response, now time.Time) error {
	pk, sk := idemKey(scope)
	resp.Done = true
	doc, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	old, err := s.Get(ctx, pk, sk)
	if err != nil {
		return err
	}
	old.Doc, old.Expires = doc, now.Add(IdempotencyTTL).Unix()
	return s.Put(ctx, old)
}

// Release gives a reserved key back without a response (the request failed in
// a way worth retrying), so the client's retry is served afresh.
func (s *Store) Release(ctx context.Context, scope string) error {
	pk, sk := idemKey(scope)
	return s.Delete(ctx, pk, sk)
}
