package skilltest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

func summary(name, desc string) skill.Summary {
	return skill.Summary{Name: name, Description: desc, Invocation: skill.DefaultPolicy()}
}

// fakeHarness drives a fake through its As view with caps.
func fakeHarness(caps skilltest.Capabilities) (skilltest.Harness, *skilltest.Provider) {
	p := skilltest.New(&skilltest.Options{Label: "fake"})
	return skilltest.Harness{
		Provider: p.As(caps),
		Cwd:      "/work",
		SetSkill: func(t *testing.T, name, desc string) {
			p.Put(skilltest.Skill{Summary: summary(name, desc), Content: "Instructions of " + name + "."})
		},
		RemoveSkill: func(t *testing.T, name string) {
			if !p.Remove(name) {
				t.Fatalf("the fake has no skill %q to remove", name)
			}
		},
		Block: func(t *testing.T, op skilltest.Op, _ string) (func(context.Context) error, func()) {
			p.SetHang(op, true)
			started := func(ctx context.Context) error {
				select {
				case <-p.Started():
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return started, func() { p.SetHang(op, false) }
		},
		SessionState: p.HasSession,
	}, p
}

func TestFakeConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps skilltest.Capabilities
	}{
		{"Plain", 0},
		{"Invalidator", skilltest.Invalidator},
		{"SessionEnder", skilltest.SessionEnder},
		{"Both", skilltest.Invalidator | skilltest.SessionEnder},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skilltest.RunProvider(t, func(t *testing.T) skilltest.Harness {
				h, _ := fakeHarness(tc.caps)
				return h
			})
		})
	}
}

func TestAsImplementsExactlyTheChosenInterfaces(t *testing.T) {
	p := skilltest.New(nil)
	for _, tc := range []struct {
		caps               skilltest.Capabilities
		invalidator, ender bool
	}{
		{0, false, false},
		{skilltest.Invalidator, true, false},
		{skilltest.SessionEnder, false, true},
		{skilltest.Invalidator | skilltest.SessionEnder, true, true},
	} {
		v := p.As(tc.caps)
		_, inv := v.(skills.Invalidator)
		_, end := v.(skills.SessionEnder)
		if inv != tc.invalidator || end != tc.ender {
			t.Errorf("As(%d): Invalidator %v, SessionEnder %v; want %v, %v", tc.caps, inv, end, tc.invalidator, tc.ender)
		}
	}
	if _, ok := any(p).(skills.Invalidator); ok {
		t.Error("*Provider itself is an Invalidator")
	}
}

func TestFakeListing(t *testing.T) {
	p := skilltest.New(&skilltest.Options{Label: "fake"})
	labelled := summary("b", "B.")
	labelled.Provider = "own"
	p.SetSkills(
		skilltest.Skill{Summary: summary("z", "Z.")},
		skilltest.Skill{Summary: labelled},
		skilltest.Skill{Summary: summary("Bad Name", "listed anyway")},
		skilltest.Skill{Summary: summary("z", "second z"), Cwd: "/elsewhere"},
		skilltest.Skill{Summary: summary("only-here", "O."), Cwd: "/here"},
	)
	list := func(cwd string) skills.Observation {
		t.Helper()
		obs, err := p.List(t.Context(), skills.ListRequest{SessionID: "s", Cwd: cwd})
		if err != nil {
			t.Fatal(err)
		}
		return obs
	}
	withLabel := func(s skill.Summary, label string) skill.Summary { s.Provider = label; return s }
	want := []skill.Summary{withLabel(summary("z", "Z."), "fake"), labelled, withLabel(summary("Bad Name", "listed anyway"), "fake"), withLabel(summary("only-here", "O."), "fake")}
	if diff := cmp.Diff(skills.Observation{Skills: want, Complete: true}, list("/here")); diff != "" {
		t.Errorf("List(/here) (-want +got):\n%s", diff)
	}
	if got := list("/elsewhere").Skills; len(got) != 4 || got[3].Description != "second z" {
		t.Errorf("List(/elsewhere) = %v, want the cwd-bound z last", got)
	}

	p.SetComplete(false)
	if obs := list("/here"); obs.Complete || len(obs.Skills) != 4 {
		t.Errorf("incomplete listing = %+v", obs)
	}
	boom := errors.New("boom")
	p.SetListError(boom)
	if _, err := p.List(t.Context(), skills.ListRequest{}); !errors.Is(err, boom) {
		t.Errorf("failing List error = %v, want %v", err, boom)
	}
	p.SetListError(nil)
	p.SetComplete(true)
	if obs := list("/here"); !obs.Complete {
		t.Error("List still incomplete after SetComplete(true)")
	}
	if n := p.Lists(); n != 5 {
		t.Errorf("Lists() = %d, want 5", n)
	}
}

