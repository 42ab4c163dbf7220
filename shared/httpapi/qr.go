package httpapi

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// linkQR is a QR code of link as an SVG data URL, for a page to show at
// once (the entry page's "keep your link"): one path of the dark modules,
// about a kilobyte, drawn crisp at any size. "" when link cannot be encoded.
func linkQR(link string) string {
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		return ""
	}
	bits := q.Bitmap() // with its quiet zone
	var path strings.Builder
	for y, row := range bits {
		for x, dark := range row {
			if dark {
				fmt.Fprintf(&path, "M%d %dh1v1h-1z", x, y)
			}
		}
	}
	n := len(bits)
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path d="%s" fill="#000"/></svg>`, n, n, n, n, path.String())
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg))
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
