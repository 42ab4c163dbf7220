package web_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/web"
)

func newHandler(t *testing.T, opts web.Options) *web.Handler {
	t.Helper()
	h, err := web.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func get(t *testing.T, h http.Handler, p string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, p, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

var (
	importMapRe = regexp.MustCompile(`<script type="importmap">(.*?)</script>`)
	assetRefRe  = regexp.MustCompile(`/assets/([A-Za-z0-9._-]+)`)
)

// Every page URL answers the same shell: HTML, never cached without
// revalidation, with nosniff and a CSP whose script hash is exactly the
// shell's inline import map (and nothing else inline runs).
func TestShell_EveryPageSameShellWithHeaders(t *testing.T) {
	h := newHandler(t, web.Options{})
	var first string
	for _, p := range []string{"/", "/t/tabc", "/g/gxyz"} {
		res, body := get(t, h, p)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", p, res.StatusCode)
		}
		if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", p, ct)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", p, cc)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", p)
		}
		if first == "" {
			first = body
		} else if body != first {
			t.Errorf("%s: a different shell", p)
		}
		csp := res.Header.Get("Content-Security-Policy")
		m := importMapRe.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no import map in the shell", p)
		}
		sum := sha256.Sum256([]byte(m[1]))
		if !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
			t.Errorf("%s: the CSP does not allow the import map: %s", p, csp)
		}
		// Quoted, as CSP writes them: 'wasm-unsafe-eval' (WebAssembly only) is wanted.
		for _, bad := range []string{"'unsafe-inline'", "'unsafe-eval'", "*"} {
			if strings.Contains(csp, bad) {
				t.Errorf("%s: CSP allows %s: %s", p, bad, csp)
			}
		}
		for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "'wasm-unsafe-eval'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP lacks %s", p, want)
			}
		}
	}
}

// The shell names only fingerprinted assets, each served under that name with
// the year-long immutable cache, its content type, and a name whose hash is
// the SHA-256 of what is served.
func TestAssets_FingerprintedImmutableAndHashMatches(t *testing.T) {
	h := newHandler(t, web.Options{})
	_, shell := get(t, h, "/")
	// The import map's keys are plain names by design; everything else is fingerprinted.
	refs := assetRefRe.FindAllStringSubmatch(importMapRe.ReplaceAllString(shell, ""), -1)
	if len(refs) < 3 {
		t.Fatalf("the shell names %d assets; want the stylesheet, the app module and the icon at least", len(refs))
	}
	hashed := regexp.MustCompile(`^(.+)\.([0-9a-f]{10})(\.[a-z0-9]+)$`)
	for _, r := range refs {
		name := r[1]
		m := hashed.FindStringSubmatch(name)
		if m == nil {
			t.Errorf("the shell names %s, which is not fingerprinted", name)
			continue
		}
		res, body := get(t, h, "/assets/"+name)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", name, res.StatusCode)
			continue
		}
		if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", name, cc)
		}
		sum := sha256.Sum256([]byte(body))
		if hex.EncodeToString(sum[:])[:10] != m[2] {
			t.Errorf("%s: the name's hash is not the content's", name)
		}
		if res.Header.Get("Content-Type") == "" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", name, res.Header)
		}
		// A revalidation with the ETag is answered 304 without the body.
		if res2, b2 := get(t, h, "/assets/"+name, "If-None-Match", res.Header.Get("ETag")); res2.StatusCode != http.StatusNotModified || b2 != "" {
			t.Errorf("%s: If-None-Match gave %d", name, res2.StatusCode)
		}
	}
	if h.AssetURL("app.js") == "" || !strings.Contains(shell, h.AssetURL("app.js")) {
		t.Errorf("the shell does not load %q", h.AssetURL("app.js"))
	}
}

// A module fetched by its plain name (./core/http.js from a browser without import
// maps) is served too, but always revalidated; unknown assets and paths are
// the API's JSON 404.
func TestAssets_PlainNamesRevalidatedUnknown404(t *testing.T) {
	h := newHandler(t, web.Options{})
	res, body := get(t, h, "/assets/core/http.js")
	if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != "no-cache" ||
		res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || !strings.Contains(body, "export class ApiError") {
		t.Errorf("plain core/http.js: %d %v", res.StatusCode, res.Header)
	}
	for _, p := range []string{"/assets/nope.js", "/assets/web.go", "/nowhere", "/t/", "/t/a/b", "/assets/index.html"} {
		res, body := get(t, h, p)
		if res.StatusCode != http.StatusNotFound || !strings.Contains(body, `"code":"not_found"`) || res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %s", p, res.StatusCode, body)
		}
	}
}

