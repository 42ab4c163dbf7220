package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// A reservation whose request never completed nor released (a Lambda killed
// at its timeout) holds the key only for its lease, not for a day; a
// completed response is kept for IdempotencyTTL.
func TestReservationLeaseExpires(t *testing.T) {
	st, _ := storetest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if resp, err := st.Reserve(ctx, "crashed", "h1", now); err != nil || resp != nil {
		t.Fatalf("first reserve: %v, %v", resp, err)
	}
	if _, err := st.Reserve(ctx, "crashed", "h1", now.Add(store.ReservationLease/2)); !errors.Is(err, store.ErrKeyInUse) {
		t.Fatalf("within the lease: %v, want ErrKeyInUse", err)
	}
	if resp, err := st.Reserve(ctx, "crashed", "h1", now.Add(store.ReservationLease+2*time.Second)); err != nil || resp != nil {
		t.Fatalf("after the lease: %+v, %v; want the key taken over", resp, err)
	}
	if err := st.Complete(ctx, "crashed", store.Response{RequestHash: "h1", Status: 201, Body: []byte(`{}`)}, now.Add(store.ReservationLease+2*time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := st.Reserve(ctx, "crashed", "h1", now.Add(2*time.Hour))
	if err != nil || resp == nil || resp.Status != 201 {
		t.Fatalf("a completed response outlives the lease: %+v, %v", resp, err)
	}
}
