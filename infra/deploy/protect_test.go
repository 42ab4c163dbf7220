package deploy_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/httpapi"
)

// paramDefault returns a Number parameter's default.
func paramDefault(t *testing.T, m map[string]any, name string) float64 {
	t.Helper()
	switch v := dig(m, "Parameters", name, "Default").(type) {
	case float64:
		return v
	case string:
		f, err := strconv.ParseFloat(v, 64)
		if err == nil {
			return f
		}
	}
	t.Fatalf("parameter %s has no numeric default", name)
	return 0
}

// #11.15: every route anyone may call to create (httpapi.Routes' "anyone")
// has its own route throttle, from parameters whose defaults are far below
// the default route settings'.
func TestTemplate_CreationThrottles(t *testing.T) {
	m := raw(t)
	settings, _ := dig(m, "Resources", deploy.ApiID, "Properties", "RouteSettings").(map[string]any)
	for _, rt := range httpapi.Routes {
		if !rt.Who.Has(httpapi.RoleAnyone) {
			continue
		}
		key := rt.Method + " " + deploy.Path(rt.Path)
		rs, _ := settings[key].(map[string]any)
		if !equalJSON(rs["ThrottlingBurstLimit"], ref("CreationThrottlingBurstLimit")) || !equalJSON(rs["ThrottlingRateLimit"], ref("CreationThrottlingRateLimit")) {
			t.Errorf("RouteSettings[%q] = %v, want the Creation throttling parameters", key, rs)
		}
	}
	for key := range settings {
		method, path, _ := strings.Cut(key, " ")
		if !slices.ContainsFunc(httpapi.Routes, func(rt httpapi.Route) bool { return rt.Method == method && deploy.Path(rt.Path) == path }) {
			t.Errorf("RouteSettings names %q, which is no route", key)
		}
	}
	if c, d := paramDefault(t, m, "CreationThrottlingRateLimit"), paramDefault(t, m, "ThrottlingRateLimit"); c*10 > d {
		t.Errorf("creation rate %v is not far below the default route rate %v", c, d)
	}
	if c, d := paramDefault(t, m, "CreationThrottlingBurstLimit"), paramDefault(t, m, "ThrottlingBurstLimit"); c*10 > d {
		t.Errorf("creation burst %v is not far below the default route burst %v", c, d)
	}
}

// #11.15 and retention: the creation key is a NoEcho parameter, empty (open)
// by default; it, the retention and the CloudFront origin secret reach every
// function's environment; the browser may send X-Creation-Key.
func TestTemplate_CreationKeyAndRetention(t *testing.T) {
	m := raw(t)
	if dig(m, "Parameters", "CreationKey", "NoEcho") != true || dig(m, "Parameters", "CreationKey", "Default") != "" {
		t.Errorf("CreationKey: %v, want NoEcho and an empty default", dig(m, "Parameters", "CreationKey"))
	}
	if paramDefault(t, m, "RetentionDays") != 0 || dig(m, "Parameters", "RetentionDays", "MinValue") != 0.0 {
		t.Errorf("RetentionDays: %v, want default 0 (keep everything), minimum 0", dig(m, "Parameters", "RetentionDays"))
	}
	env, _ := dig(m, "Globals", "Function", "Environment", "Variables").(map[string]any)
	if !equalJSON(env["CREATION_KEY"], ref("CreationKey")) {
		t.Errorf("CREATION_KEY is %v, want !Ref CreationKey", env["CREATION_KEY"])
	}
	if !equalJSON(env["RETENTION_DAYS"], map[string]any{"Fn::Sub": "${RetentionDays}"}) {
		t.Errorf("RETENTION_DAYS is %v, want the RetentionDays parameter", env["RETENTION_DAYS"])
	}
	if ifs, _ := dig(env, "ORIGIN_SECRET", "Fn::If").([]any); len(ifs) != 3 || ifs[0] != "UseEdge" || ifs[2] != "" ||
		!equalJSON(ifs[1], dig(m, "Resources", "Edge", "Properties", "DistributionConfig", "Origins").([]any)[0].(map[string]any)["OriginCustomHeaders"].([]any)[0].(map[string]any)["HeaderValue"]) {
		t.Errorf("ORIGIN_SECRET is %v, want the value CloudFront sends with UseEdge, else empty", env["ORIGIN_SECRET"])
	}
	headers, _ := dig(m, "Resources", deploy.ApiID, "Properties", "CorsConfiguration", "AllowHeaders").([]any)
	if !slices.Contains(headers, any(httpapi.CreationKeyHeader)) {
		t.Errorf("CORS AllowHeaders %v lacks %s", headers, httpapi.CreationKeyHeader)
	}
}

