package replay_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/service/replay"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

var at = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)

// A key serves its request once and replays the answer after; another
// request under it is refused, another caller's key is its own, and a
// released key is free again. (That a record holds no token as sent is
// checked over HTTP: shared/httpapi's TestIdempotencyRecordsHoldNoTokens.)
func TestRecords_ReserveCompleteReplay(t *testing.T) {
	st, _, _ := storetest.Start(t)
	r := replay.New(st)
	const key = "4c1f0a9e-5b2d-4e8a-9f3c-7d6e5a4b3c2d"
	answer := []byte(`{"token":"t.secret.token"}`)
	q := replay.NewRequest("Bearer a.b.c", key, "POST /tournaments", []byte(`{"name":"x"}`))
	if prev, err := r.Reserve(t.Context(), q, at); prev != nil || err != nil {
		t.Fatalf("first reserve: %v %v", prev, err)
	}
	if _, err := r.Reserve(t.Context(), q, at); !errors.Is(err, store.ErrKeyInUse) {
		t.Fatalf("reserve while served: %v, want ErrKeyInUse", err)
	}
	if err := r.Complete(t.Context(), q, 201, answer, at); err != nil {
		t.Fatal(err)
	}
	prev, err := r.Reserve(t.Context(), q, at)
	if err != nil || prev == nil || prev.Status != 201 || !bytes.Equal(prev.Body, answer) {
		t.Fatalf("replay: %+v %v", prev, err)
	}
	other := replay.NewRequest("Bearer a.b.c", key, "POST /tournaments", []byte(`{"name":"y"}`))
	if _, err := r.Reserve(t.Context(), other, at); !errors.Is(err, replay.ErrReused) {
		t.Fatalf("another body under the key: %v, want ErrReused", err)
	}
	stranger := replay.NewRequest("Bearer d.e.f", key, "POST /tournaments", []byte(`{"name":"x"}`))
	if prev, err := r.Reserve(t.Context(), stranger, at); prev != nil || err != nil {
		t.Fatalf("another caller's key: %v %v, want its own", prev, err)
	}
	if err := r.Release(t.Context(), stranger); err != nil {
		t.Fatal(err)
	}
	if prev, err := r.Reserve(t.Context(), stranger, at); prev != nil || err != nil {
		t.Fatalf("a released key: %v %v, want it free", prev, err)
	}
}
