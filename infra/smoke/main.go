// Command smoke runs every Lambda function's real bootstrap under the AWS Lambda
// Runtime Interface Emulator (RIE) and checks it end to end: each bootstrap is
// built for this machine with -tags lambda.norpc, started by its own RIE with
// the environment template.yaml gives it (TABLE_NAME, DYNAMODB_ENDPOINT,
// AWS_REGION), pointed at an in-process embedded DynamoDB, and invoked with
// HTTP API payload 2.0 events routed by httpapi.Routes exactly as API Gateway
// would route them. It prints one line per check and "smoke: N passed, M failed",
// and exits non-zero on any failure; `make smoke` runs it.
//
// The live-updates functions run the same way: Live gets API Gateway WebSocket
// events (APIGatewayWebsocketProxyRequest: $connect, subscribe, $disconnect),
// LiveFanout a DynamoDB Stream event (events.DynamoDBEvent) of the game item
// as the stream carries it, and posts through a loopback stand-in of the
// Management API that checks the SigV4 signature's scope and answers 410 for
// a gone connection. DueWork gets the EventBridge scheduled event its
// schedule sends, and must do (delete) an item of work due it finds.
//
// The RIE is built from its module at a pinned version with `go install
// module@version` into a temporary directory, so nothing needs installing first.
// It is not a go.mod tool: its go.mod asks for go 1.26.6, and adding it would
// raise this module's go directive.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/xqtour/xqtour/infra/deploy"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// The emulator's module path and the pinned version (on the module proxy).
const (
	rieModule  = "github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie"
	rieVersion = "v0.0.0-20261030222936-bef5c4ba774d"
)

const (
	table  = "xqtour-smoke"
	region = "us-east-1"
)

var (
	timeout = flag.Duration("timeout", 3*time.Minute, "time box for the whole run, builds included")
	verbose = flag.Bool("v", false, "print every emulator's log (RIE and bootstrap output) at the end")
)

func main() {
	flag.Parse()
	os.Exit(run())
}

// smoke holds one run's state; its checks are counted as they are printed.
type smoke struct {
	root, tmp  string
	rie        string
	bootstraps map[string]string // function → bootstrap path
	emulators  map[string]*emulator
	passed     int
	failed     int
	failedFns  map[string]bool
	store      *store.Store
	mgmt       *management
}

func run() int {
	start := time.Now()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	s := &smoke{bootstraps: map[string]string{}, emulators: map[string]*emulator{}, failedFns: map[string]bool{}}
	defer s.close()
	if err := s.setup(ctx); err != nil {
		s.fail("setup", err.Error())
	} else {
		s.checks(ctx)
	}
	if ctx.Err() != nil {
		s.fail("time box", fmt.Sprintf("stopped after %s: %v", time.Since(start).Round(time.Millisecond), context.Cause(ctx)))
	}
	s.logs()
	fmt.Printf("smoke took %s\n", time.Since(start).Round(100*time.Millisecond))
	fmt.Printf("smoke: %d passed, %d failed\n", s.passed, s.failed)
	if s.failed > 0 {
		return 1
	}
	return 0
}

func (s *smoke) pass(what, detail string) {
	s.passed++
	fmt.Printf("ok    %-55s %s\n", what, detail)
}

func (s *smoke) fail(what, detail string) {
	s.failed++
	fmt.Printf("FAIL  %-55s %s\n", what, detail)
}

// setup builds the bootstraps and the RIE, starts the embedded DynamoDB with
// the table, and one emulator per function.
func (s *smoke) setup(ctx context.Context) error {
	root, err := repoRoot(ctx)
	if err != nil {
		return err
	}
	s.root = root
	if s.tmp, err = os.MkdirTemp("", "xqtour-smoke-"); err != nil {
		return err
	}
	var wg sync.WaitGroup
	var buildErr, rieErr error
	var buildTook, rieTook time.Duration
	wg.Go(func() {
		t := time.Now()
		buildErr = s.buildBootstraps(ctx)
		buildTook = time.Since(t)
	})
	wg.Go(func() {
		t := time.Now()
		rieErr = s.buildRIE(ctx)
		rieTook = time.Since(t)
	})
	wg.Wait()
	if buildErr != nil {
		return buildErr
	}
	s.pass("build bootstraps", fmt.Sprintf("%d functions for %s/%s, -tags lambda.norpc (%s)", len(deploy.AllFunctions()), runtime.GOOS, runtime.GOARCH, buildTook.Round(100*time.Millisecond)))
	if rieErr != nil {
		return rieErr
	}
	s.pass("build aws-lambda-rie", fmt.Sprintf("%s@%s (%s)", rieModule, rieVersion, rieTook.Round(100*time.Millisecond)))

	db, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		return err
	}
	context.AfterFunc(ctx, func() { _ = db.Close() })
	st, err := store.Open(ctx, store.Config{Table: table, Region: region, Endpoint: db.URL})
	if err != nil {
		return err
	}
	if err := st.CreateTable(ctx); err != nil {
		return err
	}
	s.pass("embedded DynamoDB", fmt.Sprintf("table %s at %s", table, db.URL))
	s.store = st
	if s.mgmt, err = startManagement(ctx); err != nil {
		return err
	}

	for _, fn := range deploy.AllFunctions() {
		e, err := startEmulator(ctx, fn, s.bootstraps[fn], s.rie, db.URL, "WEBSOCKET_URL="+s.mgmt.websocketURL, "LIVE_ORIGINS=")
		if e != nil {
			s.emulators[fn] = e
		}
		if err != nil {
			s.fail(fn+" emulator", err.Error())
			s.failedFns[fn] = true
			continue
		}
		s.pass(fn+" emulator", "listening on "+e.url)
	}
	return nil
}

// repoRoot is the directory of this module's go.mod.
func repoRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run smoke inside the xqtour module (go run ./infra/smoke)")
	}
	return filepath.Dir(mod), nil
}

// close kills every emulator with its bootstrap (their process group) and
// removes the temporary directory.
func (s *smoke) close() {
	for _, e := range s.emulators {
		if e.cmd == nil {
			continue
		}
		_ = killTree(e.cmd)
		select {
		case <-e.exited:
		case <-time.After(5 * time.Second):
			fmt.Printf("warning: %s emulator (pid %d) did not exit after SIGKILL\n", e.fn, e.cmd.Process.Pid)
		}
	}
	if s.tmp != "" {
		_ = os.RemoveAll(s.tmp)
	}
}

// logs prints the emulator output of every function that failed a check (of
// all with -v), since that is where a bootstrap's own errors appear.
func (s *smoke) logs() {
	for _, fn := range deploy.AllFunctions() {
		e := s.emulators[fn]
		if e == nil || (!*verbose && !s.failedFns[fn]) {
			continue
		}
		fmt.Printf("--- %s emulator log (last lines)\n%s", fn, e.out.tail(40))
	}
}

// uuid4 returns a random version-4 UUID, the form the OpenAPI document gives Idempotency-Keys.
func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
