package httpapi

import (
	"testing"

	"github.com/xqtour/xqtour/shared/service"
)

// SplitReadsFrom makes events of n players times rounds and more read in
// parallel key ranges (eventItems) for the rest of the test, so a small
// event takes the path of a large one.
func SplitReadsFrom(t testing.TB, n int) {
	old := service.SplitReadAt
	service.SplitReadAt = n
	t.Cleanup(func() { service.SplitReadAt = old })
}
