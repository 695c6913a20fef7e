package sessionlog_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
)

// TestFileStoreMaxOpenFilesIsChecked: a budget that cannot hold one open
// session is refused, naming the option and its bound; 0 is the default.
func TestFileStoreMaxOpenFilesIsChecked(t *testing.T) {
	for _, n := range []int{-1, 1} {
		if _, err := sessionlog.NewFileStore(t.TempDir(), &sessionlog.FileStoreOptions{MaxOpenFiles: n}); err == nil ||
			!strings.Contains(err.Error(), "FileStoreOptions.MaxOpenFiles") || !strings.Contains(err.Error(), "at least 2") {
			t.Errorf("MaxOpenFiles %d: error %v, want one naming the option and its bound", n, err)
		}
	}
	if _, err := sessionlog.NewFileStore(t.TempDir(), &sessionlog.FileStoreOptions{MaxOpenFiles: 0}); err != nil {
		t.Errorf("MaxOpenFiles 0 (the default): %v", err)
	}
}

// TestFileStoreClosedSessionSeesAForeignAppend: with room for one open
// session, using a second closes the first's file and lock. Another writer
// may then append to the first; the first's handle, used again, reopens
// the file, reads what was appended, and a conditional append on the head
// it read before fails. While it is open again, other writers are locked
// out.
func TestFileStoreClosedSessionSeesAForeignAppend(t *testing.T) {
	st, err := sessionlog.NewFileStore(t.TempDir(), &sessionlog.FileStoreOptions{MaxOpenFiles: 2})
	if err != nil {
		t.Fatal(err)
	}
	a, err := st.Open(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Append(ctx, message(1)); err != nil {
		t.Fatal(err)
	}
	b, err := st.Open(ctx, "b") // closes a's file
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	other, _, err := sessionlog.OpenFile(st.Path("a"))
	if err != nil {
		t.Fatalf("a's file is still locked while the store has it closed: %v", err)
	}
	if _, err := other.Append(ctx, message(2)); err != nil {
		t.Fatal(err)
	}
	// While the other writer holds it, a cannot reopen it.
	if _, err := a.Head(ctx); !errors.Is(err, sessionlog.ErrLocked) {
		t.Errorf("a used while another writer holds its file: %v, want ErrLocked", err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}

	_, err = a.AppendIf(ctx, 1, message(3))
	var conflict *sessionlog.ConflictError
	if !errors.As(err, &conflict) || conflict.Head.Seq != 2 {
		t.Fatalf("AppendIf on the head read before the foreign append = %v, want a conflict at head 2", err)
	}
	p, err := a.ReadBackward(ctx, 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != 2 || string(p.Events[0].Body) != string(message(2).Body) {
		t.Fatalf("a reads %d events (newest %s), want the foreign append on top", len(p.Events), p.Events[0].Body)
	}
	if _, _, err := sessionlog.OpenFile(st.Path("a")); !errors.Is(err, sessionlog.ErrLocked) {
		t.Errorf("a's file is not locked while a is open again: %v", err)
	}
	if h, err := a.AppendIf(ctx, 2, message(3)); err != nil || h.Seq != 3 {
		t.Fatalf("AppendIf on the new head = %+v, %v", h, err)
	}
	if h, err := b.Head(ctx); err != nil || h.Seq != 0 {
		t.Fatalf("b, reopened after a: head %+v, %v", h, err)
	}
}

// TestFileStoreBudgetUnderConcurrentUse: goroutines sharing more sessions
// than the budget keeps open append to them at random, each through its own
// handles, so sessions are closed and reopened under one another's calls;
// every append lands once, in order.
func TestFileStoreBudgetUnderConcurrentUse(t *testing.T) {
	st, err := sessionlog.NewFileStore(t.TempDir(), &sessionlog.FileStoreOptions{MaxOpenFiles: 6})
	if err != nil {
		t.Fatal(err)
	}
	const (
		sessions   = 12
		workers    = 6
		perWorker  = 40
		maxRetries = 1000
	)
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			logs := make([]sessionlog.Log, sessions)
			defer func() {
				for _, l := range logs {
					l.Close()
				}
			}()
			for i := range logs {
				l, err := st.Open(ctx, fmt.Sprintf("s%d", i))
				if err != nil {
					errs <- err
					return
				}
				logs[i] = l
			}
			for k := range perWorker {
				l := logs[(w*7+k*5)%sessions]
				for try := 0; ; try++ {
					h, err := l.Head(ctx)
					if err == nil {
						_, err = l.AppendIf(ctx, h.Seq, message(w*perWorker+k))
					}
					if err == nil {
						break
					}
					if !errors.Is(err, sessionlog.ErrConflict) || try == maxRetries {
						errs <- err
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for i := range sessions {
		l, err := st.Open(ctx, fmt.Sprintf("s%d", i))
		if err != nil {
			t.Fatal(err)
		}
		p, err := l.ReadBackward(ctx, 0, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if uint64(len(p.Events)) != p.Head.Seq {
			t.Errorf("session %d: %d events under head %d", i, len(p.Events), p.Head.Seq)
		}
		total += len(p.Events)
		l.Close()
	}
	if total != workers*perWorker {
		t.Fatalf("%d events in all, want %d", total, workers*perWorker)
	}
}