func TestFakeLoad(t *testing.T) {
	p := skilltest.New(&skilltest.Options{Label: "fake"})
	rb := &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: "/skills/ok"}
	loadErr := errors.New("server said no")
	override := skill.Definition{Summary: skill.Summary{Description: "fresh"}, Content: "other"}
	p.SetSkills(
		skilltest.Skill{Summary: summary("ok", "OK."), Content: "body", ResourceBase: rb},
		skilltest.Skill{Summary: summary("flaky", "F."), LoadErr: loadErr},
		skilltest.Skill{Summary: summary("gone", "G."), Vanished: true},
		skilltest.Skill{Summary: summary("differs", "D."), Loaded: &override},
		skilltest.Skill{Summary: summary("local", "L."), Cwd: "/here"},
	)
	for _, tc := range []struct {
		name, cwd string
		want      skill.Definition
		found     bool
		err       error
	}{
		{name: "ok", want: skill.Definition{Summary: skill.Summary{Name: "ok", Description: "OK.", Invocation: skill.DefaultPolicy(), Provider: "fake"}, ResourceBase: rb, Content: "body"}, found: true},
		{name: "flaky", err: loadErr},
		{name: "gone"},
		{name: "differs", want: override, found: true},
		{name: "local", cwd: "/elsewhere"},
		{name: "local", cwd: "/here", want: skill.Definition{Summary: skill.Summary{Name: "local", Description: "L.", Invocation: skill.DefaultPolicy(), Provider: "fake"}}, found: true},
		{name: "missing"},
	} {
		def, found, err := p.Load(t.Context(), skills.LoadRequest{SessionID: "s", Cwd: tc.cwd, Name: tc.name})
		if !errors.Is(err, tc.err) || found != tc.found {
			t.Errorf("Load(%s, cwd %q) = found %v, error %v; want %v, %v", tc.name, tc.cwd, found, err, tc.found, tc.err)
		}
		if diff := cmp.Diff(tc.want, def); diff != "" {
			t.Errorf("Load(%s, cwd %q) (-want +got):\n%s", tc.name, tc.cwd, diff)
		}
	}
	def, _, _ := p.Load(t.Context(), skills.LoadRequest{Name: "ok"})
	def.ResourceBase.Path = "/mutated"
	if again, _, _ := p.Load(t.Context(), skills.LoadRequest{Name: "ok"}); again.ResourceBase.Path != "/skills/ok" {
		t.Errorf("a returned definition shares its resource base with the fake: %q", again.ResourceBase.Path)
	}
	want := []string{"ok", "flaky", "gone", "differs", "local", "local", "missing", "ok", "ok"}
	if diff := cmp.Diff(want, p.Loads()); diff != "" {
		t.Errorf("Loads() (-want +got):\n%s", diff)
	}
}

