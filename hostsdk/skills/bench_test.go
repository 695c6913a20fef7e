package skills_test

import (
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
	"github.com/skillcatalog/skillcatalog/skill"
)

// BenchmarkSnapshot measures a 1,000-skill snapshot served from the cache
// and computed afresh (runtime registrations, and a provider listing).
func BenchmarkSnapshot(b *testing.B) {
	const n = 1000
	skillsFor := func(prefix string) []skill.Summary {
		s := make([]skill.Summary, n)
		for i := range s {
			s[i] = sum(fmt.Sprintf("%s-%04d", prefix, (i*7919)%n), fmt.Sprintf("Description of skill %d, long enough to be typical.", i), "p")
		}
		return s
	}
	runtimeRegistry := func(b *testing.B) *skills.Registry {
		r := skills.NewRegistry()
		for _, s := range skillsFor("skill") {
			if err := r.Register("global", skills.RuntimeSkill{Name: s.Name, Description: s.Description}); err != nil {
				b.Fatal(err)
			}
		}
		return r
	}
	q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"agent", "global"}}

	b.Run("cached", func(b *testing.B) {
		r := runtimeRegistry(b)
		if _, err := r.Snapshot(b.Context(), q); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.Snapshot(b.Context(), q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uncached-runtime", func(b *testing.B) {
		r := runtimeRegistry(b)
		b.ReportAllocs()
		for b.Loop() {
			r.Invalidate()
			if _, err := r.Snapshot(b.Context(), q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uncached-provider", func(b *testing.B) {
		r := skills.NewRegistry()
		r.AddProvider("global", newFake(true, skillsFor("skill")...), skills.ProviderOptions{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.Snapshot(b.Context(), q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached-token", func(b *testing.B) {
		r := runtimeRegistry(b)
		if _, err := r.Snapshot(b.Context(), q); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := r.CachedToken(q); !ok {
				b.Fatal("not cached")
			}
		}
	})
}
