package mcpskills

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// notificationsSeen returns how many change notifications p has handled.
func notificationsSeen(p *Provider) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.notifications
}

// awaitNotifications waits until p has handled n change notifications. The
// bound only keeps a lost notification from hanging the test run: it is
// generous, since under the race detector, beside other packages' tests on
// a small machine, a flood of thousands has taken over a minute.
func awaitNotifications(t *testing.T, p *Provider, n uint64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for notificationsSeen(p) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the provider handled %d of %d notifications", notificationsSeen(p), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestChangeNotificationsCoalesce: a flood of change notifications makes
// one refresh pending at a time. Notifications that arrive while the
// registry was told already and nothing listed since tell it nothing more,
// and the next List reads the index once; a notification after a listing
// began makes the next one pending, so no change is missed.
func TestChangeNotificationsCoalesce(t *testing.T) {
	// The index is set before the provider connects, and changed with
	// SetIndex alone: each sends one notifications/resources/updated, and
	// nothing else notifies.
	m := newMemServer()
	m.SetIndex(floodIndex("deploy"))
	p := newMemProvider(t, m, Options{IndexMaxAge: time.Hour})
	var invalidations atomic.Int64
	p.SetInvalidate(func() { invalidations.Add(1) })
	listSkills(t, p, "s1")
	reads := m.Reads(IndexURI)

	const n = 5000
	for range n {
		m.IndexUpdated()
	}
	awaitNotifications(t, p, n)
	if got := invalidations.Load(); got != 1 {
		t.Errorf("%d notifications with no listing between them told the registry %d times, want once", n, got)
	}
	listSkills(t, p, "s1")
	listSkills(t, p, "s1")
	if got := m.Reads(IndexURI) - reads; got != 1 {
		t.Errorf("two Lists after the flood read the index %d times, want once", got)
	}

	// A change after that listing is pending again: it is not missed.
	m.SetIndex(floodIndex("deploy", "review"))
	awaitNotifications(t, p, n+1)
	if got := invalidations.Load(); got != 2 {
		t.Errorf("a notification after a listing: %d invalidations in all, want 2", got)
	}
	if obs := listSkills(t, p, "s1"); len(obs.Skills) != 2 {
		t.Errorf("List after the change = %+v, want both skills", obs.Skills)
	}

	// A host that lists once for every invalidation lists once for each
	// burst of notifications that arrives between its lists, not once for
	// each notification: counted in rounds of a burst, then the host's
	// lists; then with the host listing while the flood goes on.
	signal := make(chan struct{}, 2*n)
	p.SetInvalidate(func() { signal <- struct{}{} })
	var lists atomic.Int64
	list := func() {
		_, _ = p.List(context.Background(), skills.ListRequest{SessionID: "s1"})
		lists.Add(1)
	}
	const burst = 100
	seen, reads := notificationsSeen(p), m.Reads(IndexURI)
	for range n / burst {
		for range burst {
			m.IndexUpdated()
		}
		seen += burst
		awaitNotifications(t, p, seen)
		for len(signal) > 0 {
			<-signal
			list()
		}
	}
	if got, reads := lists.Load(), m.Reads(IndexURI)-reads; got != n/burst || reads != n/burst {
		t.Errorf("%d bursts of %d notifications: the host listed %d times and the index was read %d times, want %d each", n/burst, burst, got, reads, n/burst)
	}

	lists.Store(0)
	reads = m.Reads(IndexURI)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-signal:
				list()
			case <-stop:
				return
			}
		}
	}()
	for range n {
		m.IndexUpdated()
	}
	awaitNotifications(t, p, seen+n)
	for len(signal) > 0 {
		time.Sleep(time.Millisecond) // the host's lists catch up
	}
	close(stop)
	<-done
	t.Logf("%d notifications while the host lists: %d lists, %d index reads", n, lists.Load(), m.Reads(IndexURI)-reads)
	if got := lists.Load(); got > n/4 {
		t.Errorf("%d notifications made a host that lists at every invalidation list %d times, want far fewer", n, got)
	}
}

// floodIndex is an index of the named skills.
func floodIndex(names ...string) string {
	var entries []string
	for _, name := range names {
		entries = append(entries, fmt.Sprintf(`{"name": %q, "type": "skill-md", "description": "Does %s.", "url": "skill://%s/SKILL.md"}`, name, name, name))
	}
	return `{"skills": [` + strings.Join(entries, ", ") + `]}`
}
