//go:build unix

package skillserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// openNonblocking opens name for reading without waiting for a writer if it
// is a FIFO (an open of a FIFO otherwise blocks until one appears). Reads of
// a regular file are unaffected by the flag.
func openNonblocking(name string) (fs.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openBelow opens rel (slash-separated) inside dir without following a link
// out of it and without waiting on a FIFO: the open is resolved by the
// kernel relative to dir, so a path swapped for a link after a check cannot
// lead outside.
func openBelow(dir, rel string) (fs.File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.OpenFile(filepath.FromSlash(rel), os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
