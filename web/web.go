// Package web serves xqtour's web client: plain ES modules, CSS and images
// embedded from static/, with no bundler and no build step. Every page URL
// (/, /t/{tid}, /t/{tid}/live, /g/{gid}) answers the same HTML shell, and the client's router
// draws the page. Assets are fingerprinted when the package starts:
// /assets/<name>.<sha256 prefix>.<ext> is served with a year-long immutable
// cache, while the shell (no-cache) names those fingerprinted URLs, and an
// import map in the shell sends every module import (./api.js) to its
// fingerprinted URL, so a deploy never mixes old and new modules. The one
// file that is built is the browser's rules engine (engine.go): Go code
// compiled to WebAssembly by go generate, embedded from engine/.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
)

//go:embed static
var static embed.FS

// Routes are the page and asset routes the handler serves, as Go 1.22
// ServeMux patterns (the deployed HTTP API routes them to the Web function).
var Routes = []string{"GET /{$}", "GET /t/{tid}", "GET /t/{tid}/live", "GET /g/{gid}", "GET /assets/{name...}", "GET /t/{tid}/enter", "GET /f/{fid}", "GET /help", "GET /help/{name}"}

// Options configure the handler.
type Options struct {
	// WebSocketURL is the live-updates socket the pages connect to
	// (wss://…); empty means the same origin's /ws, as `make run` serves it.
	WebSocketURL string
	// Engine holds the browser's rules engine, xiangqi.wasm and
	// wasm_exec.js; nil means the files web/engine held when the package
	// was compiled (go generate ./web writes them). Without them the
	// engine is not served.
	Engine fs.FS
}

type asset struct {
	body        []byte
	contentType string
	hashed      string // the fingerprinted name, e.g. app.1a2b3c4d5e.js
	gzip        []byte // body gzipped at build time (the engine's .wasm), or nil
}

// Handler serves the web client.
type Handler struct {
	assets map[string]*asset // by plain name and by fingerprinted name
	shell  []byte
	csp    string
	help   map[string][]byte // the handbooks by name (help.go)
	mux    *http.ServeMux
}

// immutable is the cache policy of fingerprinted assets: their URL changes
// whenever their content does.
const immutable = "public, max-age=31536000, immutable"

// hashLen is how many hex digits of the SHA-256 of an asset its name carries.
const hashLen = 10

// New fingerprints the embedded assets and renders the shell. It fails when
// opts.WebSocketURL is not a ws:// or wss:// URL, or when the embedded files
// are inconsistent (a bug the package's tests catch).
func New(opts Options) (*Handler, error) {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	h := &Handler{assets: map[string]*asset{}}
	var names []string
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "index.html" || p == serviceWorker {
			return err
		}
		names = append(names, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		body, err := fs.ReadFile(sub, name)
		if err != nil {
			return nil, err
		}
		h.addAsset(name, body)
	}
	if err := h.addEngine(opts.Engine); err != nil {
		return nil, err
	}
	if err := h.addServiceWorker(sub); err != nil {
		return nil, err
	}
	page, err := fs.ReadFile(sub, "index.html")
	if err != nil {
		return nil, err
	}
	if err := h.renderShell(page, opts); err != nil {
		return nil, err
	}
	if err := h.loadHelp(); err != nil {
		return nil, err
	}
	h.mux = http.NewServeMux()
	h.mux.HandleFunc("/", notFound)
	for _, pattern := range Routes {
		switch {
		case strings.HasPrefix(pattern, "GET /assets/"):
			h.mux.HandleFunc(pattern, h.serveAsset)
		case strings.HasPrefix(pattern, "GET /help"):
			h.mux.HandleFunc(pattern, h.serveHelp)
		default:
			h.mux.HandleFunc(pattern, h.serveShell)
		}
	}
	return h, nil
}

var (
	shellURL  = regexp.MustCompile(`/assets/([A-Za-z0-9._/-]+)`)
	moduleTag = regexp.MustCompile(`<script[^>]*type="module"`)
	wsMeta    = regexp.MustCompile(`<meta name="xqtour-ws" content="[^"]*">`)
)

// addAsset serves body as the asset name, under its plain and its
// fingerprinted name.
func (h *Handler) addAsset(name string, body []byte) {
	sum := sha256.Sum256(body)
	ext := path.Ext(name)
	a := &asset{body: body, contentType: contentType(name), hashed: strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:hashLen] + ext}
	h.assets[name] = a
	h.assets[a.hashed] = a
}

// serviceWorker is the service worker's asset (sw.js), served at its plain
// name /assets/sw.js with the scope "/" allowed: a browser checks that
// stable URL for updates, and the file names this deploy's assets.
const serviceWorker = "sw.js"

