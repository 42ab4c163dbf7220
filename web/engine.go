package web

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
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
	return nil
}

// HasEngine reports whether the browser's rules engine is served (it is once
// `go generate ./web` has built it before the package was compiled).
func (h *Handler) HasEngine() bool {
	_, ok := h.assets["xiangqi.wasm"]
	return ok
}
