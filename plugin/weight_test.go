package plugin

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/internal/view"
)

// The tests of this file weigh the engine's caches: each steps through
// megabytes of snapshots and reads the live heap, so they run one at a time
// (another test's allocations would be weighed with them) and are the
// package's slowest. The file's name sorts after every other test file's,
// so that a failing behaviour test stops `go test -failfast` before them.

// liveHeap returns the bytes of live heap objects after a full collection.
func liveHeap() int {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int(ms.HeapAlloc)
}

// accountedBytes sums what the engine's caches account for.
func accountedBytes(e *engine) int {
	return e.views.Bytes() + e.lastTokens.Bytes() + e.sessions.Bytes() + e.parsed.Bytes()
}

// heapSlack absorbs what a test allocates besides the engine (its host,
// the runtime's own structures) when the engine's heap is measured.
const heapSlack = 4 << 20

// stepSnapshots runs one step per round, each with a new snapshot of n
// skills whose descriptions all changed (describe gives skill i's in
// round r), and calls check after each.
func stepSnapshots(t *testing.T, e *engine, m mount, rounds, n int, describe func(r, i int) string, check func(round int)) {
	t.Helper()
	h := newMemHost()
	for r := 0; r < rounds; r++ {
		h.skills = h.skills[:0]
		for i := 0; i < n; i++ {
			h.skills = append(h.skills, summary(fmt.Sprintf("skill-%03d", i), describe(r, i)))
		}
		h.token = fmt.Sprintf("tok-%d", r)
		if _, err := e.preStep(context.Background(), h, m, step(h, enter())); err != nil {
			t.Fatal(err)
		}
		check(r)
	}
}

// ownDescriptions describes each skill of each round with descBytes bytes
// of its own, as a host's fresh snapshot does.
func ownDescriptions(descBytes int) func(r, i int) string {
	filler := strings.Repeat("x", descBytes)
	return func(r, i int) string {
		head := fmt.Sprintf("Round %d, skill %d: ", r, i)
		return head + filler[len(head):]
	}
}

// TestViewCacheIsBoundedInBytes: snapshots of 25 skills with 60 KB
// descriptions, under a cap that keeps the descriptions whole, make views of
// some 4.5 MB each. The view cache keeps them within its byte bound, however
// many snapshots come (the entry bound, maxViews, allows 256 of them), and
// the heap the engine keeps matches what the cache accounts for. The bound
// is a quarter of maxViewBytes, with the same entry bound and accounting:
// the rule shows at any size, and a smaller one makes a quarter of the views.
func TestViewCacheIsBoundedInBytes(t *testing.T) {
	const skills, descBytes, capLen, viewBytes = 25, 60 << 10, 64 << 10, maxViewBytes / 4
	m := testMount()
	m.cfg.DescriptionMaxLength = capLen
	// More snapshots than the bound holds the views of: the cache evicts
	// three times, and the views made exceed the bound by more than one
	// view and the heap slack.
	rounds := viewBytes/(3*skills*descBytes) + 3

	before := liveHeap()
	e := newEngine()
	e.views = newCache[string, *view.View](maxViews, viewBytes)
	stepSnapshots(t, e, m, rounds, skills, ownDescriptions(descBytes), func(r int) {
		if got := e.views.Bytes(); got > viewBytes {
			t.Fatalf("after snapshot %d the view cache accounts for %d bytes, over its bound of %d", r+1, got, viewBytes)
		}
	})
	live := liveHeap() - before
	accounted := accountedBytes(e)
	runtime.KeepAlive(e)
	t.Logf("%d snapshots: %d views, %d bytes accounted, %d bytes live", rounds, e.views.Len(), accounted, live)
	if live > viewBytes+heapSlack {
		t.Errorf("the engine keeps %d bytes of heap after %d snapshots, over the view bound %d (+%d slack)", live, rounds, viewBytes, heapSlack)
	}
	if live > accounted+heapSlack {
		t.Errorf("the engine keeps %d bytes of heap but its caches account for %d: something is kept uncounted", live, accounted)
	}
	if e.views.Len() < 2 {
		t.Errorf("only %d views kept: the bound leaves room for three", e.views.Len())
	}
	if made := rounds * 3 * skills * descBytes; made <= viewBytes+3*skills*descBytes+heapSlack {
		t.Fatalf("%d snapshots make views of %d bytes: too few to show the bound", rounds, made)
	}
}