// addServiceWorker serves sw.js with, in front of it, the deploy's version
// and the fingerprinted URL of every other asset, which the worker caches
// when it installs (web/static/sw.js says what it does with them).
func (h *Handler) addServiceWorker(sub fs.FS) error {
	body, err := fs.ReadFile(sub, serviceWorker)
	if err != nil {
		return err
	}
	var urls []string
	for name, a := range h.assets {
		if name == a.hashed {
			urls = append(urls, "/assets/"+a.hashed)
		}
	}
	slices.Sort(urls)
	list, err := json.Marshal(urls)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(list)
	head := fmt.Sprintf("self.XQ_VERSION = %q;\nself.XQ_ASSETS = %s;\n", hex.EncodeToString(sum[:])[:hashLen], list)
	h.addAsset(serviceWorker, slices.Concat([]byte(head), body))
	return nil
}

// rewrite replaces, in every match of re, the asset name its first group
// captures by the fingerprinted /assets/ URL; unknown names stay as they are.
func (h *Handler) rewrite(body []byte, re *regexp.Regexp) []byte {
	return re.ReplaceAllFunc(body, func(m []byte) []byte {
		sub := re.FindSubmatchIndex(m)
		a, ok := h.assets[string(m[sub[2]:sub[3]])]
		if !ok {
			return m
		}
		return slices.Concat(m[:sub[2]], []byte(a.hashed), m[sub[3]:])
	})
}

// renderShell turns index.html into the shell every page URL answers: asset
// URLs fingerprinted, the import map of every module, the WebSocket URL, and
// the Content-Security-Policy that allows exactly that import map inline.
func (h *Handler) renderShell(page []byte, opts Options) error {
	page = h.rewrite(page, shellURL)
	imports := map[string]string{}
	for name, a := range h.assets {
		// The engine's .wasm is mapped too: engine.js finds its fingerprinted
		// URL with import.meta.resolve, which follows the import map.
		if name == a.hashed || (path.Ext(name) != ".js" && path.Ext(name) != ".wasm") {
			continue
		}
		imports["/assets/"+name] = "/assets/" + a.hashed
	}
	js, err := json.Marshal(map[string]any{"imports": imports})
	if err != nil {
		return err
	}
	importMap := `<script type="importmap">` + string(js) + `</script>`
	loc := moduleTag.FindIndex(page)
	if loc == nil {
		return fmt.Errorf("web: index.html has no module script")
	}
	page = slices.Concat(page[:loc[0]], []byte(importMap+"\n"), page[loc[0]:])
	connect := "'self'"
	if opts.WebSocketURL != "" {
		u, err := url.Parse(opts.WebSocketURL)
		if err != nil || (u.Scheme != "wss" && u.Scheme != "ws") || u.Host == "" {
			return fmt.Errorf("web: WebSocket URL %q is not a ws:// or wss:// URL", opts.WebSocketURL)
		}
		connect += " " + u.Scheme + "://" + u.Host
		if !wsMeta.Match(page) {
			return fmt.Errorf("web: index.html has no xqtour-ws meta element")
		}
		page = wsMeta.ReplaceAllLiteral(page, []byte(`<meta name="xqtour-ws" content="`+html.EscapeString(opts.WebSocketURL)+`">`))
	}
	sum := sha256.Sum256(js)
	h.csp = strings.Join([]string{
		"default-src 'none'",
		// 'wasm-unsafe-eval' lets engine.js compile the rules engine
		// (WebAssembly.instantiate); it allows no JavaScript eval.
		"script-src 'self' 'wasm-unsafe-eval' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'",
		"style-src 'self'",
		"img-src 'self' data:",
		"font-src 'self'",
		"connect-src " + connect,
		"manifest-src 'self'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
	h.shell = page
	return nil
}

// ServeHTTP serves the shell for page URLs and the assets; anything else is 404.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	h.mux.ServeHTTP(w, r)
}

// AssetURL returns the fingerprinted URL of an embedded asset ("app.js" →
// "/assets/app.1a2b3c4d5e.js"), or "" when there is no such asset.
func (h *Handler) AssetURL(name string) string {
	if a, ok := h.assets[name]; ok {
		return "/assets/" + a.hashed
	}
	return ""
}

func (h *Handler) serveShell(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Content-Security-Policy", h.csp)
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(h.shell)
	}
}

func (h *Handler) serveAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	a, ok := h.assets[name]
	if !ok {
		notFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	if name == a.hashed {
		hd.Set("Cache-Control", immutable)
	} else {
		// A plain name (a browser without import maps) is always revalidated.
		hd.Set("Cache-Control", "no-cache")
	}
	if name == serviceWorker {
		hd.Set("Service-Worker-Allowed", "/") // its scope is every page, not /assets/
	}
	// ServeContent answers If-None-Match against this ETag with a 304.
	hd.Set("ETag", `"`+strings.TrimPrefix(path.Ext(strings.TrimSuffix(a.hashed, path.Ext(a.hashed))), ".")+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.encoded(w, r)))
}

// contentType is the media type of an asset by its extension (UTF-8 for text).
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".json", ".map":
		return "application/json"
	case ".webmanifest":
		return "application/manifest+json"
	case ".wasm":
		return "application/wasm" // what WebAssembly.instantiateStreaming insists on
	case ".woff2":
		return "font/woff2"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// notFound answers in the API's error model, as every other function does,
// never cached and without echoing the path.
func notFound(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte(`{"error":{"code":"not_found","message":"no such page or asset"}}` + "\n"))
}