func TestFakeHang(t *testing.T) {
	for _, op := range []skilltest.Op{skilltest.OpList, skilltest.OpLoad} {
		t.Run(op.String(), func(t *testing.T) {
			p := skilltest.New(nil)
			p.SetSkills(skilltest.Skill{Summary: summary("a", "A.")})
			p.SetHang(op, true)
			call := func(ctx context.Context, op skilltest.Op) error {
				if op == skilltest.OpList {
					_, err := p.List(ctx, skills.ListRequest{SessionID: "s", Cwd: "/w"})
					return err
				}
				_, _, err := p.Load(ctx, skills.LoadRequest{SessionID: "s", Cwd: "/w", Name: "a"})
				return err
			}
			other := skilltest.OpLoad + skilltest.OpList - op
			if err := call(t.Context(), other); err != nil {
				t.Fatalf("%s while only %s hangs: %v", other, op, err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- call(ctx, op) }()
			c := <-p.Started()
			wantCall := skilltest.Call{Op: op, SessionID: "s", Cwd: "/w"}
			if op == skilltest.OpLoad {
				wantCall.Name = "a"
			}
			if diff := cmp.Diff(wantCall, c, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
				t.Errorf("started call (-want +got):\n%s", diff)
			}
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("hanging %s returned %v, want context.Canceled", op, err)
			}
			if c := <-p.Cancelled(); !errors.Is(c.Err, context.Canceled) || c.Op != op {
				t.Errorf("cancelled event %+v", c)
			}
			p.SetHang(op, false)
			if err := call(t.Context(), op); err != nil {
				t.Errorf("%s after SetHang(false): %v", op, err)
			}
		})
	}
}

func TestFakeSharedEventChannels(t *testing.T) {
	started, cancelled := make(chan skilltest.Call, 2), make(chan skilltest.Call, 2)
	var fakes []*skilltest.Provider
	for _, label := range []string{"a", "b"} {
		p := skilltest.New(&skilltest.Options{Label: label, Started: started, Cancelled: cancelled})
		p.SetHang(skilltest.OpList, true)
		fakes = append(fakes, p)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for i, p := range fakes {
		wg.Go(func() { _, _ = p.List(ctx, skills.ListRequest{SessionID: string(rune('a' + i))}) })
	}
	got := []string{(<-started).SessionID, (<-started).SessionID}
	cancel()
	wg.Wait()
	<-cancelled
	<-cancelled
	slices.Sort(got)
	if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
		t.Errorf("sessions on the shared channel (-want +got):\n%s", diff)
	}
}

func TestFakeEventsNeverBlockCalls(t *testing.T) {
	// Nobody reads Cancelled, and it has no buffer.
	started := make(chan skilltest.Call, 1)
	p := skilltest.New(&skilltest.Options{Started: started, Cancelled: make(chan skilltest.Call)})
	p.SetHang(skilltest.OpList, true)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := p.List(ctx, skills.ListRequest{})
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("List = %v, want context.Canceled", err)
	}
}

func TestFakeInvalidation(t *testing.T) {
	p := skilltest.New(nil)
	var calls int
	p.As(skilltest.Invalidator).(skills.Invalidator).SetInvalidate(func() { calls++ })
	steps := []struct {
		what string
		do   func()
		want int
	}{
		{"SetSkills", func() { p.SetSkills(skilltest.Skill{Summary: summary("a", "A.")}) }, 1},
		{"Put", func() { p.Put(skilltest.Skill{Summary: summary("b", "B.")}) }, 2},
		{"Remove", func() { p.Remove("a") }, 3},
		{"Remove of nothing", func() { p.Remove("a") }, 3},
		{"SetComplete", func() { p.SetComplete(false) }, 4},
		{"SetListError", func() { p.SetListError(nil) }, 5},
		{"SetHang", func() { p.SetHang(skilltest.OpList, false) }, 6},
		{"Invalidate", p.Invalidate, 7},
		{"List", func() { _, _ = p.List(t.Context(), skills.ListRequest{}) }, 7},
	}
	for _, s := range steps {
		s.do()
		if calls != s.want {
			t.Fatalf("after %s: %d invalidations, want %d", s.what, calls, s.want)
		}
	}
	if n := p.SetInvalidateCalls(); n != 1 {
		t.Errorf("SetInvalidateCalls() = %d, want 1", n)
	}
}

