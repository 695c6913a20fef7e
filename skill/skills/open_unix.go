//go:build unix

package skills

import (
	"os"
	"syscall"
)

// openInRoot opens name below root for reading without waiting on a FIFO.
func openInRoot(root *os.Root, name string) (*os.File, error) {
	return root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
