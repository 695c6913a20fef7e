package skills_test

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zeebo/xxh3"
	"go.uber.org/goleak"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// newFake returns a fake listing sums. Attached as is, it implements
// neither Invalidator nor SessionEnder.
func newFake(complete bool, sums ...skill.Summary) *skilltest.Provider {
	p := skilltest.New(nil)
	ss := make([]skilltest.Skill, len(sums))
	for i, s := range sums {
		ss[i] = skilltest.Skill{Summary: s}
	}
	p.SetSkills(ss...)
	p.SetComplete(complete)
	return p
}

// failingFake returns a fake whose List fails with err.
func failingFake(err error) *skilltest.Provider {
	p := newFake(true)
	p.SetListError(err)
	return p
}

// newWatched returns a fake meant to be attached through watched.
func newWatched(sums ...skill.Summary) *skilltest.Provider { return newFake(true, sums...) }

// watched is p as a provider that implements Invalidator and SessionEnder.
func watched(p *skilltest.Provider) skills.Provider {
	return p.As(skilltest.Invalidator | skilltest.SessionEnder)
}

// setLoaded makes Load of the listed skill name return def verbatim.
func setLoaded(t *testing.T, p *skilltest.Provider, name string, def skill.Definition) {
	t.Helper()
	for _, s := range p.Skills() {
		if s.Name == name {
			s.Loaded = &def
			p.Put(s)
			return
		}
	}
	t.Fatalf("the fake lists no skill %q", name)
}

// onList makes every List of p run f first.
func onList(p *skilltest.Provider, f func()) {
	p.OnCall(func(c skilltest.Call) {
		if c.Op == skilltest.OpList {
			f()
		}
	})
}

func sum(name, desc, provider string) skill.Summary {
	return skill.Summary{Name: name, Description: desc, Invocation: skill.DefaultPolicy(), Provider: provider}
}

func rt(name, desc string) skills.RuntimeSkill {
	return skills.RuntimeSkill{Name: name, Description: desc}
}

var globalQ = skills.Query{SessionID: "s1", Cwd: "/w", Chain: []string{"global"}}

func mustSnapshot(t *testing.T, r *skills.Registry, q skills.Query) skills.Snapshot {
	t.Helper()
	s, err := r.Snapshot(t.Context(), q)
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return s
}

func mustRegister(t *testing.T, r *skills.Registry, scope string, s skills.RuntimeSkill) {
	t.Helper()
	if err := r.Register(scope, s); err != nil {
		t.Fatalf("Register(%q, %q): %v", scope, s.Name, err)
	}
}

func TestValidName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"a", true},
		{"pdf-tools", true},
		{"a1-b2-c3", true},
		{"0", true},
		{"", false},
		{"-a", false},
		{"a-", false},
		{"a--b", false},
		{"A", false},
		{"a_b", false},
		{"a b", false},
		{"é", false},
		{"a.b", false},
	} {
		if got := skill.ValidName(tc.name); got != tc.want {
			t.Errorf("skill.ValidName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRegisterValidation(t *testing.T) {
	for _, tc := range []struct {
		desc    string
		scope   string
		skill   skills.RuntimeSkill
		wantErr string // substring; "" means success
	}{
		{"valid", "global", rt("pdf", "Read PDFs."), ""},
		{"empty scope", "", rt("pdf", "Read PDFs."), "scope"},
		{"empty name", "global", rt("", "d"), "name"},
		{"upper-case name", "global", rt("Pdf", "d"), "name"},
		{"trailing dash", "global", rt("pdf-", "d"), "name"},
		{"empty description", "global", rt("pdf", ""), "description"},
		{"blank description", "global", rt("pdf", " \t\n"), "description"},
		{"bad resource kind", "global", skills.RuntimeSkill{Name: "pdf", Description: "d", ResourceBase: &skill.ResourceBase{Kind: "ftp"}}, "resource base kind"},
		{"good resource kind", "global", skills.RuntimeSkill{Name: "pdf", Description: "d", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "https://x/"}}, ""},
		{"description not UTF-8", "global", rt("pdf", "caf\xe9"), `register "pdf" in scope "global": description is not valid UTF-8 (byte 3 starts no UTF-8 sequence)`},
		{"content not UTF-8", "global", skills.RuntimeSkill{Name: "pdf", Description: "d", Content: "ok\xff"}, "content is not valid UTF-8 (byte 2"},
		{"argument hint not UTF-8", "global", skills.RuntimeSkill{Name: "pdf", Description: "d", ArgumentHint: "[\xc3]"}, "argument hint is not valid UTF-8"},
		{"provider label not UTF-8", "global", skills.RuntimeSkill{Name: "pdf", Description: "d", Provider: "\x80"}, "provider is not valid UTF-8"},
		{"resource path not UTF-8", "global", skills.RuntimeSkill{Name: "pdf", Description: "d", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: "/jos\xe9"}}, "resource base path is not valid UTF-8"},
		{"multi-byte description", "global", rt("pdf", "Lit les PDF — vite ✓."), ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			err := r.Register(tc.scope, tc.skill)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Register: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Register error = %v, want one mentioning %q", err, tc.wantErr)
			}
			if r.Revision() != 0 {
				t.Errorf("failed Register changed revision to %d", r.Revision())
			}
		})
	}
}

