//go:build darwin || freebsd || netbsd

package fileid

import (
	"io/fs"
	"syscall"
)

// of returns the identity of the file version fi describes, and
// false when the file system does not provide one.
func of(fi fs.FileInfo) (ID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ID{}, false
	}
	return Make(uint64(st.Dev), uint64(st.Ino), fi.Size(), fi.ModTime().UnixNano(), st.Ctimespec.Nano())
}
