package agentskills

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// BenchmarkDiscovery lists a root of 1,000 skills.
//
//	first:      a new provider (no watcher) per List, so every SKILL.md is
//	            read and parsed.
//	cold:       no watcher; every List scans the root and stats every
//	            SKILL.md, whose frontmatter comes from the parse cache.
//	cold-watch: watcher on, caches dropped before every List, so each List
//	            rescans, re-adds every watch and stats every SKILL.md.
//	warm:       watcher on and nothing changed; List is served from cache.
//
// The files have just been written, so the parse cache would not trust
// them until racyWindow has passed; the providers' clock is moved past it,
// as for skills that were not edited in the last few seconds.
func BenchmarkDiscovery(b *testing.B) {
	const n = 1000
	root := filepath.Join(b.TempDir(), "skills")
	for i := range n {
		name := fmt.Sprintf("skill-%04d", i)
		writeSkill(b, filepath.Join(root, name), name,
			"Benchmark skill number "+name+": does one small thing well.", "Body of "+name+".")
	}
	ctx := context.Background()
	req := skills.ListRequest{SessionID: "bench", Cwd: root}
	opts := Options{HomeDir: filepath.Join(root, "no-home"), ExtraRoots: []string{root}}
	later := func() time.Time { return time.Now().Add(racyWindow) }
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := New(&opts)
			if err != nil {
				b.Fatal(err)
			}
			p.files.now = later
			obs, err := p.List(ctx, req)
			if err != nil || len(obs.Skills) != n {
				b.Fatalf("List: %d skills, err=%v", len(obs.Skills), err)
			}
			if err := p.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	run := func(b *testing.B, watch, drop bool) {
		o := opts
		o.Watch = watch
		p := mustNew(b, o)
		p.files.now = later
		if obs, err := p.List(ctx, req); err != nil || !obs.Complete || len(obs.Skills) != n {
			b.Fatalf("List: %d skills, complete=%v, err=%v", len(obs.Skills), obs.Complete, err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if drop {
				p.Invalidate()
			}
			obs, err := p.List(ctx, req)
			if err != nil || len(obs.Skills) != n {
				b.Fatalf("List: %d skills, err=%v", len(obs.Skills), err)
			}
		}
	}
	b.Run("cold", func(b *testing.B) { run(b, false, false) })
	b.Run("cold-watch", func(b *testing.B) { run(b, true, true) })
	b.Run("warm", func(b *testing.B) { run(b, true, false) })
}
