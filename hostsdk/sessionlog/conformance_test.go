package sessionlog_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog/logtest"
)

func TestMemoryConformance(t *testing.T) {
	logtest.Run(t, func(t *testing.T) sessionlog.Log { return sessionlog.NewMemory() })
}

func openTemp(t *testing.T) *sessionlog.FileLog {
	t.Helper()
	l, rec, err := sessionlog.OpenFile(filepath.Join(t.TempDir(), "session.jsonl"))
	if err != nil {
		t.Fatalf("OpenFile: %v", err)
	}
	if rec != (sessionlog.Recovery{}) {
		t.Fatalf("OpenFile of a new file reported %+v", rec)
	}
	return l
}

func TestFileConformance(t *testing.T) {
	logtest.Run(t, func(t *testing.T) sessionlog.Log { return openTemp(t) })
}

// TestFileReopenedConformance closes and reopens the file after every
// append, so every read sees only what reached the file and what the open
// scan rebuilt from it.
func TestFileReopenedConformance(t *testing.T) {
	logtest.Run(t, func(t *testing.T) sessionlog.Log {
		return &reopening{path: filepath.Join(t.TempDir(), "session.jsonl"), l: nil}
	})
}

type reopening struct {
	path string
	mu   sync.RWMutex
	l    *sessionlog.FileLog
}

func (r *reopening) reopen() error {
	if r.l != nil {
		if err := r.l.Close(); err != nil {
			return err
		}
	}
	l, rec, err := sessionlog.OpenFile(r.path)
	if err != nil {
		return err
	}
	if rec != (sessionlog.Recovery{}) {
		_ = l.Close()
		return fmt.Errorf("reopen of a cleanly written file reported %+v", rec)
	}
	r.l = l
	return nil
}

func (r *reopening) log() (*sessionlog.FileLog, error) {
	if r.l == nil {
		if err := r.reopen(); err != nil {
			return nil, err
		}
	}
	return r.l, nil
}

func (r *reopening) Append(ctx context.Context, recs ...sessionlog.Record) (sessionlog.Head, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.log()
	if err != nil {
		return sessionlog.Head{}, err
	}
	h, err := l.Append(ctx, recs...)
	if err != nil || len(recs) == 0 {
		return h, err
	}
	return h, r.reopen()
}

func (r *reopening) AppendIf(ctx context.Context, expect uint64, recs ...sessionlog.Record) (sessionlog.Head, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.log()
	if err != nil {
		return sessionlog.Head{}, err
	}
	h, err := l.AppendIf(ctx, expect, recs...)
	if err != nil || len(recs) == 0 {
		return h, err
	}
	return h, r.reopen()
}

func (r *reopening) ReadBackward(ctx context.Context, before, after uint64, limit int) (sessionlog.Page, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.log()
	if err != nil {
		return sessionlog.Page{}, err
	}
	return l.ReadBackward(ctx, before, after, limit)
}

func (r *reopening) Head(ctx context.Context) (sessionlog.Head, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.log()
	if err != nil {
		return sessionlog.Head{}, err
	}
	return l.Head(ctx)
}

func (r *reopening) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, err := r.log()
	if err != nil {
		return err
	}
	return l.Close()
}

func TestMemoryStoreConformance(t *testing.T) {
	logtest.RunStore(t, func(t *testing.T) sessionlog.Store { return sessionlog.NewMemoryStore() })
}

func TestFileStoreConformance(t *testing.T) {
	logtest.RunStore(t, fileStores(nil))
}

// TestFileStoreConformanceOneOpenSession runs the store suite with room for
// one open session, so that sessions are closed and reopened between and
// under the suite's calls.
func TestFileStoreConformanceOneOpenSession(t *testing.T) {
	logtest.RunStore(t, fileStores(&sessionlog.FileStoreOptions{MaxOpenFiles: 2}))
}

