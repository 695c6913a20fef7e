//go:build !unix

package skillserver

import (
	"io/fs"
	"os"
)

// openNonblocking opens name for reading; this platform has no FIFOs that
// an open could wait on.
func openNonblocking(name string) (fs.File, error) {
	return os.Open(name)
}
