package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// limitCPU holds this process (the handlers; the store's process is
// already started, outside it) to vcpu CPUs, as Lambda holds a function to
// its memory's share of a vCPU: GOMAXPROCS to vcpu rounded up, and a CFS
// quota of vcpu CPUs through a new cgroup (v2's cpu.max, or v1's cpu
// controller). Without the right to make a cgroup it fails, saying so.
func limitCPU(vcpu float64) (release func(), how string, err error) {
	runtime.GOMAXPROCS(int(math.Ceil(vcpu)))
	const period = 100_000 // µs
	quota := int(vcpu * period)
	name := fmt.Sprintf("xqtour-bigevent-%d", os.Getpid())
	pid := []byte(strconv.Itoa(os.Getpid()))
	type layout struct {
		root  string
		limit func(dir string) error
	}
	for _, l := range []layout{
		{"/sys/fs/cgroup", func(dir string) error { // v2
			return os.WriteFile(filepath.Join(dir, "cpu.max"), fmt.Appendf(nil, "%d %d", quota, period), 0o644)
		}},
		{"/sys/fs/cgroup/cpu", func(dir string) error { // v1
			if err := os.WriteFile(filepath.Join(dir, "cpu.cfs_period_us"), fmt.Append(nil, period), 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "cpu.cfs_quota_us"), fmt.Append(nil, quota), 0o644)
		}},
	} {
		if _, err := os.Stat(filepath.Join(l.root, "cgroup.procs")); err != nil {
			continue
		}
		if l.root == "/sys/fs/cgroup" {
			if _, err := os.Stat(filepath.Join(l.root, "cgroup.controllers")); err != nil {
				continue // v1's root: the cpu controller is below it
			}
		}
		dir := filepath.Join(l.root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, "", fmt.Errorf("-vcpu: cannot make a cgroup (%v); run without -vcpu and scale the CPU times in the report", err)
		}
		if err := errors.Join(l.limit(dir), os.WriteFile(filepath.Join(dir, "cgroup.procs"), pid, 0o644)); err != nil {
			_ = os.Remove(dir)
			return nil, "", fmt.Errorf("-vcpu: %w", err)
		}
		release = func() {
			// Back to the root, then the empty group goes (its last
			// threads leave a moment after the move).
			_ = os.WriteFile(filepath.Join(l.root, "cgroup.procs"), pid, 0o644)
			for range 50 {
				if syscall.Rmdir(dir) == nil {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
			fmt.Fprintln(os.Stderr, "bigevent: could not remove", dir)
		}
		return release, fmt.Sprintf("GOMAXPROCS %d, CFS quota %.2f CPU (%s)", runtime.GOMAXPROCS(0), vcpu, dir), nil
	}
	return nil, "", errors.New("-vcpu: no cgroup file system found; run without -vcpu and scale the CPU times in the report")
}
