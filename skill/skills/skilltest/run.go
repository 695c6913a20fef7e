package skilltest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// Harness is a provider under test and the handles RunProvider drives it
// with.
type Harness struct {
	// Provider is the provider under test. The suite calls SetInvalidate
	// itself when Provider is a skills.Invalidator.
	Provider skills.Provider
	// Cwd is the working directory of every request the suite makes.
	Cwd string

	// SetSkill makes the provider's source offer a skill named name with
	// description (a short single line), adding it or replacing the
	// same-name one, and returns once the source holds the change; the
	// provider may notice it later. The suite only uses names of the form
	// "skilltest-…".
	SetSkill func(t *testing.T, name, description string)
	// RemoveSkill removes a skill the suite added from the source.
	RemoveSkill func(t *testing.T, name string)

	// Block, when the source can make a call wait, makes calls of op (for
	// OpLoad, loads of the skill name) block inside the source until their
	// context ends. started returns once such a call has begun blocking, or
	// with ctx's error; release stops blocking calls that begin afterwards.
	// nil skips the mid-call cancellation checks.
	Block func(t *testing.T, op Op, name string) (started func(ctx context.Context) error, release func())

	// SessionState, for a skills.SessionEnder that keeps per-session
	// state, reports whether the provider holds state for a session. nil
	// checks only that ended sessions are still served.
	SessionState func(sessionID string) bool
}

// Factory returns a new harness around a fresh provider whose source holds
// no skill of the form "skilltest-…". It registers any cleanup (closing
// the provider, stopping a server) with t.
type Factory func(t *testing.T) Harness

// RunProvider runs the provider conformance suite: each check is a subtest
// with a harness of its own.
func RunProvider(t *testing.T, factory Factory) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, d *driver)
	}{
		{"ListLoadAgree", testListLoadAgree},
		{"Deterministic", testDeterministic},
		{"Cancellation", testCancellation},
		{"Invalidation", testInvalidation},
		{"EndSession", testEndSession},
		{"Concurrent", testConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := factory(t)
			if h.Provider == nil || h.SetSkill == nil || h.RemoveSkill == nil {
				t.Fatal("the factory's Harness lacks Provider, SetSkill or RemoveSkill")
			}
			d := &driver{h: h, seeds: seedSkills(), inv: newRecorder()}
			if inv, ok := h.Provider.(skills.Invalidator); ok {
				inv.SetInvalidate(d.inv.call)
				d.invalidator = true
			}
			tc.fn(t, d)
		})
	}
}

// Sessions and skills the suite uses.
const (
	session1 = "skilltest-session-1"
	session2 = "skilltest-session-2"
	absent   = "skilltest-absent"
	prefix   = "skilltest-"
)

type seedSkill struct{ name, description string }

func seedSkills() []seedSkill {
	return []seedSkill{
		{"skilltest-alpha", "Alpha skill of the provider conformance suite."},
		{"skilltest-beta", "Beta skill of the provider conformance suite."},
		{"skilltest-gamma", "Gamma skill of the provider conformance suite."},
	}
}

// invalidNames are outside the name grammar or its bound.
func invalidNames() []string {
	return []string{"", "Skilltest-Alpha", "skilltest_alpha", "../skilltest-alpha", "skilltest-alpha/", "-skilltest", "skilltest--alpha", strings.Repeat("a", skill.MaxNameLength+1)}
}

type driver struct {
	h           Harness
	seeds       []seedSkill
	invalidator bool
	inv         *recorder
}

func (d *driver) seed(t *testing.T, ss ...seedSkill) {
	t.Helper()
	for _, s := range ss {
		d.h.SetSkill(t, s.name, s.description)
	}
}

func (d *driver) list(ctx context.Context, session string) (skills.Observation, error) {
	return d.h.Provider.List(ctx, skills.ListRequest{SessionID: session, Cwd: d.h.Cwd})
}

func (d *driver) load(ctx context.Context, session, name string) (skill.Definition, bool, error) {
	return d.h.Provider.Load(ctx, skills.LoadRequest{SessionID: session, Cwd: d.h.Cwd, Name: name})
}

// mustList lists and requires a complete observation.
func (d *driver) mustList(t *testing.T, session string) skills.Observation {
	t.Helper()
	obs, err := d.list(t.Context(), session)
	if err != nil {
		t.Fatalf("List(%s): %v", session, err)
	}
	if !obs.Complete {
		t.Fatalf("List(%s): incomplete observation of a healthy source: %v", session, obs.Skills)
	}
	return obs
}

