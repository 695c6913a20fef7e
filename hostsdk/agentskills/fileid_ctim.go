//go:build linux || openbsd || solaris || dragonfly

package agentskills

import (
	"io/fs"
	"syscall"
)

// fileIdentity returns the identity of the file version fi describes, and
// false when the file system does not provide one.
func fileIdentity(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return makeFileID(uint64(st.Dev), uint64(st.Ino), fi.Size(), fi.ModTime().UnixNano(), st.Ctim.Nano())
}
