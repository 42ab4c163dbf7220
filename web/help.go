package web

import (
	"embed"
	"net/http"
	"strings"
)

// The handbooks at /help: the organiser's and the arbiter's, in Chinese and
// English, as plain HTML pages (no script), so they print and read on any
// device, and stay readable when the app itself does not load. They share
// the app's style sheet, under its fingerprinted name.
//
//go:embed help
var helpFS embed.FS

// helpPages are the handbooks /help/{name} serves, by name.
var helpPages = []string{"organiser.zh", "organiser.en", "arbiter.zh", "arbiter.en"}

// helpCSP admits the style sheet and nothing else: the pages run no script.
const helpCSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// loadHelp reads the handbooks and points their asset URLs at the
// fingerprinted names.
func (h *Handler) loadHelp() error {
	h.help = map[string][]byte{}
	for _, name := range append([]string{"index"}, helpPages...) {
		body, err := helpFS.ReadFile("help/" + name + ".html")
		if err != nil {
			return err
		}
		h.help[name] = h.rewrite(body, shellURL)
	}
	return nil
}

// serveHelp answers /help (the index) and /help/{name} (one handbook).
func (h *Handler) serveHelp(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(r.PathValue("name"), ".html")
	if name == "" {
		name = "index"
	}
	body, ok := h.help[name]
	if !ok {
		notFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Content-Security-Policy", helpCSP)
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
