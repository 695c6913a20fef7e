package sessionlog

import (
	"errors"
	"fmt"
	"os"
)

// A FileStore keeps a bounded number of session files open. It suspends an
// idle session's FileLog, closing its file and releasing its lock but
// keeping what the log knows (head, index, hidden ranges, tail), and
// resumes it when the session is used again. While suspended, the log is
// not locked: another process may open the file and append. Resuming takes
// the lock again and, unless the file is the one it left, unchanged, reads
// it again as opening would, so the log goes on from what the file holds
// and a conditional append on an old head fails with ErrConflict.

// suspend closes the log's file and releases its lock, keeping its state.
// The store calls it only while no call of the log is in flight.
func (l *FileLog) suspend() error {
	l.appendSem <- struct{}{}
	defer func() { <-l.appendSem }()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.f == nil {
		return nil
	}
	fi, serr := l.f.Stat()
	if serr != nil {
		fi = nil // resume then reads the file again
	}
	err := l.f.Close()
	if rerr := l.lock.release(); rerr != nil {
		err = errors.Join(err, rerr)
	}
	l.f, l.lock, l.left = nil, nil, fi
	// Only open logs may hold an event beyond the tail's bounds.
	l.trimTail()
	if err != nil {
		return fmt.Errorf("sessionlog: close %s: %w", l.path, err)
	}
	return nil
}

// resume opens and locks the log's file again. A file that is not the one
// suspend left, as it left it (another writer appended, truncated or
// replaced it), is read again from the start, as OpenFile would; so is the
// file of a log that an earlier failure broke.
func (l *FileLog) resume() error {
	l.appendSem <- struct{}{}
	defer func() { <-l.appendSem }()
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return fmt.Errorf("sessionlog: reopen: %w", ErrClosed)
	case l.f != nil:
		return nil
	}
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("sessionlog: reopen: %w", err)
	}
	lock, err := lockLog(l.path)
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("sessionlog: reopen %s: %w", l.path, err)
	}
	fi, err := f.Stat()
	if err == nil && l.unchanged(fi) {
		l.f, l.lock = f, lock
		return nil
	}
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err != nil {
		_ = f.Close()
		_ = lock.release()
		return fmt.Errorf("sessionlog: reopen %s: %w", l.path, err)
	}
	l.f, l.lock = f, lock
	l.reset()
	rec, err := l.load(fi)
	if err != nil {
		_ = f.Close()
		_ = lock.release()
		l.f, l.lock = nil, nil
		l.broken = err
		return err
	}
	l.recovery = rec
	return nil
}

// unchanged reports whether fi is the file suspend left, as it left it.
func (l *FileLog) unchanged(fi os.FileInfo) bool {
	return l.left != nil && l.broken == nil && os.SameFile(l.left, fi) &&
		fi.Size() == l.size && l.left.Size() == l.size && fi.ModTime().Equal(l.left.ModTime())
}

// reset forgets what the log knew of its file, before reading it again.
func (l *FileLog) reset() {
	l.broken = nil
	l.head, l.size = Head{}, 0
	l.index = nil
	l.hidden = hiddenSet{}
	l.types = typeIndex{}
	l.dropTail()
	l.starts = lineStarts{}
}
