//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sessionlog

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, so that two FileLogs never
// append to the same file. The kernel drops it when the process dies.
func lockFile(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			lerr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(lerr, syscall.EINTR) {
				return
			}
		}
	}); err != nil {
		return err
	}
	if errors.Is(lerr, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return lerr
}
