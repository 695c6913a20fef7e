//go:build unix

package sessionlog

import "syscall"

// defaultMaxFiles is the default descriptor budget of a FileStore: half the
// process's soft RLIMIT_NOFILE, the rest left to everything else the
// process opens.
func defaultMaxFiles() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fallbackDefaultFiles
	}
	return budgetFor(uint64(lim.Cur))
}
