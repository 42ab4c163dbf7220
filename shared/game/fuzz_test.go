package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/game"
)

// FuzzDecode: whatever bytes the store hands back, Decode returns a game or
// an error and never panics; a game it returns encodes to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, play := range worked {
		g := play(f)
		b, _ := g.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := game.Decode(data)
		if err != nil {
			return
		}
		g.View(t0)
		b, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := game.Decode(b); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
	})
}
