//go:build unix

package skillserver

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skillcatalog/skillcatalog/internal/skillsext"
	"github.com/skillcatalog/skillcatalog/skill"
)

// readCountingFS counts the directory reads made through it, by path.
type readCountingFS struct {
	fs.FS
	mu    sync.Mutex
	reads map[string]int
}

func (c *readCountingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

func (c *readCountingFS) Stat(name string) (fs.FileInfo, error)  { return fs.Stat(c.FS, name) }
func (c *readCountingFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(c.FS, name) }
func (c *readCountingFS) ReadLink(name string) (string, error)   { return fs.ReadLink(c.FS, name) }

// rootReads returns how often the skills directory itself was read (every
// scan reads it first) and resets the counts.
func (c *readCountingFS) rootReads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.reads["."]
	c.reads = map[string]int{}
	return n
}

// TestGetPastTheWatchBoundDoesNotRescan: on a watched server of more
// directories than Watch follows, skills/get and resources/directory/read
// answer without scanning the whole tree again (the skills directory is
// not read), yet agree with the files on disk: an edit, a new skill and a
// removed skill in directories the watcher does not follow (skill-00410 on)
// are served at once, each at the cost of one scan.
func TestGetPastTheWatchBoundDoesNotRescan(t *testing.T) {
	root := t.TempDir()
	writeManyDirs(t, root, 420, 9, 0) // 4,202 directories
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := NewDir(root)
	counter := &readCountingFS{FS: s.fsys, reads: map[string]int{}}
	s.fsys = counter
	if err := s.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	if s.watching.Load() {
		t.Fatal("every directory is watched: the test needs more than maxWatchedDirs")
	}
	counter.rootReads()

	get := func(uri string) (string, bool) {
		t.Helper()
		res, err := s.getSkill(ctx, nil, &skillsext.GetParams{URI: uri})
		if err != nil {
			return err.Error(), false
		}
		return string(res.Skill.Frontmatter), true
	}
	for range 10 {
		if fm, ok := get("skill://skill-00007/SKILL.md"); !ok || !strings.Contains(fm, "Skill skill-00007, one of many.") {
			t.Fatalf("get skill-00007: %s", fm)
		}
		if msg, ok := get("skill://skill-99999/SKILL.md"); ok || !strings.Contains(msg, "No skill is served at skill://skill-99999/SKILL.md") {
			t.Fatalf("get of a skill that is not there: %s", msg)
		}
		for _, dir := range []string{"skill://skill-00007", "skill://skill-00007/d03"} {
			if res, err := s.readDirectory(ctx, nil, &skillsext.DirectoryReadParams{URI: dir}); err != nil || len(res.Resources) == 0 {
				t.Fatalf("read directory %s: %v", dir, err)
			}
		}
	}
	if n := counter.rootReads(); n != 0 {
		t.Errorf("40 gets and directory reads read the skills directory %d times: they scanned the whole tree", n)
	}

	// Changes the watcher may not see are served at the next get, each at
	// the cost of one scan; the gets after it scan nothing.
	last := filepath.Join(root, "skill-00419", "SKILL.md")
	if err := os.WriteFile(last, []byte("---\nname: skill-00419\ndescription: Edited.\n---\nDo it now.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if fm, ok := get("skill://skill-00419/SKILL.md"); !ok || !strings.Contains(fm, "Edited.") {
			t.Fatalf("get after an edit: %s", fm)
		}
	}
	inner := filepath.Join(root, "skill-00419", "d00", "inner")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inner, "SKILL.md"), []byte("---\nname: inner\ndescription: New and nested.\n---\nDo it.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if fm, ok := get("skill://skill-00419/d00/inner/SKILL.md"); !ok || !strings.Contains(fm, "New and nested.") {
			t.Fatalf("get of a new skill: %s", fm)
		}
	}
	if err := os.Remove(filepath.Join(root, "skill-00418", "SKILL.md")); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if msg, ok := get("skill://skill-00418/SKILL.md"); ok || !strings.Contains(msg, "No skill is served") {
			t.Fatalf("get of a removed skill: %s", msg)
		}
	}
	if n := counter.rootReads(); n != 3 {
		t.Errorf("three changes, nine gets: the skills directory was read %d times, want 3 (one scan per change)", n)
	}
}

