package sessionlog

import (
	"bufio"
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
)

const (
	// defaultChunk is how much a backward read fetches at a time.
	defaultChunk = 64 << 10
	// defaultIndexEvery is the spacing of the sparse seq→offset index. A
	// read that ends in the middle of the log scans forward at most this
	// many lines from a checkpoint.
	defaultIndexEvery = 256
)

// ErrLocked is returned by OpenFile when another open FileLog, in this
// process or another, holds the file.
var ErrLocked = errors.New("sessionlog: log file is already open")

// Recovery reports what OpenFile repaired or tolerated.
type Recovery struct {
	// TornTailBytes is the length of an unterminated last line that was
	// truncated away: the remains of an Append that never completed.
	TornTailBytes int
	// IncompleteAppendLines and IncompleteAppendBytes count complete lines
	// that were truncated away because they belong to a multi-record Append
	// whose last line never reached the file.
	IncompleteAppendLines int
	IncompleteAppendBytes int
	// UnparsedLines counts complete lines that are not records this package
	// can read. They are kept, numbered like any other line, and read back
	// as Event.Raw.
	UnparsedLines int
}

// Repaired reports whether open truncated anything.
func (r Recovery) Repaired() bool { return r.TornTailBytes > 0 || r.IncompleteAppendLines > 0 }

// FileLog is a Log stored in one file, one JSON record per line. See the
// package documentation for the format and guarantees.
type FileLog struct {
	path     string
	f        *os.File
	lock     *fileLock // nil until open takes it
	chunk    int
	every    uint64
	recovery Recovery
	sync     func(*os.File) error
	// left is the state of the file when a FileStore last suspended the
	// log (nil when unknown): resume compares it with what it finds.
	left os.FileInfo

	// appendSem (one slot) serializes appends across write and fsync, so
	// readers, which need only mu, are not held up by a slow fsync. A
	// channel, not a mutex: an append waiting for another gives up when its
	// context ends.
	appendSem chan struct{}

	mu     sync.RWMutex
	closed bool
	broken error // set when a failed write or fsync left the file untrustworthy
	head   Head
	size   int64     // bytes of acknowledged lines
	index  []int64   // index[k] is the offset of line k*every+1
	hidden hiddenSet // replaced, never modified, once the log is open
	types  typeIndex // the newest event of each type (TypeSeeker)
	// tail holds the newest events this log appended, oldest first, ending
	// at head: reading them back (what a host does at every step) costs
	// no system call. Entries are never modified once added. The tail is
	// a copy of what the file holds: the store's budget may drop it at any
	// time (see tailCache), and reads then go to the file. tailBytes is
	// what it is charged: the bytes of every append it holds an event of.
	tail      []tailEvent
	tailBytes int
	// starts remembers where the newest lines start, whatever their size,
	// so that reading one back fetches exactly its bytes.
	starts lineStarts
	// shared holds the tails' budget and the buffers of reads and appends,
	// the same for every log of a FileStore.
	shared *logShared
	// tailElem and tailCharged are the log's place in shared.tails and
	// what it is charged there; shared.tails.mu guards them.
	tailElem    *list.Element
	tailCharged int
	// tailUsed is set when a read is served from the tail.
	tailUsed atomic.Bool
}

// Bounds of a FileLog's in-memory tail, within the budget of its store's
// tails (see tailCache and FileStoreOptions.TailBudget; a log opened with
// OpenFile has DefaultTailBudget to itself). Beyond the bound on bytes the
// tail keeps only the events of the newest append, up to their share of the
// budget (1/tailShare), because the next read almost always wants them (a
// host reads back the catalog it just appended), and only until the next
// append. A suspended log (see FileStore) keeps none beyond the bounds.
const (
	tailEvents   = 16
	tailMaxBytes = 64 << 10
)

// lineStarts remembers the offsets at which the newest lines of the file
// start: a few integers that let a read fetch a long line in one buffer of
// its size instead of discovering its start by fetching ever more.
type lineStarts struct {
	last uint64 // the newest line remembered
	n    int    // lines remembered, ending at last
	off  [tailEvents]int64
}

