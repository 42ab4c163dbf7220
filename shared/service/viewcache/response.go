package viewcache

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
)

// Response views: a public read with no table view of its own keeps its
// whole answer (WholeBuild) under a name its route and query make
// (ResponseKey), with what to answer besides the body (ResponseHead).

// MaxKeptPages bounds the pages of one table kept as response views (a
// page past the table's end answers 200 too): 100,000 rows of 1,000, more
// than the 55,000 games of an 11-round, 10,000-player event.
const MaxKeptPages = 100

// ResponseHead is a response view's head: what to answer besides the body.
type ResponseHead struct {
	ContentType string  `json:"contentType"`
	Next        *string `json:"next,omitempty"`
	Cache       string  `json:"cache,omitempty"`
	// Until is when the answer may change with the clock alone (ms; 0: never).
	Until int64 `json:"until,omitempty"`
}

// ResponseKey is the response view of route kind for a request whose query
// is q, or false when the request is not one a view keeps. The view is
// named by the query as the route reads it (the parameters names, in their
// order, numbers written one way, so ?round=01 and ?round=1 share one) and
// by lang, the language a round's explanations are written in. A page
// other than one a `next` link names (offset a multiple of pageRows, the
// route's default page, no other limit, within MaxKeptPages) is not kept,
// so what a stranger can make the views hold is bounded.
func ResponseKey(kind string, q url.Values, names []string, lang string, pageRows int) (string, bool) {
	if s := q.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n%pageRows != 0 || n/pageRows >= MaxKeptPages {
			return "", false
		}
	}
	if s := q.Get("limit"); s != "" && s != strconv.Itoa(pageRows) {
		return "", false
	}
	var key strings.Builder
	for _, name := range names {
		v, ok := q[name]
		if !ok {
			continue
		}
		val := v[0]
		if n, err := strconv.Atoi(val); err == nil {
			val = strconv.Itoa(n)
		}
		key.WriteString(name + "=" + val + "&")
	}
	key.WriteString("lang=" + lang)
	return ResponseName(kind, key.String()), true
}

// Response is the answer response view v keeps, with its head, when it may
// be served at now: current (Current), of a head this build reads, before
// the instant its answer changes with the clock alone (Until), and whole.
// A view that is not is no answer (ok false): it is rebuilt.
func (v *View) Response(ctx context.Context, now int64) (head ResponseHead, body []byte, ok bool, err error) {
	if !v.Current(now) {
		return head, nil, false, nil
	}
	if err := v.Head(&head); err != nil {
		return head, nil, false, nil // a head of another shape: rebuilt
	}
	if head.Until != 0 && now >= head.Until {
		return head, nil, false, nil
	}
	body, err = v.Whole(ctx)
	if errors.Is(err, ErrGone) {
		return head, nil, false, nil // replaced meanwhile, or expired: rebuilt
	}
	if err != nil {
		return head, nil, false, err
	}
	return head, body, true, nil
}
