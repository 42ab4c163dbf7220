package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/xqtour/xqtour/shared/store/embedded"
)

// storeChildEnv set in the environment makes this program the store's
// process: it serves the embedded store on a free port, prints its URL and
// stops when its standard input closes (the parent has gone).
const storeChildEnv = "XQTOUR_BIGEVENT_STORE"

func serveStore() {
	srv, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bigevent store:", err)
		os.Exit(1)
	}
	fmt.Println(srv.URL)
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = srv.Close()
}

// startStore runs this program again as the store's process and returns
// the store's endpoint and how to stop it.
func startStore() (string, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), storeChildEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = in.Close(); _ = cmd.Wait() }
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("the store's process did not start: %w", err)
	}
	return strings.TrimSpace(line), stop, nil
}
