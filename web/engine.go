package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
)

// The browser's rules engine is web/wasm (shared/xiangqi and shared/notation)
// built to WebAssembly by the Go toolchain, with that toolchain's
// wasm_exec.js. Neither is committed: this generates them into engine/,
// which the embed below picks up when the package is compiled.
//go:generate go run ./wasm/build -o engine

// engineFiles is engine/ as it was at compile time: in a clean clone only its
// README, so the package builds (and serves no engine) before generation.
//
//go:embed engine
var engineFiles embed.FS

// engineNames are the engine's assets: /assets/xiangqi.<hash>.wasm and
// /assets/wasm_exec.<hash>.js, which web/static/engine.js loads.
var engineNames = []string{"xiangqi.wasm", "wasm_exec.js"}

// addEngine serves the engine's files from fsys (nil: the embedded ones)
// when they were built. Half an engine is refused: a wasm_exec.js from
// another toolchain than the .wasm's does not run it.
func (h *Handler) addEngine(fsys fs.FS) error {
	if fsys == nil {
		sub, err := fs.Sub(engineFiles, "engine")
		if err != nil {
			return err
		}
		fsys = sub
	}
	var found []string
	for _, name := range engineNames {
		body, err := fs.ReadFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if _, clash := h.assets[name]; clash {
			return fmt.Errorf("web: static/%s would hide the browser engine's file of that name", name)
		}
		h.addAsset(name, body)
		found = append(found, name)
	}
	if len(found) == 1 {
		return fmt.Errorf("web: the browser engine has %s only; run go generate ./web", found[0])
	}
	if len(found) == 0 {
		return nil
	}
	return h.addGzip(fsys, "xiangqi.wasm")
}

// addGzip attaches name+".gz" to the asset name when fsys has it. The build
// compresses the .wasm (3 MB, 0.9 MB gzipped) so that no request pays for
// compressing it, and so that the Web Lambda's answer, base64-encoded in
// its JSON, stays far below Lambda's 6 MB response limit. The gzip header's
// name field holds the SHA-256 of what it compresses, so a .gz left from an
// earlier build is refused rather than served for a newer .wasm.
func (h *Handler) addGzip(fsys fs.FS, name string) error {
	gz, err := fs.ReadFile(fsys, name+".gz")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return fmt.Errorf("web: %s.gz: %v", name, err)
	}
	a := h.assets[name]
	if sum := sha256.Sum256(a.body); zr.Name != hex.EncodeToString(sum[:]) {
		return fmt.Errorf("web: %s.gz is not from the same build as %s; run go generate ./web", name, name)
	}
	a.gzip = gz
	return nil
}

// encoded returns the body to send for r: the gzipped one when the asset has
// it and r accepts gzip, with the headers that say so.
func (a *asset) encoded(w http.ResponseWriter, r *http.Request) []byte {
	if a.gzip == nil {
		return a.body
	}
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
		return a.body
	}
	w.Header().Set("Content-Encoding", "gzip")
	// Another representation, another entity tag (the fingerprint plus -gzip).
	w.Header().Set("ETag", strings.TrimSuffix(w.Header().Get("ETag"), `"`)+`-gzip"`)
	return a.gzip
}

// acceptsGzip reports whether an Accept-Encoding header admits gzip: listed
// (or *) and not with q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		return !(strings.HasPrefix(q, "q=0") && strings.Trim(strings.TrimPrefix(q, "q="), "0.") == "")
	}
	return false
}

// HasEngine reports whether the browser's rules engine is served (it is once
// `go generate ./web` has built it before the package was compiled).
func (h *Handler) HasEngine() bool {
	_, ok := h.assets["xiangqi.wasm"]
	return ok
}
