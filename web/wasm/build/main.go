// Command build compiles the browser's rules engine (../, package main for
// GOOS=js GOARCH=wasm) to <dir>/xiangqi.wasm, gzips it to xiangqi.wasm.gz
// (once here, so no request compresses it), and copies the Go toolchain's
// own wasm_exec.js, the JavaScript half of that port, beside it. Package web
// embeds the two from web/engine; `go generate ./web` (and so `make run`,
// `make build`, the Web function's `sam build`) runs it with -o engine.
//
// Both files are outputs, never committed: the engine is always the Go code
// of shared/xiangqi and shared/notation as they are in the tree, built by the
// same toolchain whose wasm_exec.js matches it.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("o", "engine", "the directory to write xiangqi.wasm and wasm_exec.js into")
	flag.Parse()
	if err := build(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "web/wasm/build:", err)
		os.Exit(1)
	}
}

func build(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	goCmd := "go"
	if root := os.Getenv("GOROOT"); root != "" { // go generate and go run set it
		goCmd = filepath.Join(root, "bin", "go")
	}
	out, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	glue, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("the toolchain's wasm_exec.js (Go 1.24+ keeps it in lib/wasm): %v", err)
	}
	// The package to build is this command's parent, found from the module
	// root so the command works from any directory of the module.
	modDir, err := exec.Command(goCmd, "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return fmt.Errorf("go list -m: %v", err)
	}
	wasm, err := filepath.Abs(filepath.Join(dir, "xiangqi.wasm"))
	if err != nil {
		return err
	}
	// -trimpath keeps the build's paths out of the binary (and its hash the
	// same on every machine); -s drops the symbol table the browser never reads.
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s", "-o", wasm+".tmp", "./web/wasm")
	cmd.Dir = string(bytes.TrimSpace(modDir))
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go build ./web/wasm: %v\n%s", err, msg)
	}
	body, err := os.ReadFile(wasm + ".tmp")
	if err != nil {
		return err
	}
	if err := os.WriteFile(wasm+".gz", gzipped(body), 0o644); err != nil {
		return err
	}
	if err := os.Rename(wasm+".tmp", wasm); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), glue, 0o644)
}

// gzipped compresses body at the best level; the gzip header's name field
// carries body's SHA-256, which package web checks so it never serves a .gz
// from another build than the .wasm beside it.
func gzipped(body []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
	sum := sha256.Sum256(body)
	zw.Name = hex.EncodeToString(sum[:])
	_, _ = zw.Write(body) // a bytes.Buffer does not fail
	_ = zw.Close()
	return buf.Bytes()
}
