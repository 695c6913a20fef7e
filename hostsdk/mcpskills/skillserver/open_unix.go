//go:build unix

package skillserver

import (
	"io/fs"
	"os"
	"syscall"
)

// openNonblocking opens name for reading without waiting for a writer if it
// is a FIFO (an open of a FIFO otherwise blocks until one appears). Reads of
// a regular file are unaffected by the flag.
func openNonblocking(name string) (fs.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
