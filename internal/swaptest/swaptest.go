//go:build linux

// Package swaptest helps tests race a path against its own check: it
// exchanges two paths atomically (renameat2 RENAME_EXCHANGE), over and over,
// so that code which checks a path and then uses it finds either side at any
// moment.
package swaptest

import (
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Exchange swaps a and b in a goroutine until the returned stop is called
// (stop waits for the goroutine; calling it again does nothing; the test's
// cleanup calls it too). A pause between exchanges gives each use an even
// chance of finding either side. A failed exchange fails the test.
func Exchange(t testing.TB, a, b string, pause time.Duration) (stop func()) {
	t.Helper()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2 %s %s: %v", a, b, err)
				return
			}
			time.Sleep(pause)
		}
	}()
	stop = sync.OnceFunc(func() { close(done); wg.Wait() })
	t.Cleanup(stop)
	return stop
}
