//go:build unix

package agentskills

import (
	"syscall"
	"testing"
)

func mkfifo(_ *testing.T, path string) error {
	return syscall.Mkfifo(path, 0o644)
}
