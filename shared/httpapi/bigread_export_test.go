package httpapi

import "testing"

// SplitReadsFrom makes events of n players times rounds and more read in
// parallel key ranges (eventItems) for the rest of the test, so a small
// event takes the path of a large one.
func SplitReadsFrom(t testing.TB, n int) {
	old := splitReadAt
	splitReadAt = n
	t.Cleanup(func() { splitReadAt = old })
}
