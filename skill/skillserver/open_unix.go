//go:build unix

package skillserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// openRootTree opens the skill directory at skillPath below the skills
// directory dir as a tree whose paths the kernel resolves relative to the
// opened directory, so that no link, nor a path swapped for a link after a
// check, leads outside it; files open without waiting on a FIFO. The
// directory is opened once, and the skill's SKILL.md and files are all
// read through that one descriptor: whatever is swapped on the path, the
// SKILL.md judged and the files served are of the same directory.
//
// As discovery does, a link that is the skill path's first segment is
// followed wherever it leads; deeper segments are resolved inside the
// directory it leads to.
func openRootTree(dir, skillPath string) (*skillTree, error) {
	first, rest, _ := strings.Cut(skillPath, "/")
	root, err := os.OpenRoot(filepath.Join(dir, first))
	if err != nil {
		return nil, err
	}
	if rest != "" {
		nested, err := root.OpenRoot(filepath.FromSlash(rest))
		root.Close()
		if err != nil {
			return nil, err
		}
		root = nested
	}
	self, err := root.Open(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	return &skillTree{
		fsys: root.FS(),
		open: func(rel string) (fs.File, error) {
			return root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		},
		openSkill: func() (fs.File, error) { return openSkillFile(self) },
		statSkill: func() (fs.FileInfo, error) { return statSkillFile(root, self) },
		close:     func() { self.Close(); root.Close() },
	}, nil
}

// openSkillFile opens the SKILL.md of the directory whose descriptor is
// self, without blocking on a FIFO. The SKILL.md may be a link to a
// regular file anywhere; the link is read in this directory, not through a
// path that could since lead elsewhere.
func openSkillFile(self *os.File) (fs.File, error) {
	fd, err := unix.Openat(int(self.Fd()), skillFileName, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: skillFileName, Err: err}
	}
	return os.NewFile(uintptr(fd), skillFileName), nil
}

// statSkillFile describes what the SKILL.md of the directory root (whose
// descriptor is self) leads to. A SKILL.md that is not a link costs one
// stat; a link, which may lead out of the directory, is opened (without
// blocking) to describe the file it leads to.
func statSkillFile(root *os.Root, self *os.File) (fs.FileInfo, error) {
	fi, err := root.Lstat(skillFileName)
	if err != nil || fi.Mode().Type() != fs.ModeSymlink {
		return fi, err
	}
	f, err := openSkillFile(self)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}
