package sessionlog

import (
	"container/list"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// FileStore keeps one FileLog per session in a directory, at most a
// budget of them open at once ([FileStoreOptions.MaxOpenFiles]), and their
// newest events in memory within a byte budget
// ([FileStoreOptions.TailBudget]).
type FileStore struct {
	dir      string
	maxFiles int // descriptor budget: two per open session
	// shared is what the logs share: the budget of their tails and the
	// buffers of their reads and appends.
	shared *logShared

	mu       sync.Mutex
	sessions map[string]*sharedFile
	lru      list.List // of *sharedFile whose files are open, most recently used first
}

var _ Store = (*FileStore)(nil)

// sharedFile is a session's FileLog, shared by all its open handles.
type sharedFile struct {
	id   string
	refs int // open handles
	busy int // calls in flight through them
	log  *FileLog
	open bool // the log's file and lock are open
	// moving is set while the file is being opened or closed, and closed
	// when that is done.
	moving chan struct{}
	elem   *list.Element // in the lru while open
}

// FileStoreOptions configures [NewFileStore]. Every field is optional:
// the zero value, like a nil *FileStoreOptions, means the defaults.
type FileStoreOptions struct {
	// MaxOpenFiles bounds the file descriptors the store keeps open for
	// session logs: each open session holds two (its log and its lock
	// file), so MaxOpenFiles/2 sessions stay open; at least 2. A session
	// whose file was closed keeps its handles, and its file is reopened
	// when it is used again. 0 means the default: half the process's soft
	// RLIMIT_NOFILE, at most 32,768 (16,384 open sessions); where the limit
	// cannot be read, 4,096.
	MaxOpenFiles int
	// TailBudget bounds the bytes of the newest events that the store's
	// sessions keep in memory, all together: a session's log keeps its
	// newest few events (up to 16 and 64 KiB, or the events of its newest
	// append alone up to an eighth of the budget), so that reading back
	// what was just appended, as a host does at every step, costs no read
	// of the file. A log is charged the bytes of every append it keeps an
	// event of, since the records of one append may share memory. Beyond
	// the budget the least recently used sessions' events are dropped from
	// memory, and their next read reads the file; reads return the same
	// events either way. 0 means [DefaultTailBudget] (64 MiB);
	// [NoTailBudget] keeps no events in memory; any other value must be
	// positive.
	TailBudget int
}

// NoTailBudget, as [FileStoreOptions.TailBudget], keeps no events in
// memory: every read of a log reads its file.
const NoTailBudget = -1

// NewFileStore returns a store that keeps session logs in dir, creating it
// if needed, configured by opts; nil means every default (see
// [FileStoreOptions]). An option out of range is an error naming it and
// its bound. Each session is the file <dir>/<escaped id>.jsonl (see
// [SessionFileName]). A store's handles for a session share one FileLog,
// which is closed when the last handle is closed.
//
// Any number of sessions may be open, whatever the process's descriptor
// limit: the store keeps the files of the most recently used ones open,
// within [FileStoreOptions.MaxOpenFiles], and closes the least recently
// used idle ones beyond it (a session with a call in progress is never
// closed, so while more calls than that are in flight, more files are
// open). A closed session's file is not locked: another process may open
// it and append meanwhile. Reopening takes the lock again (a session that
// another process holds fails with ErrLocked until it lets go) and reads
// again a file that changed, so the log goes on from what the file holds
// and a conditional append on a head read before fails with ErrConflict.
func NewFileStore(dir string, opts *FileStoreOptions) (*FileStore, error) {
	var o FileStoreOptions
	if opts != nil {
		o = *opts
	}
	maxFiles, tailBudget := o.MaxOpenFiles, o.TailBudget
	switch {
	case maxFiles == 0:
		maxFiles = defaultMaxFiles()
	case maxFiles < 2:
		return nil, fmt.Errorf("sessionlog: FileStoreOptions.MaxOpenFiles %d: want at least 2 (an open session holds 2 descriptors, its log and its lock), or 0 for the default", maxFiles)
	}
	switch {
	case tailBudget == 0:
		tailBudget = DefaultTailBudget
	case tailBudget == NoTailBudget:
		tailBudget = 0
	case tailBudget < 0:
		return nil, fmt.Errorf("sessionlog: FileStoreOptions.TailBudget %d bytes: want at least 1, 0 for DefaultTailBudget, or NoTailBudget (%d) to keep no events in memory", tailBudget, NoTailBudget)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sessionlog: file store: %w", err)
	}
	return &FileStore{dir: dir, maxFiles: maxFiles, shared: newLogShared(tailBudget), sessions: make(map[string]*sharedFile)}, nil
}

// Bounds of the default descriptor budget.
const (
	maxDefaultFiles      = 32768
	minDefaultFiles      = 16
	fallbackDefaultFiles = 4096
)

// budgetFor is the default descriptor budget under a soft limit.
func budgetFor(soft uint64) int {
	return int(max(minDefaultFiles, min(soft/2, maxDefaultFiles)))
}

// Path returns the file that holds the session's log.
func (s *FileStore) Path(sessionID string) string {
	return filepath.Join(s.dir, SessionFileName(sessionID))
}

// Open is OpenHandle for callers that need only a Log.
func (s *FileStore) Open(ctx context.Context, sessionID string) (Log, error) {
	h, err := s.OpenHandle(ctx, sessionID)
	if err != nil {
		// Not h: a nil *FileHandle would make a non-nil Log.
		return nil, err
	}
	return h, nil
}

// OpenHandle returns a handle on the session's log, opening the file if no
// handle is open. The handle's Recovery method reports what opening repaired.
func (s *FileStore) OpenHandle(ctx context.Context, sessionID string) (*FileHandle, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessionlog: open session: %w", err)
	}
	if err := checkSessionID(sessionID); err != nil {
		return nil, err
	}
	s.mu.Lock()
	of := s.sessions[sessionID]
	if of == nil {
		of = &sharedFile{id: sessionID}
		s.sessions[sessionID] = of
	}
	of.refs++
	s.mu.Unlock()
	if _, err := s.pin(ctx, of); err != nil {
		_ = s.release(of)
		return nil, fmt.Errorf("sessionlog: open session %q: %w", sessionID, err)
	}
	s.unpin(of)
	return &FileHandle{store: s, of: of}, nil
}

