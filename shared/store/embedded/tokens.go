package embedded

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"
)

// clientTokens gives TransactWriteItems DynamoDB's idempotency: a request
// carrying a ClientRequestToken that a successful transaction already
// carried, within ten minutes, is answered with that success and applies
// nothing again; the same token with another request is refused with
// IdempotentParameterMismatchException. The SDK fills the token in and keeps
// it across its retries, so on DynamoDB a transaction whose answer was lost
// is not applied twice by the retry — and the embedded server (minidyn
// ignores the token) now behaves the same.
type clientTokens struct {
	mu    sync.Mutex
	seen  map[string]tokenUse
	added int // since the last sweep of expired tokens
}

type tokenUse struct {
	request [32]byte // what the token was used for (the body without the token)
	answer  []byte
	header  http.Header
	at      time.Time
}

// tokenTTL is how long DynamoDB remembers a ClientRequestToken.
const tokenTTL = 10 * time.Minute

// serve answers a TransactWriteItems whose token is known, or serves it with
// next and remembers a successful answer. It reports whether it answered.
func (t *clientTokens) serve(w http.ResponseWriter, r *http.Request, body []byte, next func(http.ResponseWriter, *http.Request)) bool {
	var in struct {
		ClientRequestToken string
	}
	if json.Unmarshal(body, &in) != nil || in.ClientRequestToken == "" {
		return false
	}
	// One request, one digest: decoded and encoded again, every object's
	// keys are sorted (the SDK writes an item's attributes in map order).
	var fields map[string]any
	_ = json.Unmarshal(body, &fields)
	delete(fields, "ClientRequestToken")
	canon, _ := json.Marshal(fields)
	digest := sha256.Sum256(canon)
	now := time.Now()
	t.mu.Lock()
	if t.seen == nil {
		t.seen = map[string]tokenUse{}
	}
	if t.added >= 1024 { // sweep now and then, not on every call
		t.added = 0
		for k, u := range t.seen {
			if now.Sub(u.at) > tokenTTL {
				delete(t.seen, k)
			}
		}
	}
	u, ok := t.seen[in.ClientRequestToken]
	t.mu.Unlock()
	if ok && now.Sub(u.at) <= tokenTTL {
		if u.request != digest {
			writeAPIError(w, http.StatusBadRequest, "IdempotentParameterMismatchException", "The request uses the same client token as a previous, but non-identical request.")
			return true
		}
		for k, v := range u.header {
			w.Header()[k] = v
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(u.answer)
		return true
	}
	res := &heldResponse{header: http.Header{}, status: http.StatusOK}
	r.Body = io.NopCloser(bytes.NewReader(body))
	next(res, r)
	if res.status == http.StatusOK {
		t.mu.Lock()
		t.seen[in.ClientRequestToken] = tokenUse{request: digest, answer: res.body.Bytes(), header: res.header.Clone(), at: now}
		t.added++
		t.mu.Unlock()
	}
	for k, v := range res.header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.status)
	_, _ = w.Write(res.body.Bytes())
	return true
}