func TestRegisterDefaults(t *testing.T) {
	r := skilltest.NewRegistry(t)
	mustRegister(t, r, "global", rt("plain", "d"))
	mustRegister(t, r, "global", skills.RuntimeSkill{
		Name: "custom", Description: "d", Provider: "embedded",
		Invocation: &skill.InvocationPolicy{ModelInvocable: false, UserInvocable: true},
	})
	got := mustSnapshot(t, r, globalQ).Skills
	want := []skill.Summary{
		{Name: "custom", Description: "d", Invocation: skill.InvocationPolicy{UserInvocable: true}, Provider: "embedded"},
		{Name: "plain", Description: "d", Invocation: skill.DefaultPolicy(), Provider: skills.RuntimeProvider},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
}

// action sets up one source in a precedence scenario.
type action struct {
	scope    string
	runtime  *skills.RuntimeSkill // register this
	provider []skill.Summary      // or attach a provider listing these
	rank     int
}

func TestPrecedence(t *testing.T) {
	for _, tc := range []struct {
		desc    string
		actions []action
		chain   []string
		// want maps name to the winning description.
		want map[string]string
	}{
		{
			desc: "nearer scope beats higher rank further away",
			actions: []action{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "global", Rank: 100}},
				{scope: "agent", runtime: &skills.RuntimeSkill{Name: "x", Description: "agent", Rank: -5}},
			},
			chain: []string{"agent", "global"},
			want:  map[string]string{"x": "agent"},
		},
		{
			desc: "chain order decides, not registration",
			actions: []action{
				{scope: "agent", runtime: &skills.RuntimeSkill{Name: "x", Description: "agent"}},
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "global"}},
			},
			chain: []string{"global", "agent"},
			want:  map[string]string{"x": "global"},
		},
		{
			desc: "higher rank wins within a scope",
			actions: []action{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "runtime"}},
				{scope: "global", provider: []skill.Summary{sum("x", "provider", "p")}, rank: 1},
			},
			chain: []string{"global"},
			want:  map[string]string{"x": "provider"},
		},
		{
			desc: "rank tie: earlier provider beats later runtime",
			actions: []action{
				{scope: "global", provider: []skill.Summary{sum("x", "provider", "p")}},
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "runtime"}},
			},
			chain: []string{"global"},
			want:  map[string]string{"x": "provider"},
		},
		{
			desc: "rank tie: earlier runtime beats later provider",
			actions: []action{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "runtime"}},
				{scope: "global", provider: []skill.Summary{sum("x", "provider", "p")}},
			},
			chain: []string{"global"},
			want:  map[string]string{"x": "runtime"},
		},
		{
			desc: "rank tie: earlier of two providers",
			actions: []action{
				{scope: "global", provider: []skill.Summary{sum("x", "first", "p1")}},
				{scope: "global", provider: []skill.Summary{sum("x", "second", "p2")}},
			},
			chain: []string{"global"},
			want:  map[string]string{"x": "first"},
		},
		{
			desc: "first occurrence within one provider",
			actions: []action{
				{scope: "global", provider: []skill.Summary{sum("x", "one", "p"), sum("y", "y", "p"), sum("x", "two", "p")}},
			},
			chain: []string{"global"},
			want:  map[string]string{"x": "one", "y": "y"},
		},
		{
			desc: "re-registration keeps its order",
			actions: []action{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "old"}},
				{scope: "global", provider: []skill.Summary{sum("x", "provider", "p")}},
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "new"}},
			},
			chain: []string{"global"},
			want:  map[string]string{"x": "new"},
		},
		{
			desc: "scopes outside the chain are ignored",
			actions: []action{
				{scope: "other", runtime: &skills.RuntimeSkill{Name: "x", Description: "other"}},
				{scope: "other", provider: []skill.Summary{sum("y", "other", "p")}},
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "z", Description: "global"}},
			},
			chain: []string{"agent", "global"},
			want:  map[string]string{"z": "global"},
		},
		{
			desc: "a scope repeated in the chain counts at its first position",
			actions: []action{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "global"}},
				{scope: "agent", runtime: &skills.RuntimeSkill{Name: "x", Description: "agent"}},
			},
			chain: []string{"global", "agent", "global"},
			want:  map[string]string{"x": "global"},
		},
		{
			desc: "provider names outside the grammar are dropped",
			actions: []action{
				{scope: "global", provider: []skill.Summary{sum("Bad Name", "d", "p"), sum("", "d", "p"), sum("ok", "d", "p")}},
			},
			chain: []string{"global"},
			want:  map[string]string{"ok": "d"},
		},
		{
			desc:  "empty chain sees nothing",
			chain: nil,
			actions: []action{
				{scope: "global", runtime: &skills.RuntimeSkill{Name: "x", Description: "d"}},
			},
			want: map[string]string{},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			for _, a := range tc.actions {
				if a.runtime != nil {
					mustRegister(t, r, a.scope, *a.runtime)
				} else {
					r.AddProvider(a.scope, newFake(true, a.provider...), &skills.ProviderOptions{Rank: a.rank})
				}
			}
			s := mustSnapshot(t, r, skills.Query{SessionID: "s", Cwd: "/", Chain: tc.chain})
			if !s.Complete {
				t.Fatal("snapshot incomplete")
			}
			got := map[string]string{}
			for _, sk := range s.Skills {
				if _, dup := got[sk.Name]; dup {
					t.Errorf("name %q listed twice", sk.Name)
				}
				got[sk.Name] = sk.Description
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("winners (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnregister(t *testing.T) {
	r := skilltest.NewRegistry(t)
	mustRegister(t, r, "global", rt("a", "d"))
	mustRegister(t, r, "global", rt("b", "d"))
	rev := r.Revision()
	for _, tc := range []struct {
		scope, name string
		want        bool
	}{
		{"elsewhere", "a", false},
		{"global", "missing", false},
		{"global", "a", true},
		{"global", "a", false},
	} {
		if got := r.Unregister(tc.scope, tc.name); got != tc.want {
			t.Errorf("Unregister(%q, %q) = %v, want %v", tc.scope, tc.name, got, tc.want)
		}
	}
	if r.Revision() != rev+1 {
		t.Errorf("revision %d → %d, want one bump", rev, r.Revision())
	}
	s := mustSnapshot(t, r, globalQ)
	if len(s.Skills) != 1 || s.Skills[0].Name != "b" {
		t.Errorf("skills = %v, want only b", s.Skills)
	}
}

func TestSortOrder(t *testing.T) {
	r := skilltest.NewRegistry(t)
	names := []string{"z", "a-b", "ab", "a", "a1", "a-a", "9", "b"}
	for _, n := range names[:4] {
		mustRegister(t, r, "global", rt(n, "d"))
	}
	hidden := skill.InvocationPolicy{UserInvocable: true}
	r.AddProvider("global", newFake(true,
		sum("a1", "d", "p"), skill.Summary{Name: "a-a", Description: "d", Invocation: hidden, Provider: "p"},
		sum("9", "d", "p"), sum("b", "d", "p"),
	), nil)
	var got []string
	for _, s := range mustSnapshot(t, r, globalQ).Skills {
		got = append(got, s.Name)
	}
	want := []string{"9", "a", "a-a", "a-b", "a1", "ab", "b", "z"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestIncompleteSnapshots(t *testing.T) {
	for _, tc := range []struct {
		desc      string
		providers []*skilltest.Provider
		want      []string
	}{
		{
			desc:      "provider error",
			providers: []*skilltest.Provider{failingFake(errors.New("unreachable"))},
			want:      []string{"rt"},
		},
		{
			desc:      "provider reports incomplete",
			providers: []*skilltest.Provider{newFake(false, sum("partial", "d", "p"))},
			want:      []string{"partial", "rt"},
		},
		{
			desc: "one failing among good ones",
			providers: []*skilltest.Provider{
				newFake(true, sum("good", "d", "p")),
				failingFake(errors.New("boom")),
				newFake(true, sum("other", "d", "p")),
			},
			want: []string{"good", "other", "rt"},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			mustRegister(t, r, "global", rt("rt", "d"))
			for _, p := range tc.providers {
				r.AddProvider("global", watched(p), nil) // cacheable if complete
			}
			for round := 1; round <= 2; round++ {
				s := mustSnapshot(t, r, globalQ)
				if s.Complete || s.Token != "" {
					t.Fatalf("round %d: Complete=%v Token=%q, want incomplete without token", round, s.Complete, s.Token)
				}
				var got []string
				for _, sk := range s.Skills {
					got = append(got, sk.Name)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("round %d skills (-want +got):\n%s", round, diff)
				}
				if _, ok := r.CachedToken(globalQ); ok {
					t.Errorf("round %d: incomplete snapshot was cached", round)
				}
				for i, p := range tc.providers {
					if n := p.Lists(); n != round {
						t.Errorf("round %d: provider %d listed %d times, want %d", round, i, n, round)
					}
				}
			}
		})
	}
}

func TestCacheHitAndInvalidation(t *testing.T) {
	for _, tc := range []struct {
		desc string
		// change alters the registry; nil means no change (cache must hit).
		change func(t *testing.T, r *skills.Registry, w *skilltest.Provider, remove func())
	}{
		{desc: "no change hits the cache"},
		{desc: "Register", change: func(t *testing.T, r *skills.Registry, _ *skilltest.Provider, _ func()) {
			mustRegister(t, r, "global", rt("new", "d"))
		}},
		{desc: "Register in another scope", change: func(t *testing.T, r *skills.Registry, _ *skilltest.Provider, _ func()) {
			mustRegister(t, r, "elsewhere", rt("new", "d"))
		}},
		{desc: "Unregister", change: func(t *testing.T, r *skills.Registry, _ *skilltest.Provider, _ func()) {
			if !r.Unregister("global", "rt") {
				t.Fatal("Unregister returned false")
			}
		}},
		{desc: "AddProvider", change: func(t *testing.T, r *skills.Registry, _ *skilltest.Provider, _ func()) {
			r.AddProvider("global", watched(newWatched()), nil)
		}},
		{desc: "Invalidate", change: func(t *testing.T, r *skills.Registry, _ *skilltest.Provider, _ func()) {
			r.Invalidate()
		}},
		{desc: "provider invalidation", change: func(t *testing.T, r *skills.Registry, w *skilltest.Provider, _ func()) {
			w.Invalidate()
		}},
		{desc: "another provider removed", change: func(t *testing.T, r *skills.Registry, _ *skilltest.Provider, _ func()) {
			r.AddProvider("global", watched(newWatched()), nil)()
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			mustRegister(t, r, "global", rt("rt", "d"))
			w := newWatched(sum("watched", "d", "w"))
			remove := r.AddProvider("global", watched(w), nil)
			first := mustSnapshot(t, r, globalQ)
			if !first.Complete || first.Token == "" {
				t.Fatalf("first snapshot: Complete=%v Token=%q", first.Complete, first.Token)
			}
			tok, ok := r.CachedToken(globalQ)
			if !ok || tok != first.Token {
				t.Fatalf("CachedToken = %q, %v; want %q, true", tok, ok, first.Token)
			}
			rev := r.Revision()
			wantLists := 1
			if tc.change != nil {
				tc.change(t, r, w, remove)
				if r.Revision() == rev {
					t.Fatal("change did not bump the revision")
				}
				if _, ok := r.CachedToken(globalQ); ok {
					t.Fatal("cached token survived the change")
				}
				wantLists = 2
			}
			second := mustSnapshot(t, r, globalQ)
			if n := w.Lists(); n != wantLists {
				t.Errorf("provider listed %d times, want %d", n, wantLists)
			}
			if tc.change == nil && second.Token != first.Token {
				t.Errorf("cached token changed: %q → %q", first.Token, second.Token)
			}
			if tok, ok := r.CachedToken(globalQ); !ok || tok != second.Token {
				t.Errorf("after recompute CachedToken = %q, %v; want %q, true", tok, ok, second.Token)
			}
		})
	}
}

func TestCacheKeyedByQuery(t *testing.T) {
	r := skilltest.NewRegistry(t)
	w := newWatched(sum("a", "d", "w"))
	r.AddProvider("global", watched(w), nil)
	queries := []skills.Query{
		{SessionID: "s1", Cwd: "/a", Chain: []string{"global"}},
		{SessionID: "s2", Cwd: "/a", Chain: []string{"global"}},
		{SessionID: "s1", Cwd: "/b", Chain: []string{"global"}},
		{SessionID: "s1", Cwd: "/a", Chain: []string{"agent", "global"}},
		// Length prefixes keep these two apart.
		{SessionID: "s1", Cwd: "/a", Chain: []string{"ab", "c", "global"}},
		{SessionID: "s1", Cwd: "/a", Chain: []string{"a", "bc", "global"}},
	}
	for _, q := range queries {
		mustSnapshot(t, r, q)
	}
	if n := w.Lists(); n != len(queries) {
		t.Fatalf("listed %d times for %d distinct queries", n, len(queries))
	}
	for _, q := range queries {
		mustSnapshot(t, r, q)
	}
	if n := w.Lists(); n != len(queries) {
		t.Errorf("repeat queries listed again: %d calls", n)
	}
}

func TestCacheIsBounded(t *testing.T) {
	r := skilltest.NewRegistry(t)
	skills.SetCacheCapacity(r, 2)
	// A provider's listing, not a runtime skill: the token of runtime
	// skills alone is known without the cache.
	r.AddProvider("global", watched(newWatched(sum("a", "d", "f"))), nil)
	q := func(cwd string) skills.Query {
		return skills.Query{SessionID: "s", Cwd: cwd, Chain: []string{"global"}}
	}
	mustSnapshot(t, r, q("/1"))
	mustSnapshot(t, r, q("/2"))
	mustSnapshot(t, r, q("/1")) // /1 becomes most recently used
	mustSnapshot(t, r, q("/3")) // evicts /2
	for cwd, want := range map[string]bool{"/1": true, "/2": false, "/3": true} {
		if _, ok := r.CachedToken(q(cwd)); ok != want {
			t.Errorf("cached(%s) = %v, want %v", cwd, ok, want)
		}
	}
	if n := skills.CacheLen(r); n != 2 {
		t.Errorf("cache holds %d entries, want 2", n)
	}
}

func TestNoCacheForNonInvalidatorProviders(t *testing.T) {
	r := skilltest.NewRegistry(t)
	f := newFake(true, sum("a", "d", "f"))
	r.AddProvider("global", f, nil)
	var tokens []string
	for range 3 {
		s := mustSnapshot(t, r, globalQ)
		if !s.Complete || s.Token == "" {
			t.Fatalf("Complete=%v Token=%q", s.Complete, s.Token)
		}
		tokens = append(tokens, s.Token)
		if _, ok := r.CachedToken(globalQ); ok {
			t.Fatal("snapshot involving a non-Invalidator provider was cached")
		}
	}
	if n := f.Lists(); n != 3 {
		t.Errorf("listed %d times, want 3", n)
	}
	if tokens[0] != tokens[1] || tokens[1] != tokens[2] {
		t.Errorf("tokens differ for equal content: %v", tokens)
	}

	// The same provider in a scope outside the chain does not prevent caching.
	other := skills.Query{SessionID: "s1", Cwd: "/w", Chain: []string{"agent"}}
	mustRegister(t, r, "agent", rt("b", "d"))
	mustSnapshot(t, r, other)
	if _, ok := r.CachedToken(other); !ok {
		t.Error("snapshot not involving the provider was not cached")
	}
}

func TestNoCacheWhenRevisionChangesMidFlight(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		change func(r *skills.Registry, w *skilltest.Provider)
	}{
		{"Invalidate", func(r *skills.Registry, _ *skilltest.Provider) { r.Invalidate() }},
		{"Register", func(r *skills.Registry, _ *skilltest.Provider) { _ = r.Register("global", rt("late", "d")) }},
		{"own invalidation", func(_ *skills.Registry, w *skilltest.Provider) { w.Invalidate() }},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			w := newWatched(sum("a", "d", "w"))
			var once sync.Once
			onList(w, func() { once.Do(func() { tc.change(r, w) }) })
			r.AddProvider("global", watched(w), nil)
			s := mustSnapshot(t, r, globalQ)
			if !s.Complete {
				t.Fatal("snapshot incomplete")
			}
			if _, ok := r.CachedToken(globalQ); ok {
				t.Fatal("snapshot computed across a revision change was cached")
			}
			mustSnapshot(t, r, globalQ)
			if _, ok := r.CachedToken(globalQ); !ok {
				t.Error("a quiet recompute was not cached")
			}
			if n := w.Lists(); n != 2 {
				t.Errorf("listed %d times, want 2", n)
			}
		})
	}
}

