package pglog

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// DefaultSettleTimeout is how long past its context's end an append may
// take to learn its own outcome, unless [Options.SettleTimeout] says
// otherwise.
const DefaultSettleTimeout = 5 * time.Second

// write runs one append on a connection of its own and returns only a
// known outcome: the head after the records, or an error after which the
// log is as it was. When the caller's context ends, the server is asked to
// cancel the statement, so the answer is the server's; when the connection
// is lost instead, settle finds out on another one.
func (l *Log) write(ctx context.Context, cond *int64, recs []sessionlog.Record, hides int64) (sessionlog.Head, error) {
	var token [16]byte
	if _, err := rand.Read(token[:]); err != nil {
		return sessionlog.Head{}, err
	}
	conn, err := l.store.pool.Acquire(ctx)
	if err != nil {
		return sessionlog.Head{}, l.store.wrap(err)
	}
	cols := columnsOf(recs, hides > 0)
	var h sessionlog.Head
	asked, err := guard(ctx, conn, l.store.settle, func(qctx context.Context) error {
		var err error
		if hides == 0 {
			h, err = l.appendPlain(qctx, conn, cond, cols, token[:])
		} else {
			h, err = l.appendWithHides(ctx, qctx, conn, cond, recs, cols, hides, token[:])
		}
		return err
	})
	if asked || err != nil && inDoubt(err) {
		// The server may still be about to cancel a statement on it.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		_ = conn.Conn().Close(cctx)
		cancel()
	}
	conn.Release()
	switch {
	case err == nil, errors.Is(err, errNoSessionRow):
		return h, err
	case inDoubt(err):
		found, h, serr := l.settle(ctx, token[:], int64(len(recs)))
		if serr != nil {
			return sessionlog.Head{}, fmt.Errorf("%w: the connection was lost (%w), and finding out failed: %w", sessionlog.ErrOutcomeUnknown, err, serr)
		}
		if found {
			return h, nil
		}
		err = fmt.Errorf("the connection was lost before the append committed; nothing was written: %w", err)
	}
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w: %w", cerr, err)
	}
	return sessionlog.Head{}, l.store.wrap(err)
}

// errNotCommitted is wrapped by the error of an append that gave up, its
// context done, before it asked the server to commit.
var errNotCommitted = errors.New("not committed")

// inDoubt reports whether a write that failed with err may have committed:
// no answer of the server says how it ended. A server error other than a
// fatal one ended the transaction, which then rolled back. Errors that say
// nothing was sent are not trusted: pgx reports a COMMIT whose reply was
// lost as "conn closed", which it also says of a statement never sent.
func inDoubt(err error) bool {
	if errors.Is(err, errNoSessionRow) || errors.Is(err, errNotCommitted) || errors.Is(err, sessionlog.ErrInvalidRecord) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Severity == "FATAL" || pe.Severity == "PANIC"
	}
	return true
}

// guard runs fn, which uses conn, with a context that outlives ctx by up to
// grace. When ctx ends first it asks the server to cancel the statement in
// flight, so that fn ends with the server's answer (the statement
// cancelled, or done) instead of a connection given up mid-statement; only
// a server that does not answer within grace loses the connection. It
// reports whether it asked.
func guard(ctx context.Context, conn *pgxpool.Conn, grace time.Duration, fn func(context.Context) error) (bool, error) {
	qctx, giveUp := context.WithCancel(context.WithoutCancel(ctx))
	defer giveUp()
	done, asked := make(chan struct{}), make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(asked)
		timer := time.NewTimer(grace)
		defer timer.Stop()
		cctx, cancel := context.WithTimeout(qctx, grace)
		_ = conn.Conn().PgConn().CancelRequest(cctx)
		cancel()
		select {
		case <-done:
		case <-timer.C:
			giveUp()
		}
	})
	err := fn(qctx)
	close(done)
	if stop() {
		return false, err
	}
	<-asked // the cancel request may still be on its way
	return true, err
}

// settle finds out whether the append with token, of n records, committed,
// on a connection other than the one lost. In one transaction it first
// fences the token on the session's row, which waits for any transaction
// holding the row (the lost append's, if it is still running) and keeps a
// statement of the lost append that has not yet started from ever writing;
// then it looks for the append's first event. It returns the head after
// the append when it is found; when it is not, the append never committed
// and now never will. It retries until the store's settle timeout passes.
func (l *Log) settle(ctx context.Context, token []byte, n int64) (bool, sessionlog.Head, error) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.store.settle)
	defer cancel()
	wait := 20 * time.Millisecond
	for {
		found, h, err := l.settleOnce(sctx, token, n)
		if err == nil || errors.Is(err, errNoSessionRow) || l.store.closed.Load() {
			return found, h, err
		}
		select {
		case <-sctx.Done():
			return false, sessionlog.Head{}, err
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

func (l *Log) settleOnce(ctx context.Context, token []byte, n int64) (found bool, h sessionlog.Head, err error) {
	tx, err := l.store.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return false, sessionlog.Head{}, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var seq, rev, hidesAfter int64
	if err := tx.QueryRow(ctx, l.store.sql.fence, l.key, token).Scan(&seq, &rev); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return false, sessionlog.Head{}, fmt.Errorf("%w: %w", errNoSessionRow, l.rowError(err))
		}
		return false, sessionlog.Head{}, err
	}
	// A statement of its own, so a snapshot taken after the fence waited
	// for the row: a lost append that committed meanwhile is seen.
	var first int64
	err = tx.QueryRow(ctx, l.store.sql.findToken, l.key, token, n).Scan(&first, &hidesAfter)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		// Not there: the fence must hold before the append is declared
		// failed.
		if err := tx.Commit(ctx); err != nil {
			return false, sessionlog.Head{}, err
		}
		return false, sessionlog.Head{}, nil
	case err != nil:
		return false, sessionlog.Head{}, err
	}
	return true, sessionlog.Head{Seq: uint64(first + n - 1), SurfaceRevision: uint64(rev - hidesAfter)}, nil
}
