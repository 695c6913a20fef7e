package sessionlog

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gofrs/flock"
)

// TestLockExcludesUnderChurn takes and releases one log's lock from several
// goroutines at once. Release removes the lock file, so a taker can lock a
// file that is no longer linked; it must notice and never share the lock.
func TestLockExcludesUnderChurn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	const workers, rounds = 4, 500
	var (
		holders, taken atomic.Int32
		wg             sync.WaitGroup
		errs           = make(chan error, workers)
	)
	for range workers {
		wg.Go(func() {
			for range rounds {
				k, err := lockLog(path)
				if errors.Is(err, ErrLocked) {
					continue
				}
				if err != nil {
					errs <- err
					return
				}
				taken.Add(1)
				if n := holders.Add(1); n != 1 {
					errs <- errors.New("two holders at once")
					return
				}
				runtime.Gosched()
				holders.Add(-1)
				if err := k.release(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if taken.Load() == 0 {
		t.Fatal("no worker ever took the lock")
	}
	if _, err := os.Stat(path + lockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock file after the last release: %v", err)
	}
}

func TestLinked(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows does not remove a file that is open")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl.lock")
	fl := flock.New(path)
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatalf("TryLock = %v, %v", ok, err)
	}
	defer fl.Unlock()
	check := func(want bool) {
		t.Helper()
		if got, err := linked(fl); err != nil || got != want {
			t.Fatalf("linked = %v, %v; want %v", got, err, want)
		}
	}
	check(true)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	check(false)
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	check(false)
}
