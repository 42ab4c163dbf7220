package httpapi

import (
	"net"
	"net/http"
	"strings"
)

// viewerAddressHeader is where CloudFront names the viewer's address
// (ip:port) for the origin; behind it, the connection's address is CloudFront's.
const viewerAddressHeader = "CloudFront-Viewer-Address"

// anonymousCaller names a caller without a token for the scope of its
// Idempotency-Key: its address. Two strangers who hold the same key (one
// saw it in a log, a proxy) are not one caller, so the second is never
// replayed the first's answer — an organiser's or seats' tokens; its
// request is served afresh. A client retrying from another address (a phone
// that changed networks) is served afresh too: it gets an event of its own,
// and the first, never used, expires with the retention of unpaired events.
// Behind CloudFront (the origin secret set, so every request came through
// it) the viewer's address is CloudFront's header; otherwise the connection's.
func (a *API) anonymousCaller(r *http.Request) string {
	addr := r.RemoteAddr
	if v := r.Header.Get(viewerAddressHeader); a.originSecret != "" && v != "" {
		addr = v
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	} else if i := strings.LastIndexByte(addr, ':'); i > 0 && strings.Count(addr, ":") > 1 {
		addr = addr[:i] // CloudFront writes an IPv6 viewer as 2001:db8::1:443, unbracketed
	}
	return "anonymous " + addr
}
