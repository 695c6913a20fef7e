package pglog

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// Log is one handle on a session's log in a Store. Handles of one session,
// in one process or many, share everything through the database.
type Log struct {
	store  *Store
	key    int64 // sessions.key
	closed atomic.Bool
}

var (
	_ sessionlog.Log        = (*Log)(nil)
	_ sessionlog.TypeSeeker = (*Log)(nil)
)

// check returns the error every method returns first: the context's, then
// ErrClosed for a closed handle or store.
func (l *Log) check(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pglog: %s: %w", op, err)
	}
	if l.closed.Load() || l.store.closed.Load() {
		return fmt.Errorf("pglog: %s: %w", op, sessionlog.ErrClosed)
	}
	return nil
}

// Close closes the handle; the session and the store's other handles stay
// open. It is safe to call more than once.
func (l *Log) Close() error {
	l.closed.Store(true)
	return nil
}

// Head returns the session's head.
func (l *Log) Head(ctx context.Context) (sessionlog.Head, error) {
	if err := l.check(ctx, "head"); err != nil {
		return sessionlog.Head{}, err
	}
	h, err := l.head(ctx)
	if err != nil {
		return sessionlog.Head{}, fmt.Errorf("pglog: head: %w", err)
	}
	return h, nil
}

func (l *Log) head(ctx context.Context) (sessionlog.Head, error) {
	var seq, rev int64
	if err := l.store.pool.QueryRow(ctx, l.store.sql.head, l.key).Scan(&seq, &rev); err != nil {
		return sessionlog.Head{}, l.rowError(err)
	}
	return sessionlog.Head{Seq: uint64(seq), SurfaceRevision: uint64(rev)}, nil
}

// NewestOfType implements sessionlog.TypeSeeker: the seq of the session's
// newest event of type typ (0 when there is none) and the head it is
// current as of, read together, by an index lookup whatever the session's
// length. Messages, the bulk of every log, are not indexed by type: for
// sessionlog.TypeMessage it answers ok=false and the caller reads backward.
func (l *Log) NewestOfType(ctx context.Context, typ string) (uint64, sessionlog.Head, bool, error) {
	if err := l.check(ctx, "seek"); err != nil {
		return 0, sessionlog.Head{}, false, err
	}
	if typ == sessionlog.TypeMessage {
		h, err := l.Head(ctx)
		return 0, h, false, err
	}
	var seq, rev, newest int64
	if err := l.store.pool.QueryRow(ctx, l.store.sql.newestOfType, l.key, []byte(typ)).Scan(&seq, &rev, &newest); err != nil {
		return 0, sessionlog.Head{}, false, fmt.Errorf("pglog: seek: %w", l.rowError(err))
	}
	return uint64(newest), sessionlog.Head{Seq: uint64(seq), SurfaceRevision: uint64(rev)}, true, nil
}

// rowError explains a query on the session's row that found none.
func (l *Log) rowError(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("session row %d is missing from %s.sessions", l.key, quoteSchema(l.store.schema))
	}
	return l.store.wrap(err)
}

// ReadBackward returns up to max events with after < seq < before (before
// 0: no bound), newest first, read in one statement together with the head.
func (l *Log) ReadBackward(ctx context.Context, before, after uint64, max int) (sessionlog.Page, error) {
	if err := l.check(ctx, "read"); err != nil {
		return sessionlog.Page{}, err
	}
	if max <= 0 {
		return sessionlog.Page{}, fmt.Errorf("pglog: read: max must be positive, got %d", max)
	}
	below, above := queryBounds(before, after)
	rows, err := l.store.pool.Query(ctx, l.store.sql.read, l.key, above, below, int64(max))
	if err != nil {
		return sessionlog.Page{}, fmt.Errorf("pglog: read: %w", l.store.wrap(err))
	}
	defer rows.Close()
	var (
		page              sessionlog.Page
		found             bool
		headSeq, headRev  int64
		seq               *int64
		typ, source, body []byte
		visible           *bool
	)
	for rows.Next() {
		if err := rows.Scan(&headSeq, &headRev, &seq, &typ, &source, &body, &visible); err != nil {
			return sessionlog.Page{}, fmt.Errorf("pglog: read: %w", err)
		}
		found = true
		if seq == nil {
			continue // the session has no events in the range
		}
		page.Events = append(page.Events, event(uint64(*seq), typ, source, body, visible == nil || *visible))
	}
	if err := rows.Err(); err != nil {
		return sessionlog.Page{}, fmt.Errorf("pglog: read: %w", l.store.wrap(err))
	}
	if !found {
		return sessionlog.Page{}, fmt.Errorf("pglog: read: %w", l.rowError(pgx.ErrNoRows))
	}
	page.Head = sessionlog.Head{Seq: uint64(headSeq), SurfaceRevision: uint64(headRev)}
	// Seqs are dense, so the range holds upper-after events.
	upper := page.Head.Seq
	if before != 0 && before-1 < upper {
		upper = before - 1
	}
	page.More = upper > after && upper-after > uint64(max)
	return page, nil
}

