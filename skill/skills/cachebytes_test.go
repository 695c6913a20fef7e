package skills_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// perSession lists skills of its own for every session, as a provider of
// per-user remote skills does, and counts the listings of each session.
type perSession struct {
	mu    sync.Mutex
	lists map[string]int
}

func (p *perSession) skillsFor(session string) []skill.Summary {
	out := make([]skill.Summary, 20)
	for i := range out {
		out[i] = skill.Summary{
			Name:        fmt.Sprintf("%s-skill-%02d", session, i),
			Description: strings.Repeat("A description of typical length. ", 6),
			Invocation:  skill.DefaultPolicy(),
			Provider:    "per-session",
		}
	}
	return out
}

func (p *perSession) List(_ context.Context, req skills.ListRequest) (skills.Observation, error) {
	p.mu.Lock()
	p.lists[req.SessionID]++
	p.mu.Unlock()
	return skills.Observation{Skills: p.skillsFor(req.SessionID), Complete: true}, nil
}

func (p *perSession) Load(context.Context, skills.LoadRequest) (skill.Definition, bool, error) {
	return skill.Definition{}, false, nil
}

func (p *perSession) SetInvalidate(func()) {}

func (p *perSession) listed(session string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lists[session]
}

// Many sessions with snapshots of their own: the snapshot cache keeps its
// bytes within the budget (and what it counts is at least what the views'
// summaries hold), while a session whose snapshot was dropped gets it
// again, rebuilt from the provider.
func TestSnapshotCacheIsBoundedByBytes(t *testing.T) {
	const budget = 1 << 20
	r, err := skills.NewRegistry(&skills.RegistryOptions{SnapshotCacheBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	p := &perSession{lists: make(map[string]int)}
	r.AddProvider("global", p, nil)
	q := func(i int) skills.Query {
		return skills.Query{SessionID: fmt.Sprintf("session-%04d", i), Cwd: "/w", Chain: []string{"global"}}
	}
	check := func(i int) {
		t.Helper()
		s := mustSnapshot(t, r, q(i))
		want := p.skillsFor(q(i).SessionID)
		slices.SortFunc(want, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
		if diff := cmp.Diff(want, s.Skills); diff != "" {
			t.Fatalf("snapshot of %s (-want +got):\n%s", q(i).SessionID, diff)
		}
	}
	const sessions = 2000
	for i := range sessions {
		check(i)
		held, counted := skills.CachedSummaryBytes(r), skills.CacheBytes(r)
		if counted > budget || held > budget {
			t.Fatalf("after %d sessions the cache counts %d bytes and its views hold %d, over the budget of %d", i+1, counted, held, budget)
		}
		if held > counted {
			t.Fatalf("after %d sessions the cache counts %d bytes but its views hold %d", i+1, counted, held)
		}
	}
	if _, ok := r.CachedToken(q(sessions - 1)); !ok {
		t.Error("the newest session's snapshot is not cached")
	}
	check(0)
	if n := p.listed(q(0).SessionID); n != 2 {
		t.Errorf("the first session was listed %d times, want 2 (dropped from the cache, then rebuilt)", n)
	}
	check(sessions - 1)
	if n := p.listed(q(sessions - 1).SessionID); n != 1 {
		t.Errorf("the newest session was listed %d times, want 1 (served from the cache)", n)
	}
}

// A budget below zero is refused, naming the option.
func TestRegistryRefusesANegativeCacheBudget(t *testing.T) {
	_, err := skills.NewRegistry(&skills.RegistryOptions{SnapshotCacheBytes: -1})
	if err == nil || !strings.Contains(err.Error(), "SnapshotCacheBytes") {
		t.Errorf("NewRegistry(&RegistryOptions{SnapshotCacheBytes: -1}) = %v, want an error naming SnapshotCacheBytes", err)
	}
}