// add remembers that line seq, the one after the newest remembered (or
// after any, when none is), starts at off.
func (s *lineStarts) add(seq uint64, off int64) {
	if s.n > 0 && seq != s.last+1 {
		s.n = 0
	}
	s.last = seq
	s.off[seq%uint64(len(s.off))] = off
	s.n = min(s.n+1, len(s.off))
}

// at returns where line seq starts, if it is remembered.
func (s *lineStarts) at(seq uint64) (int64, bool) {
	if s.n == 0 || seq > s.last || s.last-seq >= uint64(s.n) {
		return 0, false
	}
	return s.off[seq%uint64(len(s.off))], true
}

// truncate forgets the lines after seq.
func (s *lineStarts) truncate(seq uint64) {
	if seq < s.last {
		s.n = int(uint64(s.n) - min(uint64(s.n), s.last-seq))
		s.last = seq
	}
}

// scratchBuf returns a buffer of chunk bytes from the store's pool; put
// it back with l.shared.scratch.Put.
func (l *FileLog) scratchBuf() *[]byte {
	if b, ok := l.shared.scratch.Get().(*[]byte); ok && len(*b) == l.chunk {
		return b
	}
	b := make([]byte, l.chunk)
	return &b
}

var _ Log = (*FileLog)(nil)

type fileOptions struct {
	chunk int
	every uint64
	// sync makes a write durable; nil means (*os.File).Sync. Tests put a
	// failing or slow disk in its place.
	sync func(*os.File) error
	// shared is what the log shares with the other logs of its store; nil
	// means its own, with DefaultTailBudget.
	shared *logShared
}

// OpenFile opens the log stored at path, creating it if needed. It scans the
// file once, never holding more than one line in memory, to count events,
// rebuild the hidden ranges and the sparse index, and repair the tail: an
// unterminated last line, and the lines of a multi-record Append that was cut
// short, are truncated away and reported in Recovery. Lines it cannot parse
// are kept. OpenFile fails only on I/O errors or when the file is already
// open (ErrLocked). While the log is open its lock is held through the file
// path+".lock", which Close removes; where the platform has no file locks
// (plan9, js, wasip1) OpenFile fails rather than risk two writers.
func OpenFile(path string) (*FileLog, Recovery, error) {
	return openFile(path, fileOptions{chunk: defaultChunk, every: defaultIndexEvery})
}

func openFile(path string, o fileOptions) (*FileLog, Recovery, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, Recovery{}, fmt.Errorf("sessionlog: open: %w", err)
	}
	if o.sync == nil {
		o.sync = (*os.File).Sync
	}
	if o.shared == nil {
		o.shared = newLogShared(DefaultTailBudget)
	}
	l := &FileLog{path: path, f: f, chunk: o.chunk, every: o.every, sync: o.sync, shared: o.shared, appendSem: make(chan struct{}, 1)}
	rec, err := l.open()
	if err != nil {
		_ = f.Close()
		if l.lock != nil {
			_ = l.lock.release()
		}
		return nil, Recovery{}, err
	}
	l.recovery = rec
	return l, rec, nil
}

func (l *FileLog) open() (Recovery, error) {
	fi, err := l.f.Stat()
	if err != nil {
		return Recovery{}, fmt.Errorf("sessionlog: open %s: %w", l.path, err)
	}
	if !fi.Mode().IsRegular() {
		return Recovery{}, fmt.Errorf("sessionlog: open %s: not a regular file", l.path)
	}
	if l.lock, err = lockLog(l.path); err != nil {
		return Recovery{}, fmt.Errorf("sessionlog: open %s: %w", l.path, err)
	}
	return l.load(fi)
}