// checkAgree loads every listed name in session and compares the
// definition with the listed summary.
func (d *driver) checkAgree(t *testing.T, session string, obs skills.Observation) {
	t.Helper()
	seen := make(map[string]bool)
	for _, sum := range obs.Skills {
		if seen[sum.Name] || !skill.ValidName(sum.Name) {
			continue // the registry ignores later same-name and invalid entries
		}
		seen[sum.Name] = true
		def, found, err := d.load(t.Context(), session, sum.Name)
		if err != nil || !found {
			t.Errorf("Load(%s, %s) of a listed skill = found %v, error %v; want found", session, sum.Name, found, err)
			continue
		}
		if msg := disagreement(sum, def); msg != "" {
			t.Errorf("Load(%s, %s) disagrees with List: %s", session, sum.Name, msg)
		}
	}
}

// disagreement describes how def differs from the listed sum. Empty
// fields of def are left to the listing, as the registry fills them.
func disagreement(sum skill.Summary, def skill.Definition) string {
	var d []string
	if def.Name != "" && def.Name != sum.Name {
		d = append(d, fmt.Sprintf("name %q, listed %q", def.Name, sum.Name))
	}
	if def.Description != "" && def.Description != sum.Description {
		d = append(d, fmt.Sprintf("description %q, listed %q", def.Description, sum.Description))
	}
	if def.Invocation != (skill.InvocationPolicy{}) && def.Invocation != sum.Invocation {
		d = append(d, fmt.Sprintf("invocation %+v, listed %+v", def.Invocation, sum.Invocation))
	}
	if def.Provider != "" && def.Provider != sum.Provider {
		d = append(d, fmt.Sprintf("provider %q, listed %q", def.Provider, sum.Provider))
	}
	return strings.Join(d, "; ")
}

func find(obs skills.Observation, name string) (skill.Summary, bool) {
	i := slices.IndexFunc(obs.Skills, func(s skill.Summary) bool { return s.Name == name })
	if i < 0 {
		return skill.Summary{}, false
	}
	return obs.Skills[i], true
}

func listed(obs skills.Observation) []string {
	var out []string
	for _, s := range obs.Skills {
		out = append(out, s.Name)
	}
	return out
}

// ours returns the descriptions of the listed skills the suite added, by
// name.
func ours(obs skills.Observation) map[string]string {
	out := make(map[string]string)
	for _, s := range obs.Skills {
		if strings.HasPrefix(s.Name, prefix) {
			out[s.Name] = s.Description
		}
	}
	return out
}

// waitContext ends shortly before the test's deadline, so that a provider
// that never answers fails the suite with a message rather than a panic.
func waitContext(t *testing.T) context.Context {
	ctx := t.Context()
	if dl, ok := t.Deadline(); ok {
		margin := time.Until(dl) / 20
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-margin))
		t.Cleanup(cancel)
	}
	return ctx
}

func testListLoadAgree(t *testing.T, d *driver) {
	d.seed(t, d.seeds...)
	obs := d.mustList(t, session1)
	for _, s := range d.seeds {
		sum, ok := find(obs, s.name)
		switch {
		case !ok:
			t.Errorf("List does not offer %s, which the source holds; listed %q", s.name, listed(obs))
		case sum.Description != s.description:
			t.Errorf("List offers %s with description %q, want %q", s.name, sum.Description, s.description)
		}
	}
	d.checkAgree(t, session1, obs)
	// A session that never listed loads the same skills.
	d.checkAgree(t, session2, obs)

	if def, found, err := d.load(t.Context(), session1, absent); found || err != nil {
		t.Errorf("Load(%s) of an unlisted name = %+v, found %v, error %v; want not found", absent, def, found, err)
	}
	for _, name := range invalidNames() {
		def, found, err := d.load(t.Context(), session1, name)
		if found || !cmp.Equal(def, skill.Definition{}) {
			t.Errorf("Load(%q) of an invalid name = %+v, found %v, error %v; want not found (or an error) and no definition", name, def, found, err)
		}
	}
}

