package deploy_test

import (
	"path"
	"slices"
	"testing"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
)

// The CloudFront cache keys a public GET on the query strings its route
// takes and no others (issue 24: ?x=<n> made every read a cache miss): the
// behaviour whose path pattern a route's path matches — else the default —
// has a cache policy whose whitelist holds every parameter of the route, and
// every name in a whitelist is taken by some public route under its pattern.
func TestTemplate_EdgeCacheKeysOnTheRoutesQueryOnly(t *testing.T) {
	m := raw(t)
	dist := dig(m, "Resources", "Edge", "Properties", "DistributionConfig")
	queryOf := func(policy any) []string {
		id, _ := dig(policy, "Ref").(string)
		cfg := dig(m, "Resources", id, "Properties", "CachePolicyConfig", "ParametersInCacheKeyAndForwardedToOrigin", "QueryStringsConfig")
		switch dig(cfg, "QueryStringBehavior") {
		case "none":
			return nil
		case "whitelist":
			var out []string
			for _, q := range dig(cfg, "QueryStrings").([]any) {
				out = append(out, q.(string))
			}
			return out
		}
		t.Fatalf("cache policy %s keys on query strings %v: want none or a whitelist", id, cfg)
		return nil
	}
	defaultQuery := queryOf(dig(dist, "DefaultCacheBehavior", "CachePolicyId"))
	behaviours, _ := dig(dist, "CacheBehaviors").([]any)
	if len(behaviours) == 0 {
		t.Fatal("the distribution has no cache behaviours for the routes that take query strings")
	}
	used := map[string][]string{}
	for _, rt := range httpapi.Routes {
		if rt.Method != "GET" || !rt.Who.Has(httpapi.RolePublic) {
			continue
		}
		keyed, pattern := defaultQuery, "default"
		for _, b := range behaviours {
			p := dig(b, "PathPattern").(string)
			if ok, _ := path.Match(p, deploy.Path(rt.Path)); ok || len(p) > 2 && p[len(p)-2:] == "/*" && len(rt.Path) > len(p)-1 && rt.Path[:len(p)-1] == p[:len(p)-1] {
				keyed, pattern = queryOf(dig(b, "CachePolicyId")), p
				break
			}
		}
		for _, q := range rt.Query() {
			if !slices.Contains(keyed, q) {
				t.Errorf("GET %s takes ?%s, but its cache behaviour (%s) does not key on it: one answer would serve every value", rt.Path, q, pattern)
			}
		}
		used[pattern] = append(used[pattern], rt.Query()...)
	}
	for _, b := range behaviours {
		p := dig(b, "PathPattern").(string)
		for _, q := range queryOf(dig(b, "CachePolicyId")) {
			if !slices.Contains(used[p], q) {
				t.Errorf("behaviour %s keys on ?%s, which no public route under it takes", p, q)
			}
		}
	}
	if len(defaultQuery) != 0 {
		t.Errorf("the default behaviour keys on %v: the routes it serves take no query string", defaultQuery)
	}
	groups, err := deploy.EdgeCacheGroups()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if len(g.Query) > deploy.MaxCacheKeyQueryStrings {
			t.Errorf("%s: %d query strings, over CloudFront's %d", g.PathPattern, len(g.Query), deploy.MaxCacheKeyQueryStrings)
		}
	}
}