// load reads the file l.f, of which fi is the state, as opening finds it.
func (l *FileLog) load(fi os.FileInfo) (Recovery, error) {
	if fi.Size() == 0 {
		// Possibly just created: make the directory entry durable too, or
		// a crash could lose the whole file along with acknowledged events.
		if err := syncDir(filepath.Dir(l.path)); err != nil {
			return Recovery{}, fmt.Errorf("sessionlog: open %s: %w", l.path, err)
		}
		return Recovery{}, nil
	}
	return l.scan()
}

// scan reads the whole file once, front to back.
func (l *FileLog) scan() (Recovery, error) {
	s := fileScan{l: l, pend: pendingAppend{start: -1}}
	r := bufio.NewReaderSize(l.f, l.chunk)
	var long []byte
	for {
		line, err := readLine(r, &long)
		if err != nil && !errors.Is(err, io.EOF) {
			return Recovery{}, fmt.Errorf("sessionlog: open %s: read: %w", l.path, err)
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			s.line(line[:n-1])
			s.off += int64(n)
		} else if n > 0 {
			s.rec.TornTailBytes = n
		}
		if err != nil {
			break
		}
	}
	return s.finish()
}

// fileScan is the state of a scan: what it repaired, and the offset, head
// and surface revision it has reached.
type fileScan struct {
	l    *FileLog
	rec  Recovery
	off  int64
	seq  uint64
	rev  uint64
	pend pendingAppend
}

// pendingAppend is the multi-record Append in progress at the scan point:
// its hides and types take effect only once its last line is seen.
type pendingAppend struct {
	start int64 // offset of its first line; -1 when none is in progress
	seq   uint64
	index int
	hides []Range
	types []typeAt // the types of its lines
}

// line takes one complete line, without its newline, at s.off.
func (s *fileScan) line(line []byte) {
	l := s.l
	s.seq++
	l.starts.add(s.seq, s.off)
	indexLen := len(l.index)
	if (s.seq-1)%l.every == 0 {
		l.index = append(l.index, s.off)
	}
	p := parseLine(line, s.seq)
	if !p.ok {
		s.rec.UnparsedLines++
		// Unparseable lines do not belong to an Append this package can
		// track, so everything before them is kept.
		s.settle()
		return
	}
	if p.more && s.pend.start < 0 {
		s.pend.start, s.pend.seq, s.pend.index = s.off, s.seq-1, indexLen
	}
	if p.hide != nil {
		s.pend.hides = append(s.pend.hides, *p.hide)
	}
	s.pend.types = append(s.pend.types, typeAt{p.typ, s.seq})
	if !p.more {
		s.settle()
	}
}

// settle applies the pending append, now complete.
func (s *fileScan) settle() {
	for _, h := range s.pend.hides {
		s.l.hidden.add(h)
		s.rev++
	}
	for _, t := range s.pend.types {
		s.l.types.note(t.typ, t.seq)
	}
	s.pend.hides = s.pend.hides[:0]
	s.pend.types = s.pend.types[:0]
	s.pend.start = -1
}

// finish drops an append that never completed and a torn last line, and
// sets the log's head and size.
func (s *fileScan) finish() (Recovery, error) {
	l, rec, end, seq := s.l, s.rec, s.off, s.seq
	if s.pend.start >= 0 {
		rec.IncompleteAppendLines = int(seq - s.pend.seq)
		rec.IncompleteAppendBytes = int(s.off - s.pend.start)
		end, seq, l.index = s.pend.start, s.pend.seq, l.index[:s.pend.index]
	}
	if rec.Repaired() {
		if err := l.f.Truncate(end); err != nil {
			return Recovery{}, fmt.Errorf("sessionlog: open %s: drop torn tail: %w", l.path, err)
		}
		if err := l.f.Sync(); err != nil {
			return Recovery{}, fmt.Errorf("sessionlog: open %s: drop torn tail: %w", l.path, err)
		}
	}
	l.head = Head{Seq: seq, SurfaceRevision: s.rev}
	l.size = end
	l.starts.truncate(seq)
	return rec, nil
}