func testDeterministic(t *testing.T, d *driver) {
	d.seed(t, d.seeds...)
	first := d.mustList(t, session1)
	for _, tc := range []struct {
		what    string
		session string
	}{
		{"listing again", session1},
		{"listing for another session", session2},
	} {
		again := d.mustList(t, tc.session)
		if diff := cmp.Diff(first.Skills, again.Skills); diff != "" {
			t.Errorf("%s with no change in between gave another answer (-first +again):\n%s", tc.what, diff)
		}
	}
	d.checkAgree(t, session1, first)
	if diff := cmp.Diff(first.Skills, d.mustList(t, session1).Skills); diff != "" {
		t.Errorf("loading changed the listing (-before +after):\n%s", diff)
	}
}

func testCancellation(t *testing.T, d *driver) {
	d.seed(t, d.seeds...)
	name := d.seeds[0].name
	d.mustList(t, session1)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	// A session with state (it listed) and one without: answering from
	// state must not skip the context check.
	for _, session := range []string{session1, "skilltest-session-cancelled"} {
		if obs, err := d.list(cancelled, session); !errors.Is(err, context.Canceled) {
			t.Errorf("List(%s) with a cancelled context = %d skills, error %v; want context.Canceled", session, len(obs.Skills), err)
		}
		if _, found, err := d.load(cancelled, session, name); !errors.Is(err, context.Canceled) || found {
			t.Errorf("Load(%s, %s) with a cancelled context = found %v, error %v; want context.Canceled", session, name, found, err)
		}
	}

	t.Run("DuringList", func(t *testing.T) {
		d.cancelDuring(t, OpList, "", "skilltest-session-block-list")
	})
	t.Run("DuringLoad", func(t *testing.T) {
		d.cancelDuring(t, OpLoad, name, "skilltest-session-block-load")
	})
}

// cancelDuring makes a call block in the source, cancels it, and checks
// that it returns the cancellation and that the provider works afterwards.
func (d *driver) cancelDuring(t *testing.T, op Op, name, session string) {
	if d.h.Block == nil {
		t.Skip("the harness cannot make a call block")
	}
	wait := waitContext(t)
	started, release := d.h.Block(t, op, name)
	released := false
	defer func() {
		if !released {
			release()
		}
	}()

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		var err error
		if op == OpList {
			_, err = d.list(ctx, session)
		} else {
			_, _, err = d.load(ctx, session, name)
		}
		done <- err
	}()

	startCtx, stopWaiting := context.WithCancel(wait)
	began := make(chan error, 1)
	go func() { began <- started(startCtx) }()
	select {
	case err := <-began:
		stopWaiting()
		if err != nil {
			cancel()
			t.Fatalf("%s never began blocking in the source: %v", op, err)
		}
	case err := <-done:
		stopWaiting()
		<-began
		t.Fatalf("%s returned (error %v) before it blocked in the source", op, err)
	}

	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s cancelled while blocked returned %v, want context.Canceled", op, err)
		}
	case <-wait.Done():
		t.Fatalf("%s did not return after its context was cancelled", op)
	}
	release()
	released = true

	obs := d.mustList(t, session)
	d.checkAgree(t, session, obs)
}

func testInvalidation(t *testing.T, d *driver) {
	// Nothing was listed before the seeds, so there is nothing to
	// invalidate yet.
	d.seed(t, d.seeds[0], d.seeds[1])
	if obs := d.mustList(t, session1); len(ours(obs)) != 2 {
		t.Fatalf("List after seeding two skills offers %q", listed(obs))
	}

	for _, step := range []struct {
		what   string
		change func(t *testing.T)
		want   func(obs skills.Observation) bool
		name   string
		gone   bool
	}{
		{
			what:   "adding " + d.seeds[2].name,
			change: func(t *testing.T) { d.h.SetSkill(t, d.seeds[2].name, d.seeds[2].description) },
			want: func(obs skills.Observation) bool {
				s, ok := find(obs, d.seeds[2].name)
				return ok && s.Description == d.seeds[2].description
			},
			name: d.seeds[2].name,
		},
		{
			what:   "changing the description of " + d.seeds[0].name,
			change: func(t *testing.T) { d.h.SetSkill(t, d.seeds[0].name, "Alpha skill, changed.") },
			want: func(obs skills.Observation) bool {
				s, ok := find(obs, d.seeds[0].name)
				return ok && s.Description == "Alpha skill, changed."
			},
			name: d.seeds[0].name,
		},
		{
			what:   "removing " + d.seeds[1].name,
			change: func(t *testing.T) { d.h.RemoveSkill(t, d.seeds[1].name) },
			want: func(obs skills.Observation) bool {
				_, ok := find(obs, d.seeds[1].name)
				return !ok
			},
			name: d.seeds[1].name,
			gone: true,
		},
	} {
		mark := d.inv.count()
		step.change(t)
		obs := d.await(t, session1, step.what, mark, step.want)
		def, found, err := d.load(t.Context(), session1, step.name)
		switch {
		case step.gone && (found || err != nil):
			t.Errorf("after %s, Load = found %v, error %v; want not found", step.what, found, err)
		case !step.gone && (!found || err != nil):
			t.Errorf("after %s, Load = found %v, error %v; want found", step.what, found, err)
		case !step.gone:
			sum, _ := find(obs, step.name)
			if msg := disagreement(sum, def); msg != "" {
				t.Errorf("after %s, Load disagrees with List: %s", step.what, msg)
			}
		}
	}
}

