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

// openRootTree opens the skill directory dir as a tree whose paths are
// resolved relative to dir, so that no link leads outside.
func openRootTree(dir string) (*skillTree, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &skillTree{
		fsys:  root.FS(),
		open:  func(rel string) (fs.File, error) { return root.Open(filepath.FromSlash(rel)) },
		close: func() { root.Close() },
	}, nil
}