// readLine returns the next line including its '\n', or the unterminated
// remainder at EOF. The result is valid until the next call.
func readLine(r *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	*long = append((*long)[:0], line...)
	for {
		line, err = r.ReadSlice('\n')
		*long = append(*long, line...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return *long, err
		}
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Path returns the file's path.
func (l *FileLog) Path() string { return l.path }

// Recovery returns what OpenFile repaired when it opened the log (or, for a
// FileStore's log that was reopened and found changed, the last reopening).
func (l *FileLog) Recovery() Recovery {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.recovery
}

// Append writes all records' lines with one write and fsyncs the file before
// returning. If the write or the fsync fails the file is truncated back, so
// that the failed append is in no one's log, and after a failed fsync (or
// truncation) the log refuses further appends, because the kernel may have
// discarded data it reported written. Reopening the file recovers. Only an
// append whose lines could not be taken out again, or whose file was changed
// by something else meanwhile, fails with an error wrapping
// ErrOutcomeUnknown. An append waiting for another of the same log gives up
// when its context ends.
//
// The lock on the file is advisory, so before writing Append checks that
// the path still names the open file and that the file still ends where the
// log's last acknowledged line ends, and after the fsync that it holds the
// new lines: a file truncated, grown or replaced underneath the log makes
// the append fail (and the log refuse further appends) rather than
// acknowledge a record that a later open would not read back.
func (l *FileLog) Append(ctx context.Context, recs ...Record) (Head, error) {
	return l.append(ctx, nil, recs)
}

// AppendIf is Append on the condition that the head is still at expect.
func (l *FileLog) AppendIf(ctx context.Context, expect uint64, recs ...Record) (Head, error) {
	return l.append(ctx, &expect, recs)
}

func (l *FileLog) append(ctx context.Context, expect *uint64, recs []Record) (Head, error) {
	if err := ctx.Err(); err != nil {
		return Head{}, fmt.Errorf("sessionlog: append: %w", err)
	}
	select {
	case l.appendSem <- struct{}{}:
	case <-ctx.Done():
		return Head{}, fmt.Errorf("sessionlog: append: waiting for another append: %w", ctx.Err())
	}
	defer func() { <-l.appendSem }()
	if err := ctx.Err(); err != nil {
		return Head{}, fmt.Errorf("sessionlog: append: %w", err)
	}
	l.mu.RLock()
	closed, broken, head, size, starts := l.closed, l.broken, l.head, l.size, l.starts
	l.mu.RUnlock()
	switch {
	case closed:
		return Head{}, fmt.Errorf("sessionlog: append: %w", ErrClosed)
	case broken != nil:
		return Head{}, fmt.Errorf("sessionlog: append to %s refused after an earlier write failure: %w", l.path, broken)
	}
	if err := checkExpected(expect, head); err != nil {
		return Head{}, fmt.Errorf("sessionlog: append: %w", err)
	}
	if len(recs) == 0 {
		return head, nil
	}
	if err := validateAll(head.Seq, recs); err != nil {
		return Head{}, fmt.Errorf("sessionlog: append: %w", err)
	}

	bp, _ := l.shared.lines.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	buf, cps, hide := l.encode(head.Seq, size, recs, &starts, *bp)
	err := l.write(buf, size)
	*bp = buf[:0] // the file has the bytes now; nothing else refers to them
	l.shared.lines.Put(bp)
	if err != nil {
		return Head{}, err
	}
	return l.commit(head.Seq, recs, hide, int64(len(buf)), cps, starts), nil
}

// commit makes the records just written after seq part of the log: its
// head, tail, hidden ranges and index. It then drops what other logs'
// tails hold beyond the store's budget.
func (l *FileLog) commit(seq uint64, recs []Record, hide []Range, n int64, cps []int64, starts lineStarts) Head {
	l.mu.Lock()
	victims := l.keepTail(seq, recs)
	for i := range recs {
		l.types.note(recs[i].Type, seq+1+uint64(i))
	}
	l.head.Seq += uint64(len(recs))
	for _, h := range hide {
		// Copy on write: readers use the set they took under the lock.
		l.hidden = l.hidden.with(h)
		l.head.SurfaceRevision++
	}
	l.size += n
	l.index = append(l.index, cps...)
	l.starts = starts
	head := l.head
	l.mu.Unlock()
	l.shared.tails.evict(victims)
	return head
}

// encode renders recs, which follow seq after, as the lines written at
// offset size: the bytes, the offsets of the index checkpoints among them,
// and the ranges they hide, into dst's storage when it is large enough.
// It adds the lines' offsets to starts.
func (l *FileLog) encode(after uint64, size int64, recs []Record, starts *lineStarts, dst []byte) (buf []byte, cps []int64, hide []Range) {
	n := 0
	for i := range recs {
		n += 64 + len(recs[i].Type) + len(recs[i].Source) + len(recs[i].Body)
	}
	buf = slices.Grow(dst[:0], n)
	for i := range recs {
		seq := after + 1 + uint64(i)
		if (seq-1)%l.every == 0 {
			cps = append(cps, size+int64(len(buf)))
		}
		starts.add(seq, size+int64(len(buf)))
		if recs[i].Hide != nil {
			hide = append(hide, *recs[i].Hide)
		}
		buf = appendLine(buf, seq, &recs[i], i < len(recs)-1)
	}
	return buf, cps, hide
}

// write writes buf at offset size and syncs it, checking before and after
// that the file is the one the log holds; a failure that may have left the
// file in doubt breaks the log.
func (l *FileLog) write(buf []byte, size int64) error {
	if err := l.checkFile(size); err != nil {
		l.setBroken(err)
		return fmt.Errorf("sessionlog: append to %s refused: %w", l.path, err)
	}
	if _, err := l.f.WriteAt(buf, size); err != nil {
		if terr := l.f.Truncate(size); terr != nil {
			l.setBroken(errors.Join(err, terr))
		}
		return fmt.Errorf("sessionlog: append to %s: %w", l.path, err)
	}
	if err := l.sync(l.f); err != nil {
		// The lines are in the file, if not on the disk: take them out, so
		// that no reader, this log's or a later open's, sees an append
		// that failed.
		l.setBroken(err)
		if terr := l.f.Truncate(size); terr != nil {
			return fmt.Errorf("sessionlog: append to %s: sync: %w; taking the lines out: %w: %w", l.path, err, terr, ErrOutcomeUnknown)
		}
		_ = l.sync(l.f)
		return fmt.Errorf("sessionlog: append to %s: sync: %w", l.path, err)
	}
	if err := l.checkFile(size + int64(len(buf))); err != nil {
		// Something else changed the file meanwhile: whether it still
		// holds the lines cannot be told.
		l.setBroken(err)
		return fmt.Errorf("sessionlog: append to %s not acknowledged: %w: %w", l.path, err, ErrOutcomeUnknown)
	}
	return nil
}

// ErrFileChanged is wrapped by the error of an Append that found the log's
// file changed by something other than this log.
var ErrFileChanged = errors.New("sessionlog: log file changed underneath the open log")

// checkFile reports an error unless the open file is still the one at the
// log's path and is exactly size bytes long.
func (l *FileLog) checkFile(size int64) error {
	fi, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("stat: %w", err)
	}
	if fi.Size() != size {
		return fmt.Errorf("%w: it is %d bytes long, the log's acknowledged lines end at %d", ErrFileChanged, fi.Size(), size)
	}
	pi, err := os.Stat(l.path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrFileChanged, err)
	}
	if !os.SameFile(fi, pi) {
		return fmt.Errorf("%w: the path now names another file", ErrFileChanged)
	}
	return nil
}

