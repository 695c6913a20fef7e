package agentskills

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// projectTree is a copy of testdata/agentskills/project with the .git
// markers git cannot keep: repo/.git is a directory, and the nested
// repository's .git is a file, as in a submodule or worktree.
type projectTree struct {
	base, home, repo, app, appSrc, nested, nestedSrc string
}

func setupProject(t testing.TB) projectTree {
	t.Helper()
	base := t.TempDir()
	copyTree(t, filepath.Join(testdataDir, "project"), base)
	pt := projectTree{
		base:      base,
		home:      filepath.Join(base, "home"),
		repo:      filepath.Join(base, "repo"),
		app:       filepath.Join(base, "repo", "packages", "app"),
		appSrc:    filepath.Join(base, "repo", "packages", "app", "src"),
		nested:    filepath.Join(base, "repo", "packages", "nested"),
		nestedSrc: filepath.Join(base, "repo", "packages", "nested", "src"),
	}
	mkdirAll(t, filepath.Join(pt.repo, ".git"))
	if err := os.WriteFile(filepath.Join(pt.nested, ".git"), []byte("gitdir: ../../.git/modules/nested\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return pt
}

// trustRecorder trusts the listed project roots and records every question.
type trustRecorder struct {
	mu      sync.Mutex
	trusted map[string]bool
	asked   []string
}

func (r *trustRecorder) trust(root string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, root)
	return r.trusted[root]
}

func (r *trustRecorder) set(root string, v bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trusted[root] = v
}

func (r *trustRecorder) questions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Compact(slices.Clone(r.asked))
}

func skillsByName(t testing.TB, p *Provider, cwd string) map[string]Skill {
	t.Helper()
	list, complete, err := p.Skills(context.Background(), cwd)
	if err != nil || !complete {
		t.Fatalf("Skills(%q): complete=%v err=%v\n%s", cwd, complete, err, diagText(p.Diagnostics(), ""))
	}
	out := make(map[string]Skill, len(list))
	for _, s := range list {
		out[s.Name] = s
	}
	return out
}

func TestProjectPrecedence(t *testing.T) {
	for _, watch := range []bool{false, true} {
		t.Run(map[bool]string{false: "scan", true: "watch"}[watch], func(t *testing.T) {
			pt := setupProject(t)
			tr := &trustRecorder{trusted: map[string]bool{pt.repo: true}}
			p := mustNew(t, Options{HomeDir: pt.home, ClientDirs: []string{".claude"}, TrustProject: tr.trust, Watch: watch})

			got := skillsByName(t, p, pt.appSrc)
			type want struct {
				dir   string
				scope Scope
			}
			wants := map[string]want{
				"app-claude":  {"repo/packages/app/.claude/skills/app-claude", ScopeProject},
				"claude-user": {"home/.claude/skills/claude-user", ScopeUser},
				"repo-level":  {"repo/.agents/skills/repo-level", ScopeProject},
				"shared":      {"repo/packages/app/.agents/skills/shared", ScopeProject},
				"user-only":   {"home/.agents/skills/user-only", ScopeUser},
			}
			if len(got) != len(wants) {
				t.Errorf("got %d skills, want %d: %v", len(got), len(wants), slices.Sorted(func(yield func(string) bool) {
					for k := range got {
						if !yield(k) {
							return
						}
					}
				}))
			}
			for name, w := range wants {
				s, ok := got[name]
				if !ok {
					t.Errorf("missing %s", name)
					continue
				}
				if s.Dir != filepath.Join(pt.base, w.dir) || s.Scope != w.scope {
					t.Errorf("%s: dir %s scope %s, want %s %s", name, s.Dir, s.Scope, w.dir, w.scope)
				}
			}
			if d := got["shared"].Description; d != "Package version of shared (nearest)." {
				t.Errorf("shared description = %q", d)
			}
			if diff := cmp.Diff([]string{pt.repo}, tr.questions()); diff != "" {
				t.Errorf("trust questions (-want +got):\n%s", diff)
			}

			ds := p.Diagnostics()
			requireDiag(t, ds, "repo/.agents/skills/shared/SKILL.md", "shadowed by the project skill of the same name at "+filepath.Join(pt.app, ".agents", "skills", "shared"), SeverityWarning)
			requireDiag(t, ds, "home/.agents/skills/shared/SKILL.md", "shadowed by the project skill", SeverityWarning)
			requireDiag(t, ds, "repo/.claude/skills/repo-level/SKILL.md", "shadowed by the project skill of the same name at "+filepath.Join(pt.repo, ".agents", "skills", "repo-level"), SeverityWarning)
			requireDiag(t, ds, "home/.claude/skills/user-only/SKILL.md", "shadowed by the user skill", SeverityWarning)

			def := mustLoad(t, p, pt.appSrc, "shared")
			if def.Content != "Body of repo/packages/app/.agents/skills/shared." {
				t.Errorf("loaded the wrong shared: %q", def.Content)
			}
		})
	}
}

