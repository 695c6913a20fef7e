//go:build !unix

package main

import "os/exec"

// inOwnProcessGroup leaves cmd as it is: without process groups, its
// cancellation kills the host process alone.
func inOwnProcessGroup(cmd *exec.Cmd) {}