// TestViewsDoNotKeepRawDescriptions: at the default cap, 121 snapshots of
// 100 skills with 60 KB descriptions (6 MB each) leave views that hold the
// capped descriptions only: each costs a small fraction of its snapshot,
// and nothing else the engine keeps holds raw snapshot data. The
// descriptions are windows on one text of some 8 MB, each starting at its
// own place in it, so that keeping any of them would keep all of that text,
// twice the heap slack, alive.
func TestViewsDoNotKeepRawDescriptions(t *testing.T) {
	const rounds, skills, descBytes, stride = 121, 100, 60 << 10, 720
	before := liveHeap()
	e := newEngine()
	var b strings.Builder
	chunks := (rounds*skills*stride + descBytes + stride - 1) / stride
	b.Grow(chunks * stride)
	for k := range chunks {
		head := fmt.Sprintf("Description %d. ", k)
		b.WriteString(head)
		b.WriteString(strings.Repeat("x", stride-len(head)))
	}
	shared := b.String()
	b.Reset()
	if len(shared) <= 2*heapSlack {
		t.Fatalf("a text of %d bytes, not over twice the heap slack", len(shared))
	}
	stepSnapshots(t, e, testMount(), rounds, skills, func(r, i int) string {
		at := (r*skills + i) * stride
		return shared[at : at+descBytes]
	}, func(int) {})
	shared = ""
	live := liveHeap() - before
	accounted := accountedBytes(e)
	runtime.KeepAlive(e)
	t.Logf("%d snapshots: %d views, %d bytes accounted, %d bytes live", rounds, e.views.Len(), accounted, live)
	if e.views.Len() != rounds {
		t.Fatalf("%d views kept, want all %d: they fit both bounds", e.views.Len(), rounds)
	}
	// Three renderings of 100 descriptions capped at 500 characters, names
	// and tables: well under a tenth of the 6 MB snapshot.
	if perView := e.views.Bytes() / rounds; perView > skills*descBytes/10 {
		t.Errorf("a view costs %d bytes for a snapshot of %d: raw descriptions are kept", perView, skills*descBytes)
	}
	if live > accounted+heapSlack {
		t.Errorf("the engine keeps %d bytes of heap but its caches account for %d: something keeps snapshot data", live, accounted)
	}
}

// TestSessionAndPlaceCachesAreBoundedInBytes: host-chosen keys (session
// ids, working directories) count against the byte bounds
// maxSessionBytes and maxLastTokenBytes, not only the entry bounds: twice
// as many keys as the byte bounds hold, all well within the entry bounds,
// leave the caches and the heap within the byte bounds.
func TestSessionAndPlaceCachesAreBoundedInBytes(t *testing.T) {
	const keyBytes = 4 << 10
	const n = 2 * max(maxSessionBytes, maxLastTokenBytes) / keyBytes // 4,096 keys of 4 KiB: 16 MiB of each kind
	if n > min(maxSessions, maxLastTokens)/2 {
		t.Fatalf("%d keys: not within the entry bounds", n)
	}
	before := liveHeap()
	e := newEngine()
	h := newMemHost(summary("alpha", "A."))
	pad := strings.Repeat("k", keyBytes)
	for i := 0; i < n; i++ {
		req := step(h, enter())
		req.SessionID = fmt.Sprintf("%d-%s", i, pad)[:keyBytes]
		req.Cwd = "/" + req.SessionID
		if _, err := e.preStep(context.Background(), h, testMount(), req); err != nil {
			t.Fatal(err)
		}
		if got := e.sessions.Bytes(); got > maxSessionBytes {
			t.Fatalf("session %d: sessions account for %d bytes, over maxSessionBytes = %d", i, got, maxSessionBytes)
		}
		if got := e.lastTokens.Bytes(); got > maxLastTokenBytes {
			t.Fatalf("session %d: places account for %d bytes, over maxLastTokenBytes = %d", i, got, maxLastTokenBytes)
		}
	}
	live := liveHeap() - before
	runtime.KeepAlive(e)
	if limit := maxSessionBytes + maxLastTokenBytes + heapSlack; live > limit {
		t.Errorf("the engine keeps %d bytes of heap after %d sessions with %d-byte ids, over maxSessionBytes + maxLastTokenBytes = %d (+%d slack)", live, n, keyBytes, maxSessionBytes+maxLastTokenBytes, heapSlack)
	}
}
