package store_test

import (
	"context"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/storetest"
)

// A request's Meter absorbed into its caller's adds exactly its units and
// calls; a nil caller's Meter (nobody measuring from outside) is no error.
func TestMeter_Absorb(t *testing.T) {
	st, _ := storetest.New(t)
	inner := metered(t, func(ctx context.Context) {
		if err := st.Put(ctx, &store.Record{PK: store.GamePK("g1"), SK: store.GameSK, Kind: store.KindGame, Doc: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(ctx, store.GamePK("g1"), store.GameSK); err != nil {
			t.Fatal(err)
		}
	})
	outer := &store.Meter{}
	outer.Absorb(inner)
	outer.Absorb(inner)
	if outer.ReadUnits() != 2*inner.ReadUnits() || outer.WriteUnits() != 2*inner.WriteUnits() || outer.Requests() != 2*inner.Requests() || inner.Requests() != 2 {
		t.Fatalf("absorbed %v/%v/%d twice into %v/%v/%d", inner.ReadUnits(), inner.WriteUnits(), inner.Requests(), outer.ReadUnits(), outer.WriteUnits(), outer.Requests())
	}
	var none *store.Meter
	none.Absorb(inner)
}