// await returns the first listing of session that satisfies want after a
// change to the source; mark is the invalidation count from before the
// change. A provider that is not an Invalidator must reflect the change in
// the next List. An Invalidator must call its invalidate function once the
// change began (else a registry would keep serving a snapshot from before
// it), and a List after some such call must reflect it; Lists in between
// may still answer from before the change.
func (d *driver) await(t *testing.T, session, what string, mark int, want func(skills.Observation) bool) skills.Observation {
	t.Helper()
	if !d.invalidator {
		obs := d.mustList(t, session)
		if !want(obs) {
			t.Fatalf("after %s, List does not reflect it: %q", what, listed(obs))
		}
		return obs
	}
	wait := waitContext(t)
	for {
		before := d.inv.count()
		obs, err := d.list(t.Context(), session)
		if err == nil && obs.Complete && want(obs) {
			if !d.inv.waitBeyond(wait, mark) {
				t.Fatalf("after %s, List reflects it but the provider never called its invalidate function, so a registry would keep its snapshot from before", what)
			}
			return obs
		}
		if !d.inv.waitBeyond(wait, before) {
			t.Fatalf("after %s, no List reflected it and the provider stopped invalidating; last List: %q, complete %v, error %v", what, listed(obs), obs.Complete, err)
		}
	}
}

func testEndSession(t *testing.T, d *driver) {
	se, ok := d.h.Provider.(skills.SessionEnder)
	if !ok {
		t.Skip("the provider is not a skills.SessionEnder")
	}
	d.seed(t, d.seeds...)
	before := map[string]skills.Observation{}
	for _, s := range []string{session1, session2} {
		before[s] = d.mustList(t, s)
		d.checkAgree(t, s, before[s])
	}
	state := d.h.SessionState
	if state != nil && (!state(session1) || !state(session2)) {
		t.Fatalf("SessionState reports no state for sessions that listed and loaded (%v, %v), so it cannot show state being released", state(session1), state(session2))
	}

	se.EndSession(session1)
	if state != nil {
		if state(session1) {
			t.Errorf("EndSession(%s) kept the session's state", session1)
		}
		if !state(session2) {
			t.Errorf("EndSession(%s) released the state of %s", session1, session2)
		}
	}
	// Both sessions are still served, with the same skills.
	for _, s := range []string{session2, session1} {
		obs := d.mustList(t, s)
		if diff := cmp.Diff(before[s].Skills, obs.Skills); diff != "" {
			t.Errorf("List(%s) after EndSession(%s) (-before +after):\n%s", s, session1, diff)
		}
		d.checkAgree(t, s, obs)
	}
	// Ending an unknown session, or one twice, is harmless.
	se.EndSession("skilltest-session-never-seen")
	se.EndSession(session1)
	se.EndSession(session1)
	d.checkAgree(t, session1, d.mustList(t, session1))
}