func TestUntrustedProject(t *testing.T) {
	pt := setupProject(t)
	tr := &trustRecorder{trusted: map[string]bool{}}
	for name, trust := range map[string]func(string) bool{"nil": nil, "refusing": tr.trust} {
		t.Run(name, func(t *testing.T) {
			p := mustNew(t, Options{HomeDir: pt.home, ClientDirs: []string{".claude"}, TrustProject: trust})
			obs := mustList(t, p, pt.appSrc)
			if !obs.Complete {
				t.Error("an untrusted project must not make the observation incomplete")
			}
			if diff := cmp.Diff([]string{"claude-user", "shared", "user-only"}, names(obs)); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if d := summaryOf(t, obs, "shared").Description; d != "User-level version of shared." {
				t.Errorf("shared = %q, want the user-level one", d)
			}
			for _, name := range []string{"app-claude", "repo-level"} {
				if _, found, err := p.Load(context.Background(), skills.LoadRequest{Cwd: pt.appSrc, Name: name}); found || err != nil {
					t.Errorf("Load(%s) of an untrusted project skill: found=%v err=%v", name, found, err)
				}
			}
			if def := mustLoad(t, p, pt.appSrc, "shared"); def.Content != "Body of home/.agents/skills/shared." {
				t.Errorf("Load(shared) = %q, want the user-level body", def.Content)
			}
			ds := p.Diagnostics()
			for _, root := range []string{"repo/packages/app/.agents/skills", "repo/packages/app/.claude/skills", "repo/.agents/skills", "repo/.claude/skills"} {
				requireDiag(t, ds, root, "project "+pt.repo+" is not trusted", SeverityWarning)
			}
		})
	}
}

