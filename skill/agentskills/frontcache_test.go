package agentskills

import (
	"github.com/skillcatalog/skillcatalog/internal/fileid"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// cachingProvider returns a provider over root whose parse cache accepts
// files however recently they changed (its clock runs an hour ahead), so
// that the files a test has just written are cached at once. The tests
// that use it make sure each change they make alters the file's identity,
// which is what the racy window otherwise guarantees.
func cachingProvider(t *testing.T, root string, watch bool) *Provider {
	t.Helper()
	p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}, Watch: watch})
	p.files.now = func() time.Time { return time.Now().Add(time.Hour) }
	return p
}

// relist drops the provider's cached scans, as a watcher event would, and
// lists again.
func relist(t *testing.T, p *Provider) skills.Observation {
	t.Helper()
	p.Invalidate()
	return mustList(t, p, "")
}

func identityOf(t *testing.T, file string) (fileID, bool) {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return fileid.Of(fi)
}

// expectLookups checks the cache's hit and miss counts. Where the platform
// gives no file identity the cache is never consulted.
func expectLookups(t *testing.T, p *Provider, file string, hits, misses uint64) {
	t.Helper()
	if _, ok := identityOf(t, file); !ok {
		hits, misses = 0, 0
	}
	_, _, h, m := p.files.stats()
	if h != hits || m != misses {
		t.Errorf("cache lookups: %d hits, %d misses; want %d, %d", h, m, hits, misses)
	}
}

// waitForNewerTimestamps returns once files written from now on get
// modification and change times later than both of file's. Time stamps
// come from a coarse clock, so a rewrite right after a write may carry the
// very same time.
func waitForNewerTimestamps(t *testing.T, file string) {
	t.Helper()
	id, ok := identityOf(t, file)
	if !ok {
		return
	}
	probe := filepath.Join(t.TempDir(), "probe")
	for {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		pid, _ := identityOf(t, probe)
		if pid.MTime > max(id.MTime, id.CTime) && pid.CTime > max(id.MTime, id.CTime) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func writeFile(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func stat(t *testing.T, file string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

const (
	firstVersion  = "---\nname: alpha\ndescription: Does the first thing.\n---\nBody one.\n"
	secondVersion = "---\nname: alpha\ndescription: Does the other thing.\n---\nBody two.\n"
)

func TestParseCacheHitsOnUnchangedFiles(t *testing.T) {
	for _, watch := range []bool{false, true} {
		t.Run(map[bool]string{false: "scan", true: "watch"}[watch], func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "skills")
			mkdirAll(t, filepath.Join(root, "alpha"))
			file := filepath.Join(root, "alpha", skillFileName)
			writeFile(t, file, firstVersion)
			p := cachingProvider(t, root, watch)
			first := mustList(t, p, "")
			expectLookups(t, p, file, 0, 1)
			for i := range 3 {
				if diff := cmp.Diff(first, relist(t, p)); diff != "" {
					t.Fatalf("listing from the cache differs (-first +now):\n%s", diff)
				}
				expectLookups(t, p, file, uint64(i+1), 1)
			}
			if got := mustLoad(t, p, "", "alpha").Content; got != "Body one." {
				t.Errorf("content = %q", got)
			}
		})
	}
}

func TestParseCacheSeesSameSizeEdit(t *testing.T) {
	for _, watch := range []bool{false, true} {
		t.Run(map[bool]string{false: "scan", true: "watch"}[watch], func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "skills")
			mkdirAll(t, filepath.Join(root, "alpha"))
			file := filepath.Join(root, "alpha", skillFileName)
			writeFile(t, file, firstVersion)
			p := cachingProvider(t, root, watch)
			mustList(t, p, "")
			relist(t, p)
			expectLookups(t, p, file, 1, 1)

			before := stat(t, file)
			waitForNewerTimestamps(t, file)
			writeFile(t, file, secondVersion)
			after := stat(t, file)
			if before.Size() != after.Size() || !os.SameFile(before, after) {
				t.Fatalf("premise: an in-place edit of the same size; sizes %d, %d, same file %v",
					before.Size(), after.Size(), os.SameFile(before, after))
			}

			obs := relist(t, p)
			if got := summaryOf(t, obs, "alpha").Description; got != "Does the other thing." {
				t.Errorf("description after a same-size edit = %q", got)
			}
			expectLookups(t, p, file, 1, 2)
			if got := mustLoad(t, p, "", "alpha").Content; got != "Body two." {
				t.Errorf("content after the edit = %q", got)
			}
		})
	}
}

func TestParseCacheSeesReplacementByRename(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	dir := filepath.Join(root, "alpha")
	mkdirAll(t, dir)
	file := filepath.Join(dir, skillFileName)
	writeFile(t, file, firstVersion)
	p := cachingProvider(t, root, false)
	mustList(t, p, "")
	relist(t, p)
	expectLookups(t, p, file, 1, 1)

	// The replacement has the same size and modification time; only the
	// file itself (its inode) differs.
	before := stat(t, file)
	tmp := filepath.Join(dir, ".SKILL.md.new")
	writeFile(t, tmp, secondVersion)
	if err := os.Chtimes(tmp, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	rename(t, tmp, file)
	after := stat(t, file)
	if before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) || os.SameFile(before, after) {
		t.Fatalf("premise: another file of the same size and modification time")
	}

	obs := relist(t, p)
	if got := summaryOf(t, obs, "alpha").Description; got != "Does the other thing." {
		t.Errorf("description after replacement by rename = %q", got)
	}
	expectLookups(t, p, file, 1, 2)
}

