package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/xqtour/xqtour/shared/store/embedded"
)

// storeChildEnv set in the environment makes this program the store's
// process: it serves the embedded store on a free port, prints its URL and
// then the URL of its partition statistics, and stops when its standard
// input closes (the parent has gone). storePartitionEnv set as well turns
// DynamoDB's per-partition throughput limits on (embedded.LimitPartitions).
const (
	storeChildEnv     = "XQTOUR_BIGEVENT_STORE"
	storePartitionEnv = "XQTOUR_BIGEVENT_PARTITION"
)

func serveStore() {
	srv, err := embedded.Start("127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bigevent store:", err)
		os.Exit(1)
	}
	if os.Getenv(storePartitionEnv) != "" {
		srv.LimitPartitions(embedded.DefaultPartitionLimits)
	}
	// The statistics are served apart from the DynamoDB endpoint: /throttled
	// the two refusal counts (cheap: the parent asks around every request),
	// /partitions the hottest keys.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bigevent store:", err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/throttled", func(w http.ResponseWriter, _ *http.Request) {
		st := srv.PartitionThrottles()
		_ = json.NewEncoder(w).Encode(st)
	})
	mux.HandleFunc("/partitions", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(srv.Partitions())
	})
	go func() { _ = http.Serve(ln, mux) }()
	fmt.Println(srv.URL)
	fmt.Println("http://" + ln.Addr().String())
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = srv.Close()
}

// storeStats reads the store process's partition statistics.
type storeStats struct {
	url    string
	client http.Client
}

// throttled is how many requests the store has refused for a hot partition so far.
func (s *storeStats) throttled() embedded.Throttles {
	var t embedded.Throttles
	if s == nil {
		return t
	}
	if res, err := s.client.Get(s.url + "/throttled"); err == nil {
		_ = json.NewDecoder(res.Body).Decode(&t)
		_ = res.Body.Close()
	}
	return t
}

// partitions is the store's partition statistics.
func (s *storeStats) partitions() (embedded.PartitionStats, error) {
	var p embedded.PartitionStats
	res, err := s.client.Get(s.url + "/partitions")
	if err != nil {
		return p, err
	}
	defer res.Body.Close()
	return p, json.NewDecoder(res.Body).Decode(&p)
}

// peakMemory is process pid's peak resident set (VmHWM) in MB, 0 where unknown.
func peakMemory(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb / 1024
		}
	}
	return 0
}

// startStore runs this program again as the store's process and returns
// the store's endpoint, its statistics, how to stop it and its process id.
func startStore(partition bool) (string, *storeStats, func(), int, error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, nil, 0, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), storeChildEnv+"=1")
	if partition {
		cmd.Env = append(cmd.Env, storePartitionEnv+"=1")
	}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, nil, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, nil, 0, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, nil, 0, err
	}
	stop := func() { _ = in.Close(); _ = cmd.Wait() }
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	stats, err2 := r.ReadString('\n')
	if err != nil || err2 != nil {
		stop()
		return "", nil, nil, 0, fmt.Errorf("the store's process did not start: %v", errors.Join(err, err2))
	}
	return strings.TrimSpace(line), &storeStats{url: strings.TrimSpace(stats)}, stop, cmd.Process.Pid, nil
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
