package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func def(name, desc string) Definition {
	return Definition{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}
}

// newTestTree builds global → agent → sub, plus a sibling agent "other".
func newTestTree(t *testing.T) *Tree {
	t.Helper()
	tr := NewTree()
	for _, s := range [][2]string{{"agent", GlobalScope}, {"sub", "agent"}, {"other", GlobalScope}} {
		if err := tr.AddScope(s[0], s[1]); err != nil {
			t.Fatalf("AddScope(%q, %q): %v", s[0], s[1], err)
		}
	}
	return tr
}

func mustRegister(t *testing.T, tr *Tree, scope string, d Definition) string {
	t.Helper()
	id, err := tr.Register(scope, d)
	if err != nil {
		t.Fatalf("Register(%q, %q): %v", scope, d.Name, err)
	}
	return id
}

func TestScopes(t *testing.T) {
	tr := newTestTree(t)
	for _, tc := range []struct {
		id, parent string
		wantErr    error // nil: success
		wantText   string
	}{
		{id: "deep", parent: "sub"},
		{id: "", parent: GlobalScope, wantText: "id is empty"},
		{id: "agent", parent: GlobalScope, wantErr: ErrDuplicateScope},
		{id: GlobalScope, parent: "agent", wantErr: ErrDuplicateScope},
		{id: "orphan", parent: "missing", wantErr: ErrUnknownScope},
		{id: "orphan", parent: "", wantErr: ErrUnknownScope},
	} {
		err := tr.AddScope(tc.id, tc.parent)
		switch {
		case tc.wantErr == nil && tc.wantText == "":
			if err != nil {
				t.Errorf("AddScope(%q, %q): %v", tc.id, tc.parent, err)
			}
		case tc.wantErr != nil:
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("AddScope(%q, %q) = %v, want %v", tc.id, tc.parent, err, tc.wantErr)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("AddScope(%q, %q) = %v, want error containing %q", tc.id, tc.parent, err, tc.wantText)
			}
		}
	}
	for _, tc := range []struct {
		id   string
		want []string
	}{
		{GlobalScope, []string{GlobalScope}},
		{"agent", []string{"agent", GlobalScope}},
		{"deep", []string{"deep", "sub", "agent", GlobalScope}},
		{"other", []string{"other", GlobalScope}},
	} {
		got, err := tr.Chain(tc.id)
		if err != nil {
			t.Errorf("Chain(%q): %v", tc.id, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Chain(%q) (-want +got):\n%s", tc.id, diff)
		}
	}
	if _, err := tr.Chain("missing"); !errors.Is(err, ErrUnknownScope) {
		t.Errorf("Chain(missing) = %v, want ErrUnknownScope", err)
	}
}

func TestRegister(t *testing.T) {
	tr := newTestTree(t)
	a := mustRegister(t, tr, GlobalScope, def("skill", "global"))
	b := mustRegister(t, tr, "agent", def("skill", "agent")) // shadowing is allowed
	if a == b || a == "" || !strings.HasPrefix(a, "tooldef-") {
		t.Errorf("identities %q and %q: want distinct, non-empty, tooldef- prefixed", a, b)
	}
	if _, err := tr.Register(GlobalScope, def("skill", "again")); !errors.Is(err, ErrDuplicateTool) {
		t.Errorf("same name in same scope: err = %v, want ErrDuplicateTool", err)
	}
	if _, err := tr.Register("missing", def("x", "")); !errors.Is(err, ErrUnknownScope) {
		t.Errorf("unknown scope: err = %v, want ErrUnknownScope", err)
	}
	if _, err := tr.Register(GlobalScope, def("", "")); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("empty name: err = %v, want one naming the name", err)
	}
	// Re-registering after Unregister mints a fresh identity.
	tr.Unregister(a)
	c := mustRegister(t, tr, GlobalScope, def("skill", "global"))
	if c == a {
		t.Errorf("re-registration reused identity %q", a)
	}
	// Identities are unique across trees too.
	other := NewTree()
	if d := mustRegister(t, other, GlobalScope, def("skill", "global")); d == a || d == c {
		t.Errorf("identity %q repeated across trees", d)
	}
}

