package sessionlog

import (
	"context"
	"fmt"
	"sync"
)

// NewMemory returns a Log held in memory. It is durable only for the life of
// the process; use it for tests and for runtimes that keep no history.
func NewMemory() Log { return &memoryLog{} }

type memoryEvent struct {
	typ    string
	source []byte
	body   []byte
}

type memoryLog struct {
	mu     sync.RWMutex
	closed bool
	events []memoryEvent // events[i] has seq i+1
	rev    uint64
	hidden hiddenSet
	types  typeIndex
}

func (m *memoryLog) Append(ctx context.Context, recs ...Record) (Head, error) {
	return m.append(ctx, nil, recs)
}

func (m *memoryLog) AppendIf(ctx context.Context, expect uint64, recs ...Record) (Head, error) {
	return m.append(ctx, &expect, recs)
}

func (m *memoryLog) append(ctx context.Context, expect *uint64, recs []Record) (Head, error) {
	if err := ctx.Err(); err != nil {
		return Head{}, fmt.Errorf("sessionlog: append: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Head{}, fmt.Errorf("sessionlog: append: %w", ErrClosed)
	}
	if err := checkExpected(expect, m.head()); err != nil {
		return Head{}, fmt.Errorf("sessionlog: append: %w", err)
	}
	if err := validateAll(uint64(len(m.events)), recs); err != nil {
		return Head{}, fmt.Errorf("sessionlog: append: %w", err)
	}
	for _, r := range recs {
		// The slices are kept as handed over: the caller no longer
		// modifies them (see Log), and readers share them.
		m.events = append(m.events, memoryEvent{typ: r.Type, source: r.Source, body: r.Body})
		m.types.note(r.Type, uint64(len(m.events)))
		if r.Hide != nil {
			m.hidden.add(*r.Hide)
			m.rev++
		}
	}
	return m.head(), nil
}

func (m *memoryLog) head() Head {
	return Head{Seq: uint64(len(m.events)), SurfaceRevision: m.rev}
}

func (m *memoryLog) ReadBackward(ctx context.Context, before, after uint64, max int) (Page, error) {
	if err := ctx.Err(); err != nil {
		return Page{}, fmt.Errorf("sessionlog: read: %w", err)
	}
	if max <= 0 {
		return Page{}, fmt.Errorf("sessionlog: read: max must be positive, got %d", max)
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return Page{}, fmt.Errorf("sessionlog: read: %w", ErrClosed)
	}
	page := Page{Head: m.head()}
	seq := upperBound(page.Head.Seq, before)
	for ; seq > after && len(page.Events) < max; seq-- {
		e := m.events[seq-1]
		page.Events = append(page.Events, Event{
			Seq:     seq,
			Type:    e.typ,
			Source:  e.source,
			Body:    e.body,
			Visible: !m.hidden.hidden(seq),
		})
	}
	page.More = seq > after
	return page, nil
}

// upperBound is the newest seq a read bounded by before may return.
func upperBound(head, before uint64) uint64 {
	if before != 0 && before-1 < head {
		return before - 1
	}
	return head
}

func (m *memoryLog) Head(ctx context.Context) (Head, error) {
	if err := ctx.Err(); err != nil {
		return Head{}, fmt.Errorf("sessionlog: head: %w", err)
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.closed {
		return Head{}, fmt.Errorf("sessionlog: head: %w", ErrClosed)
	}
	return m.head(), nil
}

func (m *memoryLog) Close() error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	return nil
}