func TestParseCacheSeesRestoredModificationTime(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	mkdirAll(t, filepath.Join(root, "alpha"))
	file := filepath.Join(root, "alpha", skillFileName)
	writeFile(t, file, firstVersion)
	p := cachingProvider(t, root, false)
	mustList(t, p, "")
	relist(t, p)

	// Same file, same size, modification time put back: only the change
	// time tells.
	before := stat(t, file)
	waitForNewerTimestamps(t, file)
	writeFile(t, file, secondVersion)
	if err := os.Chtimes(file, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	after := stat(t, file)
	if before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) || !os.SameFile(before, after) {
		t.Fatalf("premise: the same file with its size and modification time unchanged")
	}

	obs := relist(t, p)
	if got := summaryOf(t, obs, "alpha").Description; got != "Does the other thing." {
		t.Errorf("description after an edit that restored the modification time = %q", got)
	}
}

func TestParseCacheKeepsDiagnostics(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	files := map[string]string{
		"colon":     "---\nname: colon\ndescription: Use when: things happen\n---\n",
		"misnamed":  "---\nname: other-name\ndescription: Named unlike its directory.\n---\n",
		"repeated":  "---\nname: repeated\nname: repeated\ndescription: Twice named.\nmetadata: [x]\n---\n",
		"bad-yaml":  "---\nname: bad-yaml\ndescription: [unclosed\n---\n",
		"unclosed":  "---\nname: unclosed\ndescription: No end.\n",
		"no-front":  "Just Markdown.\n",
		"bad-name":  "---\nname: Bad_Name\ndescription: Not kebab-case.\n---\n",
		"not-a-map": "---\n- a list\n---\n",
	}
	for name, content := range files {
		mkdirAll(t, filepath.Join(root, name))
		writeFile(t, filepath.Join(root, name, skillFileName), content)
	}
	p := cachingProvider(t, root, false)
	firstObs := mustList(t, p, "")
	firstDiags := p.Diagnostics()
	expectLookups(t, p, filepath.Join(root, "colon", skillFileName), 0, uint64(len(files)))

	for _, want := range []struct {
		suffix, substr string
		sev            Severity
	}{
		{"colon/SKILL.md", "not valid YAML; read the unquoted value", SeverityWarning},
		{"misnamed/SKILL.md", "does not match directory name", SeverityWarning},
		{"repeated/SKILL.md", "appears more than once", SeverityWarning},
		{"repeated/SKILL.md", `field "metadata" is not a mapping`, SeverityWarning},
		{"bad-yaml/SKILL.md", "not valid YAML", SeverityError},
		{"unclosed/SKILL.md", "not closed", SeverityError},
		{"no-front/SKILL.md", "no frontmatter", SeverityError},
		{"bad-name/SKILL.md", "not kebab-case", SeverityError},
		{"not-a-map/SKILL.md", "not a YAML mapping", SeverityError},
	} {
		requireDiag(t, firstDiags, want.suffix, want.substr, want.sev)
	}

	for range 2 {
		obs := relist(t, p)
		if diff := cmp.Diff(firstObs, obs); diff != "" {
			t.Errorf("listing from the cache differs (-first +cached):\n%s", diff)
		}
		if diff := cmp.Diff(firstDiags, p.Diagnostics()); diff != "" {
			t.Errorf("diagnostics from the cache differ (-first +cached):\n%s", diff)
		}
	}
	expectLookups(t, p, filepath.Join(root, "colon", skillFileName), 2*uint64(len(files)), uint64(len(files)))
}

