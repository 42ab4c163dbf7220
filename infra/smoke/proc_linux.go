package main

import (
	"os/exec"
	"syscall"
)

// prepare puts the emulator in its own process group, so killTree reaches the
// bootstrap it starts, and has the kernel kill it should the smoke die first.
func prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killTree kills the emulator's process group: the RIE and its bootstrap.
func killTree(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
