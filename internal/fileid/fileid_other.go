//go:build !(linux || openbsd || solaris || dragonfly || darwin || freebsd || netbsd)

package fileid

import "io/fs"

// of reports no identity here: without a change time and an
// inode number a same-size rewrite could not be told apart reliably, so
// every reader reads the file again each time.
func of(fs.FileInfo) (ID, bool) {
	return ID{}, false
}
