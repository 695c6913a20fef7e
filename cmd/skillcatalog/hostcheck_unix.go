//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// inOwnProcessGroup starts cmd in a process group of its own and makes its
// cancellation kill the whole group: the host and every process it
// started that stayed in it.
func inOwnProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