func testConcurrent(t *testing.T, d *driver) {
	const (
		readers   = 8
		minRounds = 10
		// 26 changes leave two churn skills present and one removed.
		changes = 26
	)
	d.seed(t, d.seeds...)
	// session1 lists before the changes, so the final check below shows
	// that a session with state catches up.
	d.mustList(t, session1)
	c := &churner{
		d:        d,
		names:    []string{"skilltest-churn-0", "skilltest-churn-1", "skilltest-churn-2"},
		sessions: []string{session1, session2, "skilltest-session-3"},
		stop:     make(chan struct{}),
		// Readers report each round, and every change waits for one, so
		// that reads see the source's intermediate states.
		progress: make(chan struct{}, readers),
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	for g := range readers {
		wg.Go(func() { c.read(ctx, t, c.sessions[g%len(c.sessions)], minRounds) })
	}

	// The test goroutine changes the source (the harness may call
	// t.Fatal) and ends sessions while the readers run.
	mark := d.inv.count()
	readersDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(readersDone)
	}()
	present := c.change(t, changes, readersDone)
	close(c.stop)
	wg.Wait()
	if t.Failed() {
		return
	}

	// Once the changes stop, the listing settles on the source's content.
	want := present
	for _, s := range d.seeds {
		want[s.name] = s.description
	}
	obs := d.await(t, session1, "the concurrent changes", mark, func(obs skills.Observation) bool {
		return cmp.Equal(ours(obs), want)
	})
	d.checkAgree(t, session1, obs)
}

// churner is testConcurrent's source of change: readers list and load
// while the test goroutine adds and removes the churn skills.
type churner struct {
	d        *driver
	names    []string // the churn skills
	sessions []string
	stop     chan struct{} // closed when the changes are done
	progress chan struct{} // a reader's round, which a change waits for
}

func (c *churner) stopped() bool {
	select {
	case <-c.stop:
		return true
	default:
		return false
	}
}

// read lists and loads in session, at least minRounds times and until the
// changes stop, checking that every answer keeps the provider's contract.
func (c *churner) read(ctx context.Context, t *testing.T, session string, minRounds int) {
	for i := 0; i < minRounds || !c.stopped(); i++ {
		if ctx.Err() != nil {
			return
		}
		select {
		case c.progress <- struct{}{}:
		default:
		}
		obs, err := c.d.list(ctx, session)
		if err != nil {
			if ctx.Err() == nil {
				t.Errorf("List(%s) during concurrent use: %v", session, err)
			}
			return
		}
		names := append(listed(obs), c.names[i%len(c.names)])
		for _, name := range names[i%len(names):] {
			def, found, err := c.d.load(ctx, session, name)
			switch {
			case err != nil && ctx.Err() == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
				t.Errorf("Load(%s, %s) during concurrent use returned a context error under a live context: %v", session, name, err)
			case err != nil && (found || !cmp.Equal(def, skill.Definition{})):
				t.Errorf("Load(%s, %s) returned an error with a definition (found %v): %v", session, name, found, err)
			case found && def.Name != "" && def.Name != name:
				t.Errorf("Load(%s, %s) returned the skill %q", session, name, def.Name)
			}
		}
	}
}

// change adds and removes the churn skills, one change per reader round,
// ending sessions now and then, and returns the churn skills left present
// with their descriptions.
func (c *churner) change(t *testing.T, changes int, readersDone <-chan struct{}) map[string]string {
	se, _ := c.d.h.Provider.(skills.SessionEnder)
	present := make(map[string]string) // name → description
	wait := waitContext(t)
	for i := range changes {
		select {
		case <-c.progress:
		case <-readersDone:
			// The readers stopped early (they reported why); changes go on
			// without them.
		case <-wait.Done():
			t.Fatal("the readers made no progress")
		}
		name := c.names[i%len(c.names)]
		if _, ok := present[name]; ok {
			c.d.h.RemoveSkill(t, name)
			delete(present, name)
		} else {
			desc := fmt.Sprintf("Churn skill, version %d.", i)
			c.d.h.SetSkill(t, name, desc)
			present[name] = desc
		}
		if se != nil && i%5 == 4 {
			se.EndSession(c.sessions[i%len(c.sessions)])
		}
	}
	return present
}

// recorder counts invalidate calls and lets the suite wait for the next.
type recorder struct {
	mu   sync.Mutex
	n    int
	next chan struct{} // closed and replaced on every call
}

func newRecorder() *recorder { return &recorder{next: make(chan struct{})} }

func (r *recorder) call() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	close(r.next)
	r.next = make(chan struct{})
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// waitBeyond waits until more than n calls were made, or ctx ends.
func (r *recorder) waitBeyond(ctx context.Context, n int) bool {
	for {
		r.mu.Lock()
		got, next := r.n, r.next
		r.mu.Unlock()
		if got > n {
			return true
		}
		select {
		case <-next:
		case <-ctx.Done():
			return false
		}
	}
}
