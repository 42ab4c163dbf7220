package httpapi

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	qrcode "github.com/skip2/go-qrcode"
)

// Limits of POST /tournaments/{tid}/qr: a slip sheet for the largest event
// the console prints in one go (every player and every scribe's table), and
// links far longer than the event page's own (about 120 bytes), so a QR code
// stays readable on a printed slip (version ≤ 20 at level M).
const (
	maxQRTexts    = 600
	maxQRTextSize = 400
)

// qrIn is the body of POST /tournaments/{tid}/qr.
type qrIn struct {
	Texts []string `json:"texts"`
}

// POST /tournaments/{tid}/qr — organiser: QR codes (SVG) of the link slips
// the console prints. The links carry tokens, so the codes are made here,
// for the event's organiser only, and never cached or logged; the encoding
// is go-qrcode's (level M, its quiet zone of four modules), the SVG one
// path of dark modules, so a slip prints sharp at any size.
func (a *API) qrCodes(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	var in qrIn
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	if _, _, err := a.organiserEvent(c, tid); err != nil {
		return 0, nil, err
	}
	switch {
	case len(in.Texts) == 0:
		return 0, nil, badRequest("invalid_field", "texts: want 1 to 600 texts to encode")
	case len(in.Texts) > maxQRTexts:
		return 0, nil, badRequest("invalid_field", fmt.Sprintf("texts: %d texts; at most %d a request", len(in.Texts), maxQRTexts))
	}
	for i, s := range in.Texts {
		if s == "" || len(s) > maxQRTextSize || !utf8.ValidString(s) {
			return 0, nil, badRequest("invalid_field", fmt.Sprintf("texts[%d]: want 1 to %d bytes of UTF-8", i, maxQRTextSize))
		}
	}
	out := make([]string, len(in.Texts))
	for i, s := range in.Texts {
		q, err := qrcode.New(s, qrcode.Medium)
		if err != nil {
			return 0, nil, badRequest("invalid_field", fmt.Sprintf("texts[%d]: %v", i, err))
		}
		out[i] = qrSVG(q.Bitmap())
	}
	return http.StatusOK, map[string]any{"svgs": out}, nil
}

// qrSVG draws a QR bitmap (true = dark, quiet zone included) as an SVG of
// one path, a run of dark modules per segment, in module units.
func qrSVG(bm [][]bool) string {
	n := len(bm)
	var d strings.Builder
	for y, row := range bm {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			fmt.Fprintf(&d, "M%d %dh%dv1h-%dz", start, y, x-start, x-start)
		}
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="%s"/></svg>`, n, n, n, n, d.String())
}

// linkQR is a QR code of link as an SVG data URL, for a page to show at
// once (the entry page's "keep your link"), drawn by qrSVG. "" when link
// cannot be encoded.
func linkQR(link string) string {
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		return ""
	}
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(qrSVG(q.Bitmap())))
}

// browserOrigin is the web origin a browser's request came from (its
// Origin header), or "" for a client that sends none (curl, scripts): the
// link a QR code holds must open the page the entrant is on.
func browserOrigin(c *call) string {
	o := c.r.Header.Get("Origin")
	u, err := url.Parse(o)
	if o == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