func TestResolve(t *testing.T) {
	type reg struct{ scope, name, desc string }
	for _, tc := range []struct {
		desc     string
		regs     []reg
		restrict [][2]string // scope, name
		from     string
		name     string
		wantDesc string // "" means not ok
	}{
		{desc: "global tool seen from a child", regs: []reg{{GlobalScope, "skill", "g"}}, from: "sub", name: "skill", wantDesc: "g"},
		{desc: "child shadows parent", regs: []reg{{GlobalScope, "skill", "g"}, {"agent", "skill", "a"}}, from: "agent", name: "skill", wantDesc: "a"},
		{desc: "nearest shadow wins", regs: []reg{{GlobalScope, "skill", "g"}, {"agent", "skill", "a"}, {"sub", "skill", "s"}}, from: "sub", name: "skill", wantDesc: "s"},
		{desc: "grandchild inherits the child's shadow", regs: []reg{{GlobalScope, "skill", "g"}, {"agent", "skill", "a"}}, from: "sub", name: "skill", wantDesc: "a"},
		{desc: "parent does not see child's tool", regs: []reg{{"agent", "skill", "a"}}, from: GlobalScope, name: "skill"},
		{desc: "sibling does not see the shadow", regs: []reg{{GlobalScope, "skill", "g"}, {"agent", "skill", "a"}}, from: "other", name: "skill", wantDesc: "g"},
		{desc: "unknown name", regs: []reg{{GlobalScope, "skill", "g"}}, from: "agent", name: "read"},
		{desc: "unknown scope", regs: []reg{{GlobalScope, "skill", "g"}}, from: "missing", name: "skill"},
		{desc: "restricted in own scope", regs: []reg{{GlobalScope, "skill", "g"}}, restrict: [][2]string{{"agent", "skill"}}, from: "agent", name: "skill"},
		{desc: "restriction reaches descendants", regs: []reg{{GlobalScope, "skill", "g"}}, restrict: [][2]string{{"agent", "skill"}}, from: "sub", name: "skill"},
		{desc: "restriction beats a descendant's own definition", regs: []reg{{GlobalScope, "skill", "g"}, {"sub", "skill", "s"}}, restrict: [][2]string{{"agent", "skill"}}, from: "sub", name: "skill"},
		{desc: "restriction does not reach the parent", regs: []reg{{GlobalScope, "skill", "g"}}, restrict: [][2]string{{"agent", "skill"}}, from: GlobalScope, name: "skill", wantDesc: "g"},
		{desc: "restriction does not reach a sibling", regs: []reg{{GlobalScope, "skill", "g"}}, restrict: [][2]string{{"agent", "skill"}}, from: "other", name: "skill", wantDesc: "g"},
		{desc: "global restriction reaches everyone", regs: []reg{{"agent", "skill", "a"}}, restrict: [][2]string{{GlobalScope, "skill"}}, from: "agent", name: "skill"},
		{desc: "restriction is per name", regs: []reg{{GlobalScope, "skill", "g"}, {GlobalScope, "read", "r"}}, restrict: [][2]string{{"agent", "skill"}}, from: "agent", name: "read", wantDesc: "r"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tr := newTestTree(t)
			ids := map[string]string{}
			for _, r := range tc.regs {
				ids[r.desc] = mustRegister(t, tr, r.scope, def(r.name, r.desc))
			}
			for _, r := range tc.restrict {
				if err := tr.Restrict(r[0], r[1]); err != nil {
					t.Fatalf("Restrict(%q, %q): %v", r[0], r[1], err)
				}
			}
			id, d, ok := tr.Resolve(tc.from, tc.name)
			if tc.wantDesc == "" {
				if ok {
					t.Fatalf("Resolve = %q %+v, want not ok", id, d)
				}
				return
			}
			if !ok {
				t.Fatal("Resolve not ok")
			}
			if d.Description != tc.wantDesc || id != ids[tc.wantDesc] {
				t.Errorf("Resolve = %q (%q), want %q (%q)", id, d.Description, ids[tc.wantDesc], tc.wantDesc)
			}
		})
	}
}

func TestRestrictLifecycle(t *testing.T) {
	tr := newTestTree(t)
	id := mustRegister(t, tr, GlobalScope, def("skill", "g"))
	steps := []struct {
		desc string
		do   func() error
		from string
		want bool
	}{
		{"restrict in agent", func() error { return tr.Restrict("agent", "skill") }, "sub", false},
		{"restrict again is a no-op", func() error { return tr.Restrict("agent", "skill") }, "sub", false},
		{"restrict in sub too", func() error { return tr.Restrict("sub", "skill") }, "sub", false},
		{"lifting sub's own leaves agent's", func() error { return tr.Unrestrict("sub", "skill") }, "sub", false},
		{"lifting agent's restores", func() error { return tr.Unrestrict("agent", "skill") }, "sub", true},
		{"lifting an absent restriction is a no-op", func() error { return tr.Unrestrict("agent", "skill") }, "sub", true},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.desc, err)
		}
		got, _, ok := tr.Resolve(s.from, "skill")
		if ok != s.want || (ok && got != id) {
			t.Errorf("%s: Resolve(%q) = %q, %v; want ok=%v", s.desc, s.from, got, ok, s.want)
		}
	}
	for _, err := range []error{tr.Restrict("missing", "skill"), tr.Unrestrict("missing", "skill")} {
		if !errors.Is(err, ErrUnknownScope) {
			t.Errorf("unknown scope: err = %v, want ErrUnknownScope", err)
		}
	}
	if err := tr.Restrict("agent", ""); err == nil {
		t.Error("Restrict with an empty name succeeded")
	}
}