func TestFakeSessions(t *testing.T) {
	p := skilltest.New(nil)
	ender := p.As(skilltest.SessionEnder).(skills.SessionEnder)
	_, _ = p.List(t.Context(), skills.ListRequest{SessionID: "s1"})
	_, _, _ = p.Load(t.Context(), skills.LoadRequest{SessionID: "s2", Name: "x"})
	if !p.HasSession("s1") || !p.HasSession("s2") || p.HasSession("s3") {
		t.Fatalf("HasSession s1 %v, s2 %v, s3 %v; want true, true, false", p.HasSession("s1"), p.HasSession("s2"), p.HasSession("s3"))
	}
	ender.EndSession("s1")
	ender.EndSession("s3")
	if p.HasSession("s1") || !p.HasSession("s2") {
		t.Errorf("after EndSession(s1): HasSession s1 %v, s2 %v", p.HasSession("s1"), p.HasSession("s2"))
	}
	if diff := cmp.Diff([]string{"s1", "s3"}, p.Ended()); diff != "" {
		t.Errorf("Ended() (-want +got):\n%s", diff)
	}
}

func TestFakeOnCall(t *testing.T) {
	p := skilltest.New(nil)
	var got []skilltest.Call
	p.OnCall(func(c skilltest.Call) {
		got = append(got, c)
		p.Lists() // the fake's lock is not held
	})
	_, _ = p.List(t.Context(), skills.ListRequest{SessionID: "s", Cwd: "/w"})
	_, _, _ = p.Load(t.Context(), skills.LoadRequest{SessionID: "s", Cwd: "/w", Name: "x"})
	want := []skilltest.Call{{Op: skilltest.OpList, SessionID: "s", Cwd: "/w"}, {Op: skilltest.OpLoad, SessionID: "s", Cwd: "/w", Name: "x"}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestFakeCancelledContext(t *testing.T) {
	p := skilltest.New(nil)
	p.SetSkills(skilltest.Skill{Summary: summary("a", "A.")})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.List(ctx, skills.ListRequest{}); !errors.Is(err, context.Canceled) {
		t.Errorf("List = %v, want context.Canceled", err)
	}
	if _, found, err := p.Load(ctx, skills.LoadRequest{Name: "a"}); found || !errors.Is(err, context.Canceled) {
		t.Errorf("Load = found %v, %v; want context.Canceled", found, err)
	}
	if p.Lists() != 1 || len(p.Loads()) != 1 {
		t.Errorf("cancelled calls not counted: %d lists, loads %q", p.Lists(), p.Loads())
	}
}

// brokenEnv names the broken provider TestBrokenProvider runs the suite
// against; TestSuiteCatchesBrokenProviders sets it in a child process.
const brokenEnv = "SKILLTEST_BROKEN_PROVIDER"

// brokenProvider violates a contract that the suite's catchers subtests
// must catch.
type brokenProvider struct {
	catchers []string
	harness  func(t *testing.T) skilltest.Harness
}

// brokenProviders returns providers that each violate one contract, by
// name.
func brokenProviders() map[string]brokenProvider {
	return map[string]brokenProvider{
		"load-disagrees": {[]string{"ListLoadAgree", "Deterministic", "Cancellation", "Invalidation", "Concurrent"}, func(t *testing.T) skilltest.Harness {
			h, p := fakeHarness(0)
			h.SetSkill = func(t *testing.T, name, desc string) {
				p.Put(skilltest.Skill{Summary: summary(name, desc), Loaded: &skill.Definition{Summary: skill.Summary{Description: desc + " (loaded)"}}})
			}
			return h
		}},
		"unlisted-found": {[]string{"ListLoadAgree", "Invalidation"}, func(t *testing.T) skilltest.Harness {
			h, p := fakeHarness(0)
			h.Provider = anyNameLoads{p}
			return h
		}},
		"unordered": {[]string{"Deterministic"}, func(t *testing.T) skilltest.Harness {
			h, p := fakeHarness(0)
			h.Provider = &reversing{Provider: p}
			return h
		}},
		"ignores-cancellation": {[]string{"Cancellation"}, func(t *testing.T) skilltest.Harness {
			h, p := fakeHarness(0)
			h.Provider = uncancellable{p}
			h.Block = nil
			return h
		}},
		"stale-listing": {[]string{"Cancellation", "Invalidation", "Concurrent"}, func(t *testing.T) skilltest.Harness {
			h, p := fakeHarness(0)
			h.Provider = &caching{Provider: p}
			return h
		}},
		"ended-session-fails": {[]string{"EndSession", "Concurrent"}, func(t *testing.T) skilltest.Harness {
			h, p := fakeHarness(skilltest.SessionEnder)
			h.Provider = &forgetful{Provider: p}
			return h
		}},
		"session-state-kept": {[]string{"EndSession"}, func(t *testing.T) skilltest.Harness {
			h, _ := fakeHarness(skilltest.SessionEnder)
			h.SessionState = func(string) bool { return true }
			return h
		}},
	}
}

// anyNameLoads finds every valid name.
type anyNameLoads struct{ *skilltest.Provider }

func (a anyNameLoads) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	def, found, err := a.Provider.Load(ctx, req)
	if !found && err == nil && skill.ValidName(req.Name) {
		return skill.Definition{Summary: skill.Summary{Name: req.Name}}, true, nil
	}
	return def, found, err
}

// reversing lists in reverse order every other time.
type reversing struct {
	*skilltest.Provider
	mu sync.Mutex
	n  int
}

func (r *reversing) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	obs, err := r.Provider.List(ctx, req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n++; r.n%2 == 0 {
		slices.Reverse(obs.Skills)
	}
	return obs, err
}

// uncancellable drops the caller's cancellation.
type uncancellable struct{ *skilltest.Provider }

func (u uncancellable) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	return u.Provider.List(context.WithoutCancel(ctx), req)
}