// tailEvent is an event of the tail and the append it came with. The
// records of one append may share memory (a host encodes their bodies
// into one buffer), so while the tail holds any of them it is charged the
// bytes of all of them.
type tailEvent struct {
	Event
	from  uint64 // seq of the append's first record
	bytes int    // of all the append's records
}

// keepTail adds the events just appended after seq to the in-memory tail,
// dropping the oldest beyond its bounds, and those of the new append too
// when they are larger than their share of the budget. It returns the
// logs whose tails the budget then drops (see tailCache.charge). l.mu must
// be held.
func (l *FileLog) keepTail(seq uint64, recs []Record) []*FileLog {
	c := &l.shared.tails
	n := 0
	for i := range recs {
		n += eventBytes(recs[i].Type, recs[i].Source, recs[i].Body)
	}
	// A new array: readers may hold the old one. The records' bytes are
	// kept as handed over (see Log: nobody modifies them).
	all := slices.Grow(l.tail[:len(l.tail):len(l.tail)], len(recs))
	for i := range recs {
		r := &recs[i]
		all = append(all, tailEvent{Event{Seq: seq + 1 + uint64(i), Type: r.Type, Source: r.Source, Body: r.Body}, seq + 1, n})
	}
	tail, bytes := all, l.tailBytes+n
	for len(tail) > 0 && (len(tail) > tailEvents || bytes > c.logBytes && tail[0].from <= seq) {
		if len(tail) == 1 || tail[1].from != tail[0].from {
			bytes -= tail[0].bytes // the last event of its append leaves
		}
		tail = tail[1:]
	}
	if bytes > c.maxEvent {
		tail, bytes = nil, 0
	}
	// The array still holds the events dropped from its front: let go of
	// their bytes.
	clear(all[:len(all)-len(tail)])
	l.tail, l.tailBytes = tail, bytes
	return c.charge(l)
}