// The import map sends every module's plain URL to its fingerprinted one, and
// every relative import in every module names an embedded module, so no page
// can fail on a missing or misspelt import.
func TestModules_ImportsResolveThroughTheImportMap(t *testing.T) {
	// engine.js imports the engine's wasm_exec.js, which a clean clone has not built.
	h := newHandler(t, web.Options{Engine: standInEngine})
	_, shell := get(t, h, "/")
	imap := importMapRe.FindStringSubmatch(shell)[1]
	static := os.DirFS("static")
	imp := regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\./[^'"]+)['"]`)
	n := 0
	err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".js" {
			return err
		}
		n++
		if !strings.Contains(imap, `"/assets/`+p+`":"`+h.AssetURL(p)+`"`) {
			t.Errorf("the import map lacks %s → %s", p, h.AssetURL(p))
		}
		src, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		for _, m := range imp.FindAllStringSubmatch(string(src), -1) {
			target := path.Join(path.Dir(p), m[1])
			if h.AssetURL(target) == "" {
				t.Errorf("%s imports %s, which is not embedded", p, m[1])
			}
		}
		return nil
	})
	if err != nil || n < 4 {
		t.Fatalf("walked %d modules: %v", n, err)
	}
}

// WEBSOCKET_URL reaches the page (meta xqtour-ws) and the CSP allows it;
// without it the page uses the same origin's /ws; a URL that is not ws(s) is refused.
func TestShell_WebSocketURL(t *testing.T) {
	h := newHandler(t, web.Options{WebSocketURL: "wss://abc.execute-api.eu-west-1.amazonaws.com/prod"})
	res, body := get(t, h, "/")
	if !strings.Contains(body, `<meta name="xqtour-ws" content="wss://abc.execute-api.eu-west-1.amazonaws.com/prod">`) {
		t.Errorf("the shell does not name the socket")
	}
	if !strings.Contains(res.Header.Get("Content-Security-Policy"), "connect-src 'self' wss://abc.execute-api.eu-west-1.amazonaws.com") {
		t.Errorf("CSP: %s", res.Header.Get("Content-Security-Policy"))
	}
	_, local := get(t, newHandler(t, web.Options{}), "/")
	if !strings.Contains(local, `<meta name="xqtour-ws" content="/ws">`) {
		t.Errorf("the local shell does not default to /ws")
	}
	for _, bad := range []string{"https://x.example", "wss://", "javascript:alert(1)"} {
		if _, err := web.New(web.Options{WebSocketURL: bad}); err == nil {
			t.Errorf("WebSocket URL %q accepted", bad)
		}
	}
}

// The Web function's routes in httpapi.Routes (what template.yaml deploys)
// are exactly the routes this handler serves.
func TestRoutes_MatchTheRouteTable(t *testing.T) {
	h := newHandler(t, web.Options{})
	n := 0
	for _, rt := range httpapi.Routes {
		if rt.Function != httpapi.FnWeb {
			continue
		}
		n++
		p := strings.NewReplacer("{tid}", "tabc", "{gid}", "gabc", "{name...}", "app.js", "{name}", "organiser.zh").Replace(rt.Path)
		if res, _ := get(t, h, p); res.StatusCode != http.StatusOK {
			t.Errorf("%s %s (%s): %d", rt.Method, rt.Path, p, res.StatusCode)
		}
	}
	if n != len(web.Routes) {
		t.Errorf("httpapi.Routes gives Web %d routes, web.Routes has %d", n, len(web.Routes))
	}
}

// The API mounts the pages with WithPages, and the page routes do not swallow
// unknown API paths (they stay the API's JSON 404).
func TestRoutes_MountedInTheAPI(t *testing.T) {
	h := newHandler(t, web.Options{})
	api := httpapi.New(nil, httpapi.WithPages(h)).Handler()
	if res, body := get(t, api, "/t/tabc"); res.StatusCode != http.StatusOK || !strings.Contains(body, "<!doctype html>") {
		t.Errorf("/t/tabc through the API: %d", res.StatusCode)
	}
	if res, body := get(t, api, "/no/such/route"); res.StatusCode != http.StatusNotFound || !strings.Contains(body, `"not_found"`) {
		t.Errorf("unknown path: %d %s", res.StatusCode, body)
	}
}
