package discovery

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
)

// checkRoots refuses, naming it, a skill root that is there but is no
// directory the plugin can read: a file, a FIFO, a device, a socket, a
// symbolic link loop or a link to nothing, or a directory it may not
// read. The skill directories' provider would take such a root for one
// that could not be listed at every step, which makes every listing
// incomplete and so holds back the skills of every root for as long as
// the mount lives; refusing it at mount says what is wrong while the host
// can still act on it. A root that does not exist (nor does a link there)
// is accepted: it is empty until it appears.
func checkRoots(roots []string) error {
	for i, r := range roots {
		if why := rootProblem(r); why != "" {
			return &contract.ConfigError{Message: fmt.Sprintf(
				"discovery option skillRoots[%d] %q %s: a skill root must be a directory the plugin can read, or not exist yet", i, r, why)}
		}
	}
	return nil
}

// rootProblem says what keeps the path p from being a skill root, or ""
// when it is a readable directory or nothing is there.
func rootProblem(p string) string {
	fi, err := os.Stat(p)
	switch {
	case err == nil && fi.IsDir():
		return readProblem(p)
	case err == nil:
		return "is " + fileKind(fi.Mode())
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(p); lerr == nil {
			return "is a symbolic link to nothing"
		}
		return ""
	}
	return fmt.Sprintf("cannot be read: %v", unwrapPath(err))
}

// readProblem says why the directory p cannot be listed, or "".
func readProblem(p string) string {
	f, err := os.Open(p)
	if err == nil {
		_, err = f.ReadDir(1)
		f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Sprintf("cannot be read: %v", unwrapPath(err))
	}
	return ""
}

// fileKind names what a mode that is not a directory's describes.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a directory (" + m.Type().String() + ")"
}

// unwrapPath drops the path an *fs.PathError repeats: the message names
// the root already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