func TestCancellationReachesProvider(t *testing.T) {
	for _, tc := range []struct {
		desc string
		call func(ctx context.Context, r *skills.Registry) error
	}{
		{"Snapshot", func(ctx context.Context, r *skills.Registry) error {
			_, err := r.Snapshot(ctx, globalQ)
			return err
		}},
		{"Get", func(ctx context.Context, r *skills.Registry) error {
			_, _, err := r.Get(ctx, globalQ, "a")
			return err
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			defer goleak.VerifyNone(t)
			r := skilltest.NewRegistry(t)
			mustRegister(t, r, "global", rt("a", "d"))
			blocker := newFake(true)
			blocker.SetHang(skilltest.OpList, true)
			r.AddProvider("global", blocker, nil)
			fine := newWatched(sum("b", "d", "w"))
			r.AddProvider("global", watched(fine), nil)

			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() { errc <- tc.call(ctx, r) }()
			<-blocker.Started()
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Fatalf("error = %v, want context.Canceled", err)
			}
			<-blocker.Cancelled() // the provider itself saw the cancellation
			if _, ok := r.CachedToken(globalQ); ok {
				t.Error("cancelled snapshot was cached")
			}
		})
	}
}

func TestAlreadyCancelledContextCallsNoProvider(t *testing.T) {
	r := skilltest.NewRegistry(t)
	w := newWatched(sum("a", "d", "w"))
	r.AddProvider("global", watched(w), nil)
	mustSnapshot(t, r, globalQ) // cached now
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.Snapshot(ctx, skills.Query{SessionID: "s9", Chain: []string{"global"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Snapshot error = %v, want context.Canceled", err)
	}
	if _, err := r.Snapshot(ctx, globalQ); !errors.Is(err, context.Canceled) {
		t.Errorf("cached Snapshot error = %v, want context.Canceled", err)
	}
	if n := w.Lists(); n != 1 {
		t.Errorf("listed %d times, want 1", n)
	}
}

func TestProvidersListedConcurrently(t *testing.T) {
	// Each provider waits until every other one has started: a sequential
	// registry would never finish.
	const n = 4
	var barrier sync.WaitGroup
	barrier.Add(n)
	r := skilltest.NewRegistry(t)
	scopes := []string{"a", "b", "c", "global"}
	for i := range n {
		p := newFake(true, sum(fmt.Sprintf("s%d", i), "d", "p"))
		onList(p, func() { barrier.Done(); barrier.Wait() })
		r.AddProvider(scopes[i], p, nil)
	}
	s := mustSnapshot(t, r, skills.Query{Chain: scopes})
	if len(s.Skills) != n || !s.Complete {
		t.Errorf("got %d skills, complete=%v", len(s.Skills), s.Complete)
	}
}

func TestGet(t *testing.T) {
	rb := &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: "/skills/rt"}
	loadErr := errors.New("server said no")
	hidden := skill.InvocationPolicy{UserInvocable: true}
	for _, tc := range []struct {
		desc string
		// setup returns the provider whose Load calls are counted.
		setup     func(t *testing.T, r *skills.Registry) *skilltest.Provider
		name      string
		want      skill.Definition
		wantFound bool
		wantErr   error
		wantLoads int
	}{
		{
			desc: "runtime winner",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				mustRegister(t, r, "global", skills.RuntimeSkill{Name: "rt", Description: "d", ResourceBase: rb, Content: "body"})
				return newFake(true)
			},
			name:      "rt",
			want:      skill.Definition{Summary: withSearchText(sum("rt", "d", skills.RuntimeProvider), "body"), ResourceBase: rb, Content: "body"},
			wantFound: true,
		},
		{
			desc: "provider winner fills empty fields from the summary",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := newFake(true, skill.Summary{Name: "remote", Description: "listed", Invocation: hidden, Provider: "mcp"})
				setLoaded(t, p, "remote", skill.Definition{Content: "remote body", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceOpaque, Description: "ask"}})
				r.AddProvider("global", p, nil)
				return p
			},
			name: "remote",
			want: skill.Definition{
				Summary:      skill.Summary{Name: "remote", Description: "listed", Invocation: hidden, Provider: "mcp"},
				ResourceBase: &skill.ResourceBase{Kind: skill.ResourceOpaque, Description: "ask"},
				Content:      "remote body",
			},
			wantFound: true,
			wantLoads: 1,
		},
		{
			desc: "provider's own fields are kept",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := newFake(true, sum("remote", "listed", "mcp"))
				setLoaded(t, p, "remote", skill.Definition{Summary: skill.Summary{Description: "fresh", Invocation: hidden, Provider: "mcp-v2"}, Content: "b"})
				r.AddProvider("global", p, nil)
				return p
			},
			name: "remote",
			want: skill.Definition{
				Summary: skill.Summary{Name: "remote", Description: "fresh", Invocation: hidden, Provider: "mcp-v2"},
				Content: "b",
			},
			wantFound: true,
			wantLoads: 1,
		},
		{
			desc: "provider no longer offers it",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := skilltest.New(nil)
				p.SetSkills(skilltest.Skill{Summary: sum("gone", "d", "p"), Vanished: true})
				r.AddProvider("global", p, nil)
				return p
			},
			name:      "gone",
			wantLoads: 1,
		},
		{
			desc: "provider load error",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := skilltest.New(nil)
				p.SetSkills(skilltest.Skill{Summary: sum("flaky", "d", "p"), LoadErr: loadErr})
				r.AddProvider("global", p, nil)
				return p
			},
			name:      "flaky",
			wantErr:   loadErr,
			wantLoads: 1,
		},
		{
			desc: "shadowed provider is not asked",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := newFake(true, sum("x", "global", "p"))
				setLoaded(t, p, "x", skill.Definition{Content: "global body"})
				r.AddProvider("global", p, &skills.ProviderOptions{Rank: 10})
				mustRegister(t, r, "agent", skills.RuntimeSkill{Name: "x", Description: "agent", Content: "agent body"})
				return p
			},
			name:      "x",
			want:      skill.Definition{Summary: withSearchText(sum("x", "agent", skills.RuntimeProvider), "agent body"), Content: "agent body"},
			wantFound: true,
		},
		{
			desc: "unknown name",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := newFake(true, sum("a", "d", "p"))
				r.AddProvider("global", p, nil)
				return p
			},
			name: "b",
		},
		{
			desc: "listing fails: the provider is asked and its load error returned",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := skilltest.New(nil)
				p.SetSkills(skilltest.Skill{Summary: sum("remote", "d", "mcp"), LoadErr: loadErr})
				p.SetListError(errors.New("index unreachable"))
				r.AddProvider("global", p, nil)
				return p
			},
			name:      "remote",
			wantErr:   loadErr,
			wantLoads: 1,
		},
		{
			desc: "listing fails: the provider still loads the skill",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := skilltest.New(nil)
				p.SetSkills(skilltest.Skill{Summary: sum("remote", "d", "mcp"), Content: "remote body"})
				p.SetListError(errors.New("index unreachable"))
				r.AddProvider("global", p, nil)
				mustRegister(t, r, "global", rt("other", "d"))
				return p
			},
			name:      "remote",
			want:      skill.Definition{Summary: sum("remote", "d", "mcp"), Content: "remote body"},
			wantFound: true,
			wantLoads: 1,
		},
		{
			desc: "listing fails: a policy the load leaves unset is the default",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := newFake(true, sum("remote", "d", "mcp"))
				setLoaded(t, p, "remote", skill.Definition{Content: "b"})
				p.SetListError(errors.New("index unreachable"))
				r.AddProvider("global", p, nil)
				return p
			},
			name:      "remote",
			want:      skill.Definition{Summary: skill.Summary{Name: "remote", Invocation: skill.DefaultPolicy()}, Content: "b"},
			wantFound: true,
			wantLoads: 1,
		},
		{
			desc: "incomplete listing: the provider is asked for an unlisted name",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := skilltest.New(nil)
				p.SetSkills(skilltest.Skill{Summary: sum("late", "d", "mcp"), Vanished: true})
				p.SetComplete(false)
				r.AddProvider("global", p, nil)
				return p
			},
			name:      "absent",
			wantLoads: 1,
		},
		{
			desc: "complete snapshot: an unlisted name asks no provider",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				p := newFake(true, sum("a", "d", "p"))
				r.AddProvider("global", p, nil)
				return p
			},
			name: "absent",
		},
		{
			desc: "invalid name",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				mustRegister(t, r, "global", rt("a", "d"))
				return newFake(true)
			},
			name: "A",
		},
		{
			desc: "name only in a scope outside the chain",
			setup: func(t *testing.T, r *skills.Registry) *skilltest.Provider {
				mustRegister(t, r, "other", rt("a", "d"))
				return newFake(true)
			},
			name: "a",
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := skilltest.NewRegistry(t)
			p := tc.setup(t, r)
			q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"agent", "global"}}
			def, found, err := r.Get(t.Context(), q, tc.name)
			if tc.wantErr != nil {
				var le *skills.LoadError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &le) || le.Name != tc.name {
					t.Fatalf("error = %v, want a *skills.LoadError for %q wrapping %v", err, tc.name, tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErr.Error()) || !strings.Contains(err.Error(), tc.name) {
					t.Errorf("error text %q lacks the name or the provider's text", err)
				}
			} else if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if found != tc.wantFound {
				t.Fatalf("found = %v, want %v", found, tc.wantFound)
			}
			if diff := cmp.Diff(tc.want, def); diff != "" {
				t.Errorf("definition (-want +got):\n%s", diff)
			}
			if n := len(p.Loads()); n != tc.wantLoads {
				t.Errorf("Load called %d times, want %d", n, tc.wantLoads)
			}
		})
	}
}