// Per-client limiting: with PerClientRateLimit ≠ 0 (condition UseEdge) a
// CloudFront distribution with a WAF web ACL (scope CLOUDFRONT, only in
// us-east-1: a template rule says so) limits each IP address overall and for
// creations, sends the origin secret the API checks, and caches by the
// API's Cache-Control; with 0 none of it exists.
func TestTemplate_PerClientLimit(t *testing.T) {
	m := raw(t)
	cond := dig(m, "Conditions", "UseEdge")
	if !equalJSON(cond, map[string]any{"Fn::Not": []any{map[string]any{"Fn::Equals": []any{ref("PerClientRateLimit"), 0.0}}}}) {
		t.Errorf("condition UseEdge is %v, want PerClientRateLimit ≠ 0", cond)
	}
	if paramDefault(t, m, "PerClientRateLimit") != 0 {
		t.Errorf("PerClientRateLimit defaults to %v, want 0 (no CloudFront unless asked)", paramDefault(t, m, "PerClientRateLimit"))
	}
	for _, id := range []string{"EdgeWebAcl", "EdgeCachePolicy", "Edge"} {
		if dig(m, "Resources", id, "Condition") != "UseEdge" {
			t.Errorf("%s is not conditional on UseEdge", id)
		}
	}
	if dig(m, "Outputs", "EdgeUrl", "Condition") != "UseEdge" {
		t.Errorf("output EdgeUrl is not conditional on UseEdge")
	}
	rule := dig(m, "Rules", "EdgeNeedsUsEast1")
	if s := strings.ToLower(toJSON(rule)); !strings.Contains(s, "us-east-1") || !strings.Contains(s, "aws::region") {
		t.Errorf("no template rule holds the WAF stack to us-east-1: %v", rule)
	}
	acl := dig(m, "Resources", "EdgeWebAcl", "Properties")
	if dig(acl, "Scope") != "CLOUDFRONT" {
		t.Errorf("web ACL scope %v, want CLOUDFRONT", dig(acl, "Scope"))
	}
	rules, _ := dig(acl, "Rules").([]any)
	limits := map[string]bool{}
	for _, r := range rules {
		rb := dig(r, "Statement", "RateBasedStatement")
		if dig(rb, "AggregateKeyType") != "IP" || dig(r, "Action", "Block", "CustomResponse", "ResponseCode") != 429.0 {
			t.Errorf("rule %v: want a per-IP rate-based rule answering 429", dig(r, "Name"))
		}
		limits[toJSON(dig(rb, "Limit"))] = true
	}
	if !limits[toJSON(ref("PerClientRateLimit"))] || !limits[toJSON(ref("PerClientCreationRateLimit"))] || !limits[toJSON(ref("PerClientEntryRateLimit"))] {
		t.Errorf("web ACL rules limit %v, want PerClientRateLimit, PerClientCreationRateLimit and PerClientEntryRateLimit", limits)
	}
	// The scope-down paths: every "anyone" route counts as a creation, the
	// entries (E-1, no creation key) as entries, and nothing else.
	scoped := map[string]*regexp.Regexp{}
	for _, r := range rules {
		for _, st := range asList(dig(r, "Statement", "RateBasedStatement", "ScopeDownStatement", "AndStatement", "Statements")) {
			if re, ok := dig(st, "RegexMatchStatement", "RegexString").(string); ok {
				scoped[dig(r, "Name").(string)] = regexp.MustCompile(re)
			}
		}
	}
	for _, rt := range httpapi.Routes {
		if rt.Method != "POST" {
			continue
		}
		path := strings.NewReplacer("{tid}", "taaaaaaaaaaaaaaaa", "{fid}", "faaaaaaaaaaaaaaaa", "{pid}", "paaaaaaaaaaaaaaaa", "{gid}", "gaaaaaaaaaaaaaaaa", "{n}", "1", "{mid}", "maaaaaaaaaaaaaaaa", "{oid}", "oaaaaaaaaaaaaaaaa").Replace(rt.Path)
		if got, want := scoped["per-client-creations"].MatchString(path), rt.Who.Has(httpapi.RoleAnyone); got != want {
			t.Errorf("POST %s: counted as a creation %v, want %v", rt.Path, got, want)
		}
		if got, want := scoped["per-client-entries"].MatchString(path), rt.Who.Has(httpapi.RoleEntrant); got != want {
			t.Errorf("POST %s: counted as an entry %v, want %v", rt.Path, got, want)
		}
	}
	dist := dig(m, "Resources", "Edge", "Properties", "DistributionConfig")
	if g := toJSON(dig(dist, "WebACLId")); g != `{"Fn::GetAtt":"EdgeWebAcl.Arn"}` && g != `{"Fn::GetAtt":["EdgeWebAcl","Arn"]}` {
		t.Errorf("distribution WebACLId %v, want the web ACL", dig(dist, "WebACLId"))
	}
	origin := dig(dist, "Origins").([]any)[0]
	if h := dig(origin, "OriginCustomHeaders").([]any)[0]; dig(h, "HeaderName") != httpapi.OriginHeader {
		t.Errorf("origin header %v, want %s", dig(h, "HeaderName"), httpapi.OriginHeader)
	}
	if !strings.Contains(toJSON(dig(origin, "DomainName")), "${"+deploy.ApiID+"}.execute-api") {
		t.Errorf("origin %v is not the HTTP API", dig(origin, "DomainName"))
	}
	headers := toJSON(dig(m, "Resources", "EdgeCachePolicy", "Properties", "CachePolicyConfig", "ParametersInCacheKeyAndForwardedToOrigin", "HeadersConfig"))
	if !strings.Contains(headers, "Authorization") {
		t.Errorf("the cache policy does not forward Authorization: %s", headers)
	}
	if dig(m, "Resources", "EdgeCachePolicy", "Properties", "CachePolicyConfig", "DefaultTTL") != 0.0 {
		t.Errorf("the cache policy caches what the API did not allow")
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// goformation reads the edge resources as their CloudFormation types.
func TestTemplate_EdgeResourcesTyped(t *testing.T) {
	tpl := typed(t)
	acl, err := tpl.GetWAFv2WebACLWithName("EdgeWebAcl")
	if err != nil {
		t.Fatal(err)
	}
	if acl.Scope != "CLOUDFRONT" || len(acl.Rules) != 3 {
		t.Errorf("web ACL: scope %s, %d rules; want CLOUDFRONT and the three per-client rules (requests, creations, entries)", acl.Scope, len(acl.Rules))
	}
	dist, err := tpl.GetCloudFrontDistributionWithName("Edge")
	if err != nil {
		t.Fatal(err)
	}
	if b := dist.DistributionConfig.DefaultCacheBehavior; b == nil || b.ViewerProtocolPolicy != "https-only" || !slices.Contains(b.AllowedMethods, "POST") {
		t.Errorf("distribution default behaviour %+v: want https-only and POST forwarded", b)
	}
	if _, err := tpl.GetCloudFrontCachePolicyWithName("EdgeCachePolicy"); err != nil {
		t.Error(err)
	}
}
