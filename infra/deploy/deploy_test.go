package deploy_test

import (
	"strings"
	"testing"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
)

func TestPath_GoPatternToAPIGateway(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/tournaments/{tid}", "/tournaments/{tid}"},
		{"/openapi.json", "/openapi.json"},
		{"/games/{gid}/record", "/games/{gid}/record"},
		{"/files/{path...}", "/files/{path+}"},
		{"/tournaments/{$}", "/tournaments"},
		{"/", "/"},
	} {
		if got := deploy.Path(tc.in); got != tc.want {
			t.Errorf("Path(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEventName_LettersAndDigitsOnly(t *testing.T) {
	for _, tc := range []struct {
		rt   httpapi.Route
		want string
	}{
		{httpapi.Route{Method: "GET", Path: "/openapi.json"}, "GetOpenapiJson"},
		{httpapi.Route{Method: "POST", Path: "/tournaments/{tid}/players/{pid}/withdraw"}, "PostTournamentsTidPlayersPidWithdraw"},
		{httpapi.Route{Method: "", Path: "/files/{path...}"}, "AnyFilesPath"},
	} {
		if got := deploy.EventName(tc.rt); got != tc.want {
			t.Errorf("EventName(%s %s) = %q, want %q", tc.rt.Method, tc.rt.Path, got, tc.want)
		}
	}
}

// A function is read-only exactly when all its routes are GET (vacuously when it has none).
func TestReadOnly_FollowsRouteMethods(t *testing.T) {
	for _, fn := range httpapi.Functions {
		writes := false
		for _, rt := range httpapi.Routes {
			if rt.Function == fn && rt.Method != "GET" {
				writes = true
			}
		}
		if deploy.ReadOnly(fn) == writes {
			t.Errorf("ReadOnly(%s) = %v, but its routes write: %v", fn, deploy.ReadOnly(fn), writes)
		}
	}
	if !deploy.ReadOnly("NoSuchFunction") {
		t.Error("a function without routes reads at most")
	}
}

func TestSync_NeedsMarkers(t *testing.T) {
	if _, err := deploy.Sync([]byte("Resources:\n  X: {}\n")); err == nil {
		t.Error("Sync accepted a template without the generated block's markers")
	}
	tpl := "Resources:\n" + deploy.BeginMarker + "\n  Stale: {}\n" + deploy.EndMarker + "\n" +
		deploy.EdgePoliciesBegin + "\n  StalePolicy: {}\n" + deploy.EdgePoliciesEnd + "\n" +
		deploy.EdgeBehavioursBegin + "\n        StaleBehaviour: {}\n" + deploy.EdgeBehavioursEnd + "\nOutputs: {}\n"
	out, err := deploy.Sync([]byte(tpl))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, "Stale") || !strings.Contains(s, "\n  "+deploy.EdgeCachePolicyID+":\n") || !strings.Contains(s, "CacheBehaviors:") || !strings.HasPrefix(s, "Resources:\n") || !strings.HasSuffix(s, "Outputs: {}\n") {
		t.Errorf("Sync did not replace exactly the block:\n%s", s)
	}
	for _, fn := range httpapi.Functions {
		if !strings.Contains(s, "\n  "+fn+":\n    Type: AWS::Serverless::Function\n") {
			t.Errorf("Sync output lacks function %s", fn)
		}
	}
}
