//go:build linux || openbsd || solaris || dragonfly

package skillserver

import (
	"io/fs"
	"syscall"
)

// identity returns the identity of the file version fi describes, and false
// when the file system provides none.
func identity(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return newFileID(uint64(st.Dev), uint64(st.Ino), fi.Size(), fi.ModTime().UnixNano(), st.Ctim.Nano())
}