func TestNestedRepository(t *testing.T) {
	pt := setupProject(t)
	tr := &trustRecorder{trusted: map[string]bool{pt.repo: true, pt.nested: true}}
	p := mustNew(t, Options{HomeDir: pt.home, TrustProject: tr.trust})
	obs := mustList(t, p, pt.nestedSrc)
	// The nearest .git (a file here) ends the upward walk: the outer
	// repository's skills are not part of this project.
	if diff := cmp.Diff([]string{"nested-only", "shared", "user-only"}, names(obs)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if d := summaryOf(t, obs, "shared").Description; d != "User-level version of shared." {
		t.Errorf("shared = %q", d)
	}
	if diff := cmp.Diff([]string{pt.nested}, tr.questions()); diff != "" {
		t.Errorf("trust questions (-want +got):\n%s", diff)
	}
}

func TestMaxDepthBoundsTheUpwardWalk(t *testing.T) {
	pt := setupProject(t)
	tr := &trustRecorder{trusted: map[string]bool{pt.repo: true, pt.appSrc: true}}
	// From app/src the repository root is 4 levels up (src, app, packages,
	// repo); with MaxDepth 3 it is not found, so the project is src alone.
	p := mustNew(t, Options{HomeDir: pt.home, TrustProject: tr.trust, MaxDepth: 3})
	obs := mustList(t, p, pt.appSrc)
	if diff := cmp.Diff([]string{"shared", "user-only"}, names(obs)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{pt.appSrc}, tr.questions()); diff != "" {
		t.Errorf("trust questions (-want +got):\n%s", diff)
	}

	p4 := mustNew(t, Options{HomeDir: pt.home, TrustProject: tr.trust, MaxDepth: 4})
	if diff := cmp.Diff([]string{"repo-level", "shared", "user-only"}, names(mustList(t, p4, pt.appSrc))); diff != "" {
		t.Errorf("MaxDepth 4 names (-want +got):\n%s", diff)
	}
}

func TestNoRepositoryMeansWorkingDirectoryOnly(t *testing.T) {
	pt := setupProject(t)
	if err := os.Remove(filepath.Join(pt.repo, ".git")); err != nil {
		t.Fatal(err)
	}
	tr := &trustRecorder{trusted: map[string]bool{pt.app: true}}
	p := mustNew(t, Options{HomeDir: pt.home, TrustProject: tr.trust})
	if diff := cmp.Diff([]string{"shared", "user-only"}, names(mustList(t, p, pt.app))); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if d := summaryOf(t, mustList(t, p, pt.app), "shared").Description; d != "Package version of shared (nearest)." {
		t.Errorf("shared = %q", d)
	}
	if diff := cmp.Diff([]string{pt.app}, tr.questions()); diff != "" {
		t.Errorf("trust questions (-want +got):\n%s", diff)
	}
}

func TestWorkingDirectoryIsHome(t *testing.T) {
	pt := setupProject(t)
	p := mustNew(t, Options{HomeDir: pt.home})
	obs := mustList(t, p, pt.home)
	if diff := cmp.Diff([]string{"shared", "user-only"}, names(obs)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if ds := diagsMatching(p.Diagnostics(), "", "not trusted"); len(ds) != 0 {
		t.Errorf("the home directory's roots are user roots, not an untrusted project: %v", ds)
	}
}

func TestSymlinkedClientDirectory(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	writeSkill(t, filepath.Join(home, ".agents", "skills", "one"), "one", "One.", "")
	mkdirAll(t, filepath.Join(home, ".claude"))
	symlink(t, filepath.Join(home, ".agents", "skills"), filepath.Join(home, ".claude", "skills"))
	p := mustNew(t, Options{HomeDir: home, ClientDirs: []string{".claude"}, ExtraRoots: []string{filepath.Join(home, ".agents", "skills")}})
	obs := mustList(t, p, "")
	if diff := cmp.Diff([]string{"one"}, names(obs)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if ds := p.Diagnostics(); len(ds) != 0 {
		t.Errorf("one directory reached through several roots is not a problem:\n%s", diagText(ds, base))
	}
}

func TestTrustChangeNeedsInvalidate(t *testing.T) {
	pt := setupProject(t)
	tr := &trustRecorder{trusted: map[string]bool{}}
	p := mustNew(t, Options{HomeDir: pt.home, TrustProject: tr.trust, Watch: true})
	var calls int
	var mu sync.Mutex
	p.SetInvalidate(func() { mu.Lock(); calls++; mu.Unlock() })
	if slices.Contains(names(mustList(t, p, pt.appSrc)), "repo-level") {
		t.Fatal("untrusted project listed")
	}
	tr.set(pt.repo, true)
	p.Invalidate()
	mu.Lock()
	if calls != 1 {
		t.Errorf("Invalidate called the callback %d times, want 1", calls)
	}
	mu.Unlock()
	if !slices.Contains(names(mustList(t, p, pt.appSrc)), "repo-level") {
		t.Error("trusted project not listed after Invalidate")
	}
}

func TestScanModeInvalidatesAfterEveryList(t *testing.T) {
	pt := setupProject(t)
	p := mustNew(t, Options{HomeDir: pt.home})
	var calls int
	var mu sync.Mutex
	p.SetInvalidate(func() { mu.Lock(); calls++; mu.Unlock() })
	mustList(t, p, "")
	mustList(t, p, "")
	mustLoad(t, p, "", "shared")
	mu.Lock()
	defer mu.Unlock()
	if calls != 2 {
		t.Errorf("callback called %d times after two Lists, want 2", calls)
	}
}

func TestBodyIsReadAtLoad(t *testing.T) {
	for _, watch := range []bool{false, true} {
		t.Run(map[bool]string{false: "scan", true: "watch"}[watch], func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "skills")
			dir := filepath.Join(root, "edit-me")
			writeSkill(t, dir, "edit-me", "Stays the same.", "First body.")
			p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}, Watch: watch})
			r := newRecorder(p)
			before := mustList(t, p, "")
			if got := mustLoad(t, p, "", "edit-me").Content; got != "First body." {
				t.Fatalf("content = %q", got)
			}
			writeSkill(t, dir, "edit-me", "Stays the same.", "Second body.")
			if got := mustLoad(t, p, "", "edit-me").Content; got != "Second body." {
				t.Errorf("content after a body edit = %q, want the new body", got)
			}
			// The listing carries the body's start for the skill search
			// (SearchText), and nothing else of it.
			after := waitFor(t, p, r, "", func(o skills.Observation) bool {
				return len(o.Skills) == 1 && o.Skills[0].SearchText == "Second body."
			})
			if len(before.Skills) != 1 || len(after.Skills) != 1 {
				t.Fatalf("listings hold %d and %d skills, want 1", len(before.Skills), len(after.Skills))
			}
			if before.Skills[0].SearchText != "First body." || after.Skills[0].SearchText != "Second body." {
				t.Errorf("search texts %q then %q, want the body's start each time", before.Skills[0].SearchText, after.Skills[0].SearchText)
			}
			after.Skills[0].SearchText = before.Skills[0].SearchText
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("a body-only edit changed the listing beyond its search text (-before +after):\n%s", diff)
			}
		})
	}
}