func TestParseCacheBound(t *testing.T) {
	readStart := time.Unix(1_000_000, 0)
	old := readStart.Add(-time.Hour).UnixNano()
	id := func(ino uint64) fileID { return fileID{Dev: 1, Ino: ino, Size: 10, MTime: old, CTime: old} }
	res := &parsed{fm: Frontmatter{Name: "x"}}

	t.Run("entries", func(t *testing.T) {
		c := newFrontCache(3, 1<<20)
		for i, path := range []string{"a", "b", "c"} {
			c.put(path, id(uint64(i)), res, 0, readStart)
		}
		if c.get("a", id(0)) == nil { // a becomes the most recently used
			t.Fatal("a not cached")
		}
		c.put("d", id(3), res, 0, readStart)
		if n, _, _, _ := c.stats(); n != 3 {
			t.Errorf("%d entries, want 3", n)
		}
		if c.get("b", id(1)) != nil {
			t.Error("b, the least recently used, was not evicted")
		}
		for i, path := range []string{"a", "c", "d"} {
			if c.get(path, id(uint64([]int{0, 2, 3}[i]))) == nil {
				t.Errorf("%s evicted", path)
			}
		}
	})

	t.Run("bytes", func(t *testing.T) {
		const cost = 100
		c := newFrontCache(100, 3*(cost+frontCacheEntryOverhead))
		for i, path := range []string{"a", "b", "c", "d"} {
			c.put(path, id(uint64(i)), res, cost, readStart)
		}
		n, b, _, _ := c.stats()
		if n != 3 || b != 3*(cost+frontCacheEntryOverhead) {
			t.Errorf("%d entries of %d bytes; want 3 of %d", n, b, 3*(cost+frontCacheEntryOverhead))
		}
		if c.get("a", id(0)) != nil {
			t.Error("a, the least recently used, was not evicted")
		}
		// Too large to cache at all; the old entry for the path goes.
		c.put("d", id(9), res, 4*cost+3*frontCacheEntryOverhead, readStart)
		if c.get("d", id(9)) != nil || c.get("d", id(3)) != nil {
			t.Error("an entry larger than the byte bound was cached, or a stale one kept")
		}
		if n, b, _, _ := c.stats(); n != 2 || b != 2*(cost+frontCacheEntryOverhead) {
			t.Errorf("%d entries of %d bytes; want 2 of %d", n, b, 2*(cost+frontCacheEntryOverhead))
		}
	})

	t.Run("identity", func(t *testing.T) {
		c := newFrontCache(3, 1<<20)
		c.put("a", id(1), res, 0, readStart)
		for name, other := range map[string]fileID{
			"device": {Dev: 2, Ino: 1, Size: 10, MTime: old, CTime: old},
			"inode":  {Dev: 1, Ino: 2, Size: 10, MTime: old, CTime: old},
			"size":   {Dev: 1, Ino: 1, Size: 11, MTime: old, CTime: old},
			"mtime":  {Dev: 1, Ino: 1, Size: 10, MTime: old + 1, CTime: old},
			"ctime":  {Dev: 1, Ino: 1, Size: 10, MTime: old, CTime: old + 1},
		} {
			c.put("a", id(1), res, 0, readStart)
			if c.get("a", other) != nil {
				t.Errorf("hit for a file with another %s", name)
			}
			if n, _, _, _ := c.stats(); n != 0 {
				t.Errorf("after a miss on another %s: %d entries, want the stale one dropped", name, n)
			}
		}
	})

	t.Run("racy", func(t *testing.T) {
		c := newFrontCache(3, 1<<20)
		recent := readStart.Add(-racyWindow).UnixNano()
		c.put("m", fileID{MTime: recent, CTime: old}, res, 0, readStart)
		c.put("c", fileID{MTime: old, CTime: recent}, res, 0, readStart)
		c.put("f", fileID{MTime: readStart.Add(time.Hour).UnixNano(), CTime: old}, res, 0, readStart)
		if n, _, _, _ := c.stats(); n != 0 {
			t.Errorf("%d entries cached for files changed within the racy window or in the future", n)
		}
		c.put("ok", fileID{MTime: recent - 1, CTime: recent - 1}, res, 0, readStart)
		if n, _, _, _ := c.stats(); n != 1 {
			t.Errorf("a file older than the racy window was not cached")
		}
	})

	t.Run("provider", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "skills")
		var want []string
		for _, name := range []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"} {
			writeSkill(t, filepath.Join(root, name), name, "Skill "+name+".", "")
			want = append(want, name)
		}
		p := cachingProvider(t, root, false)
		p.files = newFrontCache(4, frontCacheMaxBytes)
		p.files.now = func() time.Time { return time.Now().Add(time.Hour) }
		for range 3 {
			obs := mustList(t, p, "")
			if diff := cmp.Diff(want, names(obs)); diff != "" || !obs.Complete {
				t.Errorf("listing through a full cache: complete=%v (-want +got):\n%s", obs.Complete, diff)
			}
			if n, _, _, _ := p.files.stats(); n > 4 {
				t.Errorf("%d entries in a cache bounded at 4", n)
			}
		}
	})
}

func TestParseCacheWaitsOutTheRacyWindow(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	mkdirAll(t, filepath.Join(root, "alpha"))
	file := filepath.Join(root, "alpha", skillFileName)
	writeFile(t, file, firstVersion)
	id, ok := identityOf(t, file)
	p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}})

	// Read just after the last change: not cached, so each List reads it.
	p.files.now = func() time.Time { return time.Unix(0, max(id.MTime, id.CTime)).Add(time.Millisecond) }
	mustList(t, p, "")
	mustList(t, p, "")
	if n, _, _, _ := p.files.stats(); n != 0 {
		t.Errorf("%d entries cached for a file changed within the racy window", n)
	}
	expectLookups(t, p, file, 0, 2)

	// Later it is.
	p.files.now = func() time.Time { return time.Unix(0, max(id.MTime, id.CTime)).Add(racyWindow + time.Millisecond) }
	mustList(t, p, "")
	mustList(t, p, "")
	if n, _, _, _ := p.files.stats(); ok && n != 1 {
		t.Errorf("%d entries cached for a file older than the racy window, want 1", n)
	}
	expectLookups(t, p, file, 1, 3)
}
