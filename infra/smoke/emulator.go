package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/xqtour/xqtour/infra/deploy"
)

// buildBootstraps builds every function for the host in one go build (it links
// the mains in parallel) and moves each to <tmp>/<dir>/bootstrap, as Lambda runs it.
func (s *smoke) buildBootstraps(ctx context.Context) error {
	// The Web function embeds the browser's rules engine (web/engine), which
	// go generate builds, as make does before every build of the function.
	gen := exec.CommandContext(ctx, "go", "generate", "./web")
	gen.Dir = s.root
	if out, err := gen.CombinedOutput(); err != nil {
		return fmt.Errorf("go generate ./web: %v\n%s", err, out)
	}
	bin := filepath.Join(s.tmp, "bin")
	// Default flags otherwise, so the packages compiled for `go run ./infra/smoke`
	// itself (store, httpapi, the AWS SDK) are reused from the build cache.
	args := []string{"build", "-tags", "lambda.norpc", "-o", bin + string(filepath.Separator)}
	for _, fn := range deploy.AllFunctions() {
		args = append(args, "./"+deploy.Dir(fn))
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = s.root
	cmd.Env = append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	for _, fn := range deploy.AllFunctions() {
		name := filepath.Base(deploy.Dir(fn))
		dir := filepath.Join(s.tmp, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		exe := ""
		if runtime.GOOS == "windows" {
			exe = ".exe"
		}
		dst := filepath.Join(dir, "bootstrap"+exe)
		if err := os.Rename(filepath.Join(bin, name+exe), dst); err != nil {
			return err
		}
		s.bootstraps[fn] = dst
	}
	return nil
}

// buildRIE installs the pinned emulator into the temporary directory.
func (s *smoke) buildRIE(ctx context.Context) error {
	gobin := filepath.Join(s.tmp, "rie")
	cmd := exec.CommandContext(ctx, "go", "install", rieModule+"@"+rieVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "CGO_ENABLED=0", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go install %s@%s: %v\n%s", rieModule, rieVersion, err, out)
	}
	s.rie = filepath.Join(gobin, "aws-lambda-rie")
	return nil
}

// emulator is one running RIE serving one function's bootstrap.
type emulator struct {
	fn      string
	url     string // the invocation endpoint
	cmd     *exec.Cmd
	out     *syncBuffer
	exited  chan struct{}
	invokes int
}

// startEmulator runs the RIE on two free loopback ports (its invoke API and the
// Lambda Runtime API the bootstrap polls), with the function's environment.
// The environment is built from scratch so no AWS setting of this machine leaks in.
func startEmulator(ctx context.Context, fn, bootstrap, rie, endpoint string, env ...string) (*emulator, error) {
	invokePort, err := freePort()
	if err != nil {
		return nil, err
	}
	runtimePort, err := freePort()
	if err != nil {
		return nil, err
	}
	e := &emulator{fn: fn, out: &syncBuffer{}, exited: make(chan struct{}),
		url: "http://127.0.0.1:" + invokePort + "/2015-03-31/functions/function/invocations"}
	cmd := exec.Command(rie,
		"--runtime-interface-emulator-address", "127.0.0.1:"+invokePort,
		"--runtime-api-address", "127.0.0.1:"+runtimePort,
		"--log-level", "warn",
		bootstrap)
	cmd.Dir = filepath.Dir(bootstrap)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Dir(bootstrap),
		"TZ=UTC",
		"TABLE_NAME=" + table,
		"DYNAMODB_ENDPOINT=" + endpoint,
		"AWS_REGION=" + region,
		"AWS_DEFAULT_REGION=" + region,
		"AWS_ACCESS_KEY_ID=local",
		"AWS_SECRET_ACCESS_KEY=local",
		"AWS_LAMBDA_FUNCTION_NAME=" + fn,
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256",
		"AWS_LAMBDA_FUNCTION_TIMEOUT=29",
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = e.out, e.out
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", rie, err)
	}
	e.cmd = cmd
	go func() { _ = cmd.Wait(); close(e.exited) }()

	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+invokePort, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return e, nil
		}
		select {
		case <-e.exited:
			return e, fmt.Errorf("the emulator exited before listening:\n%s", e.out.tail(20))
		case <-ctx.Done():
			return e, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return e, errors.New("the emulator did not listen within 15 s")
		}
	}
}

// freePort asks the kernel for a free loopback port. Another process could take
// it before the emulator binds it; the readiness wait then fails loudly.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}

// syncBuffer collects an emulator's output from its two pipes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) tail(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.SplitAfter(b.buf.String(), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "")
}
