package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// countingProvider counts the listings and loads that reach a provider.
type countingProvider struct {
	skills.Provider
	lists, loads *atomic.Int64
}

func (p countingProvider) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	p.lists.Add(1)
	return p.Provider.List(ctx, req)
}

func (p countingProvider) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	p.loads.Add(1)
	return p.Provider.Load(ctx, req)
}

// writeSkills writes n skills below root, one folder each, every one
// asking for tools, so that explain reports directives for each.
func writeSkills(t *testing.T, root string, n int) {
	t.Helper()
	for i := range n {
		name := fmt.Sprintf("skill-%04d", i)
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		md := fmt.Sprintf("---\nname: %s\ndescription: Does task %d.\nallowed-tools: Read Grep\n---\nDo task %d.\n", name, i, i)
		if err := os.WriteFile(filepath.Join(root, name, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExplainReadsTheSkillsDirectoryAFixedNumberOfTimes: each listing or
// load of the skill directories' provider reads every skill root, so
// explain is linear in the skills only if the number of them that reach
// the provider does not grow with the skills. It does not: 40 skills and
// 160 cost the same listings and loads, and every skill's directives are
// still reported.
func TestExplainReadsTheSkillsDirectoryAFixedNumberOfTimes(t *testing.T) {
	calls := func(n int) (lists, loads int64) {
		root, home := t.TempDir(), t.TempDir()
		writeSkills(t, root, n)
		var l, d atomic.Int64
		o := explainOptions{skillsDirs: stringsFlag{root}, home: home, cwd: home, agent: "agent:explain",
			wrapLocal: func(p skills.Provider) skills.Provider { return countingProvider{p, &l, &d} }}
		ex, err := explain(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		with := 0
		for _, s := range ex.Skills {
			if s.Directives != nil && len(s.Directives.AllowedTools) == 2 && s.Directives.Trusted {
				with++
			}
		}
		if with != n {
			t.Errorf("%d skills: %d with their directives, want every one", n, with)
		}
		return l.Load(), d.Load()
	}
	lists40, loads40 := calls(40)
	lists160, loads160 := calls(160)
	if lists160 != lists40 || loads160 != loads40 {
		t.Errorf("40 skills: %d listings and %d loads of the provider; 160 skills: %d and %d; want the same", lists40, loads40, lists160, loads160)
	}
}
