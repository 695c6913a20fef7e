package agentskills

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk/skills"
)

// BenchmarkDiscovery lists a root of 1,000 skills.
//
//	cold:       no watcher; every List scans and parses every SKILL.md.
//	cold-watch: watcher on, caches dropped before every List, so each List
//	            rescans and re-adds every watch.
//	warm:       watcher on and nothing changed; List is served from cache.
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
	run := func(b *testing.B, watch, drop bool) {
		p := mustNew(b, Options{HomeDir: filepath.Join(root, "no-home"), ExtraRoots: []string{root}, Watch: watch})
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