func TestGetUsesCachedSnapshot(t *testing.T) {
	r := skilltest.NewRegistry(t)
	w := newWatched(sum("a", "d", "w"))
	setLoaded(t, w, "a", skill.Definition{Content: "body"})
	r.AddProvider("global", watched(w), nil)
	mustSnapshot(t, r, globalQ)
	for range 3 {
		def, found, err := r.Get(t.Context(), globalQ, "a")
		if err != nil || !found || def.Content != "body" {
			t.Fatalf("Get = %+v, %v, %v", def, found, err)
		}
	}
	if n := w.Lists(); n != 1 {
		t.Errorf("listed %d times, want 1 (Get should reuse the cached snapshot)", n)
	}
}

func TestGetReturnsACopy(t *testing.T) {
	r := skilltest.NewRegistry(t)
	mustRegister(t, r, "global", skills.RuntimeSkill{Name: "a", Description: "d", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceDirectory, Path: "/p"}})
	def, _, _ := r.Get(t.Context(), globalQ, "a")
	def.ResourceBase.Path = "/mutated"
	again, _, _ := r.Get(t.Context(), globalQ, "a")
	if again.ResourceBase.Path != "/p" {
		t.Errorf("registry state changed through a returned definition: %q", again.ResourceBase.Path)
	}
	s := mustSnapshot(t, r, globalQ)
	s.Skills[0].Name = "mutated"
	if got := mustSnapshot(t, r, globalQ).Skills[0].Name; got != "a" {
		t.Errorf("cached snapshot changed through a returned slice: %q", got)
	}
}

