package sessionlog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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

var _ Store = (*MemoryStore)(nil)

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