// pin makes the session's file open, opening it (and closing others beyond
// the budget) if needed, and keeps it open until unpin.
func (s *FileStore) pin(ctx context.Context, of *sharedFile) (*FileLog, error) {
	s.mu.Lock()
	of.busy++
	for !of.open {
		if ch := of.moving; ch != nil {
			s.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				s.unpin(of)
				return nil, ctx.Err()
			}
			s.mu.Lock()
			continue
		}
		ch := make(chan struct{})
		of.moving = ch
		s.mu.Unlock()
		l, err := s.openLog(of)
		s.mu.Lock()
		of.moving = nil
		close(ch)
		if err != nil {
			of.busy--
			s.mu.Unlock()
			return nil, err
		}
		of.log, of.open = l, true
		of.elem = s.lru.PushFront(of)
	}
	s.lru.MoveToFront(of.elem)
	victims := s.overBudgetLocked()
	s.mu.Unlock()
	s.suspend(victims)
	return of.log, nil
}

// openLog opens the session's file: the first time with OpenFile, later by
// resuming the log suspend closed.
func (s *FileStore) openLog(of *sharedFile) (*FileLog, error) {
	if of.log == nil {
		l, _, err := openFile(s.Path(of.id), fileOptions{chunk: defaultChunk, every: defaultIndexEvery, shared: s.shared})
		return l, err
	}
	return of.log, of.log.resume()
}

// unpin ends a call that pin began.
func (s *FileStore) unpin(of *sharedFile) {
	s.mu.Lock()
	of.busy--
	victims := s.overBudgetLocked()
	s.mu.Unlock()
	s.suspend(victims)
}

