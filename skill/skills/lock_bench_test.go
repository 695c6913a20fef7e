package skills_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skilllock"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// BenchmarkLockedSnapshot measures what a lock adds to a snapshot the
// registry computes afresh (after a change): 200 skills on disk, each a
// SKILL.md of about 2 KB and two more files, listed without a lock and
// with every skill locked (each directory hashed).
func BenchmarkLockedSnapshot(b *testing.B) {
	const n = 200
	root := b.TempDir()
	var entries []skilllock.Entry
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("skill-%03d", i))
		files := map[string]string{
			"SKILL.md":        fmt.Sprintf("---\nname: skill-%03d\ndescription: Skill %d does one thing well.\n---\n", i, i) + strings.Repeat("Step by step instructions. ", 80),
			"scripts/run.sh":  strings.Repeat("echo run\n", 100),
			"references/a.md": strings.Repeat("Reference text. ", 200),
		}
		for name, text := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		d, err := skilllock.TreeDigest(os.DirFS(dir))
		if err != nil {
			b.Fatal(err)
		}
		entries = append(entries, skilllock.Entry{Kind: skilllock.KindLocal, Name: fmt.Sprintf("skill-%03d", i), Digest: d})
	}
	lock, err := skilllock.New(entries)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts *skills.RegistryOptions
	}{{"no-lock", nil}, {"locked", &skills.RegistryOptions{Lock: lock}}} {
		b.Run(tc.name, func(b *testing.B) {
			disk, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{root}, HomeDir: b.TempDir(), Presets: []agentskills.Preset{}})
			if err != nil {
				b.Fatal(err)
			}
			defer disk.Close()
			reg, err := skills.NewRegistry(tc.opts)
			if err != nil {
				b.Fatal(err)
			}
			reg.AddProvider("global", disk, nil)
			q := skills.Query{SessionID: "s", Chain: []string{"global"}}
			b.ReportAllocs()
			for b.Loop() {
				disk.Invalidate() // a change: the next snapshot is computed afresh
				snap, err := reg.Snapshot(b.Context(), q)
				if err != nil || len(snap.Skills) != n {
					b.Fatalf("%d skills, %v", len(snap.Skills), err)
				}
			}
		})
	}
}
