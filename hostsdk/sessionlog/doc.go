// Package sessionlog is the durable event log of a host session: an
// append-only sequence of events (messages, compactions, ...) that a host
// writes as a session runs and reads backwards when it resumes, so that the
// plugin can find the newest visible catalog message without replaying the
// session.
//
// # Model
//
// Every event has a sequence number. Seqs are 1-based and dense in append
// order: the log assigns them, and [Head.Seq] is the newest. A [Record] may carry
// a Hide range; appending it hides the events From..To (all earlier than the
// record) from the surface, which is how compaction removes history from what
// the model sees without deleting it. An event is Visible unless a later
// record's Hide range covers it; hidden ranges accumulate and never shrink. A
// compaction record is itself an event, visible unless a later one hides it.
// [Head.SurfaceRevision] counts the records that carry a Hide range, so a
// reader that cached a view of the surface can tell when it has shrunk.
//
// ReadBackward pages from the newest event towards the oldest: it returns up
// to max events with after < seq < before, newest first, with the [Head] the
// page was read at and whether older events remain in the range. Source
// bytes (the durable source of a message) come back byte-for-byte, valid
// JSON or not; Body must be valid JSON and also comes back byte-for-byte.
//
// A log takes the records it appends as they are: it may keep their Source
// and Body slices rather than copy them, and the events it returns may
// share their bytes with the log and with other readers. Nobody modifies
// them: not the log, not the caller once it has appended them, not a
// reader (see [Log]). A writer that encoded a body itself marks it
// [Record.BodyCompactJSON], and the log does not scan it again.
//
// # File format
//
// [FileLog] ([OpenFile], [NewFileStore]) stores one event per line, UTF-8 JSON
// objects in append order, in a file named <escaped session id>.jsonl:
//
//	{"seq":1,"type":"message","source":{"kind":"skill-catalog",...},"body":{"role":"user",...}}
//	{"seq":2,"type":"message","sourceText":"not JSON","body":{...}}
//	{"seq":3,"type":"compaction","body":{"summary":"..."},"hide":{"from":1,"to":2}}
//
// Source and Body are embedded as JSON when that is lossless (valid JSON on
// one line without surrounding whitespace), otherwise stored as a JSON string
// in sourceText/bodyText, or in base64 in sourceB64/bodyB64 when they are not
// UTF-8. "more":true marks every line of a multi-record Append except the
// last. "seq" is written for people reading the file; readers trust the
// position: an event's seq is its 1-based line number. A complete line that
// is not such a record (edited by hand, written by another tool) is kept,
// still takes a seq, and reads back as an [Event] with Type "" and the line in
// Raw, so readers skip it without losing it.
//
// # Durability
//
// Append validates every record first (an invalid one rejects the whole
// call), then writes all its lines with one write and fsyncs the file before
// it returns; a nil error means every record is on stable storage. A process
// killed in the middle of an Append therefore loses only that unacknowledged
// Append: OpenFile truncates an unterminated last line (reported as
// [Recovery.TornTailBytes]) and the complete lines of a multi-record Append
// whose last line is missing ([Recovery.IncompleteAppendLines]), so an Append
// is all or nothing. Opening never fails because of the file's contents, only on I/O
// errors. After a power failure, file systems may also leave garbage in the
// unacknowledged tail; complete garbage lines are kept as Raw events. If a
// write or fsync fails, the append's lines are truncated away before it
// returns, so a failed append is in no one's log, as with every store (see
// [Log.Append]); after a failed fsync the FileLog refuses further appends (the
// kernel may have dropped the data it reported written); reopening the file
// recovers.
// A new file's directory entry is fsynced too. An exclusive lock on
// <file>.lock, which exists beside the log only while it is open, keeps two
// FileLogs, in any processes, from appending to the same file ([ErrLocked]);
// the operating system drops it when its holder dies. Because that lock is
// advisory, every Append also checks that the path still names the open file
// and that the file ends exactly where the log's acknowledged lines end (and,
// after the fsync, that it holds the new lines): a file truncated, extended
// or replaced underneath an open log fails the Append with [ErrFileChanged] and
// the log refuses further appends, so nothing is acknowledged and then lost.
//
// Opening scans the file once, holding one line at a time, to count lines,
// merge the hidden ranges (kept in memory as sorted disjoint intervals) and
// build a sparse index of the offset of every 256th line. ReadBackward then
// reads from the end of the requested range in chunks of up to 64 KiB; a
// range that ends in the middle of the log starts from the nearest
// checkpoint. A page costs the same whether the log holds a thousand events
// or a million. The log remembers where its newest lines start, so a line
// longer than a chunk is read into one buffer of its size, and it keeps its
// newest events in memory (up to 16 and 64 KiB, or those of the newest
// append alone up to an eighth of the tail budget, until the next append),
// so reading back what was just appended costs no read at all. What a
// [FileStore]'s logs keep so is bounded by one budget for all of them
// ([FileStoreOptions.TailBudget], by default [DefaultTailBudget], 64 MiB),
// each charged the bytes of every append it keeps an event of: beyond it the
// least recently used logs drop theirs, and read the file again when they
// are next read, with the same results; a log opened with OpenFile has that
// default budget to itself. The buffers that appends encode into and reads
// scan with are shared by the logs of a store, so an idle session holds
// none.
//
// # Conditional append
//
// AppendIf(ctx, expect, recs...) appends only while the head is still at seq
// expect; otherwise it writes nothing and returns an error wrapping
// [ErrConflict] (a *[ConflictError] with the head the log is at). A writer that
// reads the head, decides, and appends with AppendIf knows that nothing was
// appended between its read and its write: the host SDK publishes each
// catalog change exactly once per session this way, however many steps,
// goroutines or host replicas race on one session.
//
// # Stores
//
// A [Store] opens per-session logs. Opening a session that is already open
// returns another handle on the same log; every handle must be closed, and
// the file is closed with the last one. NewFileStore escapes session ids
// ([SessionFileName]) so that any string is safe; [FileStore.OpenHandle]
// returns a *[FileHandle], which also reports the file's Path and what
// opening it repaired ([Recovery]). Each session whose file is open holds
// two file descriptors (the log and its lock), so a FileStore keeps only the
// most recently used within a budget ([FileStoreOptions.MaxOpenFiles]; by
// default half the soft RLIMIT_NOFILE, at most 32,768) and closes idle ones
// beyond it: any number of sessions can be open at once, and a closed one's
// file is reopened, and read again if another writer changed it, when it is
// used. [NewMemoryStore] and [NewMemory] keep events in memory, for tests
// and for hosts without durable history.
//
// # Other stores
//
// A runtime can keep session events in its own store (a SQL table, a
// replicated log) by implementing Log: assign dense seqs atomically per
// Append, make AppendIf's check and append one atomic step (a unique key on
// (session, seq) or a row lock, not a read followed by a write), check records with [Record.Validate], keep Source and Body as opaque
// bytes (nil stays nil), make Append return only once the records are
// durable, derive Visible from the Hide ranges of later records, count them
// in SurfaceRevision, check the context first, and return errors wrapping
// [ErrClosed] after Close. Then run the conformance suite in package logtest
// against it:
//
//	func TestLog(t *testing.T) {
//		logtest.Run(t, func(t *testing.T) sessionlog.Log { return openEmptyLog(t) })
//	}
//
// and logtest.RunStore against a Store.
//
// # Finding a rare record
//
// A log may also implement [TypeSeeker], naming the newest event of a type
// without reading the events after it; the host SDK uses it to find a
// session's newest skill selection ([TypeSkillSelection]) in one lookup
// instead of reading a long session back. NewMemory's log and FileLog keep
// the newest seq of each of the first 64 types they hold (FileLog rebuilds
// it during its opening scan), and the stores' handles pass it on. A log
// without it is read backward instead; logtest checks the answers of one
// that has it.
package sessionlog
