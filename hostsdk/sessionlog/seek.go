package sessionlog

import (
	"context"
	"fmt"
)

// TypeSeeker is implemented by logs that can name the newest event of a
// type without reading the events after it, so a reader looking for a rare
// record (a skill selection, say) in a long log does not page through all
// of it. The logs of this package implement it (NewMemory's, FileLog, and
// the handles of MemoryStore and FileStore), and so does pglog's.
type TypeSeeker interface {
	// NewestOfType returns the seq of the newest event of type typ (0 when
	// there is none) as of head. ok is false when the log cannot tell —
	// it keeps track of a bounded number of types, or the log under a
	// handle does not implement TypeSeeker — and the caller must read
	// backward instead.
	NewestOfType(ctx context.Context, typ string) (seq uint64, head Head, ok bool, err error)
}

// maxTrackedTypes bounds the types a log remembers the newest event of. The
// types a host writes are few; a log with more (written by other tools)
// answers ok=false for types it did not meet among the first ones.
const maxTrackedTypes = 64

// typeIndex is the newest seq of each type a log holds, for the first
// maxTrackedTypes types. It is not safe for concurrent use; logs guard it
// with their own lock.
type typeIndex struct {
	newest map[string]uint64
	full   bool // a type was not tracked for want of room
}

// typeAt is one event's type and seq.
type typeAt struct {
	typ string
	seq uint64
}

// note records that the event numbered seq, newer than every event noted
// before, has type typ.
func (x *typeIndex) note(typ string, seq uint64) {
	if typ == "" {
		return // not a record: nothing asks for it
	}
	if x.newest == nil {
		x.newest = make(map[string]uint64)
	}
	if _, ok := x.newest[typ]; ok || len(x.newest) < maxTrackedTypes {
		x.newest[typ] = seq
		return
	}
	x.full = true
}

// lookup answers NewestOfType from the index.
func (x *typeIndex) lookup(typ string) (seq uint64, ok bool) {
	if seq, ok := x.newest[typ]; ok {
		return seq, true
	}
	return 0, !x.full
}

// NewestOfType implements TypeSeeker.
func (m *memoryLog) NewestOfType(ctx context.Context, typ string) (uint64, Head, bool, error) {
	if err := ctx.Err(); err != nil {
		return 0, Head{}, false, fmt.Errorf("sessionlog: seek: %w", err)
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return 0, Head{}, false, fmt.Errorf("sessionlog: seek: %w", ErrClosed)
	}
	seq, ok := m.types.lookup(typ)
	return seq, m.head(), ok, nil
}

// NewestOfType implements TypeSeeker.
func (l *FileLog) NewestOfType(ctx context.Context, typ string) (uint64, Head, bool, error) {
	if err := ctx.Err(); err != nil {
		return 0, Head{}, false, fmt.Errorf("sessionlog: seek: %w", err)
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return 0, Head{}, false, fmt.Errorf("sessionlog: seek: %w", ErrClosed)
	}
	seq, ok := l.types.lookup(typ)
	return seq, l.head, ok, nil
}

// NewestOfType implements TypeSeeker when the shared log does.
func (h *handle) NewestOfType(ctx context.Context, typ string) (uint64, Head, bool, error) {
	if h.closed.Load() {
		return 0, Head{}, false, fmt.Errorf("sessionlog: seek: %w", ErrClosed)
	}
	s, ok := h.log.(TypeSeeker)
	if !ok {
		head, err := h.log.Head(ctx)
		return 0, head, false, err
	}
	return s.NewestOfType(ctx, typ)
}
