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

// openRootTree opens the skill directory dir as a tree whose paths the
// kernel resolves relative to dir, so that no link, nor a path swapped for a
// link after a check, leads outside; files open without waiting on a FIFO.
func openRootTree(dir string) (*skillTree, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &skillTree{
		fsys: root.FS(),
		open: func(rel string) (fs.File, error) {
			return root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		},
		close: func() { root.Close() },
	}, nil
}
