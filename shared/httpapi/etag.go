package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
)

// cacheSettled is the Cache-Control of a public read of something that
// changes only by a correction: a complete round's pairings and results, a
// table after a complete round asked for by number. Browsers keep it a
// minute, a CDN five; both revalidate with the ETag after that.
const cacheSettled = "public, max-age=60, s-maxage=300"

// settled marks the response as cacheSettled when ok.
func (c *call) settled(ok bool) {
	if ok {
		c.cache = cacheSettled
	}
}

// encodeBody is the body respond writes for resp, and its Content-Type.
func encodeBody(resp any) ([]byte, string) {
	if rb, ok := resp.(raw); ok {
		return rb.data, rb.contentType
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(resp)
	return buf.Bytes(), "application/json"
}

// etagOf is a strong entity tag of a body: the same bytes, the same tag.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// notModified reports whether the request's If-None-Match names etag (or
// is "*"): the client's copy is current and a 304 answers it (RFC 9110
// 13.1.2, weak comparison).
func notModified(r *http.Request, etag string) bool {
	for _, h := range r.Header.Values("If-None-Match") {
		for tag := range strings.SplitSeq(h, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == etag {
				return true
			}
		}
	}
	return false
}

// writeCacheable writes a public GET's 200: with its ETag, or a bodiless
// 304 when the client already holds that version.
func writeCacheable(w http.ResponseWriter, r *http.Request, status int, resp any) int {
	if rb, ok := resp.(raw); ok && rb.next != nil {
		w.Header().Set("Link", "<"+*rb.next+`>; rel="next"`)
	}
	body, contentType := encodeBody(resp)
	etag := etagOf(body)
	w.Header().Set("ETag", etag)
	if notModified(r, etag) {
		w.WriteHeader(http.StatusNotModified)
		return http.StatusNotModified
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_, _ = w.Write(body)
	return status
}