func TestEndSession(t *testing.T) {
	r := skilltest.NewRegistry(t)
	w := newWatched(sum("a", "d", "w"))
	r.AddProvider("global", watched(w), nil)
	plain := newFake(true)
	r.AddProvider("agent", plain, nil) // no SessionEnder: must not break anything
	q1 := skills.Query{SessionID: "s1", Cwd: "/w", Chain: []string{"global"}}
	q1b := skills.Query{SessionID: "s1", Cwd: "/other", Chain: []string{"global"}}
	q2 := skills.Query{SessionID: "s2", Cwd: "/w", Chain: []string{"global"}}
	for _, q := range []skills.Query{q1, q1b, q2} {
		mustSnapshot(t, r, q)
	}
	rev := r.Revision()
	r.EndSession("s1")
	for _, tc := range []struct {
		q    skills.Query
		want bool
	}{{q1, false}, {q1b, false}, {q2, true}} {
		if _, ok := r.CachedToken(tc.q); ok != tc.want {
			t.Errorf("after EndSession(s1): cached(%s %s) = %v, want %v", tc.q.SessionID, tc.q.Cwd, ok, tc.want)
		}
	}
	if r.Revision() != rev {
		t.Error("EndSession bumped the revision")
	}
	if diff := cmp.Diff([]string{"s1"}, w.Ended()); diff != "" {
		t.Errorf("forwarded EndSession (-want +got):\n%s", diff)
	}
}