// trimTail drops a tail that holds more than its bounds: the newest
// append's events that keepTail kept up to their share of the budget.
// l.mu must be held.
func (l *FileLog) trimTail() {
	if l.tailBytes > l.shared.tails.logBytes {
		l.dropTail()
	}
}

// dropTail empties the tail and takes its charge off the budget. l.mu
// must be held.
func (l *FileLog) dropTail() {
	l.tail, l.tailBytes = nil, 0
	_ = l.shared.tails.charge(l) // taking bytes off picks no one
}

// eventBytes is what an event counts against a tail's bounds.
func eventBytes(typ string, source, body []byte) int { return len(typ) + len(source) + len(body) }

// fromTail serves a read of (after, upper] from the in-memory tail when the
// tail holds all of it (at most limit events).
func fromTail(tail []tailEvent, upper, after uint64, limit int, hidden hiddenSet) ([]Event, bool, bool) {
	if len(tail) == 0 || upper > tail[len(tail)-1].Seq {
		return nil, false, false
	}
	first := tail[0].Seq
	low := max(after+1, upper-min(upper, uint64(limit))+1)
	if low < first {
		return nil, false, false
	}
	out := make([]Event, 0, upper-low+1)
	for seq := upper; seq >= low && seq > 0; seq-- {
		ev := tail[seq-first].Event // its bytes are shared with the reader (see Log)
		ev.Visible = !hidden.hidden(seq)
		out = append(out, ev)
	}
	return out, low > after+1, true
}

func (l *FileLog) setBroken(err error) {
	l.mu.Lock()
	l.broken = err
	l.mu.Unlock()
}

