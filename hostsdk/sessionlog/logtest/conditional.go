package logtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// testAppendIf checks the condition of AppendIf one call at a time.
func testAppendIf(t *testing.T, l sessionlog.Log) {
	ctx := context.Background()
	m := &model{}

	h, err := l.AppendIf(ctx, 0, msg(1))
	if err != nil {
		t.Fatalf("AppendIf(0) on an empty log: %v", err)
	}
	m.append(msg(1))
	if h != m.head() {
		t.Fatalf("AppendIf returned head %+v, want %+v", h, m.head())
	}

	// A stale expectation writes nothing, whatever it is.
	for _, stale := range []uint64{0, 2, 100} {
		_, err := l.AppendIf(ctx, stale, msg(99))
		if !errors.Is(err, sessionlog.ErrConflict) {
			t.Fatalf("AppendIf(%d) at head 1: error %v, want ErrConflict", stale, err)
		}
		var ce *sessionlog.ConflictError
		if !errors.As(err, &ce) || ce.Expected != stale || ce.Head != m.head() {
			t.Fatalf("AppendIf(%d) at head 1: error %v, want a *ConflictError naming %d and head %+v", stale, err, stale, m.head())
		}
		checkHead(t, l, m)
	}
	// The condition comes before validation, and a conflict is reported
	// even for records that would be invalid.
	if _, err := l.AppendIf(ctx, 7, sessionlog.Record{}); !errors.Is(err, sessionlog.ErrConflict) {
		t.Fatalf("AppendIf(7) of an invalid record at head 1: error %v, want ErrConflict", err)
	}
	// On the right head, validation still applies.
	if _, err := l.AppendIf(ctx, 1, msg(2), sessionlog.Record{}); !errors.Is(err, sessionlog.ErrInvalidRecord) {
		t.Fatalf("AppendIf(1) with an invalid record: error %v, want ErrInvalidRecord", err)
	}
	checkHead(t, l, m)

	// Several records, including a hide, in one conditional append.
	recs := []sessionlog.Record{msg(2), compaction(1, 2)}
	h, err = l.AppendIf(ctx, 1, recs...)
	if err != nil {
		t.Fatalf("AppendIf(1): %v", err)
	}
	m.append(recs...)
	if h != m.head() {
		t.Fatalf("AppendIf returned head %+v, want %+v", h, m.head())
	}
	// No records: the head if it matches, a conflict if not.
	if h, err := l.AppendIf(ctx, 3); err != nil || h != m.head() {
		t.Fatalf("AppendIf(3) with no records = %+v, %v; want %+v", h, err, m.head())
	}
	if _, err := l.AppendIf(ctx, 2); !errors.Is(err, sessionlog.ErrConflict) {
		t.Fatalf("AppendIf(2) with no records at head 3: error %v, want ErrConflict", err)
	}
	checkAll(t, l, m, 2)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l.AppendIf(cancelled, 3, msg(4)); !errors.Is(err, context.Canceled) {
		t.Fatalf("AppendIf with a cancelled context: error %v, want context.Canceled", err)
	}
	checkAll(t, l, m, 10)
}

// testAppendIfConcurrent races writers that each read the head and append
// on it: every head is won by exactly one of them.
func testAppendIfConcurrent(t *testing.T, l sessionlog.Log) {
	raceAppendIf(t, []sessionlog.Log{l}, l)
}

// raceAppendIf runs writers over the given handles of one log, each
// appending a fixed number of records with AppendIf on the head it read,
// retrying on conflict, while plain appends interleave. It then checks that
// no head was won twice and nothing was lost or duplicated.
func raceAppendIf(t *testing.T, handles []sessionlog.Log, check sessionlog.Log) {
	t.Helper()
	const writers, perWriter = 6, 8
	r := &appendRace{won: make(map[uint64]string), errs: make(chan error, writers+1)}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.write(handles[w%len(handles)], w, perWriter)
		}()
	}
	wg.Wait()
	close(r.errs)
	for err := range r.errs {
		t.Error(err)
	}
	r.check(t, check, writers*perWriter)
}

// appendRace is what the writers of raceAppendIf share: the body that won
// each expected head, the unconditional appends made, and the errors.
type appendRace struct {
	mu    sync.Mutex
	won   map[uint64]string // expected head → winner
	plain int
	errs  chan error
}

// write makes n conditional appends of writer w on l, each retried on a
// conflict until it wins, and an unconditional one after every third.
func (r *appendRace) write(l sessionlog.Log, w, n int) {
	ctx := context.Background()
	for i := range n {
		body := fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)
		if err := r.appendIf(ctx, l, body); err != nil {
			r.errs <- err
			return
		}
		if i%3 == 0 {
			// Unconditional appends move the head too.
			if _, err := l.Append(ctx, sessionlog.Record{Type: "message", Body: []byte(`{"plain":true}`)}); err != nil {
				r.errs <- fmt.Errorf("Append: %w", err)
				return
			}
			r.mu.Lock()
			r.plain++
			r.mu.Unlock()
		}
	}
}

// appendIf appends body on the head it reads, until the append wins.
func (r *appendRace) appendIf(ctx context.Context, l sessionlog.Log, body string) error {
	for {
		h, err := l.Head(ctx)
		if err != nil {
			return fmt.Errorf("Head: %w", err)
		}
		got, err := l.AppendIf(ctx, h.Seq, sessionlog.Record{Type: "message", Body: []byte(body)})
		if errors.Is(err, sessionlog.ErrConflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("AppendIf: %w", err)
		}
		if got.Seq != h.Seq+1 {
			r.errs <- fmt.Errorf("AppendIf(%d) returned head %d, want %d", h.Seq, got.Seq, h.Seq+1)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if prev, dup := r.won[h.Seq]; dup {
			r.errs <- fmt.Errorf("head %d won twice: by %s and %s", h.Seq, prev, body)
		}
		r.won[h.Seq] = body
		return nil
	}
}

// check reads the log back: every winner at the seq after the head it
// expected, once, and conditional winners in all.
func (r *appendRace) check(t *testing.T, l sessionlog.Log, conditional int) {
	t.Helper()
	total := conditional + r.plain
	p, err := l.ReadBackward(context.Background(), 0, 0, total+1)
	if err != nil {
		t.Fatalf("ReadBackward: %v", err)
	}
	if len(p.Events) != total || p.More || p.Head.Seq != uint64(total) {
		t.Fatalf("read %d events (More=%v, head %d), want %d", len(p.Events), p.More, p.Head.Seq, total)
	}
	bySeq := make(map[uint64]string, len(p.Events))
	count := make(map[string]int)
	for _, e := range p.Events {
		bySeq[e.Seq] = string(e.Body)
		count[string(e.Body)]++
	}
	for expect, body := range r.won {
		if bySeq[expect+1] != body {
			t.Errorf("AppendIf(%d) succeeded with %s, but seq %d holds %s", expect, body, expect+1, bySeq[expect+1])
		}
		if count[body] != 1 {
			t.Errorf("%s stored %d times, want once", body, count[body])
		}
	}
	if len(r.won) != conditional {
		t.Errorf("%d conditional appends succeeded, want %d", len(r.won), conditional)
	}
}

// testAppendIfAcrossHandles races conditional appends through two handles
// on one session: the condition holds across handles.
func testAppendIfAcrossHandles(t *testing.T, s sessionlog.Store) {
	a := openOK(t, s, "conditional")
	b := openOK(t, s, "conditional")
	raceAppendIf(t, []sessionlog.Log{a, b}, a)
}
