// Package replay keeps the records an Idempotency-Key replays (the HTTP
// layer's idempotent POST: shared/httpapi's request.go decides which
// requests have one and answers from them). A record is scoped to the
// caller's credentials and the key, so two clients never collide;
// fingerprinted by the request, so a key reused for another request is
// caught; and its body sealed with a key derived from what only a retry
// presents again, since a stored answer may hold tokens.
package replay

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/store"
)

// ErrReused is a key that answered a different request.
var ErrReused = errors.New("replay: this Idempotency-Key was used for a different request")

// Records are the replay records of one store.
type Records struct{ st *store.Store }

// New is the records kept in st.
func New(st *store.Store) *Records { return &Records{st: st} }

// Request is one request under an Idempotency-Key: the caller's
// credentials (auth), the key, and the record's scope and fingerprint.
type Request struct{ auth, key, scope, hash string }

// NewRequest is the request that caller auth (its Authorization, or what
// stands for a caller without one) sends under key: request names it
// ("POST /tournaments?x=1"), body is its body.
func NewRequest(auth, key, request string, body []byte) Request {
	return Request{auth: auth, key: key, scope: digest("scope\n" + auth + "\n" + key), hash: digest(request + "\n" + string(body))}
}

// Answer is a stored answer to replay.
type Answer struct {
	Status int
	Body   []byte
}

// Reserve claims q's key: nil when the caller is to serve the request,
// then Complete or Release it; the stored answer when the key already
// served this request; ErrReused when it served another;
// store.ErrKeyInUse while another request holds it.
func (r *Records) Reserve(ctx context.Context, q Request, now time.Time) (*Answer, error) {
	prev, err := r.st.Reserve(ctx, q.scope, q.hash, now)
	if err != nil || prev == nil {
		return nil, err
	}
	if prev.RequestHash != q.hash {
		return nil, ErrReused
	}
	body, err := open(q.auth, q.key, prev.Body)
	if err != nil {
		return nil, err
	}
	return &Answer{Status: prev.Status, Body: body}, nil
}

// Release gives q's key up (nothing was decided, or the caller may not
// act): a retry runs afresh. It is retried like any write: a key left
// reserved would answer the client's retry 409 request_in_progress until
// its lease ran out.
func (r *Records) Release(ctx context.Context, q Request) error {
	return command.Retry(func() error { return r.st.Release(ctx, q.scope) })
}

// Complete stores the answer for replay, sealed, retrying a throttled or
// failed store, or a write that lost to DynamoDB's own transaction
// conflict (store.Complete reads the record afresh each time), within the
// retry budget: the request has acted, and a key left reserved would be
// served afresh, acting twice, once its lease runs out.
func (r *Records) Complete(ctx context.Context, q Request, status int, body []byte, now time.Time) error {
	resp := store.Response{RequestHash: q.hash, Status: status, Body: seal(q.auth, q.key, body)}
	return command.Retry(func() error { return r.st.Complete(ctx, q.scope, resp, now) })
}

// A stored answer may hold tokens (POST /tournaments, /players, /games
// answer with them), and the OpenAPI document keeps only tokens' hashes. So
// the record is sealed with a key derived from the Idempotency-Key and the
// Authorization header, and the item's key is a hash of them: the table,
// its backups and the local snapshot hold nothing a token can be read from.
const sealed = 1 // first byte of a sealed body; a stored JSON body starts with '{'

func aead(auth, key string) cipher.AEAD {
	k := sha256.Sum256([]byte("replay\n" + auth + "\n" + key))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		panic(err) // a 32-byte key is always valid
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return gcm
}

func seal(auth, key string, body []byte) []byte {
	gcm := aead(auth, key)
	nonce := make([]byte, gcm.NonceSize())
	_, _ = rand.Read(nonce)
	return gcm.Seal(append([]byte{sealed}, nonce...), nonce, body, nil)
}

func open(auth, key string, data []byte) ([]byte, error) {
	if len(data) == 0 || data[0] != sealed {
		return data, nil // an empty body
	}
	gcm := aead(auth, key)
	n := 1 + gcm.NonceSize()
	if len(data) < n {
		return nil, fmt.Errorf("idempotency record: sealed body too short")
	}
	body, err := gcm.Open(nil, data[1:n], data[n:], nil)
	if err != nil {
		return nil, fmt.Errorf("idempotency record: %w", err)
	}
	return body, nil
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
