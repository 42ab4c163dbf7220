package web_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/web"
)

// The service worker is served at its plain URL with the whole site as its
// allowed scope, revalidated (a browser checks it for updates), and names
// every fingerprinted asset the shell uses, each of which is served: so a
// page visited once has everything it needs offline. The shell links the
// web app manifest.
func TestServiceWorker_CachesEveryAsset(t *testing.T) {
	h := newHandler(t, web.Options{})
	res, body := get(t, h, "/assets/sw.js")
	if res.StatusCode != http.StatusOK || res.Header.Get("Service-Worker-Allowed") != "/" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("GET /assets/sw.js: %d, Service-Worker-Allowed %q, Cache-Control %q", res.StatusCode, res.Header.Get("Service-Worker-Allowed"), res.Header.Get("Cache-Control"))
	}
	m := regexp.MustCompile(`(?m)^self\.XQ_VERSION = "([0-9a-f]{10})";\nself\.XQ_ASSETS = (\[.*\]);$`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("sw.js does not start with its version and asset list:\n%.300s", body)
	}
	var assets []string
	if err := json.Unmarshal([]byte(m[2]), &assets); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, a := range assets {
		listed[a] = true
		if r, _ := get(t, h, a); r.StatusCode != http.StatusOK {
			t.Errorf("listed asset %s: %d", a, r.StatusCode)
		}
		if strings.Contains(a, "/sw.") {
			t.Errorf("the worker lists itself: %s", a)
		}
	}
	_, shell := get(t, h, "/g/g1")
	for _, name := range []string{"app.js", "style.css", "board.css", "sheet.css", "core/sync.js", "pages/game/page.js", "pages/scoresheet/sheet.js", "manifest.webmanifest"} {
		if u := h.AssetURL(name); u == "" || !listed[u] {
			t.Errorf("%s (%s) is not cached by the worker", name, u)
		}
	}
	if !strings.Contains(shell, `<link rel="manifest" href="`+h.AssetURL("manifest.webmanifest")+`">`) {
		t.Error("the shell does not link the fingerprinted manifest")
	}
	if h.HasEngine() && !listed[h.AssetURL("xiangqi.wasm")] {
		t.Error("the rules engine is not cached by the worker")
	}
	res, mf := get(t, h, h.AssetURL("manifest.webmanifest"))
	var manifest struct{ Scope, Display string }
	if err := json.Unmarshal([]byte(mf), &manifest); err != nil || res.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %v, %s", err, res.Header.Get("Content-Type"))
	}
	if manifest.Scope != "/" || manifest.Display != "standalone" {
		t.Errorf("manifest: %+v", manifest)
	}
}
