package httpapi

import (
	"net/http"
	"testing"
)

// The caller an anonymous Idempotency-Key is scoped to: the connection's
// address without its port, or behind CloudFront (the origin secret set)
// the viewer's address CloudFront names; a client's own header is not
// believed where CloudFront is not in front.
func TestAnonymousCaller(t *testing.T) {
	open, behind := &API{}, &API{originSecret: "s"}
	for _, c := range []struct {
		a          *API
		remote, cf string
		want       string
	}{
		{open, "192.0.2.7:51000", "", "192.0.2.7"},
		{open, "[2001:db8::1]:443", "", "2001:db8::1"},
		{open, "192.0.2.7:51000", "198.51.100.1:1234", "192.0.2.7"},
		{behind, "130.176.0.1:443", "198.51.100.1:1234", "198.51.100.1"},
		{behind, "130.176.0.1:443", "2001:db8::5:4711", "2001:db8::5"},
		{behind, "130.176.0.1:443", "", "130.176.0.1"},
	} {
		r := &http.Request{RemoteAddr: c.remote, Header: http.Header{}}
		if c.cf != "" {
			r.Header.Set(viewerAddressHeader, c.cf)
		}
		if got := c.a.anonymousCaller(r); got != "anonymous "+c.want {
			t.Errorf("remote %s, viewer %q: %q, want %q", c.remote, c.cf, got, c.want)
		}
	}
}
