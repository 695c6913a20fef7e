package skills_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// gate holds a fake's listings until it is opened, whatever their context
// says, as a provider that does not watch its context would.
type gate struct {
	mu sync.Mutex
	ch chan struct{}
}

func newGate() *gate { return &gate{ch: make(chan struct{})} }

func (g *gate) wait() {
	g.mu.Lock()
	ch := g.ch
	g.mu.Unlock()
	<-ch
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.ch:
	default:
		close(g.ch)
	}
}

func (g *gate) shut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ch = make(chan struct{})
}

// snapshotWithin takes a snapshot under a deadline of d.
func snapshotWithin(t *testing.T, r *skills.Registry, q skills.Query, d time.Duration) skills.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	s, err := r.Snapshot(ctx, q)
	if err != nil {
		t.Fatalf("Snapshot within %v: %v", d, err)
	}
	return s
}

// expectDegraded checks a snapshot's names and its one degraded line.
func expectDegraded(t *testing.T, what string, s skills.Snapshot, want []string, kept string) {
	t.Helper()
	line := `best-effort provider remote in scope "global": ` + skills.ErrStillListing.Error() + "; " + kept
	if got := names(s.Skills); strings.Join(got, ",") != strings.Join(want, ",") || !s.Complete {
		t.Fatalf("%s: skills %v (complete %v), want %v", what, got, s.Complete, want)
	}
	if len(s.Degraded) != 1 || s.Degraded[0] != line {
		t.Fatalf("%s: Degraded %q\nwant [%q]", what, s.Degraded, line)
	}
}

// TestSlowBestEffortProviderCostsItsShare: a best-effort provider whose
// listing does not return (and does not watch its context) costs a
// snapshot a share of its deadline: the snapshot answers before the
// deadline, complete with the other skills, and says the provider is still
// listing. A second snapshot joins the listing in flight rather than
// starting another, and waits no longer than the share measured from its
// start. The listing's late answer becomes the provider's last-good
// listing: while the provider is slow again, it stands in.
func TestSlowBestEffortProviderCostsItsShare(t *testing.T) {
	r := skilltest.NewRegistry(t)
	mustRegister(t, r, "global", rt("local", "A local skill."))
	p := newFake(true, sum("remote-a", "A remote skill.", "remote"))
	g := newGate()
	t.Cleanup(g.open)
	onList(p, g.wait)
	prov, opts := bestEffortly(p)
	r.AddProvider("global", prov, opts)

	// The snapshot's deadline is far beyond its share: a snapshot that
	// waited for the provider would fail with the deadline instead.
	expectDegraded(t, "first", snapshotWithin(t, r, globalQ, 2*time.Second), []string{"local"}, "left out until it lists")
	expectDegraded(t, "second", snapshotWithin(t, r, globalQ, 2*time.Second), []string{"local"}, "left out until it lists")
	if n := p.Lists(); n != 1 {
		t.Fatalf("%d listings started, want 1: the second snapshot joins the first's", n)
	}

	g.open()
	skills.WaitListings(r)
	g.shut() // slow again
	expectDegraded(t, "after the late answer", snapshotWithin(t, r, globalQ, 2*time.Second),
		[]string{"local", "remote-a"}, "its last-good listing of 1 skills kept")

	g.open()
	skills.WaitListings(r)
	if s := mustSnapshot(t, r, globalQ); s.Degraded != nil || strings.Join(names(s.Skills), ",") != "local,remote-a" {
		t.Errorf("a prompt answer: skills %v, degraded %q", names(s.Skills), s.Degraded)
	}
}

// TestBestEffortListingOutlivesItsCaller: a caller that gives up gets its
// own context's error, as before; the best-effort listing it started is not
// cancelled with it, and its answer is the next snapshot's.
func TestBestEffortListingOutlivesItsCaller(t *testing.T) {
	r := skilltest.NewRegistry(t)
	p := newFake(true, sum("remote-a", "A remote skill.", "remote"))
	g := newGate()
	t.Cleanup(g.open)
	var listCtx context.Context
	var mu sync.Mutex
	p.OnCall(func(c skilltest.Call) {
		if c.Op == skilltest.OpList {
			g.wait()
		}
	})
	prov, opts := bestEffortly(p)
	r.AddProvider("global", &ctxRecorder{Provider: prov, record: func(ctx context.Context) {
		mu.Lock()
		listCtx = ctx
		mu.Unlock()
	}}, opts)

	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := r.Snapshot(ctx, globalQ)
		errc <- err
	}()
	for p.Lists() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Snapshot after its caller gave up: %v, want context.Canceled", err)
	}
	mu.Lock()
	lctx := listCtx
	mu.Unlock()
	if err := lctx.Err(); err != nil {
		t.Fatalf("the listing's context ended with its caller's: %v", err)
	}
	if _, ok := lctx.Deadline(); !ok {
		t.Error("the listing has no deadline though its caller had none: it is bounded all the same")
	}
	g.open()
	skills.WaitListings(r)
	if s := mustSnapshot(t, r, globalQ); s.Degraded != nil || strings.Join(names(s.Skills), ",") != "remote-a" {
		t.Errorf("the next snapshot: skills %v, degraded %q", names(s.Skills), s.Degraded)
	}
	if n := p.Lists(); n != 2 {
		t.Errorf("%d listings, want 2", n)
	}
}

// ctxRecorder records the context each List is called with.
type ctxRecorder struct {
	skills.Provider
	record func(context.Context)
}

func (c *ctxRecorder) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	c.record(ctx)
	return c.Provider.List(ctx, req)
}
