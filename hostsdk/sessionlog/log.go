package sessionlog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/internal/jsonstr"
)

// Record types the host SDK writes. Logs accept any non-empty type.
const (
	TypeMessage    = "message"
	TypeCompaction = "compaction"
	// TypeSkillSelection records a session's skill selection
	// (hostsdk.Session.SelectSkills): no source, no hide range, and a JSON
	// object body {"includeNames", "excludeNames", "includeProviders",
	// "excludeProviders"}, each a sorted list of strings, empty ones left
	// out; {} clears the selection. The newest readable one is in effect.
	// Having no source, it is never a catalog to the plugin, and it hides
	// nothing.
	TypeSkillSelection = "skill-selection"
)

// Head describes the newest state of a log.
type Head struct {
	// Seq is the sequence number of the newest event; 0 means the log is empty.
	Seq uint64
	// SurfaceRevision counts the appended records that hide a range. It
	// changes whenever the visible surface loses events, so a reader that
	// cached a view of the surface knows to rebuild it.
	SurfaceRevision uint64
}

// Range is an inclusive range of sequence numbers.
type Range struct{ From, To uint64 }

// Record is one event to append.
type Record struct {
	// Type names the kind of event, for example "message" or "compaction".
	// It must be non-empty valid UTF-8.
	Type string
	// Source is the raw durable source of a message. It is stored and
	// returned byte-for-byte, whether or not it is valid JSON. nil means none
	// and reads back as nil; an empty non-nil slice reads back as empty.
	Source []byte
	// Body is the raw JSON payload (for example the message). It must be
	// valid JSON when non-nil and is returned byte-for-byte.
	Body []byte
	// BodyCompactJSON promises that Body is JSON as encoding/json.Marshal
	// writes it: valid, compact (no whitespace outside strings), valid
	// UTF-8 and free of raw line breaks. A writer sets it only on a body
	// its own encoder produced, never on bytes it was handed: Validate
	// then does not scan the body again, and a FileLog embeds it in its
	// line as it is. A body that breaks the promise is stored anyway and
	// may not read back.
	BodyCompactJSON bool
	// Hide, on a compaction record, hides events From..To from the surface.
	// Both ends must name events that precede this record.
	Hide *Range
}

// Event is one stored event as read back.
type Event struct {
	Seq    uint64
	Type   string
	Source []byte
	Body   []byte
	// Visible is false when a later record's Hide range covers the event.
	Visible bool
	// Raw is set, and Type is "", when the stored form of the event could
	// not be parsed. The stored bytes are passed through untouched so that
	// nothing is lost; readers should skip events they cannot interpret.
	Raw []byte
}

// Page is the result of one backward read.
type Page struct {
	// Events are newest first.
	Events []Event
	// Head is the head as of which the page was read: Events and their
	// Visible flags reflect exactly this head, so a reader that has seen
	// everything up to Head.Seq can continue with after = Head.Seq.
	Head Head
	// More reports whether older events remain in the requested range.
	More bool
}

// Log is an append-only session event log.
//
// A log may keep the Source and Body slices of the records it appends as
// they are, without copying them (NewMemory's log does, and a FileLog
// keeps its newest few events): the caller must not modify them once it
// has handed them to a successful Append or AppendIf. The Source, Body and
// Raw slices of the events a read returns may likewise be shared with the
// log and with other readers: callers must not modify them. Logs never do.
//
// Implementations must be safe for concurrent use. Seq numbers are assigned
// by the log: 1-based and dense in append order. Every method checks its
// context before doing any work and returns the context's error (wrapped) if
// it is already done. After Close every method except Close returns an error
// wrapping ErrClosed. Package logtest holds the conformance suite.
type Log interface {
	// Append adds records atomically and durably: when it returns nil every
	// record is on stable storage, numbered after everything appended
	// before. When it returns an error the log is as it was: no record was
	// written, and none appears later, in this process or after a restart,
	// whatever failed (a full disk, a failed fsync, a connection lost
	// after the database committed: a store that cannot tell from the
	// failure finds out before it returns). The one exception is an error
	// wrapping ErrOutcomeUnknown: the store could not find out in time
	// whether the write took effect, and the records may be in the log. A
	// record that fails Record.Validate rejects the whole call and leaves
	// the log unchanged. Append with no records returns the current head.
	Append(ctx context.Context, recs ...Record) (Head, error)
	// AppendIf is Append on a condition: the records are appended only if
	// the log's head is still at seq expect, the head a caller read and
	// decided on. If any other append has moved the head, nothing is
	// written and the error wraps ErrConflict (see ConflictError for the
	// head the log is at). The check and the append are one atomic step,
	// across every handle and, for shared stores, every process. The
	// condition is checked before the records are validated.
	AppendIf(ctx context.Context, expect uint64, recs ...Record) (Head, error)
	// ReadBackward returns up to max events with after < seq < before
	// (before 0 means no upper bound), newest first. More reports whether
	// older events remain in that range. max must be positive.
	ReadBackward(ctx context.Context, before, after uint64, max int) (Page, error)
	// Head returns the current head.
	Head(ctx context.Context) (Head, error)
	// Close releases the log. It is safe to call more than once.
	Close() error
}

