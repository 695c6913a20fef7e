package skills_test

import (
	"fmt"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
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
		r := skilltest.NewRegistry(b)
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
		r := skilltest.NewRegistry(b)
		r.AddProvider("global", newFake(true, skillsFor("skill")...), nil)
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

// BenchmarkChangeOneSkill is one runtime skill's description replaced and
// the host told what changed, at 100, 1,000 and 10,000 skills: "changes"
// asks SnapshotChanges against the previous snapshot's token; "snapshot"
// asks SharedSnapshot for the whole new snapshot, which the host would
// then compare with the previous one.
func BenchmarkChangeOneSkill(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		for _, how := range []string{"changes", "snapshot"} {
			b.Run(fmt.Sprintf("skills=%d/%s", n, how), func(b *testing.B) {
				r := skilltest.NewRegistry(b)
				register := func(k, rev int) {
					if err := r.Register("global", skills.RuntimeSkill{
						Name:        fmt.Sprintf("skill-%05d", k),
						Description: fmt.Sprintf("Description of skill %d, revision %07d, long enough to be typical.", k, rev),
					}); err != nil {
						b.Fatal(err)
					}
				}
				for k := range n {
					register(k, 0)
				}
				q := skills.Query{SessionID: "s", Cwd: "/w", Chain: []string{"agent", "global"}}
				snap, err := r.SharedSnapshot(b.Context(), q)
				if err != nil {
					b.Fatal(err)
				}
				token := snap.Token
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					i++
					register(i%n, i)
					if how == "snapshot" {
						if _, err := r.SharedSnapshot(b.Context(), q); err != nil {
							b.Fatal(err)
						}
						continue
					}
					ch, ok, err := r.SnapshotChanges(b.Context(), q, token)
					if err != nil || !ok || len(ch.Upserts) != 1 {
						b.Fatalf("changes %+v, ok %v, err %v", ch, ok, err)
					}
					token = ch.Token
				}
			})
		}
	}
}
