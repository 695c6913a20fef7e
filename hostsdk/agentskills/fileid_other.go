//go:build !(linux || openbsd || solaris || dragonfly || darwin || freebsd || netbsd)

package agentskills

import "io/fs"

// fileIdentity reports no identity here: without a change time and an
// inode number a same-size rewrite could not be told apart reliably, so
// every scan reads and parses every SKILL.md.
func fileIdentity(fs.FileInfo) (fileID, bool) {
	return fileID{}, false
}