func TestNoCacheWhenSessionEndsMidFlight(t *testing.T) {
	r := skilltest.NewRegistry(t)
	w := newWatched(sum("a", "d", "w"))
	var once sync.Once
	onList(w, func() { once.Do(func() { r.EndSession(globalQ.SessionID) }) })
	r.AddProvider("global", watched(w), nil)
	mustSnapshot(t, r, globalQ)
	if _, ok := r.CachedToken(globalQ); ok {
		t.Error("a snapshot that raced with EndSession was cached")
	}
}

func TestInvalidatorLifecycle(t *testing.T) {
	r := skilltest.NewRegistry(t)
	w := newWatched(sum("a", "d", "w"))
	remove := r.AddProvider("global", watched(w), nil)
	if n := w.SetInvalidateCalls(); n != 1 {
		t.Fatalf("SetInvalidate called %d times, want 1", n)
	}
	rev := r.Revision()
	w.Invalidate()
	if r.Revision() != rev+1 {
		t.Fatalf("invalidate: revision %d → %d, want +1", rev, r.Revision())
	}
	remove()
	rev = r.Revision()
	remove()       // second call is harmless
	w.Invalidate() // safe after removal, and a no-op
	if r.Revision() != rev {
		t.Errorf("revision moved after removal: %d → %d", rev, r.Revision())
	}
	if s := mustSnapshot(t, r, globalQ); len(s.Skills) != 0 {
		t.Errorf("removed provider still listed: %v", s.Skills)
	}
}

