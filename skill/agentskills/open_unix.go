//go:build unix

package agentskills

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openSkillFileIn opens the SKILL.md of d relative to the directory's own
// descriptor, following a link wherever it leads, without blocking on a
// FIFO.
func openSkillFileIn(d *skillDir) (*os.File, error) {
	fd, err := unix.Openat(int(d.self.Fd()), skillFileName, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: skillFileName, Err: err}
	}
	return os.NewFile(uintptr(fd), skillFileName), nil
}