// queryBounds maps a read's bounds onto bigint seqs: before 0 (no bound)
// and bounds past any seq the store can hold become ones the query can add
// 1 to or take 1 from without overflowing.
func queryBounds(before, after uint64) (below, above int64) {
	below = math.MaxInt64
	if before != 0 && before < math.MaxInt64 {
		below = int64(before)
	}
	above = math.MaxInt64 - 1
	if after < math.MaxInt64-1 {
		above = int64(after)
	}
	return below, above
}

// Append adds records durably: it returns once the transaction that wrote
// them has committed.
func (l *Log) Append(ctx context.Context, recs ...sessionlog.Record) (sessionlog.Head, error) {
	return l.append(ctx, nil, recs)
}

// AppendIf appends only while the session's head is at seq expect. The
// database checks the condition on the locked session row in the statement
// or transaction that writes the records.
func (l *Log) AppendIf(ctx context.Context, expect uint64, recs ...sessionlog.Record) (sessionlog.Head, error) {
	return l.append(ctx, &expect, recs)
}

func (l *Log) append(ctx context.Context, expect *uint64, recs []sessionlog.Record) (sessionlog.Head, error) {
	if err := l.check(ctx, "append"); err != nil {
		return sessionlog.Head{}, err
	}
	h, err := l.appendRecords(ctx, expect, recs)
	if err != nil {
		return sessionlog.Head{}, fmt.Errorf("pglog: append: %w", err)
	}
	return h, nil
}

func (l *Log) appendRecords(ctx context.Context, expect *uint64, recs []sessionlog.Record) (sessionlog.Head, error) {
	if len(recs) == 0 {
		h, err := l.head(ctx)
		if err != nil {
			return sessionlog.Head{}, err
		}
		return h, conflict(expect, h)
	}
	// Everything but a hide range's position can be checked before the
	// head is known, and a bad record then costs no write. The condition
	// comes first: a caller on a stale head learns that, whatever it sent.
	hides := 0
	for i := range recs {
		if err := recs[i].Validate(math.MaxUint64); err != nil {
			if expect != nil {
				h, herr := l.head(ctx)
				if herr != nil {
					return sessionlog.Head{}, herr
				}
				if cerr := conflict(expect, h); cerr != nil {
					return sessionlog.Head{}, cerr
				}
			}
			return sessionlog.Head{}, fmt.Errorf("record %d of %d: %w", i+1, len(recs), err)
		}
		if recs[i].Hide != nil {
			hides++
		}
	}
	var cond *int64
	if expect != nil {
		if *expect > math.MaxInt64 {
			// No head can be there; report the one there is.
			h, err := l.head(ctx)
			if err != nil {
				return sessionlog.Head{}, err
			}
			return sessionlog.Head{}, &sessionlog.ConflictError{Expected: *expect, Head: h}
		}
		c := int64(*expect)
		cond = &c
	}
	h, err := l.write(ctx, cond, recs, int64(hides))
	if errors.Is(err, errNoSessionRow) {
		// The condition failed, or the session row is gone.
		cur, herr := l.head(ctx)
		if herr != nil {
			return sessionlog.Head{}, herr
		}
		if expect != nil && cur.Seq != *expect {
			return sessionlog.Head{}, &sessionlog.ConflictError{Expected: *expect, Head: cur}
		}
		// Heads only grow, so a row that failed the condition cannot pass
		// it now: it was edited underneath the store.
		return sessionlog.Head{}, fmt.Errorf("session row %d changed underneath the store (head now %d)", l.key, cur.Seq)
	}
	return h, err
}