// synchronousInvalidator invalidates from inside SetInvalidate, which must
// not deadlock.
type synchronousInvalidator struct{ *skilltest.Provider }

func (s synchronousInvalidator) SetInvalidate(fn func()) { fn() }

func TestSetInvalidateMayInvalidateImmediately(t *testing.T) {
	r := skilltest.NewRegistry(t)
	r.AddProvider("global", synchronousInvalidator{newFake(true, sum("a", "d", "p"))}, nil)
	if s := mustSnapshot(t, r, globalQ); len(s.Skills) != 1 {
		t.Errorf("skills = %v", s.Skills)
	}
}

func TestToken(t *testing.T) {
	build := func(t *testing.T, rs ...skills.RuntimeSkill) string {
		t.Helper()
		r := skilltest.NewRegistry(t)
		for _, s := range rs {
			mustRegister(t, r, "global", s)
		}
		return mustSnapshot(t, r, globalQ).Token
	}
	base := build(t, rt("a", "alpha"), rt("b", "beta"))
	// The encoding, spelled out: domain tag, count, then per skill the
	// length-prefixed name and description, the policy bits and the
	// length-prefixed provider.
	var enc []byte
	enc = append(enc, byte(len(skills.TokenDomain)))
	enc = append(enc, skills.TokenDomain...)
	enc = append(enc, 2)
	enc = append(enc, 1, 'a', 5, 'a', 'l', 'p', 'h', 'a', 3, 7, 'r', 'u', 'n', 't', 'i', 'm', 'e')
	enc = append(enc, 1, 'b', 4, 'b', 'e', 't', 'a', 3, 7, 'r', 'u', 'n', 't', 'i', 'm', 'e')
	sum128 := xxh3.Hash128(enc).Bytes()
	if want := hex.EncodeToString(sum128[:]); base != want {
		t.Errorf("token = %q, want xxh3-128 of the documented encoding %q", base, want)
	}
	// Pinned so that equal content keeps its token across releases.
	const pinned = "e8e94bd69e824485644e836819bf87fb"
	if base != pinned {
		t.Errorf("token = %q, want pinned %q", base, pinned)
	}
	for _, tc := range []struct {
		desc  string
		token string
		same  bool
	}{
		{"same content, other registration order", build(t, rt("b", "beta"), rt("a", "alpha")), true},
		{"same content, provider source", func() string {
			r := skilltest.NewRegistry(t)
			r.AddProvider("agent", newFake(true, sum("b", "beta", skills.RuntimeProvider), sum("a", "alpha", skills.RuntimeProvider)), nil)
			return mustSnapshot(t, r, skills.Query{Chain: []string{"agent"}}).Token
		}(), true},
		{"description changed", build(t, rt("a", "alpha!"), rt("b", "beta")), false},
		{"boundary moved between fields", build(t, rt("a", "alphab"), skills.RuntimeSkill{Name: "b", Description: "eta"}), false},
		{"policy changed", build(t, skills.RuntimeSkill{Name: "a", Description: "alpha", Invocation: &skill.InvocationPolicy{UserInvocable: true}}, rt("b", "beta")), false},
		{"provider label changed", build(t, skills.RuntimeSkill{Name: "a", Description: "alpha", Provider: "x"}, rt("b", "beta")), false},
		{"skill removed", build(t, rt("a", "alpha")), false},
		{"empty", build(t), false},
	} {
		if (tc.token == base) != tc.same {
			t.Errorf("%s: token %q vs base %q, want same=%v", tc.desc, tc.token, base, tc.same)
		}
	}
	if len(base) != 32 {
		t.Errorf("token %q is not 32 hex digits", base)
	}
}

