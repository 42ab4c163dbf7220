package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

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
// the store's endpoint, how to stop it and its process id.
func startStore() (string, func(), int, error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, 0, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), storeChildEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, 0, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, 0, err
	}
	stop := func() { _ = in.Close(); _ = cmd.Wait() }
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, 0, fmt.Errorf("the store's process did not start: %w", err)
	}
	return strings.TrimSpace(line), stop, cmd.Process.Pid, nil
}

// processCPU is the CPU time (user and system) process pid has used, from
// /proc (0 where there is none): the store's share of a request's time.
func processCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name (which is in parentheses and may
	// hold spaces): state is field 3, utime and stime fields 14 and 15.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, 100 on every Linux this runs on.
const clockTicks = 100
