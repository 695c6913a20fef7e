package skillserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
)

// writeBenchSkills writes skills skills of files files each (SKILL.md and
// files-1 files of about 1 KiB) below root.
func writeBenchSkills(tb testing.TB, root string, skills, files int) {
	tb.Helper()
	body := strings.Repeat("Step by step, with care.\n", 40)
	for i := range skills {
		name := fmt.Sprintf("skill-%04d", i)
		dir := filepath.Join(root, name, "references")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		skillMD := fmt.Sprintf("---\nname: %s\ndescription: Benchmark skill number %d, which does one thing well.\nlicense: Apache-2.0\n---\n%s", name, i, body)
		if err := os.WriteFile(filepath.Join(root, name, "SKILL.md"), []byte(skillMD), 0o644); err != nil {
			tb.Fatal(err)
		}
		for j := 1; j < files; j++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%02d.md", j)), []byte(fmt.Sprintf("# Part %d\n%s", j, body)), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// BenchmarkListSkills is the server's side of a full skills/list of 1,000
// skills of 10 files each: every page built and encoded as JSON, as the
// transport then writes it. "watched" answers from the last scan, as
// serve-mcp -skills does; "unwatched" scans the directory for the first
// page (a stat per file and a read of every directory; hashes come from
// the identity cache). catalog-MiB is
// the heap the server holds after building its catalog (entries, hashes,
// resource list), measured after a garbage collection.
func BenchmarkListSkills(b *testing.B) {
	root := b.TempDir()
	writeBenchSkills(b, root, 1000, 10)
	catalogMiB := catalogHeap(root)
	for _, watched := range []bool{true, false} {
		name := map[bool]string{true: "watched", false: "unwatched"}[watched]
		b.Run(name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := NewDir(root)
			// The files were written more than racyWindow ago (a minute,
			// by this clock): the steady state, where hashes are cached.
			s.now = func() time.Time { return time.Now().Add(time.Minute) }
			s.Sync()
			if watched {
				if err := s.Watch(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				listed, cursor := 0, ""
				for {
					res, err := s.listSkills(ctx, nil, &skillsext.ListParams{Cursor: cursor})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := json.Marshal(res); err != nil {
						b.Fatal(err)
					}
					listed += len(res.Skills)
					if cursor = res.NextCursor; cursor == "" {
						break
					}
				}
				if listed != 1000 {
					b.Fatalf("listed %d skills", listed)
				}
			}
			b.ReportMetric(catalogMiB, "catalog-MiB")
		})
	}
}

// catalogHeap returns the heap, in MiB, that a server of the skills in
// root holds once built (its catalog, the hashes it caches, its MCP
// resource list), measured between two garbage collections.
func catalogHeap(root string) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := NewDir(root)
	s.now = func() time.Time { return time.Now().Add(time.Minute) }
	s.Sync() // the files have aged: every hash is cached
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	return float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
}

// writeManyDirs writes skills skills below root, each a directory with
// subdirs subdirectories of one small file, and one more skill, "wide",
// whose refs directory holds wide files and wide empty directories:
// skills*(subdirs+1)+wide+2 directories in all.
func writeManyDirs(tb testing.TB, root string, skills, subdirs, wide int) {
	tb.Helper()
	write := func(p, text string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	skillMD := func(name string) string {
		return "---\nname: " + name + "\ndescription: Skill " + name + ", one of many.\n---\nDo it.\n"
	}
	for i := range skills {
		name := fmt.Sprintf("skill-%05d", i)
		write(filepath.Join(root, name, "SKILL.md"), skillMD(name))
		for j := range subdirs {
			write(filepath.Join(root, name, fmt.Sprintf("d%02d", j), "note.md"), "A note.\n")
		}
	}
	write(filepath.Join(root, "wide", "SKILL.md"), skillMD("wide"))
	for j := range wide {
		write(filepath.Join(root, "wide", "refs", fmt.Sprintf("ref-%04d.md", j)), "A reference.\n")
		if err := os.Mkdir(filepath.Join(root, "wide", "refs", fmt.Sprintf("sub-%04d", j)), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkManyDirectories is skills/get and one 500-entry page of
// resources/directory/read on a watched server of 30,302 directories, more
// than Watch follows (maxWatchedDirs), so changes elsewhere go unnoticed:
// each answer must agree with the files on disk without scanning the whole
// tree again.
func BenchmarkManyDirectories(b *testing.B) {
	root := b.TempDir()
	writeManyDirs(b, root, 3000, 9, 300)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := NewDir(root)
	s.now = func() time.Time { return time.Now().Add(time.Minute) } // every hash cached
	s.Sync()
	if err := s.Watch(ctx); err != nil {
		b.Fatal(err)
	}
	if s.watching.Load() {
		b.Fatal("every directory is watched: the benchmark needs more than maxWatchedDirs")
	}
	b.Run("get", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := s.getSkill(ctx, nil, &skillsext.GetParams{URI: "skill://skill-01234/SKILL.md"})
			if err != nil || res.Skill.URI != "skill://skill-01234/SKILL.md" {
				b.Fatalf("get: %v", err)
			}
		}
	})
	b.Run("directory-page", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := s.readDirectory(ctx, nil, &skillsext.DirectoryReadParams{URI: "skill://wide/refs"})
			if err != nil {
				b.Fatalf("directory page: %v", err)
			}
			if len(res.Resources) != directoryPageSize || res.NextCursor == "" {
				b.Fatalf("directory page: %d resources, cursor %q", len(res.Resources), res.NextCursor)
			}
		}
	})
}