func TestConcurrentUse(t *testing.T) {
	r := skilltest.NewRegistry(t)
	w := newWatched(sum("w", "d", "w"))
	setLoaded(t, w, "w", skill.Definition{Content: "b"})
	r.AddProvider("global", watched(w), nil)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				name := fmt.Sprintf("s%d-%d", g, i%5)
				_ = r.Register("global", rt(name, "d"))
				q := skills.Query{SessionID: fmt.Sprint(g), Cwd: "/", Chain: []string{"agent", "global"}}
				if _, err := r.Snapshot(t.Context(), q); err != nil {
					t.Error(err)
					return
				}
				if _, _, err := r.Get(t.Context(), q, "w"); err != nil {
					t.Error(err)
					return
				}
				r.CachedToken(q)
				if i%7 == 0 {
					w.Invalidate()
					r.Unregister("global", name)
					r.EndSession(fmt.Sprint(g))
				}
				if i%11 == 0 {
					r.AddProvider("agent", watched(newWatched()), nil)()
				}
			}
		})
	}
	wg.Wait()
}

// TestGetUnlistedFollowsPrecedence: during an outage the providers that
// could not list are asked nearest scope first, then by rank, and the first
// that offers the name wins.
func TestGetUnlistedFollowsPrecedence(t *testing.T) {
	r := skilltest.NewRegistry(t)
	outage := errors.New("index unreachable")
	mk := func(body string) *skilltest.Provider {
		p := skilltest.New(nil)
		p.SetSkills(skilltest.Skill{Summary: sum("x", "d", body), Content: body})
		p.SetListError(outage)
		return p
	}
	global, low, high := mk("global"), mk("agent-low"), mk("agent-high")
	r.AddProvider("global", global, &skills.ProviderOptions{Rank: 100})
	r.AddProvider("agent", low, nil)
	r.AddProvider("agent", high, &skills.ProviderOptions{Rank: 1})
	q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"agent", "global"}}
	def, found, err := r.Get(t.Context(), q, "x")
	if err != nil || !found || def.Content != "agent-high" {
		t.Fatalf("Get = %q, %v, %v; want the agent scope's higher-ranked provider", def.Content, found, err)
	}
	if len(global.Loads()) != 0 || len(low.Loads()) != 0 {
		t.Errorf("providers after the winner were asked: global %v, agent-low %v", global.Loads(), low.Loads())
	}
	high.SetSkills()
	def, found, err = r.Get(t.Context(), q, "x")
	if err != nil || !found || def.Content != "agent-low" {
		t.Fatalf("Get = %q, %v, %v; want the next provider once the first lacks the name", def.Content, found, err)
	}
}

// TestSharedSnapshotIsNeverChanged: a shared snapshot holds what Snapshot
// returns, and no later registration, replacement or removal changes the
// slices a caller holds.
func TestSharedSnapshotIsNeverChanged(t *testing.T) {
	ctx := context.Background()
	r := skilltest.NewRegistry(t)
	for _, name := range []string{"alpha", "delta", "gamma"} {
		if err := r.Register("g", skills.RuntimeSkill{Name: name, Description: "About " + name + ".", Content: "Body."}); err != nil {
			t.Fatal(err)
		}
	}
	q := skills.Query{Chain: []string{"g"}}
	changes := []func() error{
		func() error { // a replacement
			return r.Register("g", skills.RuntimeSkill{Name: "delta", Description: "Changed.", Content: "Body."})
		},
		func() error { // a new name
			return r.Register("g", skills.RuntimeSkill{Name: "beta", Description: "About beta.", Content: "Body."})
		},
		func() error {
			if !r.Unregister("g", "alpha") {
				return errors.New("alpha was not registered")
			}
			return nil
		},
	}
	for i, change := range changes {
		shared, err := r.SharedSnapshot(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		copied, err := r.Snapshot(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(copied, shared); diff != "" {
			t.Fatalf("change %d: shared snapshot differs from Snapshot (-want +got):\n%s", i, diff)
		}
		if err := change(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(copied.Skills, shared.Skills); diff != "" {
			t.Fatalf("change %d rewrote a shared snapshot (-held +now):\n%s", i, diff)
		}
		after, err := r.SharedSnapshot(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if after.Token == shared.Token {
			t.Fatalf("change %d: the token did not change", i)
		}
	}
}

// TestProviderTextThatIsNotUTF8: a provider's summary whose text is not
// UTF-8 is not listed (as a name outside the grammar is not), and a load
// answering with such text fails naming the field, so neither reaches the
// protocol, which carries UTF-8 only.
func TestProviderTextThatIsNotUTF8(t *testing.T) {
	ok := skill.Summary{Name: "fine", Description: "Fine.", Invocation: skill.DefaultPolicy()}
	badDesc := skill.Summary{Name: "latin", Description: "caf\xe9", Invocation: skill.DefaultPolicy()}
	badHint := skill.Summary{Name: "hint", Description: "Hint.", ArgumentHint: "\xff", Invocation: skill.DefaultPolicy()}
	p := newFake(true, ok, badDesc, badHint)
	setLoaded(t, p, "fine", skill.Definition{Summary: ok, Content: "Body \xfe."})
	r := skilltest.NewRegistry(t)
	r.AddProvider("global", p, nil)
	q := skills.Query{SessionID: "s", Chain: []string{"global"}}
	snap, err := r.Snapshot(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Skills) != 1 || snap.Skills[0].Name != "fine" || !snap.Complete {
		t.Errorf("snapshot %+v, want only the skill whose text is UTF-8, complete", snap.Skills)
	}
	_, found, err := r.Get(context.Background(), q, "fine")
	var loadErr *skills.LoadError
	if found || !errors.As(err, &loadErr) || !errors.Is(err, skill.ErrInvalidUTF8) || !strings.Contains(err.Error(), "content is not valid UTF-8 (byte 5") {
		t.Errorf("Get of a skill whose content is not UTF-8: found %v, %v; want a *LoadError naming the content", found, err)
	}
}

// withSearchText is s with the search text a runtime skill's content
// gives it.
func withSearchText(s skill.Summary, text string) skill.Summary {
	s.SearchText = text
	return s
}
