package supervisor

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"

	goplugin "github.com/hashicorp/go-plugin"
	"golang.org/x/sys/unix"
)

// verifyAndPin makes cmd run exactly the bytes whose SHA-256 is sum, or
// refuses with ErrChecksumMismatch. Hashing a path and then executing the
// path (what go-plugin's SecureConfig does) runs whatever the path names at
// exec time: a binary renamed over it in between runs unchecked. So the
// binary is opened once and copied into an anonymous memory file while it
// is hashed; the copy is sealed against every change and executed through
// /proc/self/fd, so the bytes hashed are the bytes the kernel loads.
//
// A copy, not the opened file itself: an open file's inode is fixed, but
// its contents are not (anyone who may write to it could change it between
// the hash and the exec), while a sealed memory file cannot change at all.
// The cost is one copy of the binary in memory for as long as the plugin
// runs. The binary must be an executable file, not a script: an
// interpreter could not open the copy, which is closed on exec. The
// process's argv[0] is still the binary's path, but its command name (the
// one top and pgrep show) is the descriptor's number.
//
// cfg's SecureConfig stays unset: go-plugin would hash the path again. The
// returned release closes the copy; call it once the process has started
// (or failed to).
func verifyAndPin(cmd *exec.Cmd, _ *goplugin.ClientConfig, sum []byte) (release func(), err error) {
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	src, err := os.Open(cmd.Path)
	if err != nil {
		return nil, fmt.Errorf("open the binary to verify it: %w", err)
	}
	defer src.Close()
	if fi, err := src.Stat(); err != nil {
		return nil, fmt.Errorf("stat the binary to verify it: %w", err)
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("the binary is not a regular file but %v", fi.Mode().Type())
	}
	mem, err := newMemFile()
	if err != nil {
		return nil, err
	}
	defer mem.Close()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(mem, h), src); err != nil {
		return nil, fmt.Errorf("copy the binary to verify it: %w", err)
	}
	if subtle.ConstantTimeCompare(h.Sum(nil), sum) != 1 {
		return nil, ErrChecksumMismatch
	}
	seals := unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(mem.Fd(), unix.F_ADD_SEALS, seals); err != nil {
		return nil, fmt.Errorf("seal the verified copy of the binary: %w", err)
	}
	// The kernel refuses to execute a file open for writing (ETXTBSY), and
	// the memory file was created read-write: execute a read-only
	// descriptor of it, opened while the writable one is still held so it
	// is the same sealed file.
	ro, err := os.Open("/proc/self/fd/" + strconv.Itoa(int(mem.Fd())))
	if err != nil {
		return nil, fmt.Errorf("reopen the verified copy of the binary: %w", err)
	}
	cmd.Path = "/proc/self/fd/" + strconv.Itoa(int(ro.Fd()))
	return func() { ro.Close() }, nil
}

// newMemFile creates an anonymous memory file that may be sealed and
// executed, closed on exec. Kernels before 6.3 know no MFD_EXEC flag (and
// make every memory file executable); later ones may refuse executable
// memory files (vm.memfd_noexec), and then a checksum cannot be honoured.
func newMemFile() (*os.File, error) {
	const flags = unix.MFD_CLOEXEC | unix.MFD_ALLOW_SEALING
	fd, err := unix.MemfdCreate("skillcatalog-plugin", flags|unix.MFD_EXEC)
	if errors.Is(err, unix.EINVAL) {
		fd, err = unix.MemfdCreate("skillcatalog-plugin", flags)
	}
	if err != nil {
		return nil, fmt.Errorf("create a memory file for the verified binary (vm.memfd_noexec may forbid it): %w", err)
	}
	return os.NewFile(uintptr(fd), "skillcatalog-plugin"), nil
}