// overBudgetLocked picks the least recently used idle sessions to close
// while more files are open than the budget allows, and marks them
// closing. s.mu must be held.
func (s *FileStore) overBudgetLocked() []*sharedFile {
	var victims []*sharedFile
	for e := s.lru.Back(); e != nil && 2*s.lru.Len() > s.maxFiles; {
		prev := e.Prev()
		if of := e.Value.(*sharedFile); of.busy == 0 && of.moving == nil {
			s.lru.Remove(e)
			of.elem, of.open, of.moving = nil, false, make(chan struct{})
			victims = append(victims, of)
		}
		e = prev
	}
	return victims
}

// suspend closes the files of sessions overBudgetLocked picked.
func (s *FileStore) suspend(victims []*sharedFile) {
	for _, of := range victims {
		// A close error loses nothing: every append was fsynced, and
		// closing the descriptor drops its lock in any case.
		_ = of.log.suspend()
		s.mu.Lock()
		close(of.moving)
		of.moving = nil
		s.mu.Unlock()
	}
}

// release drops a handle; the last one closes the session's log.
func (s *FileStore) release(of *sharedFile) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	of.refs--
	for of.refs == 0 && of.moving != nil {
		ch := of.moving
		s.mu.Unlock()
		<-ch
		s.mu.Lock()
	}
	if of.refs > 0 {
		return nil
	}
	if s.sessions[of.id] == of {
		delete(s.sessions, of.id)
	}
	if of.elem != nil {
		s.lru.Remove(of.elem)
		of.elem = nil
	}
	of.open = false
	if of.log == nil {
		return nil
	}
	return of.log.Close()
}

// FileHandle is a FileStore's handle on one session's log. Closing it
// closes the file only when it is the session's last open handle.
type FileHandle struct {
	store  *FileStore
	of     *sharedFile
	closed atomic.Bool
}

var (
	_ Log        = (*FileHandle)(nil)
	_ TypeSeeker = (*FileHandle)(nil)
)

// use pins the session's file for one call of op.
func (h *FileHandle) use(ctx context.Context, op string) (*FileLog, error) {
	if h.closed.Load() {
		return nil, fmt.Errorf("sessionlog: %s: %w", op, ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessionlog: %s: %w", op, err)
	}
	l, err := h.store.pin(ctx, h.of)
	if err != nil {
		return nil, fmt.Errorf("sessionlog: %s: session %q: %w", op, h.of.id, err)
	}
	return l, nil
}

// Append implements Log.
func (h *FileHandle) Append(ctx context.Context, recs ...Record) (Head, error) {
	l, err := h.use(ctx, "append")
	if err != nil {
		return Head{}, err
	}
	defer h.store.unpin(h.of)
	return l.Append(ctx, recs...)
}

// AppendIf implements Log.
func (h *FileHandle) AppendIf(ctx context.Context, expect uint64, recs ...Record) (Head, error) {
	l, err := h.use(ctx, "append")
	if err != nil {
		return Head{}, err
	}
	defer h.store.unpin(h.of)
	return l.AppendIf(ctx, expect, recs...)
}

// ReadBackward implements Log.
func (h *FileHandle) ReadBackward(ctx context.Context, before, after uint64, limit int) (Page, error) {
	l, err := h.use(ctx, "read")
	if err != nil {
		return Page{}, err
	}
	defer h.store.unpin(h.of)
	return l.ReadBackward(ctx, before, after, limit)
}

// Head implements Log.
func (h *FileHandle) Head(ctx context.Context) (Head, error) {
	l, err := h.use(ctx, "head")
	if err != nil {
		return Head{}, err
	}
	defer h.store.unpin(h.of)
	return l.Head(ctx)
}

// NewestOfType implements TypeSeeker.
func (h *FileHandle) NewestOfType(ctx context.Context, typ string) (uint64, Head, bool, error) {
	l, err := h.use(ctx, "seek")
	if err != nil {
		return 0, Head{}, false, err
	}
	defer h.store.unpin(h.of)
	return l.NewestOfType(ctx, typ)
}

// Close implements Log.
func (h *FileHandle) Close() error {
	if !h.closed.CompareAndSwap(false, true) {
		return nil
	}
	return h.store.release(h.of)
}

// Recovery returns what opening the session's file repaired.
func (h *FileHandle) Recovery() Recovery { return h.of.log.Recovery() }

// Path returns the session's file.
func (h *FileHandle) Path() string { return h.store.Path(h.of.id) }
