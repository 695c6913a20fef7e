//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package sessionlog

import "os"

// lockFile is a no-op where flock is unavailable: callers must not open the
// same file twice.
func lockFile(*os.File) error { return nil }