func TestUnregister(t *testing.T) {
	tr := newTestTree(t)
	g := mustRegister(t, tr, GlobalScope, def("skill", "g"))
	a := mustRegister(t, tr, "agent", def("skill", "a"))
	if id, _, _ := tr.Resolve("agent", "skill"); id != a {
		t.Fatalf("before: Resolve = %q, want shadow %q", id, a)
	}
	if !tr.Unregister(a) {
		t.Fatal("Unregister(shadow) = false")
	}
	if tr.Unregister(a) {
		t.Error("second Unregister = true")
	}
	if tr.Unregister("tooldef-unknown") {
		t.Error("Unregister(unknown) = true")
	}
	if id, _, ok := tr.Resolve("agent", "skill"); !ok || id != g {
		t.Errorf("after removing the shadow: Resolve = %q, %v; want %q", id, ok, g)
	}
	// The name is free again in the agent scope.
	mustRegister(t, tr, "agent", def("skill", "a2"))
	tr.Unregister(g)
	if _, _, ok := tr.Resolve(GlobalScope, "skill"); ok {
		t.Error("global still resolves after Unregister")
	}
}

func TestVisible(t *testing.T) {
	tr := newTestTree(t)
	ids := map[string]string{
		"g-skill": mustRegister(t, tr, GlobalScope, def("skill", "g")),
		"g-read":  mustRegister(t, tr, GlobalScope, def("read", "g")),
		"g-write": mustRegister(t, tr, GlobalScope, def("write", "g")),
		"a-skill": mustRegister(t, tr, "agent", def("skill", "a")),
		"s-bash":  mustRegister(t, tr, "sub", def("bash", "s")),
		"o-only":  mustRegister(t, tr, "other", def("only", "o")),
	}
	if err := tr.Restrict("agent", "write"); err != nil {
		t.Fatal(err)
	}
	rt := func(key, scope string, d Definition) ResolvedTool {
		return ResolvedTool{Identity: ids[key], Scope: scope, Definition: d}
	}
	for _, tc := range []struct {
		scope string
		want  []ResolvedTool
	}{
		{GlobalScope, []ResolvedTool{
			rt("g-read", GlobalScope, def("read", "g")),
			rt("g-skill", GlobalScope, def("skill", "g")),
			rt("g-write", GlobalScope, def("write", "g")),
		}},
		{"agent", []ResolvedTool{
			rt("g-read", GlobalScope, def("read", "g")),
			rt("a-skill", "agent", def("skill", "a")),
		}},
		{"sub", []ResolvedTool{
			rt("s-bash", "sub", def("bash", "s")),
			rt("g-read", GlobalScope, def("read", "g")),
			rt("a-skill", "agent", def("skill", "a")),
		}},
		{"other", []ResolvedTool{
			rt("o-only", "other", def("only", "o")),
			rt("g-read", GlobalScope, def("read", "g")),
			rt("g-skill", GlobalScope, def("skill", "g")),
			rt("g-write", GlobalScope, def("write", "g")),
		}},
		{"missing", nil},
	} {
		got := tr.Visible(tc.scope)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Visible(%q) (-want +got):\n%s", tc.scope, diff)
		}
		// Visible and Resolve agree.
		for _, v := range got {
			id, _, ok := tr.Resolve(tc.scope, v.Definition.Name)
			if !ok || id != v.Identity {
				t.Errorf("Resolve(%q, %q) = %q, %v; Visible says %q", tc.scope, v.Definition.Name, id, ok, v.Identity)
			}
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	tr := NewTree()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			sc := fmt.Sprintf("agent-%d", g)
			if err := tr.AddScope(sc, GlobalScope); err != nil {
				t.Error(err)
				return
			}
			for i := range 100 {
				name := fmt.Sprintf("tool-%d", i%10)
				id, err := tr.Register(sc, def(name, "d"))
				if err != nil {
					t.Error(err)
					return
				}
				_ = tr.Restrict(GlobalScope, name)
				tr.Resolve(sc, name)
				tr.Visible(sc)
				_, _ = tr.Chain(sc)
				_ = tr.Unrestrict(GlobalScope, name)
				tr.Unregister(id)
			}
		})
	}
	wg.Wait()
	if v := tr.Visible(GlobalScope); len(v) != 0 {
		t.Errorf("leftover tools: %v", v)
	}
}
