package plugin

import (
	"context"
	"slices"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// scoped is a skill scoped by patterns.
func scoped(name, desc string, patterns ...string) skill.Summary {
	s := summary(name, desc)
	s.Paths = skill.JoinPaths(patterns)
	return s
}

// catalogNames returns the entry names and activated skills of the
// catalog a step's final messages publish, and whether there is one.
func catalogNames(msgs []contract.Message) (names, activated []string, ok bool) {
	for _, c := range published(msgs) {
		names, activated, ok = nil, c.Activated, true
		for _, e := range c.Entries {
			names = append(names, e.Name)
		}
	}
	return names, activated, ok
}

func TestPathsEnterAtTheTouchingStep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		m       mount
		touched []string
		enters  bool
	}{
		{"absolute below cwd", testMount(), []string{"/w/db/migrate/1.sql"}, true},
		{"relative", testMount(), []string{"db/x.sql"}, true},
		{"no match", testMount(), []string{"/w/README.md"}, false},
		{"outside cwd", testMount(), []string{"/elsewhere/1.sql"}, false},
		{"with a budget", budgetMount(2000), []string{"a/b.sql"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(summary("alpha", "First."), scoped("sql", "SQL rules.", "*.sql"))
			e := newEngine()
			first := step(h, enter())
			final := h.apply(t, first, mustPreStep(t, e, h, tc.m, first))
			if names, _, _ := catalogNames(final); !slices.Equal(names, []string{"alpha"}) {
				t.Fatalf("first catalog lists %q", names)
			}
			req := step(h, enter())
			req.TouchedPaths = tc.touched
			resp := mustPreStep(t, e, h, tc.m, req)
			names, activated, ok := catalogNames(h.apply(t, req, resp))
			if !tc.enters {
				if ok || resp.Outcome != contract.OutcomeUnchanged {
					t.Fatalf("outcome %v, catalog %q", resp.Outcome, names)
				}
				return
			}
			if !slices.Equal(names, []string{"alpha", "sql"}) || !slices.Equal(activated, []string{"sql"}) {
				t.Fatalf("catalog lists %q, activated %q", names, activated)
			}
			if !slices.ContainsFunc(resp.Reasons, func(r contract.Reason) bool { return r.Code == contract.ReasonPathsActivated }) {
				t.Errorf("reasons %+v", resp.Reasons)
			}
			// A fresh engine (a restarted plugin, a replica) reads the
			// activation back and publishes nothing.
			again := step(h, enter())
			if resp := mustPreStep(t, newEngine(), h, tc.m, again); resp.Outcome != contract.OutcomeUnchanged || len(resp.Edits) != 0 {
				t.Errorf("after a restart: outcome %v, edits %d", resp.Outcome, len(resp.Edits))
			}
		})
	}
}

func TestPathsScopedSkillSearchAndTool(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "Fill PDF forms."), scoped("pdf-sql", "Store PDF forms in SQL.", "*.sql"))
	h.defs["pdf-sql"] = skill.Definition{Summary: h.skills[1], Content: "Use the forms table."}
	e := newEngine()
	m := searchMount()
	first := step(h, enter())
	h.apply(t, first, mustPreStep(t, e, h, m, first))
	hits := func() []string {
		res, err := e.executeSearchTool(context.Background(), h, m, searchCall(`{"query": "pdf forms"}`))
		if err != nil || res.IsError {
			t.Fatalf("search: %+v, %v", res, err)
		}
		var names []string
		for _, h := range res.Search.Hits {
			names = append(names, h.Name)
		}
		return names
	}
	if got := hits(); slices.Contains(got, "pdf-sql") {
		t.Errorf("search before activation found %q", got)
	}
	res, err := e.executeSkillTool(context.Background(), h, m, contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", SkillToolIdentity: identity, Arguments: []byte(`{"name":"pdf-sql"}`)})
	if err != nil || res.IsError {
		t.Errorf("the skill tool refused a scoped skill: %+v, %v", res, err)
	}
	req := step(h, enter())
	req.TouchedPaths = []string{"schema.sql"}
	h.apply(t, req, mustPreStep(t, e, h, m, req))
	if got := hits(); !slices.Contains(got, "pdf-sql") {
		t.Errorf("search after activation found %q", got)
	}
}

func TestPathsActivationSurvivesAHiddenTool(t *testing.T) {
	t.Parallel()
	h := newMemHost(scoped("sql", "SQL rules.", "*.sql"), summary("alpha", "First."))
	e := newEngine()
	req := step(h, enter())
	req.TouchedPaths = []string{"a.sql"}
	h.apply(t, req, mustPreStep(t, e, h, testMount(), req))
	hidden := step(h, enter())
	hidden.SkillToolIdentity = ""
	final := h.apply(t, hidden, mustPreStep(t, e, h, testMount(), hidden))
	if names, activated, ok := catalogNames(final); !ok || len(names) != 0 || !slices.Equal(activated, []string{"sql"}) {
		t.Fatalf("tombstone lists %q, activated %q", names, activated)
	}
	back := step(h, enter())
	final = h.apply(t, back, mustPreStep(t, e, h, testMount(), back))
	if names, _, _ := catalogNames(final); !slices.Equal(names, []string{"alpha", "sql"}) {
		t.Errorf("the tool back: catalog lists %q", names)
	}
}

// TestPathsThroughSnapshotDeltas: a scoped skill added, changed or removed
// by a delta is gated as one of a complete snapshot is.
func TestPathsThroughSnapshotDeltas(t *testing.T) {
	t.Parallel()
	h := newMemHost(summary("alpha", "First."))
	h.deltas = true
	e := newEngine()
	run := func(touched ...string) []string {
		req := step(h, enter())
		req.TouchedPaths = touched
		names, _, _ := catalogNames(h.apply(t, req, mustPreStep(t, e, h, testMount(), req)))
		return names
	}
	run()
	h.skills = append(h.skills, scoped("go-style", "Go rules.", "*.go"), scoped("sql", "SQL rules.", "*.sql"))
	h.token = "tok-2"
	if got := run(); got != nil {
		t.Fatalf("scoped skills added by a delta published %q", got)
	}
	if got := run("main.go"); !slices.Equal(got, []string{"alpha", "go-style"}) {
		t.Fatalf("after main.go: %q", got)
	}
	// sql loses its paths in a delta: it is listed at once.
	h.skills[2] = summary("sql", "SQL rules.")
	h.token = "tok-3"
	if got := run(); !slices.Equal(got, []string{"alpha", "go-style", "sql"}) {
		t.Fatalf("after sql lost its paths: %q", got)
	}
	if h.summaries >= 3+3+3 {
		t.Errorf("%d summaries sent: the snapshots were not deltas", h.summaries)
	}
}