// Store opens per-session logs.
//
// Opening a session that is already open returns a handle that shares the
// same underlying log, so appends through one handle are seen by reads
// through the other. Every handle must be closed; a store keeps the session
// open until its last handle is closed.
type Store interface {
	Open(ctx context.Context, sessionID string) (Log, error)
}

var (
	// ErrClosed is returned by every method of a closed log.
	ErrClosed = errors.New("sessionlog: log is closed")
	// ErrInvalidRecord is wrapped by the errors of Record.Validate.
	ErrInvalidRecord = errors.New("sessionlog: invalid record")
	// ErrConflict is wrapped by the error of an AppendIf whose expected
	// head is no longer the log's head.
	ErrConflict = errors.New("sessionlog: the log's head moved")
	// ErrOutcomeUnknown is wrapped by the error of an append whose store
	// lost its connection to the storage mid-write and could not find out
	// before its deadline whether the records were written: the only
	// failed append after which the records may be in the log. Read the
	// log to find out.
	ErrOutcomeUnknown = errors.New("sessionlog: the append's outcome is unknown")
)

// ConflictError is the error of an AppendIf that found the head moved. It
// wraps ErrConflict.
type ConflictError struct {
	// Expected is the head seq the caller decided on.
	Expected uint64
	// Head is the log's head when the append was refused.
	Head Head
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%v: expected head %d, the log is at %d", ErrConflict, e.Expected, e.Head.Seq)
}

// Unwrap makes errors.Is(err, ErrConflict) hold.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// checkExpected returns a *ConflictError unless expect (nil: no condition)
// is the head's seq.
func checkExpected(expect *uint64, head Head) error {
	if expect == nil || *expect == head.Seq {
		return nil
	}
	return &ConflictError{Expected: *expect, Head: head}
}

// Validate reports whether r may be appended as the event numbered seq.
// Implementations of Log on other stores use it to apply the same rules.
// A body marked BodyCompactJSON is taken at its writer's word, not scanned.
func (r Record) Validate(seq uint64) error {
	if r.Type == "" {
		return fmt.Errorf("%w: empty type", ErrInvalidRecord)
	}
	if !utf8.ValidString(r.Type) {
		return fmt.Errorf("%w: type is not valid UTF-8", ErrInvalidRecord)
	}
	if r.Body != nil && !r.BodyCompactJSON && !jsonstr.Valid(r.Body) {
		return fmt.Errorf("%w: body of %q record is not valid JSON", ErrInvalidRecord, r.Type)
	}
	if h := r.Hide; h != nil && !validHide(*h, seq) {
		return fmt.Errorf("%w: hide range %d..%d must name events before %d", ErrInvalidRecord, h.From, h.To, seq)
	}
	return nil
}

func validHide(h Range, seq uint64) bool {
	return h.From >= 1 && h.From <= h.To && h.To < seq
}

func validateAll(head uint64, recs []Record) error {
	for i := range recs {
		if err := recs[i].Validate(head + 1 + uint64(i)); err != nil {
			return fmt.Errorf("record %d of %d: %w", i+1, len(recs), err)
		}
	}
	return nil
}

// hiddenSet is the union of all hidden ranges, kept sorted, disjoint and
// non-adjacent so that it stays as small as the number of separate holes in
// the surface rather than the number of compactions.
type hiddenSet struct{ r []Range }

// add merges x into the set in place.
func (h *hiddenSet) add(x Range) {
	i, j, x := h.span(x)
	h.r = slices.Replace(h.r, i, j, x)
}

// with returns the set with x merged in, leaving h untouched, so that a
// reader holding h keeps a consistent view.
func (h hiddenSet) with(x Range) hiddenSet {
	i, j, x := h.span(x)
	r := make([]Range, 0, len(h.r)-(j-i)+1)
	r = append(r, h.r[:i]...)
	r = append(r, x)
	return hiddenSet{r: append(r, h.r[j:]...)}
}

// span finds the ranges h.r[i:j] that overlap or touch x, and their union
// with x.
func (h *hiddenSet) span(x Range) (int, int, Range) {
	i := sort.Search(len(h.r), func(i int) bool { return h.r[i].To+1 >= x.From })
	j := i
	for j < len(h.r) && h.r[j].From <= x.To+1 {
		x.From = min(x.From, h.r[j].From)
		x.To = max(x.To, h.r[j].To)
		j++
	}
	return i, j, x
}

func (h *hiddenSet) hidden(seq uint64) bool {
	i := sort.Search(len(h.r), func(i int) bool { return h.r[i].To >= seq })
	return i < len(h.r) && h.r[i].From <= seq
}