func (u uncancellable) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	return u.Provider.Load(context.WithoutCancel(ctx), req)
}

// caching answers every session's List from its first one, and cannot
// tell anyone that it is stale.
type caching struct {
	*skilltest.Provider
	mu    sync.Mutex
	first map[string]skills.Observation
}

func (c *caching) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	c.mu.Lock()
	obs, ok := c.first[req.SessionID]
	c.mu.Unlock()
	if ok {
		return obs, nil
	}
	obs, err := c.Provider.List(ctx, req)
	if err == nil {
		c.mu.Lock()
		if c.first == nil {
			c.first = make(map[string]skills.Observation)
		}
		c.first[req.SessionID] = obs
		c.mu.Unlock()
	}
	return obs, err
}

// forgetful fails every call for a session it ended.
type forgetful struct {
	*skilltest.Provider
	mu    sync.Mutex
	ended map[string]bool
}

func (f *forgetful) EndSession(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended == nil {
		f.ended = make(map[string]bool)
	}
	f.ended[id] = true
	f.Provider.As(skilltest.SessionEnder).(skills.SessionEnder).EndSession(id)
}

func (f *forgetful) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	f.mu.Lock()
	gone := f.ended[req.SessionID]
	f.mu.Unlock()
	if gone {
		return skills.Observation{}, errors.New("no such session")
	}
	return f.Provider.List(ctx, req)
}

// TestBrokenProvider runs the suite against the broken provider named by
// brokenEnv. It is meant to fail; TestSuiteCatchesBrokenProviders runs it
// in a child process.
func TestBrokenProvider(t *testing.T) {
	name := os.Getenv(brokenEnv)
	if name == "" {
		t.Skip("run by TestSuiteCatchesBrokenProviders")
	}
	skilltest.RunProvider(t, brokenProviders()[name].harness)
}

func TestSuiteCatchesBrokenProviders(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process per broken provider")
	}
	for name, b := range brokenProviders() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestBrokenProvider$", "-test.v")
			cmd.Env = append(os.Environ(), brokenEnv+"="+name)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the suite passed (or did not run: %v) against a provider it must fail:\n%s", err, out)
			}
			for _, sub := range []string{"ListLoadAgree", "Deterministic", "Cancellation", "Invalidation", "EndSession", "Concurrent"} {
				failed := strings.Contains(string(out), "--- FAIL: TestBrokenProvider/"+sub+" ")
				if want := slices.Contains(b.catchers, sub); failed != want {
					t.Errorf("subtest %s failed: %v, want %v; output:\n%s", sub, failed, want, out)
				}
			}
		})
	}
}
