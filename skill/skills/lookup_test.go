package skills_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestLookup: Lookup returns the winning summary of a name, its provider
// label included, without loading anything.
func TestLookup(t *testing.T) {
	r := skilltest.NewRegistry(t)
	mustRegister(t, r, "global", skills.RuntimeSkill{Name: "shared", Description: "runtime copy", Provider: "team"})
	p := newFake(true, sum("shared", "provider copy", "mcp"), sum("remote", "remote skill", "mcp"))
	r.AddProvider("agent", p, nil)
	q := skills.Query{SessionID: "s", Chain: []string{"agent", "global"}}
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		want  skill.Summary
		found bool
	}{
		{"shared", sum("shared", "provider copy", "mcp"), true}, // the nearer scope wins
		{"remote", sum("remote", "remote skill", "mcp"), true},
		{"absent", skill.Summary{}, false},
		{"Not-Valid", skill.Summary{}, false},
	} {
		got, found, err := r.Lookup(ctx, q, tc.name)
		if err != nil || found != tc.found {
			t.Fatalf("Lookup(%q) found %v, %v; want %v", tc.name, found, err, tc.found)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("Lookup(%q) (-want +got):\n%s", tc.name, d)
		}
	}
	got, found, err := r.Lookup(ctx, skills.Query{SessionID: "s", Chain: []string{"global"}}, "shared")
	if err != nil || !found || got.Provider != "team" {
		t.Fatalf("Lookup in global = %+v, %v, %v; want the runtime skill labelled team", got, found, err)
	}
	if loads := p.Loads(); len(loads) != 0 {
		t.Fatalf("Lookup loaded %v", loads)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := r.Lookup(cancelled, q, "remote"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Lookup with a cancelled context: %v", err)
	}
}
