//go:build !unix

package skillserver

import (
	"io/fs"
	"os"
	"path/filepath"
)

// openNonblocking opens name for reading; this platform has no FIFOs that
// an open could wait on.
func openNonblocking(name string) (fs.File, error) {
	return os.Open(name)
}

// openBelow opens rel (slash-separated) inside dir without following a link
// out of it.
func openBelow(dir, rel string) (fs.File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.Open(filepath.FromSlash(rel))
}
