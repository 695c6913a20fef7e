package skilltest_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// mapProvider is a provider of one's own: skills kept in a map, say loaded
// from a database. It is not a skills.Invalidator, so the registry lists
// it on every snapshot.
type mapProvider struct {
	mu     sync.Mutex
	skills map[string]string // name -> description
}

func (p *mapProvider) List(ctx context.Context, req skills.ListRequest) (skills.Observation, error) {
	if err := ctx.Err(); err != nil {
		return skills.Observation{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	obs := skills.Observation{Complete: true}
	for name, description := range p.skills {
		obs.Skills = append(obs.Skills, skill.Summary{Name: name, Description: description, Invocation: skill.DefaultPolicy(), Provider: "map"})
	}
	slices.SortFunc(obs.Skills, func(a, b skill.Summary) int { return strings.Compare(a.Name, b.Name) })
	return obs, nil
}

func (p *mapProvider) Load(ctx context.Context, req skills.LoadRequest) (skill.Definition, bool, error) {
	if err := ctx.Err(); err != nil {
		return skill.Definition{}, false, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	description, ok := p.skills[req.Name]
	if !ok {
		return skill.Definition{}, false, nil
	}
	sum := skill.Summary{Name: req.Name, Description: description, Invocation: skill.DefaultPolicy(), Provider: "map"}
	return skill.Definition{Summary: sum, Content: "# " + req.Name}, true, nil
}

func (p *mapProvider) set(name, description string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.skills[name] = description
}

func (p *mapProvider) remove(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.skills, name)
}

// testMapProvider is the test the provider's package writes, named
// TestMapProvider there; RunProvider runs every check as a subtest.
// (TestExampleRunProvider in this package runs it.)
func testMapProvider(t *testing.T) {
	skilltest.RunProvider(t, func(t *testing.T) skilltest.Harness {
		p := &mapProvider{skills: map[string]string{}}
		return skilltest.Harness{
			Provider:    p,
			SetSkill:    func(t *testing.T, name, description string) { p.set(name, description) },
			RemoveSkill: func(t *testing.T, name string) { p.remove(name) },
		}
	})
}

// A provider's test hands RunProvider a factory: a fresh provider over a
// fresh source, and the functions that change the source. The suite needs
// a test's *testing.T, so this example only compiles; testMapProvider above
// is the test.
func ExampleRunProvider() {}