// ReadBackward reads from the end of the requested range towards the start
// in chunks, so its cost depends on the page, not on the length of the log.
func (l *FileLog) ReadBackward(ctx context.Context, before, after uint64, limit int) (Page, error) {
	if err := ctx.Err(); err != nil {
		return Page{}, fmt.Errorf("sessionlog: read: %w", err)
	}
	if limit <= 0 {
		return Page{}, fmt.Errorf("sessionlog: read: max must be positive, got %d", limit)
	}
	l.mu.RLock()
	if l.closed {
		l.mu.RUnlock()
		return Page{}, fmt.Errorf("sessionlog: read: %w", ErrClosed)
	}
	head, end, hidden, tail, starts := l.head, l.size, l.hidden, l.tail, l.starts
	upper := upperBound(head.Seq, before)
	if upper > after {
		if events, more, ok := fromTail(tail, upper, after, limit, hidden); ok {
			l.mu.RUnlock()
			if !l.tailUsed.Load() {
				l.tailUsed.Store(true)
			}
			return Page{Events: events, Head: head, More: more}, nil
		}
	}
	var from int64
	var skip uint64
	if upper > after && upper < head.Seq {
		// The range ends inside the log where line upper+1 starts: a
		// remembered offset, or one found by scanning forward from the
		// checkpoint at or before line upper+1.
		if s, ok := starts.at(upper + 1); ok {
			from = s
		} else {
			k := upper / l.every
			from, skip = l.index[k], upper-k*l.every
		}
	}
	l.mu.RUnlock()
	if upper <= after {
		return Page{Head: head}, nil
	}

	var err error
	if upper < head.Seq {
		if end, err = l.skipLines(from, skip, end); err != nil {
			return Page{}, l.readErr(err)
		}
	}
	events, more, err := l.readBack(end, upper, after, limit, &starts)
	if err != nil {
		return Page{}, l.readErr(err)
	}

	for i := range events {
		events[i].Visible = !hidden.hidden(events[i].Seq)
	}
	return Page{Events: events, Head: head, More: more}, nil
}

func (l *FileLog) readErr(err error) error {
	if errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("sessionlog: read: %w", ErrClosed)
	}
	return fmt.Errorf("sessionlog: read %s: %w", l.path, err)
}

var errShortFile = errors.New("file has fewer lines than its index")

// skipLines returns the offset just past the n-th newline at or after from.
func (l *FileLog) skipLines(from int64, n uint64, limit int64) (int64, error) {
	if n == 0 {
		return from, nil
	}
	bp := l.scratchBuf()
	defer l.shared.scratch.Put(bp)
	buf := *bp
	for off := from; off < limit; {
		b := buf[:min(int64(len(buf)), limit-off)]
		if err := l.readAt(b, off); err != nil {
			return 0, err
		}
		pos := 0
		for n > 0 {
			i := bytes.IndexByte(b[pos:], '\n')
			if i < 0 {
				break
			}
			pos += i + 1
			n--
		}
		if n == 0 {
			return off + int64(pos), nil
		}
		off += int64(len(b))
	}
	return 0, errShortFile
}

// firstFetch is the size of readBack's first read.
const firstFetch = 4 << 10

// readBack decodes up to limit lines ending at end (which follows the '\n'
// of line upper), newest first, stopping before line after. starts are the
// remembered starts of the newest lines.
//
// Reads start small and double up to the chunk size: most reads want the
// few newest events, which fit in one page. A line that does not fit in
// what was fetched is fetched whole into a buffer of its own size, from
// where it starts: remembered, or found by reading backwards through a
// scratch buffer. A long line is so allocated once, however long.
func (l *FileLog) readBack(end int64, upper, after uint64, limit int, starts *lineStarts) ([]Event, bool, error) {
	var (
		events    = make([]Event, 0, min(uint64(limit), upper-after))
		seq       = upper
		data      []byte // file bytes from dataStart on
		dataStart = end
		lineEnd   = end - 1 // offset of the '\n' ending line seq
		fetch     = min(int64(firstFetch), int64(l.chunk))
	)
	for seq > after && len(events) < limit {
		start, known := starts.at(seq)
		var lineStart int64
		for fetched := false; ; fetched = true {
			// The part of line seq that data holds.
			part := data[:max(0, lineEnd-dataStart)]
			if known && start > 0 && start-1 >= dataStart && start-1 < dataStart+int64(len(part)) && part[start-1-dataStart] == '\n' {
				lineStart = start // no need to look through a long line
				break
			}
			if i := bytes.LastIndexByte(part, '\n'); i >= 0 {
				lineStart = dataStart + int64(i) + 1
				break
			}
			if dataStart == 0 {
				lineStart = 0
				break
			}
			if known && start > dataStart {
				known = false // not a start of this file's lines: look for one
			}
			if !known && (fetched || len(part) >= firstFetch) {
				// A long line: find its start before fetching it.
				var err error
				if start, err = l.lineStartBefore(dataStart, fetch); err != nil {
					return nil, false, err
				}
				known = true
			}
			// Fetch the preceding bytes, keeping the part of line seq
			// already read: from just before where line seq starts, when
			// that is known and more than a fetch away.
			n := min(max(fetch, int64(len(part))), dataStart)
			if known {
				n = min(max(fetch, dataStart-max(0, start-1)), dataStart)
			}
			fetch = min(2*fetch, int64(l.chunk))
			nb := make([]byte, n+int64(len(part)))
			if err := l.readAt(nb[:n], dataStart-n); err != nil {
				return nil, false, err
			}
			copy(nb[n:], part)
			data, dataStart = nb, dataStart-n
		}
		if lineStart == 0 && seq > 1 {
			return nil, false, errShortFile
		}
		events = append(events, eventFromLine(data[lineStart-dataStart:lineEnd-dataStart], data, seq))
		seq--
		lineEnd = lineStart - 1
	}
	return events, seq > after, nil
}

