//go:build !linux

package main

import "os/exec"

// prepare has nothing to set where the emulator does not run (it is a Linux
// program); the smoke still builds so its build check can say so.
func prepare(*exec.Cmd) {}

// killTree kills the emulator process.
func killTree(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