// errNoSessionRow is what the append paths return when the head's update
// matched no row: the condition failed (or the row is missing).
var errNoSessionRow = errors.New("no session row updated")

// conflict returns a *ConflictError unless expect (nil: no condition) is
// the head's seq.
func conflict(expect *uint64, h sessionlog.Head) error {
	if expect == nil || *expect == h.Seq {
		return nil
	}
	return &sessionlog.ConflictError{Expected: *expect, Head: h}
}

// columns are records as the column arrays the insert statements unnest.
type columns struct {
	types, sources, bodies [][]byte
	hideFrom, hideTo       []*int64
}

func columnsOf(recs []sessionlog.Record, withHides bool) columns {
	c := columns{
		types:   make([][]byte, len(recs)),
		sources: make([][]byte, len(recs)),
		bodies:  make([][]byte, len(recs)),
	}
	if withHides {
		c.hideFrom = make([]*int64, len(recs))
		c.hideTo = make([]*int64, len(recs))
	}
	for i, r := range recs {
		// pgx sends a nil slice as NULL and an empty one as '', which is
		// how nil and empty stay apart.
		c.types[i], c.sources[i], c.bodies[i] = []byte(r.Type), r.Source, r.Body
		if withHides && r.Hide != nil {
			from, to := int64(r.Hide.From), int64(r.Hide.To)
			c.hideFrom[i], c.hideTo[i] = &from, &to
		}
	}
	return c
}

// appendPlain writes records without hide ranges in one statement on
// conn.
func (l *Log) appendPlain(ctx context.Context, conn *pgxpool.Conn, cond *int64, c columns, token []byte) (sessionlog.Head, error) {
	var seq, rev int64
	err := conn.QueryRow(ctx, l.store.sql.appendPlain,
		l.key, int64(len(c.types)), cond, c.types, c.sources, c.bodies, token).Scan(&seq, &rev)
	if errors.Is(err, pgx.ErrNoRows) {
		return sessionlog.Head{}, errNoSessionRow
	}
	if err != nil {
		return sessionlog.Head{}, err
	}
	return sessionlog.Head{Seq: uint64(seq), SurfaceRevision: uint64(rev)}, nil
}

// appendWithHides writes records with hide ranges in a transaction on
// conn. Its statements run with qctx; ctx is the caller's, checked before
// each step, so that a caller past its deadline commits nothing.
func (l *Log) appendWithHides(ctx, qctx context.Context, conn *pgxpool.Conn, cond *int64, recs []sessionlog.Record, c columns, hides int64, token []byte) (sessionlog.Head, error) {
	tx, err := conn.BeginTx(qctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return sessionlog.Head{}, err
	}
	// A no-op after Commit; otherwise nothing of this call is kept.
	defer func() { _ = tx.Rollback(qctx) }()

	n := int64(len(recs))
	var seq, rev int64
	err = tx.QueryRow(qctx, l.store.sql.lockHead, l.key, n, hides, cond, token).Scan(&seq, &rev)
	if errors.Is(err, pgx.ErrNoRows) {
		return sessionlog.Head{}, errNoSessionRow
	}
	if err != nil {
		return sessionlog.Head{}, err
	}
	prev := uint64(seq - n)
	for i := range recs {
		if recs[i].Hide == nil {
			continue
		}
		if err := recs[i].Validate(prev + 1 + uint64(i)); err != nil {
			return sessionlog.Head{}, fmt.Errorf("record %d of %d: %w", i+1, len(recs), err)
		}
	}
	b := &pgx.Batch{}
	b.Queue(l.store.sql.insertEvents, l.key, int64(prev), c.types, c.sources, c.bodies, c.hideFrom, c.hideTo, token)
	for _, r := range recs {
		if r.Hide != nil {
			b.Queue(l.store.sql.mergeHide, l.key, int64(r.Hide.From), int64(r.Hide.To))
		}
	}
	if err := tx.SendBatch(qctx, b).Close(); err != nil {
		return sessionlog.Head{}, err
	}
	if err := ctx.Err(); err != nil {
		return sessionlog.Head{}, fmt.Errorf("%w: %w", errNotCommitted, err)
	}
	if err := tx.Commit(qctx); err != nil {
		return sessionlog.Head{}, fmt.Errorf("commit: %w", err)
	}
	return sessionlog.Head{Seq: uint64(seq), SurfaceRevision: uint64(rev)}, nil
}
