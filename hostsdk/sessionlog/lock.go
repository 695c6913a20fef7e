package sessionlog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"

	"github.com/gofrs/flock"
)

// lockSuffix names the lock file kept beside a log while it is open. The log
// itself cannot carry the lock: on Windows a locked byte range can be neither
// read nor written through any other handle, the FileLog's own included.
const lockSuffix = ".lock"

// maxLockAttempts bounds the retries of lockLog after it locked a lock file
// that its previous holder removed in the meantime.
const maxLockAttempts = 3

// fileLock is an exclusive, non-blocking lock on a log file, held through
// <log>.lock with flock(2) or LockFileEx. The operating system drops it when
// the holder dies; a lock file left behind then is reused, not trusted.
type fileLock struct{ fl *flock.Flock }

// lockLog locks the log at logPath, or returns ErrLocked when another
// holder, in this process or another, has it.
func lockLog(logPath string) (*fileLock, error) {
	path := logPath + lockSuffix
	for range maxLockAttempts {
		fl := flock.New(path)
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !ok {
			return nil, ErrLocked
		}
		cur, err := linked(fl)
		if err == nil && cur {
			return &fileLock{fl: fl}, nil
		}
		if uerr := fl.Unlock(); uerr != nil {
			err = errors.Join(err, uerr)
		}
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// The file was opened before its holder removed it on release, and
		// locked after: a new holder may already own the file now at path.
	}
	return nil, ErrLocked
}

// linked reports whether the file fl has locked is still the one at its
// path. Only that file's lock excludes other holders.
func linked(fl *flock.Flock) (bool, error) {
	held, err := fl.Stat()
	if err != nil {
		return false, err
	}
	cur, err := os.Stat(fl.Path())
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(held, cur), nil
}

// release unlocks and removes the lock file, so a closed log leaves nothing
// behind. A lock file that cannot be removed is harmless: the next holder
// locks it again.
func (k *fileLock) release() error {
	path := k.fl.Path()
	if runtime.GOOS == "windows" {
		// Windows refuses to delete a file while any handle is open on it,
		// ours included, so the name goes only after the lock, and only if
		// no one has opened the file since.
		if err := k.fl.Unlock(); err != nil {
			return fmt.Errorf("unlock %s: %w", path, err)
		}
		_ = os.Remove(path)
		return nil
	}
	// Elsewhere the name goes while the lock is still held, so that whoever
	// opens it next creates a new file; one who opened the old file first
	// sees that it is no longer linked (lockLog) and retries.
	_ = os.Remove(path)
	if err := k.fl.Unlock(); err != nil {
		return fmt.Errorf("unlock %s: %w", path, err)
	}
	return nil
}