// TestLookupJudgesAsAScanDoes: for every kind of directory a scan serves
// or leaves out, looking a skill up alone says what the scan said, so a
// get never scans the tree again for a skill that did not change.
func TestLookupJudgesAsAScanDoes(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	skillAt := func(dir, name string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: Skill "+name+".\n---\nBody.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	skillAt(filepath.Join(root, "plain"), "plain")
	skillAt(filepath.Join(root, "acme", "billing", "refunds"), "refunds")
	skillAt(filepath.Join(root, "plain", "inner"), "inner") // a skill inside a skill
	skillAt(filepath.Join(elsewhere, "linked"), "linked")
	skillAt(filepath.Join(elsewhere, "deep"), "deep")
	skillAt(filepath.Join(root, ".hidden", "secret"), "secret")
	skillAt(filepath.Join(root, "Bad_Name"), "Bad_Name")
	skillAt(filepath.Join(root, "mismatch"), "other-name")
	if err := os.Symlink(filepath.Join(elsewhere, "linked"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "acme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, "deep"), filepath.Join(root, "acme", "deep")); err != nil {
		t.Fatal(err)
	}
	var deep []string
	for range skill.MaxQualifiedSegments {
		deep = append(deep, "d")
	}
	skillAt(filepath.Join(root, filepath.Join(deep...), "toodeep"), "toodeep")
	skillAt(filepath.Join(root, filepath.Join(deep[1:]...), "deepest"), "deepest")

	s := NewDir(root)
	c := s.cat.Load()
	served := map[string]bool{}
	for _, sk := range c.skills {
		served[sk.path] = true
	}
	want := map[string]bool{"plain": true, "acme/billing/refunds": true, "plain/inner": true, "linked": true,
		strings.Join(append(deep[1:], "deepest"), "/"): true}
	if !maps.Equal(served, want) {
		t.Fatalf("the scan serves %v, want %v", slices.Sorted(maps.Keys(served)), slices.Sorted(maps.Keys(want)))
	}
	paths := []string{"plain", "acme/billing/refunds", "plain/inner", "linked", "acme/deep", ".hidden/secret", "Bad_Name",
		"mismatch", "missing", "acme", "acme/billing", strings.Join(append(deep, "toodeep"), "/"), strings.Join(append(deep[1:], "deepest"), "/")}
	for _, p := range paths {
		if got := s.lookup(c, p) != nil; got != served[p] {
			t.Errorf("lookup(%q) serves %v, the scan %v", p, got, served[p])
		}
		if !s.agrees(c, p) {
			t.Errorf("lookup(%q) disagrees with the scan", p)
		}
	}
}

// writeFolderHeavySkill writes the skill "heavy" below root with a
// node_modules of dirs directories (empty, as a package tree left behind
// may hold little but folders) and the skill "light" beside it.
func writeFolderHeavySkill(tb testing.TB, root string, dirs int) {
	tb.Helper()
	for _, name := range []string{"heavy", "light"} {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			tb.Fatal(err)
		}
		md := "---\nname: " + name + "\ndescription: Skill " + name + ".\n---\nDo it.\n"
		if err := os.WriteFile(filepath.Join(root, name, "SKILL.md"), []byte(md), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range dirs {
		if err := os.MkdirAll(filepath.Join(root, "heavy", "node_modules", fmt.Sprintf("p%05d", i)), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
}

// openCountingFS counts the opens and directory reads made through it.
type openCountingFS struct {
	fs.FS
	n atomic.Int64
}

func (c *openCountingFS) Open(name string) (fs.File, error) { c.n.Add(1); return c.FS.Open(name) }
func (c *openCountingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.n.Add(1)
	return fs.ReadDir(c.FS, name)
}
func (c *openCountingFS) Stat(name string) (fs.FileInfo, error)  { return fs.Stat(c.FS, name) }
func (c *openCountingFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(c.FS, name) }

// TestASkillOfTooManyFoldersIsNotWalked: a skill whose folder holds more
// folders, or more files and folders, than a skill of the extension's 512
// files needs (a node_modules left inside) is not served, with a
// diagnostic saying why, and a skills/get of it opens and reads about as
// many of its directories as the bound, where it read every one of them
// at every get.
func TestASkillOfTooManyFoldersIsNotWalked(t *testing.T) {
	for _, tt := range []struct {
		dirs int
		why  string
	}{
		{maxSkillFolders + 100, fmt.Sprintf("more than %d folders", maxSkillFolders)},
		{3 * maxSkillEntries, fmt.Sprintf("more than %d files and folders", maxSkillEntries)},
	} {
		root := t.TempDir()
		writeFolderHeavySkill(t, root, tt.dirs)
		counter := &openCountingFS{FS: os.DirFS(root)}
		s := New(counter)
		want := "skill heavy is not served: it has " + tt.why
		if d := s.Diagnostics(); !slices.ContainsFunc(d, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("%d folders: diagnostics %q, want one starting %q", tt.dirs, d, want)
		}
		ctx := context.Background()
		if _, err := s.getSkill(ctx, nil, &skillsext.GetParams{URI: "skill://light/SKILL.md"}); err != nil {
			t.Fatalf("get light: %v", err)
		}
		counter.n.Store(0)
		const gets = 5
		for range gets {
			if _, err := s.getSkill(ctx, nil, &skillsext.GetParams{URI: "skill://heavy/SKILL.md"}); err == nil || !strings.Contains(err.Error(), "No skill is served at skill://heavy/SKILL.md") {
				t.Errorf("%d folders: get heavy: %v, want no skill served", tt.dirs, err)
			}
		}
		if n, limit := counter.n.Load(), int64(gets*(maxSkillFolders+8)); n > limit {
			t.Errorf("%d gets of a skill of %d folders opened or read %d directories and files, want at most %d", gets, tt.dirs, n, limit)
		}
	}
}

// BenchmarkGetSkillOfManyFolders is skills/get of a skill whose folder
// holds 30,000 directories, on a watched server that cannot watch them all
// (more than maxWatchedDirs), so each get judges the skill alone.
func BenchmarkGetSkillOfManyFolders(b *testing.B) {
	root := b.TempDir()
	writeFolderHeavySkill(b, root, 30000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := NewDir(root)
	if err := s.Watch(ctx); err != nil {
		b.Fatal(err)
	}
	if s.watching.Load() {
		b.Fatal("every directory is watched: the benchmark needs more than maxWatchedDirs")
	}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = s.getSkill(ctx, nil, &skillsext.GetParams{URI: "skill://heavy/SKILL.md"})
	}
}