func TestLoadOfChangedFile(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	dir := filepath.Join(root, "changing")
	writeSkill(t, dir, "changing", "D.", "Body.")
	p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}, Watch: true})
	mustList(t, p, "")
	// With the listing cached, the file turns into something that no longer
	// declares this skill: Load must not serve it.
	writeSkill(t, dir, "renamed", "D.", "Body.")
	if _, found, err := p.Load(context.Background(), skills.LoadRequest{Name: "changing"}); found || err != nil {
		t.Errorf("Load after a rename in the frontmatter: found=%v err=%v", found, err)
	}
	if err := os.Remove(filepath.Join(dir, skillFileName)); err != nil {
		t.Fatal(err)
	}
	if _, found, err := p.Load(context.Background(), skills.LoadRequest{Name: "changing"}); found || err != nil {
		t.Errorf("Load after removal: found=%v err=%v", found, err)
	}
}

// breakRead makes reading path fail. chmod 000 does not stop a privileged
// process, so when reading still works the directory is replaced by a
// regular file, which fails as a skill root too.
func breakRead(t *testing.T, dir string) (how string, restore func()) {
	t.Helper()
	if err := os.Chmod(dir, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadDir(dir); err != nil {
		return "chmod 000", func() {
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	aside := dir + ".aside"
	if err := os.Rename(dir, aside); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return "replaced by a file", func() {
		if err := os.Remove(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(aside, dir); err != nil {
			t.Fatal(err)
		}
	}
}

func TestUnreadableRoot(t *testing.T) {
	type breaker func(t *testing.T, root string) (string, func())
	cases := map[string]breaker{
		"unreadable": breakRead,
		"replaced by a file": func(t *testing.T, root string) (string, func()) {
			aside := root + ".aside"
			if err := os.Rename(root, aside); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(root, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			return "not a directory", func() {
				os.Remove(root)
				if err := os.Rename(aside, root); err != nil {
					t.Fatal(err)
				}
			}
		},
		"dangling symbolic link": func(t *testing.T, root string) (string, func()) {
			aside := root + ".aside"
			if err := os.Rename(root, aside); err != nil {
				t.Fatal(err)
			}
			symlink(t, root+".missing", root)
			return "target does not exist", func() {
				os.Remove(root)
				if err := os.Rename(aside, root); err != nil {
					t.Fatal(err)
				}
			}
		},
	}
	for name, brk := range cases {
		for _, watch := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/scan", true: "/watch"}[watch], func(t *testing.T) {
				root := filepath.Join(t.TempDir(), "skills")
				writeSkill(t, filepath.Join(root, "kept"), "kept", "Kept.", "Kept body.")
				p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}, Watch: watch})
				rec := newRecorder(p)
				if obs := mustList(t, p, ""); !obs.Complete || len(obs.Skills) != 1 {
					t.Fatalf("before: %+v", obs)
				}
				how, restore := brk(t, root)
				t.Logf("root made unreadable: %s", how)
				// With a watch, the change is announced; without one every
				// List scans anyway.
				if watch {
					rec.wait(t)
				}
				obs := mustList(t, p, "")
				if obs.Complete {
					t.Errorf("observation of an unreadable root is complete: %+v", obs)
				}
				requireDiag(t, p.Diagnostics(), "/skills", "", SeverityError)
				if _, found, err := p.Load(context.Background(), skills.LoadRequest{Name: "kept"}); found || err == nil {
					t.Errorf("Load from an unreadable root: found=%v err=%v; want an error", found, err)
				}
				restore()
				waitFor(t, p, rec, "", func(obs skills.Observation) bool { return obs.Complete && len(obs.Skills) == 1 })
			})
		}
	}
}

