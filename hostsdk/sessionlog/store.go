package sessionlog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// handle is what a Store hands out: a view of a shared log that can be
// closed on its own.
type handle struct {
	log     Log
	closed  atomic.Bool
	release func() error
}

func (h *handle) Append(ctx context.Context, recs ...Record) (Head, error) {
	if h.closed.Load() {
		return Head{}, fmt.Errorf("sessionlog: append: %w", ErrClosed)
	}
	return h.log.Append(ctx, recs...)
}

func (h *handle) AppendIf(ctx context.Context, expect uint64, recs ...Record) (Head, error) {
	if h.closed.Load() {
		return Head{}, fmt.Errorf("sessionlog: append: %w", ErrClosed)
	}
	return h.log.AppendIf(ctx, expect, recs...)
}

func (h *handle) ReadBackward(ctx context.Context, before, after uint64, limit int) (Page, error) {
	if h.closed.Load() {
		return Page{}, fmt.Errorf("sessionlog: read: %w", ErrClosed)
	}
	return h.log.ReadBackward(ctx, before, after, limit)
}

func (h *handle) Head(ctx context.Context) (Head, error) {
	if h.closed.Load() {
		return Head{}, fmt.Errorf("sessionlog: head: %w", ErrClosed)
	}
	return h.log.Head(ctx)
}

func (h *handle) Close() error {
	if !h.closed.CompareAndSwap(false, true) {
		return nil
	}
	return h.release()
}

// FileHandle is a FileStore's handle on one session's log. Closing it
// closes the file only when it is the session's last open handle.
type FileHandle struct {
	handle
	file *FileLog
}

var _ Log = (*FileHandle)(nil)

// Recovery returns what opening the session's file repaired.
func (h *FileHandle) Recovery() Recovery { return h.file.Recovery() }

// Path returns the session's file.
func (h *FileHandle) Path() string { return h.file.Path() }

func checkSessionID(id string) error {
	if id == "" {
		return errors.New("sessionlog: empty session id")
	}
	return nil
}

// MemoryStore keeps every session's log in memory for the life of the store.
type MemoryStore struct {
	mu       sync.Mutex
	sessions map[string]Log
}

// NewMemoryStore returns an empty MemoryStore. Closing every handle of a
// session keeps its events: a later Open sees them.
func NewMemoryStore() *MemoryStore { return &MemoryStore{sessions: make(map[string]Log)} }

// Open returns a handle on the session's log, creating it empty if needed.
func (s *MemoryStore) Open(ctx context.Context, sessionID string) (Log, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessionlog: open session: %w", err)
	}
	if err := checkSessionID(sessionID); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.sessions[sessionID]
	if !ok {
		l = NewMemory()
		s.sessions[sessionID] = l
	}
	return &handle{log: l, release: func() error { return nil }}, nil
}

// FileStore keeps one FileLog per session in a directory.
type FileStore struct {
	dir      string
	mu       sync.Mutex
	sessions map[string]*sharedFile
}

var (
	_ Store = (*MemoryStore)(nil)
	_ Store = (*FileStore)(nil)
)

// sharedFile is a session file shared by all its open handles.
type sharedFile struct {
	refs  int
	ready chan struct{} // closed once log or err is set
	log   *FileLog
	err   error
}

// NewFileStore returns a store that keeps session logs in dir, creating it
// if needed. Each session is the file <dir>/<escaped id>.jsonl (see
// SessionFileName). A store's handles for a session share one FileLog, which
// is closed when the last handle is closed.
func NewFileStore(dir string) (*FileStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sessionlog: file store: %w", err)
	}
	return &FileStore{dir: dir, sessions: make(map[string]*sharedFile)}, nil
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
		// Open the file outside the store lock: the open scan reads the
		// whole file, and other sessions should not wait for it.
		of = &sharedFile{refs: 1, ready: make(chan struct{})}
		s.sessions[sessionID] = of
		s.mu.Unlock()
		l, _, err := OpenFile(s.Path(sessionID))
		s.mu.Lock()
		of.log, of.err = l, err
		if err != nil {
			delete(s.sessions, sessionID)
		}
		close(of.ready)
		s.mu.Unlock()
	} else {
		of.refs++
		s.mu.Unlock()
		select {
		case <-of.ready:
		case <-ctx.Done():
			_ = s.release(sessionID, of)
			return nil, fmt.Errorf("sessionlog: open session: %w", ctx.Err())
		}
	}
	if of.err != nil {
		return nil, fmt.Errorf("sessionlog: open session %q: %w", sessionID, of.err)
	}
	return &FileHandle{
		handle: handle{log: of.log, release: func() error { return s.release(sessionID, of) }},
		file:   of.log,
	}, nil
}

func (s *FileStore) release(sessionID string, of *sharedFile) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	of.refs--
	if of.refs > 0 || of.log == nil {
		return nil
	}
	if s.sessions[sessionID] == of {
		delete(s.sessions, sessionID)
	}
	return of.log.Close()
}

// SessionFileName returns the file name a FileStore uses for a session.
// Lower-case ASCII letters, digits, '-' and '_' are kept; every other byte
// becomes %XX (upper-case hex), so names cannot contain separators or be "."
// or "..", and distinct ids never collide even on case-insensitive file
// systems. Names that would grow past 200 bytes keep a prefix and end in
// '~' and a hash of the whole id ('~' never appears otherwise).
func SessionFileName(sessionID string) string {
	const maxName, keep = 200, 160
	var b strings.Builder
	for i := 0; i < len(sessionID); i++ {
		c := sessionID[i]
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte("0123456789ABCDEF"[c>>4])
		b.WriteByte("0123456789ABCDEF"[c&0xf])
	}
	name := b.String()
	if len(name) > maxName {
		cut := keep
		// Do not split a %XX escape.
		if name[cut-1] == '%' {
			cut--
		} else if name[cut-2] == '%' {
			cut -= 2
		}
		sum := sha256.Sum256([]byte(sessionID))
		name = name[:cut] + "~" + hex.EncodeToString(sum[:16])
	}
	return name + ".jsonl"
}
