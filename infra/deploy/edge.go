package deploy

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/httpapi"
)

// Markers delimit the generated edge (CloudFront) cache policies and the
// distribution's cache behaviours inside template.yaml.
const (
	EdgePoliciesBegin   = "  # BEGIN edge cache policies generated from httpapi.Routes by `make template`; do not edit by hand"
	EdgePoliciesEnd     = "  # END edge cache policies generated from httpapi.Routes"
	EdgeBehavioursBegin = "        # BEGIN edge cache behaviours generated from httpapi.Routes by `make template`; do not edit by hand"
	EdgeBehavioursEnd   = "        # END edge cache behaviours generated from httpapi.Routes"
)

// EdgeCachePolicyID is the distribution's default cache policy: its key
// holds no query string, since the routes it serves (pages, the rules, the
// documents) read none.
const EdgeCachePolicyID = "EdgeCachePolicy"

// MaxCacheKeyQueryStrings is CloudFront's quota of query strings one cache
// policy may name (a default quota; the template stays inside it).
const MaxCacheKeyQueryStrings = 10

// allViewerExceptHost is the managed origin request policy
// AllViewerExceptHostHeader: every header but Host (Content-Type,
// Idempotency-Key, X-Creation-Key) and every query string reach the API, so
// an unknown parameter is answered by the API's 400 (never cached: errors are no-store).
const allViewerExceptHost = "b689b0a8-53d0-40ab-baf2-68738e2966ac"

// EdgeCacheGroup is one cache behaviour of the distribution: a path pattern
// and the query strings its cache policy keys on — the union of what the
// public GET routes under it take (httpapi.Route.Query). A query string no
// route takes is in no key, so ?x=<n> cannot make a public read miss the cache.
type EdgeCacheGroup struct {
	PathPattern string
	PolicyID    string
	Query       []string
}

// EdgeCacheGroups groups the public GET routes that take query strings by
// their first path segment (/tournaments/*, /games/*). It fails when a group
// would name more query strings than a cache policy may.
func EdgeCacheGroups() ([]EdgeCacheGroup, error) {
	bySegment := map[string][]string{}
	var order []string
	for _, rt := range httpapi.Routes {
		if rt.Method != "GET" || !rt.Who.Has(httpapi.RolePublic) || len(rt.Query()) == 0 {
			continue
		}
		seg := strings.SplitN(strings.TrimPrefix(rt.Path, "/"), "/", 2)[0]
		if _, ok := bySegment[seg]; !ok {
			order = append(order, seg)
		}
		for _, q := range rt.Query() {
			if !slices.Contains(bySegment[seg], q) {
				bySegment[seg] = append(bySegment[seg], q)
			}
		}
	}
	out := make([]EdgeCacheGroup, 0, len(order))
	for _, seg := range order {
		q := bySegment[seg]
		slices.Sort(q)
		if len(q) > MaxCacheKeyQueryStrings {
			return nil, fmt.Errorf("routes under /%s take %d query strings; a CloudFront cache policy keys on at most %d", seg, len(q), MaxCacheKeyQueryStrings)
		}
		out = append(out, EdgeCacheGroup{PathPattern: "/" + seg + "/*", PolicyID: EdgeCachePolicyID + camel(seg), Query: q})
	}
	return out, nil
}

// cachePolicyYAML renders one cache policy: the API's Cache-Control decides
// (DefaultTTL 0), keyed on Authorization, Accept-Language and query.
func cachePolicyYAML(b *bytes.Buffer, id, name string, query []string) {
	fmt.Fprintf(b, "  %s:\n", id)
	b.WriteString("    Type: AWS::CloudFront::CachePolicy\n    Condition: UseEdge\n    Properties:\n      CachePolicyConfig:\n")
	fmt.Fprintf(b, "        Name: !Sub \"${AWS::StackName}-%s\"\n", name)
	b.WriteString("        Comment: The API's own Cache-Control decides (public GETs a few seconds, everything else no-store)\n")
	b.WriteString("        MinTTL: 0\n        DefaultTTL: 0\n        MaxTTL: 300\n")
	b.WriteString("        ParametersInCacheKeyAndForwardedToOrigin:\n")
	b.WriteString("          EnableAcceptEncodingGzip: true\n          EnableAcceptEncodingBrotli: true\n")
	b.WriteString("          # Authorization must be in the key to reach the API at all.\n")
	b.WriteString("          HeadersConfig:\n            HeaderBehavior: whitelist\n            Headers: [Authorization, Accept-Language]\n")
	b.WriteString("          CookiesConfig: {CookieBehavior: none}\n")
	if len(query) == 0 {
		b.WriteString("          QueryStringsConfig: {QueryStringBehavior: none}\n")
		return
	}
	b.WriteString("          QueryStringsConfig:\n            QueryStringBehavior: whitelist\n")
	fmt.Fprintf(b, "            QueryStrings: [%s]\n", strings.Join(query, ", "))
}

// EdgePoliciesYAML renders the generated cache policies: the default one and one per EdgeCacheGroup.
func EdgePoliciesYAML() ([]byte, error) {
	groups, err := EdgeCacheGroups()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(EdgePoliciesBegin + "\n")
	cachePolicyYAML(&b, EdgeCachePolicyID, "xqtour-api", nil)
	for _, g := range groups {
		b.WriteString("\n")
		cachePolicyYAML(&b, g.PolicyID, "xqtour-api-"+strings.Trim(strings.TrimSuffix(g.PathPattern, "*"), "/"), g.Query)
	}
	b.WriteString(EdgePoliciesEnd + "\n")
	return b.Bytes(), nil
}

// EdgeBehavioursYAML renders the distribution's CacheBehaviors: one per
// EdgeCacheGroup, otherwise as the default behaviour.
func EdgeBehavioursYAML() ([]byte, error) {
	groups, err := EdgeCacheGroups()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(EdgeBehavioursBegin + "\n")
	b.WriteString("        CacheBehaviors:\n")
	for _, g := range groups {
		fmt.Fprintf(&b, "          - PathPattern: %s\n", g.PathPattern)
		b.WriteString("            TargetOriginId: api\n            ViewerProtocolPolicy: https-only\n")
		b.WriteString("            AllowedMethods: [GET, HEAD, OPTIONS, PUT, PATCH, POST, DELETE]\n            CachedMethods: [GET, HEAD]\n            Compress: true\n")
		fmt.Fprintf(&b, "            CachePolicyId: !Ref %s\n", g.PolicyID)
		fmt.Fprintf(&b, "            OriginRequestPolicyId: %s\n", allViewerExceptHost)
	}
	b.WriteString(EdgeBehavioursEnd + "\n")
	return b.Bytes(), nil
}

// replaceBlock returns template with the lines from begin to end (markers
// included) replaced by block.
func replaceBlock(template []byte, begin, end string, block []byte) ([]byte, error) {
	i := bytes.Index(template, []byte(begin+"\n"))
	j := bytes.Index(template, []byte(end+"\n"))
	if i < 0 || j < i {
		return nil, fmt.Errorf("template: the markers %q … %q are missing or out of order", strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	return slices.Concat(template[:i], block, template[j+len(end)+1:]), nil
}