// TestFileStoreLogConformanceOneOpenSession runs the log suite on handles
// of a store with room for one open session, each test's log among others
// that push it out.
func TestFileStoreLogConformanceOneOpenSession(t *testing.T) {
	logtest.Run(t, func(t *testing.T) sessionlog.Log {
		s, err := sessionlog.NewFileStore(t.TempDir(), &sessionlog.FileStoreOptions{MaxOpenFiles: 2})
		if err != nil {
			t.Fatalf("NewFileStore: %v", err)
		}
		other, err := s.Open(context.Background(), "other")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Close() })
		l, err := s.Open(context.Background(), "log")
		if err != nil {
			t.Fatal(err)
		}
		// Every call of the log's reopens it after other's pushed it out.
		return churn{Log: l, other: other}
	})
}

// churn is a log whose every call is preceded by a call of another session
// of the same store: an append of filler when it is set, otherwise Head.
type churn struct {
	sessionlog.Log
	other  sessionlog.Log
	filler *sessionlog.Record
}

func (c churn) touch() {
	if c.filler != nil {
		_, _ = c.other.Append(context.Background(), *c.filler)
		return
	}
	_, _ = c.other.Head(context.Background())
}

func (c churn) Append(ctx context.Context, recs ...sessionlog.Record) (sessionlog.Head, error) {
	c.touch()
	return c.Log.Append(ctx, recs...)
}

func (c churn) AppendIf(ctx context.Context, expect uint64, recs ...sessionlog.Record) (sessionlog.Head, error) {
	c.touch()
	return c.Log.AppendIf(ctx, expect, recs...)
}

func (c churn) ReadBackward(ctx context.Context, before, after uint64, limit int) (sessionlog.Page, error) {
	c.touch()
	return c.Log.ReadBackward(ctx, before, after, limit)
}

func (c churn) Head(ctx context.Context) (sessionlog.Head, error) {
	c.touch()
	return c.Log.Head(ctx)
}

func (c churn) NewestOfType(ctx context.Context, typ string) (uint64, sessionlog.Head, bool, error) {
	c.touch()
	return c.Log.(sessionlog.TypeSeeker).NewestOfType(ctx, typ)
}

// TestFileStoreConformanceNoTail runs the store suite with no tail budget
// (NoTailBudget): every read goes to the file.
func TestFileStoreConformanceNoTail(t *testing.T) {
	logtest.RunStore(t, fileStores(&sessionlog.FileStoreOptions{TailBudget: sessionlog.NoTailBudget}))
}

// TestFileStoreLogConformanceNoTail runs the log suite on a handle of a
// store with no tail budget.
func TestFileStoreLogConformanceNoTail(t *testing.T) {
	logtest.Run(t, func(t *testing.T) sessionlog.Log {
		s, err := sessionlog.NewFileStore(t.TempDir(), &sessionlog.FileStoreOptions{TailBudget: sessionlog.NoTailBudget})
		if err != nil {
			t.Fatalf("NewFileStore: %v", err)
		}
		l, err := s.Open(context.Background(), "log")
		if err != nil {
			t.Fatal(err)
		}
		return l
	})
}

// TestFileStoreLogConformanceTailEvicted runs the log suite on a handle of
// a store whose small tail budget another session keeps filling: before
// every call of the log, the other session appends an event that pushes
// the log's tail out, unless the log was read from since.
func TestFileStoreLogConformanceTailEvicted(t *testing.T) {
	logtest.Run(t, func(t *testing.T) sessionlog.Log {
		s, err := sessionlog.NewFileStore(t.TempDir(), &sessionlog.FileStoreOptions{TailBudget: 4 << 10})
		if err != nil {
			t.Fatalf("NewFileStore: %v", err)
		}
		other, err := s.Open(context.Background(), "other")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Close() })
		l, err := s.Open(context.Background(), "log")
		if err != nil {
			t.Fatal(err)
		}
		filler := sessionlog.Record{Type: "message", Body: []byte(`"` + strings.Repeat("f", 3<<10) + `"`)}
		return churn{Log: l, other: other, filler: &filler}
	})
}

// fileStores makes each store test a file store of its own, with opts, in
// a directory that does not exist yet.
func fileStores(opts *sessionlog.FileStoreOptions) func(*testing.T) sessionlog.Store {
	return func(t *testing.T) sessionlog.Store {
		s, err := sessionlog.NewFileStore(filepath.Join(t.TempDir(), "sessions"), opts)
		if err != nil {
			t.Fatalf("NewFileStore: %v", err)
		}
		return s
	}
}
