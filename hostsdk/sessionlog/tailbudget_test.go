package sessionlog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bigRecord is a message of about size bytes whose body names i.
func bigRecord(i, size int) Record {
	head := fmt.Sprintf(`"event %d: `, i)
	return Record{Type: TypeMessage, Source: []byte(fmt.Sprintf(`{"kind":"skill-catalog","n":%d}`, i)), Body: []byte(head + strings.Repeat("x", size-len(head)-1) + `"`)}
}

// tailsHeld adds up the bytes the tails of the store's open sessions hold:
// those of every append they keep an event of, counted from the records
// of those appends, which the log files hold. It fails unless that covers
// the events' own bytes.
func tailsHeld(t *testing.T, s *FileStore) int {
	t.Helper()
	s.mu.Lock()
	logs := make([]*FileLog, 0, len(s.sessions))
	for _, of := range s.sessions {
		if of.log != nil {
			logs = append(logs, of.log)
		}
	}
	s.mu.Unlock()
	held := 0
	for _, l := range logs {
		l.mu.RLock()
		tail := l.tail
		l.mu.RUnlock()
		held += appendsHeld(t, l, tail)
	}
	return held
}

// appendsHeld adds up the bytes of the appends tail holds events of, read
// back from l's file.
func appendsHeld(t *testing.T, l *FileLog, tail []tailEvent) int {
	t.Helper()
	if len(tail) == 0 {
		return 0
	}
	own := 0
	for _, ev := range tail {
		own += eventBytes(ev.Type, ev.Source, ev.Body)
	}
	f, err := os.ReadFile(l.path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(f, []byte("\n"))
	held, from := 0, tail[0].from
	for seq := from; seq <= tail[len(tail)-1].Seq; seq++ {
		p := parseLine(lines[seq-1], seq)
		held += eventBytes(p.typ, p.source, p.body)
	}
	if held < own {
		t.Fatalf("the appends of a tail hold %d bytes, less than its events' %d", held, own)
	}
	return held
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestFileStoreTailsStayWithinBudget: many open sessions of one store,
// each appending an event of its own too large for an ordinary tail. The
// events their tails keep add up to no more than the store's budget after
// every append, the session that appended last keeps its event, the
// store's count is what the tails hold, and the heap they leave behind
// stays near the budget, not near the sum of the events. Every session
// still reads back its own event.
func TestFileStoreTailsStayWithinBudget(t *testing.T) {
	const (
		budget   = 1 << 20
		sessions = 64
		size     = 100 << 10 // within a tail's share of the budget (1/8)
	)
	s, logs := budgetSessions(t, budget, sessions)
	ctx := context.Background()
	before := liveHeap()
	for i, l := range logs {
		if _, err := l.Append(ctx, bigRecord(i, size)); err != nil {
			t.Fatal(err)
		}
		held := tailsHeld(t, s)
		if held > budget {
			t.Fatalf("after %d sessions appended %d bytes each, their tails hold %d bytes, over the budget of %d", i+1, size, held, budget)
		}
		checkTailCount(t, s, held)
		if of := s.sessions[fmt.Sprintf("s%02d", i)]; len(of.log.tail) != 1 {
			t.Fatalf("the session that appended last keeps %d events in its tail, want its new one", len(of.log.tail))
		}
	}
	grown := liveHeap() - before
	t.Logf("the heap grew by %d bytes", grown)
	if grown > 3*budget {
		t.Errorf("%d sessions with a %d-byte event each left %d bytes more on the heap, want at most %d (a budget of %d)", sessions, size, grown, 3*budget, budget)
	}
	for i, l := range logs {
		p, err := l.ReadBackward(ctx, 0, 0, 2)
		want := bigRecord(i, size)
		if err != nil || len(p.Events) != 1 || string(p.Events[0].Body) != string(want.Body) || string(p.Events[0].Source) != string(want.Source) {
			t.Fatalf("session %d reads back %d events, err %v; want its own event", i, len(p.Events), err)
		}
	}
}

// TestTailKeepsNoEventBeyondItsShare: an event larger than a tail's share
// of the budget is not kept in memory, newest or not; it reads back from
// the file.
func TestTailKeepsNoEventBeyondItsShare(t *testing.T) {
	const budget = 1 << 20
	s, err := NewFileStore(t.TempDir(), &FileStoreOptions{TailBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	big := bigRecord(1, budget/2)
	if _, err := l.Append(ctx, big); err != nil {
		t.Fatal(err)
	}
	if held := tailsHeld(t, s); held != 0 {
		t.Errorf("after an event of %d bytes, half the budget of %d, the tail holds %d bytes; want none", len(big.Body), budget, held)
	}
	p, err := l.ReadBackward(ctx, 0, 0, 1)
	if err != nil || len(p.Events) != 1 || string(p.Events[0].Body) != string(big.Body) {
		t.Fatalf("the event reads back as %d events, err %v", len(p.Events), err)
	}
}

// checkTailCount fails unless the store's count of its tails' bytes is
// what they hold.
func checkTailCount(t *testing.T, s *FileStore, held int) {
	t.Helper()
	if counted := s.shared.tails.held(); counted != held {
		t.Fatalf("the store counts %d bytes in its tails, and they hold %d", counted, held)
	}
}

// TestTailBudgetIsChecked: a negative budget other than NoTailBudget is
// refused, naming the option and its bound; NoTailBudget keeps no events
// in memory.
func TestTailBudgetIsChecked(t *testing.T) {
	for _, n := range []int{-2, -1 << 20} {
		if _, err := NewFileStore(t.TempDir(), &FileStoreOptions{TailBudget: n}); err == nil ||
			!strings.Contains(err.Error(), "FileStoreOptions.TailBudget") || !strings.Contains(err.Error(), "at least 1") {
			t.Errorf("TailBudget %d: error %v, want one naming the option and its bound", n, err)
		}
	}
	s, err := NewFileStore(t.TempDir(), &FileStoreOptions{TailBudget: NoTailBudget})
	if err != nil {
		t.Fatalf("TailBudget NoTailBudget: %v", err)
	}
	l, err := s.Open(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(context.Background(), Record{Type: TypeMessage, Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if held := tailsHeld(t, s); held != 0 {
		t.Errorf("with NoTailBudget the tails hold %d bytes", held)
	}
}

// tailRead is one read that TestTailEvictionReadsMatch makes of every
// session after every append.
type tailRead struct {
	before, after uint64
	limit         int
}

// TestTailEvictionReadsMatch runs the same appends on stores whose tails
// are never dropped, always dropped (NoTailBudget), dropped by a small
// budget, and dropped by a small budget while sessions' files are closed
// and reopened: every read of every session after every append returns
// the same page from each.
func TestTailEvictionReadsMatch(t *testing.T) {
	const sessions, rounds = 5, 24
	stores := map[string]*FileStoreOptions{
		"never":           {TailBudget: 1 << 30},
		"none":            {TailBudget: NoTailBudget},
		"small":           {TailBudget: 12 << 10},
		"small,reopening": {TailBudget: 12 << 10, MaxOpenFiles: 4},
	}
	logs, opened := make(map[string][]Log), make(map[string]*FileStore)
	for name, opts := range stores {
		s, err := NewFileStore(t.TempDir(), opts)
		if err != nil {
			t.Fatal(err)
		}
		opened[name] = s
		for i := range sessions {
			l, err := s.Open(context.Background(), fmt.Sprintf("s%d", i))
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			logs[name] = append(logs[name], l)
		}
	}
	reads := []tailRead{{0, 0, 1}, {0, 0, 4}, {0, 3, 100}, {5, 0, 2}}
	heads := make([]uint64, sessions)
	for r := range rounds {
		i := r * 7 % sessions
		recs := evictionRecords(r, heads[i])
		heads[i] += uint64(len(recs))
		for _, name := range []string{"never", "none", "small", "small,reopening"} {
			if _, err := logs[name][i].Append(context.Background(), recs...); err != nil {
				t.Fatalf("%s: round %d: %v", name, r, err)
			}
		}
		for _, name := range []string{"small", "small,reopening"} {
			held := tailsHeld(t, opened[name])
			checkTailCount(t, opened[name], held)
			if held > 12<<10 {
				t.Fatalf("round %d: the store %q keeps %d bytes in its tails, over its budget", r, name, held)
			}
		}
		for j := range sessions {
			for _, rd := range reads {
				want := readPage(t, logs["never"][j], rd)
				for _, name := range []string{"none", "small", "small,reopening"} {
					if got := readPage(t, logs[name][j], rd); !reflect.DeepEqual(want, got) {
						diff := cmp.Diff(want, got)
						t.Fatalf("round %d, session %d, read %+v: the store %q differs from one that keeps every tail (-kept +%s):\n%s", r, j, rd, name, name, diff)
					}
				}
			}
		}
	}
}

// evictionRecords is what round r of TestTailEvictionReadsMatch appends
// to a log whose head is at head: events small and large (beyond a tail's
// ordinary bound and beyond the share of the small budget), with sources
// of every kind, several at once, and a compaction of the newest events.
func evictionRecords(r int, head uint64) []Record {
	sizes := []int{40, 3 << 10, 70 << 10, 500, 9 << 10}
	sources := [][]byte{nil, {}, []byte(`{"kind":"skill-catalog"}`), []byte(" not json "), {0xff, 0x00}}
	var recs []Record
	for k := range 1 + r%3 {
		rec := bigRecord(r*10+k, sizes[(r+k)%len(sizes)])
		rec.Source = sources[(r+2*k)%len(sources)]
		recs = append(recs, rec)
	}
	if r%4 == 3 && head > 0 {
		recs = append(recs, Record{Type: TypeCompaction, Body: []byte(`{}`), Hide: &Range{From: max(1, head-1), To: head}})
	}
	return recs
}

// readPage reads rd from l, as a page whose bytes are strings (nil ones
// marked), which cmp compares quickly.
func readPage(t *testing.T, l Log, rd tailRead) comparablePage {
	t.Helper()
	p, err := l.ReadBackward(context.Background(), rd.before, rd.after, rd.limit)
	if err != nil {
		t.Fatalf("read %+v: %v", rd, err)
	}
	out := comparablePage{Head: p.Head, More: p.More}
	for _, ev := range p.Events {
		out.Events = append(out.Events, comparableEvent{
			Seq: ev.Seq, Type: ev.Type, Visible: ev.Visible,
			Source: bytesString(ev.Source), Body: bytesString(ev.Body), Raw: bytesString(ev.Raw),
		})
	}
	return out
}

type comparablePage struct {
	Events []comparableEvent
	Head   Head
	More   bool
}

type comparableEvent struct {
	Seq               uint64
	Type              string
	Visible           bool
	Source, Body, Raw *string
}

func bytesString(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// TestTailBudgetUnderConcurrency: goroutines append to, read and reopen
// sessions of one store at once, with a budget a few events fill and room
// for three open files. Every read returns what its session's writer
// appended last; afterwards the tails hold what the store counts, within
// the budget, and nothing once every session is closed.
func TestTailBudgetUnderConcurrency(t *testing.T) {
	const budget, writers, sessionsEach, appends = 48 << 10, 6, 2, 30
	s, err := NewFileStore(t.TempDir(), &FileStoreOptions{TailBudget: budget, MaxOpenFiles: 6})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	errs := make(chan error, writers)
	var open sync.WaitGroup
	handles := make(chan Log, writers*sessionsEach)
	for w := range writers {
		open.Add(1)
		go func() {
			defer open.Done()
			errs <- concurrentWriter(ctx, s, w, sessionsEach, appends, handles)
		}()
	}
	open.Wait()
	close(errs)
	close(handles)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	held := tailsHeld(t, s)
	checkTailCount(t, s, held)
	if held > budget {
		t.Fatalf("the tails hold %d bytes, over the budget of %d", held, budget)
	}
	for l := range handles {
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if counted := s.shared.tails.held(); counted != 0 {
		t.Errorf("with every session closed the store counts %d bytes in tails", counted)
	}
}

// concurrentWriter appends events of varied sizes to its own sessions,
// reads each back and now and then reopens a session; it hands the
// handles it leaves open to handles.
func concurrentWriter(ctx context.Context, s *FileStore, w, sessions, appends int, handles chan<- Log) error {
	logs := make([]Log, sessions)
	for i := range logs {
		var err error
		if logs[i], err = s.Open(ctx, fmt.Sprintf("w%d-s%d", w, i)); err != nil {
			return err
		}
	}
	sizes := []int{100, 5 << 10, 20 << 10, 2 << 10, 70 << 10}
	for k := range appends {
		i := k % sessions
		rec := bigRecord(w*1000+k, sizes[(w+k)%len(sizes)])
		if _, err := logs[i].Append(ctx, rec); err != nil {
			return err
		}
		p, err := logs[i].ReadBackward(ctx, 0, 0, 2)
		if err != nil {
			return err
		}
		if len(p.Events) == 0 || string(p.Events[0].Body) != string(rec.Body) {
			return fmt.Errorf("writer %d, session %d: the newest event read back is not the one appended", w, i)
		}
		if k%7 == 6 {
			if err := logs[i].Close(); err != nil {
				return err
			}
			if logs[i], err = s.Open(ctx, fmt.Sprintf("w%d-s%d", w, i)); err != nil {
				return err
			}
		}
	}
	for _, l := range logs {
		handles <- l
	}
	return nil
}

// TestTailChargesWhatItPins: the records of one append may share memory,
// as a host's are (their bodies encoded into one buffer). Sessions append
// a large message and a small one whose bodies lie in one buffer; the heap
// those sessions leave behind stays near the budget, so a small event
// kept in memory does not hold its large neighbour's bytes unaccounted.
func TestTailChargesWhatItPins(t *testing.T) {
	const (
		budget   = 1 << 20
		sessions = 64
		size     = 100 << 10
	)
	s, logs := budgetSessions(t, budget, sessions)
	ctx := context.Background()
	before := liveHeap()
	for i, l := range logs {
		big, small := bigRecord(i, size), bigRecord(-i, 100)
		buf := append(append([]byte(nil), big.Body...), small.Body...)
		big.Body, small.Body = buf[:len(big.Body):len(big.Body)], buf[len(big.Body):]
		if _, err := l.Append(ctx, big, small); err != nil {
			t.Fatal(err)
		}
		held := tailsHeld(t, s)
		checkTailCount(t, s, held)
		if held > budget {
			t.Fatalf("after %d sessions the tails are charged %d bytes, over the budget of %d", i+1, held, budget)
		}
		if of := s.sessions[fmt.Sprintf("s%02d", i)]; len(of.log.tail) != 2 {
			t.Fatalf("the session that appended last keeps %d events in its tail, want both it appended", len(of.log.tail))
		}
	}
	grown := liveHeap() - before
	t.Logf("the heap grew by %d bytes", grown)
	if grown > 3*budget {
		t.Errorf("%d sessions with %d bytes in one append each left %d bytes more on the heap, want at most %d (a budget of %d)", sessions, size, grown, 3*budget, budget)
	}
}

// TestTailPinsNoDroppedEvent: sessions append a large event and then a
// small one, which pushes the large one out of the tail; the heap those
// sessions leave behind stays near the budget, so no dropped event is
// still held in memory.
func TestTailPinsNoDroppedEvent(t *testing.T) {
	const (
		budget   = 1 << 20
		sessions = 64
		size     = 100 << 10
	)
	s, logs := budgetSessions(t, budget, sessions)
	ctx := context.Background()
	before := liveHeap()
	for i, l := range logs {
		if _, err := l.Append(ctx, bigRecord(i, size)); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Append(ctx, bigRecord(-i, 100)); err != nil {
			t.Fatal(err)
		}
	}
	checkTailCount(t, s, tailsHeld(t, s))
	grown := liveHeap() - before
	t.Logf("the heap grew by %d bytes", grown)
	if grown > 3*budget {
		t.Errorf("%d sessions with a %d-byte event pushed out of the tail left %d bytes more on the heap, want at most %d (a budget of %d)", sessions, size, grown, 3*budget, budget)
	}
}

// budgetSessions opens n sessions, s00 onwards, in a file store with a
// tail budget of budget bytes; they are closed when the test ends.
func budgetSessions(t *testing.T, budget, n int) (*FileStore, []Log) {
	t.Helper()
	s, err := NewFileStore(t.TempDir(), &FileStoreOptions{TailBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	logs := make([]Log, n)
	for i := range logs {
		if logs[i], err = s.Open(context.Background(), fmt.Sprintf("s%02d", i)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { logs[i].Close() })
	}
	return s, logs
}