// TestUnreadableSkillFile: a SKILL.md that cannot be used for a reason that
// lasts until someone changes the file is a per-skill problem. The skill is
// skipped with an error diagnostic naming the file, and the listing stays
// complete, so the other skills keep being published. Repairing the file
// brings the skill back, also when the listing was served from the
// watcher's cache.
func TestUnreadableSkillFile(t *testing.T) {
	tests := []struct {
		name string
		// brk breaks the skill whose SKILL.md is file and returns a part
		// of the expected diagnostic and a function that repairs the skill.
		brk func(t *testing.T, file string) (want string, repair func())
	}{
		{"permission denied", func(t *testing.T, file string) (string, func()) {
			if err := os.Chmod(file, 0); err != nil {
				t.Fatal(err)
			}
			if _, err := os.ReadFile(file); err == nil {
				t.Skip("file permissions do not stop this process (running as root); the other variants cover a stable per-file error")
			}
			return "permission denied", func() {
				if err := os.Chmod(file, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"skill directory not searchable", func(t *testing.T, file string) (string, func()) {
			dir := filepath.Dir(file)
			if err := os.Chmod(dir, 0); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(file); err == nil {
				t.Skip("file permissions do not stop this process (running as root); the other variants cover a stable per-file error")
			}
			return "permission denied", func() {
				if err := os.Chmod(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"directory named SKILL.md", func(t *testing.T, file string) (string, func()) {
			replace(t, file, func() error { return os.Mkdir(file, 0o755) })
			return "not a regular file", rewriteSkill(t, file)
		}},
		{"FIFO named SKILL.md", func(t *testing.T, file string) (string, func()) {
			replace(t, file, func() error { return mkfifo(t, file) })
			return "not a regular file", rewriteSkill(t, file)
		}},
		{"SKILL.md links to a device", func(t *testing.T, file string) (string, func()) {
			replace(t, file, func() error { return os.Symlink(os.DevNull, file) })
			return "not a regular file", rewriteSkill(t, file)
		}},
		{"SKILL.md is a symbolic link loop", func(t *testing.T, file string) (string, func()) {
			replace(t, file, func() error { return os.Symlink(skillFileName, file) })
			return "too many levels of symbolic links", rewriteSkill(t, file)
		}},
	}
	for _, tt := range tests {
		for _, watch := range []bool{false, true} {
			t.Run(tt.name+map[bool]string{false: "/scan", true: "/watch"}[watch], func(t *testing.T) {
				root := filepath.Join(t.TempDir(), "skills")
				writeSkill(t, filepath.Join(root, "ok"), "ok", "Fine.", "")
				file := filepath.Join(root, "locked", skillFileName)
				writeSkill(t, filepath.Dir(file), "locked", "Locked.", "")
				want, repair := tt.brk(t, file)
				t.Cleanup(func() { os.Chmod(filepath.Dir(file), 0o755) }) // let TempDir's cleanup remove it

				p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}, Watch: watch})
				rec := newRecorder(p)
				obs := mustList(t, p, "")
				if !obs.Complete {
					t.Errorf("one unusable SKILL.md made the listing incomplete:\n%s", diagText(p.Diagnostics(), ""))
				}
				if diff := cmp.Diff([]string{"ok"}, names(obs)); diff != "" {
					t.Errorf("names (-want +got):\n%s", diff)
				}
				requireDiag(t, p.Diagnostics(), "locked/"+skillFileName, want, SeverityError)
				if watch && len(diagsMatching(p.Diagnostics(), "", "cannot watch")) == 0 && p.cachedResolutions() != 1 {
					// The repair below must then be noticed by the watcher.
					t.Error("a complete listing with a skipped skill is not cached while watching")
				}
				if _, found, err := p.Load(context.Background(), skills.LoadRequest{Name: "locked"}); found || err != nil {
					t.Errorf("Load of the skipped skill: found=%v err=%v; want not found", found, err)
				}

				repair()
				waitFor(t, p, rec, "", func(obs skills.Observation) bool {
					return obs.Complete && slices.Equal(names(obs), []string{"locked", "ok"})
				})
			})
		}
	}
}

// replace removes file and creates something else in its place.
func replace(t *testing.T, file string, create func() error) {
	t.Helper()
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := create(); err != nil {
		t.Fatalf("creating %s: %v", file, err)
	}
}

// rewriteSkill returns a function that puts a valid SKILL.md named after
// its directory back in place of whatever file is.
func rewriteSkill(t *testing.T, file string) func() {
	return func() {
		if err := os.RemoveAll(file); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(file)
		writeSkill(t, dir, filepath.Base(dir), "Repaired.", "")
	}
}

func TestMaxDirs(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for i := range 3 {
		n := string(rune('p' + i))
		writeSkill(t, filepath.Join(a, "a"+n), "a"+n, "A.", "")
		writeSkill(t, filepath.Join(b, "b"+n), "b"+n, "B.", "")
	}
	mkdirAll(t, filepath.Join(a, "node_modules", "x")) // not counted
	for _, tc := range []struct {
		max      int
		complete bool
	}{{6, true}, {5, false}, {3, false}, {2, false}} {
		for _, watch := range []bool{false, true} {
			p := mustNew(t, Options{HomeDir: filepath.Join(base, "none"), ExtraRoots: []string{a, b}, MaxDirs: tc.max, Watch: watch})
			obs := mustList(t, p, "")
			if obs.Complete != tc.complete {
				t.Errorf("MaxDirs %d watch %v: complete = %v, want %v", tc.max, watch, obs.Complete, tc.complete)
			}
			if !tc.complete {
				requireDiag(t, p.Diagnostics(), "", "Options.MaxDirs", SeverityError)
			}
			if len(obs.Skills) > tc.max {
				t.Errorf("MaxDirs %d: %d skills listed", tc.max, len(obs.Skills))
			}
		}
	}
}

func TestListErrors(t *testing.T) {
	p := mustNew(t, Options{HomeDir: t.TempDir()})
	if _, err := p.List(context.Background(), skills.ListRequest{Cwd: "relative/dir"}); err == nil || !strings.Contains(err.Error(), "not absolute") {
		t.Errorf("relative cwd: err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.List(ctx, skills.ListRequest{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: err = %v", err)
	}
	if _, _, err := p.Load(ctx, skills.LoadRequest{Name: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled Load: err = %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.List(context.Background(), skills.ListRequest{}); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: err = %v", err)
	}
}

func TestNewValidatesOptions(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{MaxDepth: -1}, "Options.MaxDepth must be between 1 and 4096"},
		{Options{MaxDepth: MaxMaxDepth + 1}, "Options.MaxDepth"},
		{Options{MaxDirs: -5}, "Options.MaxDirs must be between 1 and 1000000"},
		{Options{Debounce: -1}, "Options.Debounce must be between 1ns and 1m0s"},
		{Options{Debounce: 2 * MaxDebounce}, "Options.Debounce"},
		{Options{ClientDirs: []string{"a/b"}}, "Options.ClientDirs[0] must be a single directory name"},
		{Options{ClientDirs: []string{".claude", ""}}, "Options.ClientDirs[1]"},
		{Options{ClientDirs: []string{".."}}, "Options.ClientDirs[0]"},
		{Options{ExtraRoots: []string{"rel"}}, "Options.ExtraRoots[0] must be an absolute path"},
		{Options{HomeDir: "rel"}, "Options.HomeDir must be an absolute path"},
	} {
		if _, err := New(&tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) error = %v, want %q", tc.opts, err, tc.want)
		}
	}
	p := mustNew(t, Options{HomeDir: "/h", ClientDirs: []string{".claude", ".agents", ".claude"}})
	var got []string
	for _, r := range p.cfg.userRoots {
		got = append(got, r.path)
	}
	if diff := cmp.Diff([]string{"/h/.agents/skills", "/h/.claude/skills"}, got); diff != "" {
		t.Errorf("user roots (-want +got):\n%s", diff)
	}
	if p.cfg.maxDepth != DefaultMaxDepth || p.cfg.maxDirs != DefaultMaxDirs || p.cfg.debounce != DefaultDebounce {
		t.Errorf("defaults: %+v", p.cfg)
	}
	// nil options are the zero value: every default.
	p, err := New(nil)
	if err != nil {
		t.Fatalf("New(nil): %v", err)
	}
	defer p.Close()
	if p.cfg.maxDepth != DefaultMaxDepth || p.cfg.maxDirs != DefaultMaxDirs || p.cfg.debounce != DefaultDebounce || p.cfg.watch {
		t.Errorf("New(nil) defaults: %+v", p.cfg)
	}
}

// TestLoadRefusesABodyThatIsNotUTF8: a SKILL.md whose frontmatter is fine
// but whose body is not UTF-8 is listed (a scan reads the frontmatter) and
// its load fails naming the file and the byte, as a frontmatter that is
// not UTF-8 is refused; it is not repaired.
func TestLoadRefusesABodyThatIsNotUTF8(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	dir := filepath.Join(root, "latin")
	writeSkill(t, dir, "latin", "Fine.", "Caf\xe9.")
	p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}})
	if got := names(mustList(t, p, "")); !slices.Equal(got, []string{"latin"}) {
		t.Fatalf("listed %v, want [latin]", got)
	}
	def, found, err := p.Load(context.Background(), skills.LoadRequest{Name: "latin"})
	file := filepath.Join(dir, skillFileName)
	if !errors.Is(err, skill.ErrInvalidUTF8) || found || !strings.Contains(err.Error(), file+" is not valid UTF-8 (byte 42 ") {
		t.Errorf("Load = %+v, %v, %v; want an error naming %s and byte 42", def, found, err, file)
	}
}