// lineStartBefore returns the offset just past the last '\n' before off,
// or 0 when there is none, reading backwards through a scratch buffer in
// pieces that start at piece bytes and double.
func (l *FileLog) lineStartBefore(off, piece int64) (int64, error) {
	bp := l.scratchBuf()
	defer l.shared.scratch.Put(bp)
	buf := *bp
	for off > 0 {
		n := min(piece, off, int64(len(buf)))
		b := buf[:n]
		if err := l.readAt(b, off-n); err != nil {
			return 0, err
		}
		off -= n
		if i := lastNewline(b); i >= 0 {
			return off + int64(i) + 1, nil
		}
		piece = min(2*piece, int64(len(buf)))
	}
	return 0, nil
}

// lastNewline is bytes.LastIndexByte(b, '\n'), searching forwards with
// bytes.IndexByte, which is much faster over a long line without one.
func lastNewline(b []byte) int {
	last := -1
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return last
		}
		last = i + j
		i = last + 1
	}
}

func (l *FileLog) readAt(b []byte, off int64) error {
	n, err := l.f.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// eventFromLine decodes line, which lies in buf. The event's bytes are
// slices of buf when the line is at least half of it, as when buf was
// fetched for that line alone: a long line is not copied again, and an
// event pins at most about its own size again. A line among many others in
// buf is copied out, so that a small event does not pin a whole chunk.
func eventFromLine(line, buf []byte, seq uint64) Event {
	share := 2*len(line) >= len(buf)
	p, own := parseOwnLine(line, seq)
	switch {
	case !own:
		p = parseLineJSON(line, seq) // its values are copies already
	case !share:
		p.source, p.body = bytes.Clone(p.source), bytes.Clone(p.body)
	}
	if !p.ok {
		raw := line
		if !share {
			raw = make([]byte, len(line))
			copy(raw, line)
		}
		return Event{Seq: seq, Raw: raw}
	}
	return Event{Seq: seq, Type: p.typ, Source: p.source, Body: p.body}
}

// Head returns the head of the acknowledged events.
func (l *FileLog) Head(ctx context.Context) (Head, error) {
	if err := ctx.Err(); err != nil {
		return Head{}, fmt.Errorf("sessionlog: head: %w", err)
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return Head{}, fmt.Errorf("sessionlog: head: %w", ErrClosed)
	}
	return l.head, nil
}

// Close waits for an Append in progress, then closes the file and releases
// its lock.
func (l *FileLog) Close() error {
	l.appendSem <- struct{}{}
	defer func() { <-l.appendSem }()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.dropTail()
	if l.f == nil {
		return nil // suspended: nothing is open
	}
	// The file is closed first: the next holder may write as soon as the
	// lock is released.
	err := l.f.Close()
	if rerr := l.lock.release(); rerr != nil {
		err = errors.Join(err, rerr)
	}
	if err != nil {
		return fmt.Errorf("sessionlog: close %s: %w", l.path, err)
	}
	return nil
}
