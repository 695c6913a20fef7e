package pluginserver

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchHostWithoutAParentToWatch: a plugin started with parent 1 never
// exits on its own. It comes first: a watch that polls a parent it should
// not fails here, instead of leaving the next test waiting for an exit.
func TestWatchHostWithoutAParentToWatch(t *testing.T) {
	calls := 0
	stop := watchHost(time.Millisecond, func() int { calls++; return 1 }, func() { t.Error("exit called") })
	time.Sleep(10 * time.Millisecond)
	stop()
	if calls != 1 {
		t.Errorf("parent looked up %d times, want once", calls)
	}
}

// TestWatchHostNoticesAReparenting: the watch calls exit once the parent
// process id changes, and not before.
func TestWatchHostNoticesAReparenting(t *testing.T) {
	var ppid atomic.Int64
	ppid.Store(4242)
	exited := make(chan struct{})
	stop := watchHost(time.Millisecond, func() int { return int(ppid.Load()) }, func() { close(exited) })
	defer stop()
	select {
	case <-exited:
		t.Fatal("exit called while the host is alive")
	case <-time.After(20 * time.Millisecond):
	}
	ppid.Store(1) // adopted by init: the host is gone
	<-exited
}
