package httpapi

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// routeQueries are the query parameters each GET route reads (a route not
// listed reads none). Any other parameter is 400 unknown_query, naming the
// ones the route takes: an unread ?x=<n> would otherwise make every public
// read a new cache key, past CloudFront to the event's read (infra/deploy
// keys the edge cache on these and no others), and a misspelt ?rund=2
// would answer for the wrong round without a word. The OpenAPI document
// lists exactly these (a test holds them equal).
var routeQueries = map[string][]string{
	"GET /games/{gid}":                  {"since", "notation", "script"},
	"GET /games/{gid}/record":           {"format", "script"},
	"GET /tournaments/{tid}/rounds/{n}": {"explain", "format", "offset", "limit"},
	"GET /tournaments/{tid}/players":    {"offset", "limit"},
	"GET /tournaments/{tid}/standings":  {"round", "live", "view", "group", "format", "offset", "limit"},
	"GET /tournaments/{tid}/crosstable": {"round", "live", "group", "format", "offset", "limit"},
	"GET /tournaments/{tid}/games":      {"round", "format", "offset", "limit"},
	"GET /tournaments/{tid}/ratings":    {"round", "live", "format"},
	"GET /tournaments/{tid}/export":     {"limit", "after"},
	"GET /tournaments/{tid}/discipline": {"round", "offset", "limit"},
}

// Query is the query parameters the route takes, sorted; nil when it takes
// none. The web client's pages (FnWeb) read theirs in the browser.
func (rt Route) Query() []string {
	q := slices.Clone(routeQueries[rt.Method+" "+rt.Path])
	slices.Sort(q)
	return q
}

// checkQuery refuses a GET whose query names a parameter the route does not
// take, or one parameter twice (?round=1&round=2: this edge reads the
// first, a cache or a log may read the other).
func checkQuery(r *http.Request, rt Route) error {
	if rt.Method != http.MethodGet || r.URL.RawQuery == "" {
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return badRequest("invalid_query", "the query string is malformed: "+err.Error())
	}
	allowed := rt.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(allowed, name) {
			takes := "takes no query parameters"
			if len(allowed) > 0 {
				takes = "takes " + strings.Join(allowed, ", ")
			}
			return badRequest("unknown_query", "unknown query parameter "+quote(name)+": "+rt.Method+" "+rt.Path+" "+takes)
		}
		if len(q[name]) > 1 {
			return badRequest("invalid_query", name+": give it once, not "+strconv.Itoa(len(q[name]))+" times")
		}
	}
	return nil
}
