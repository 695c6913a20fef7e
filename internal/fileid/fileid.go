// Package fileid identifies one version of a file on disk, so that a cache
// keyed by it re-reads a file exactly when the file may have changed.
package fileid

import "io/fs"

// ID identifies one version of a file: the same file (device and inode)
// with the same size, modification time and status change time. Writing the
// file moves its modification time, a file renamed over the path has another
// inode, and restoring an old modification time (or changing permissions)
// moves the change time, which cannot be set.
type ID struct {
	Dev, Ino     uint64
	Size         int64
	MTime, CTime int64 // nanoseconds since the Unix epoch
}

// Make returns an identity, or false when the file system reports no change
// time, as some network and user-space file systems do not.
func Make(dev, ino uint64, size, mtime, ctime int64) (ID, bool) {
	if ctime == 0 {
		return ID{}, false
	}
	return ID{Dev: dev, Ino: ino, Size: size, MTime: mtime, CTime: ctime}, true
}

// Of returns the identity of the file version fi describes, and false when
// the platform or file system does not provide one.
func Of(fi fs.FileInfo) (ID, bool) { return of(fi) }
