package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsStayOffTheHTTPLayer keeps the stream fan-out function small: it
// links the game layer and the live protocol, never the HTTP layer (with
// kin-openapi) nor the tournament core and its pairing engines, which a
// wrong-way import (a game-layer helper reaching for a tournament type, say)
// would pull in whole.
func TestDepsStayOffTheHTTPLayer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"/shared/httpapi", "/shared/pairing", "/shared/tournament", "getkin/kin-openapi"} {
			if strings.Contains(dep, banned) {
				t.Errorf("livefanout links %s", dep)
			}
		}
	}
}
