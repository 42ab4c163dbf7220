package main

import (
	"testing"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
)

// Every route, its parameters filled in, routes back to itself with those
// parameters, as API Gateway would route it; so every probe reaches the
// function the template gives the route.
func TestMatch_EveryRouteRoundTrips(t *testing.T) {
	ids := map[string]string{"tid": "t1", "pid": "p1", "gid": "g1", "n": "3"}
	for _, rt := range httpapi.Routes {
		path := fill(deploy.Path(rt.Path), ids)
		got, params, ok := match(rt.Method, path)
		if !ok || got.Path != rt.Path || got.Method != rt.Method || got.Function != rt.Function {
			t.Errorf("%s %s (filled %s) matched %v %s %s", rt.Method, rt.Path, path, ok, got.Method, got.Path)
			continue
		}
		for name, v := range params {
			if want, known := ids[name]; known && v != want {
				t.Errorf("%s %s: parameter %s = %q, want %q", rt.Method, rt.Path, name, v, want)
			}
		}
	}
}

func TestMatch_UnroutedAndGreedy(t *testing.T) {
	if _, _, ok := match("GET", "/smoke/not-a-route"); ok {
		t.Error("an unrouted path matched a route")
	}
	if _, _, ok := match("DELETE", "/tournaments"); ok {
		t.Error("a route matched another method")
	}
	if got := fill("/files/{path+}/x/{tid}", map[string]string{"tid": "t9"}); got != "/files/smoke-path/x/t9" {
		t.Errorf("fill = %q", got)
	}
}
