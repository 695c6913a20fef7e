package sessionlog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The disk failures below cannot be produced on a healthy file system, so
// these tests put a failing or stalled fsync in the FileLog's place; the
// writes, truncations and reopening are real.

// TestFailedFsyncLeavesTheLogAsItWas: an append whose write succeeded but
// whose fsync failed must not show up in the file: reopened, the log is as
// it was before the append.
func TestFailedFsyncLeavesTheLogAsItWas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	failing := false
	o := fileOptions{chunk: defaultChunk, every: defaultIndexEvery, sync: func(f *os.File) error {
		if failing {
			return &os.PathError{Op: "sync", Path: f.Name(), Err: syscall.EIO}
		}
		return f.Sync()
	}}
	l, _, err := openFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := l.Append(ctx, Record{Type: "message", Body: []byte(`{"n":1}`)}); err != nil {
		t.Fatal(err)
	}
	failing = true
	_, err = l.Append(ctx, Record{Type: "message", Body: []byte(`{"n":2}`)})
	if !errors.Is(err, syscall.EIO) || errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("append with a failing fsync = %v, want a failure wrapping EIO with a known outcome", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	r, _, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h, _ := r.Head(ctx); h.Seq != 1 {
		t.Fatalf("reopened after the failed append, the log's head is %d, want 1: the failed append is in the log", h.Seq)
	}
}

// TestAppendWaitForAnotherHonoursTheDeadline: an append waiting for
// another append of the same log, stuck in a slow fsync, returns when its
// context's deadline passes.
func TestAppendWaitForAnotherHonoursTheDeadline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	stall, stalled := make(chan struct{}), make(chan struct{})
	o := fileOptions{chunk: defaultChunk, every: defaultIndexEvery, sync: func(f *os.File) error {
		select {
		case <-stalled:
		default:
			close(stalled)
			<-stall
		}
		return f.Sync()
	}}
	l, _, err := openFile(path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	first := make(chan error, 1)
	go func() {
		_, err := l.Append(ctx, Record{Type: "message", Body: []byte(`{"n":1}`)})
		first <- err
	}()
	<-stalled
	const timeout = 300 * time.Millisecond
	second := make(chan error, 1)
	go func() {
		actx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		_, err := l.Append(actx, Record{Type: "message", Body: []byte(`{"n":2}`)})
		second <- err
	}()
	select {
	case err = <-second:
	case <-time.After(10 * timeout):
		close(stall)
		t.Fatalf("append still waiting for the stalled one %s after its %s deadline", 10*timeout, timeout)
	}
	close(stall)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the waiting append = %v, want an error wrapping context.DeadlineExceeded", err)
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if h, _ := l.Head(ctx); h.Seq != 1 {
		t.Errorf("head %d, want 1: only the stalled append is in the log", h.Seq)
	}
}
