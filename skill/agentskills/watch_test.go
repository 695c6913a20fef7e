package agentskills

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// eventTimeout is how long a test waits for the watcher. It is a deadline
// for failing, never a delay that a passing test depends on.
const eventTimeout = 20 * time.Second

// recorder counts invalidate callbacks and signals each one.
type recorder struct {
	n  atomic.Int64
	ch chan struct{}
}

func newRecorder(p *Provider) *recorder {
	r := &recorder{ch: make(chan struct{}, 1)}
	p.SetInvalidate(func() {
		r.n.Add(1)
		select {
		case r.ch <- struct{}{}:
		default:
		}
	})
	return r
}

func (r *recorder) wait(t testing.TB) {
	t.Helper()
	select {
	case <-r.ch:
	case <-time.After(eventTimeout):
		t.Fatalf("no invalidation within %v", eventTimeout)
	}
}

// drain forgets signals already delivered.
func (r *recorder) drain() {
	select {
	case <-r.ch:
	default:
	}
}

// waitFor lists until cond holds, waiting for an invalidation between
// attempts. Without a watcher, every List scans, so one attempt decides.
func waitFor(t testing.TB, p *Provider, r *recorder, cwd string, cond func(skills.Observation) bool) skills.Observation {
	t.Helper()
	deadline := time.After(eventTimeout)
	for {
		obs := mustList(t, p, cwd)
		if cond(obs) {
			return obs
		}
		if p.ws == nil {
			t.Fatalf("condition not met: %+v\n%s", obs, diagText(p.Diagnostics(), ""))
		}
		select {
		case <-r.ch:
		case <-deadline:
			t.Fatalf("condition not met within %v; last observation %+v\n%s", eventTimeout, obs, diagText(p.Diagnostics(), ""))
		}
	}
}

func (p *Provider) generation() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gen
}

func has(name string) func(skills.Observation) bool {
	return func(obs skills.Observation) bool {
		return obs.Complete && slices.Contains(names(obs), name)
	}
}

func hasNot(name string) func(skills.Observation) bool {
	return func(obs skills.Observation) bool {
		return obs.Complete && !slices.Contains(names(obs), name)
	}
}

func newWatched(t *testing.T, opts Options) (*Provider, *recorder) {
	t.Helper()
	opts.Watch = true
	if opts.HomeDir == "" {
		opts.HomeDir = filepath.Join(t.TempDir(), "home")
	}
	p := mustNew(t, opts)
	return p, newRecorder(p)
}

// stage writes a complete skill outside the watched tree, so that moving
// it in is a single event.
func stage(t *testing.T, name, description, body string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	writeSkill(t, dir, name, description, body)
	return dir
}

func rename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func TestWatchAddEditRemove(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	mkdirAll(t, root)
	p, rec := newWatched(t, Options{ExtraRoots: []string{root}})
	if obs := mustList(t, p, ""); !obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("initial: %+v", obs)
	}

	// Created in place, file by file.
	writeSkill(t, filepath.Join(root, "alpha"), "alpha", "Alpha.", "Alpha body.")
	waitFor(t, p, rec, "", has("alpha"))

	// Moved in whole.
	rename(t, stage(t, "beta", "Beta.", "Beta body."), filepath.Join(root, "beta"))
	waitFor(t, p, rec, "", has("beta"))

	// Frontmatter edit.
	writeSkill(t, filepath.Join(root, "alpha"), "alpha", "Alpha, revised.", "Alpha body.")
	waitFor(t, p, rec, "", func(obs skills.Observation) bool {
		return obs.Complete && len(obs.Skills) == 2 && obs.Skills[0].Description == "Alpha, revised."
	})

	// Renamed directory (and declared name with it).
	rename(t, filepath.Join(root, "beta"), filepath.Join(root, "gamma"))
	writeSkill(t, filepath.Join(root, "gamma"), "gamma", "Gamma.", "")
	waitFor(t, p, rec, "", func(obs skills.Observation) bool {
		return obs.Complete && slices.Equal(names(obs), []string{"alpha", "gamma"})
	})

	// SKILL.md removed: the directory stops being a skill.
	if err := os.Remove(filepath.Join(root, "gamma", skillFileName)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p, rec, "", hasNot("gamma"))

	// Everything removed: an authoritative empty list.
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	mkdirAll(t, root)
	waitFor(t, p, rec, "", func(obs skills.Observation) bool { return obs.Complete && len(obs.Skills) == 0 })

	// And back again in the recreated root.
	writeSkill(t, filepath.Join(root, "delta"), "delta", "Delta.", "")
	waitFor(t, p, rec, "", has("delta"))
}

func TestWatchRootCreatedLater(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	mkdirAll(t, home)
	p, rec := newWatched(t, Options{HomeDir: home, ClientDirs: []string{".claude"}})
	if obs := mustList(t, p, ""); !obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("initial: %+v", obs)
	}
	// Neither .agents nor .agents/skills exists yet.
	writeSkill(t, filepath.Join(home, ".agents", "skills", "late"), "late", "Late.", "")
	waitFor(t, p, rec, "", has("late"))
	writeSkill(t, filepath.Join(home, ".claude", "skills", "later"), "later", "Later.", "")
	waitFor(t, p, rec, "", has("later"))
}

func TestWatchHomeCreatedLater(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "not", "yet", "home")
	p, rec := newWatched(t, Options{HomeDir: home})
	if obs := mustList(t, p, ""); !obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("initial: %+v", obs)
	}
	writeSkill(t, filepath.Join(home, ".agents", "skills", "deep"), "deep", "Deep.", "")
	waitFor(t, p, rec, "", has("deep"))
}

func TestWatchProjectRoots(t *testing.T) {
	pt := setupProject(t)
	p, rec := newWatched(t, Options{HomeDir: pt.home, TrustProject: func(string) bool { return true }})
	waitFor(t, p, rec, pt.appSrc, has("repo-level"))
	// A level with no .agents directory yet: the working directory.
	writeSkill(t, filepath.Join(pt.appSrc, ".agents", "skills", "src-skill"), "src-skill", "Src.", "")
	waitFor(t, p, rec, pt.appSrc, has("src-skill"))
	// Renaming a parent of a root away makes the listing incomplete (the
	// root may come back: a checkout being switched) ...
	rename(t, filepath.Join(pt.repo, ".agents"), filepath.Join(pt.repo, ".agents-old"))
	waitFor(t, p, rec, pt.appSrc, func(obs skills.Observation) bool { return !obs.Complete })
	// ... until the host accepts that it is gone: then its skills are.
	p.Invalidate()
	waitFor(t, p, rec, pt.appSrc, func(obs skills.Observation) bool { return obs.Complete && !slices.Contains(names(obs), "repo-level") })
}

func TestWatchSymlinkedSkill(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	target := filepath.Join(base, "elsewhere", "linked")
	writeSkill(t, target, "linked", "Linked.", "")
	mkdirAll(t, root)
	symlink(t, target, filepath.Join(root, "linked"))
	p, rec := newWatched(t, Options{ExtraRoots: []string{root}})
	waitFor(t, p, rec, "", has("linked"))
	// An edit in the link's target is seen.
	writeSkill(t, target, "linked", "Linked, revised.", "")
	waitFor(t, p, rec, "", func(obs skills.Observation) bool {
		return obs.Complete && len(obs.Skills) == 1 && obs.Skills[0].Description == "Linked, revised."
	})
	// Removing the link is seen.
	if err := os.Remove(filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p, rec, "", hasNot("linked"))
}

// TestWatchIgnoresIrrelevantChanges checks that resource files below a
// skill and unrelated entries of watched ancestors do not count as changes.
// A relevant change made afterwards is a marker: events arrive in order, so
// once the marker's invalidation is in, the earlier events were classified.
func TestWatchIgnoresIrrelevantChanges(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	root := filepath.Join(home, ".agents", "skills")
	skill := filepath.Join(root, "with-resources")
	writeSkill(t, skill, "with-resources", "R.", "")
	p, rec := newWatched(t, Options{HomeDir: home})
	waitFor(t, p, rec, "", has("with-resources"))
	rec.drain()
	gen := p.generation()
	calls := rec.n.Load()

	mkdirAll(t, filepath.Join(skill, "scripts"))
	for _, f := range []string{filepath.Join(skill, "scripts", "run.sh"), filepath.Join(skill, "notes.md"), filepath.Join(home, "unrelated.txt"), filepath.Join(home, ".agents", "other.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(skill, "notes.md")); err != nil {
		t.Fatal(err)
	}
	rename(t, filepath.Join(skill, "scripts"), filepath.Join(skill, "bin"))

	// The marker: one rename into the root, one event.
	rename(t, stage(t, "marker", "M.", ""), filepath.Join(root, "marker"))
	rec.wait(t)
	if got := p.generation() - gen; got != 1 {
		t.Errorf("%d changes counted, want 1 (the marker only)", got)
	}
	if got := rec.n.Load() - calls; got != 1 {
		t.Errorf("%d invalidations, want 1", got)
	}
	if obs := mustList(t, p, ""); !slices.Equal(names(obs), []string{"marker", "with-resources"}) {
		t.Errorf("names = %v", names(obs))
	}
}

func TestWatchCoalescesBursts(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	mkdirAll(t, root)
	// A long quiet period makes the burst below one burst even on a slow,
	// shared machine.
	p, rec := newWatched(t, Options{ExtraRoots: []string{root}, Debounce: 2 * time.Second})
	mustList(t, p, "")
	const n = 50
	staged := make([]string, n)
	for i := range staged {
		staged[i] = stage(t, fmt.Sprintf("burst-%02d", i), "B.", "")
	}
	gen := p.generation()
	for i, dir := range staged {
		rename(t, dir, filepath.Join(root, fmt.Sprintf("burst-%02d", i)))
	}
	rec.wait(t)
	if got := rec.n.Load(); got != 1 {
		t.Errorf("%d invalidations for one burst, want 1", got)
	}
	if got := p.generation() - gen; got != n {
		t.Errorf("%d changes counted, want %d", got, n)
	}
	if obs := mustList(t, p, ""); !obs.Complete || len(obs.Skills) != n {
		t.Errorf("after the burst: complete=%v, %d skills", obs.Complete, len(obs.Skills))
	}
}

func TestWatcherErrorMakesNextListIncomplete(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	writeSkill(t, filepath.Join(root, "steady"), "steady", "S.", "")
	p, rec := newWatched(t, Options{ExtraRoots: []string{root}})
	if obs := mustList(t, p, ""); !obs.Complete {
		t.Fatal("initial listing incomplete")
	}
	p.ws.w.Errors <- errors.New("queue overflow")
	rec.wait(t)
	obs := mustList(t, p, "")
	if obs.Complete {
		t.Error("listing after a watcher error is complete")
	}
	if len(obs.Skills) != 1 {
		t.Errorf("skills = %v", names(obs))
	}
	requireDiag(t, p.Diagnostics(), "", "file watcher reported an error", SeverityError)
	if obs := mustList(t, p, ""); !obs.Complete {
		t.Error("the listing after that is still incomplete")
	}
}

func TestWatchCachesBetweenChanges(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	writeSkill(t, filepath.Join(root, "cached"), "cached", "C.", "")
	p, rec := newWatched(t, Options{ExtraRoots: []string{root}})
	mustList(t, p, "")
	p.mu.Lock()
	cachedRes, cachedRoots := len(p.resolved), len(p.roots)
	p.mu.Unlock()
	if cachedRes != 1 || cachedRoots == 0 {
		t.Fatalf("nothing cached: %d resolutions, %d roots", cachedRes, cachedRoots)
	}
	writeSkill(t, filepath.Join(root, "cached"), "cached", "C2.", "")
	rec.wait(t)
	p.mu.Lock()
	cachedRes = len(p.resolved)
	p.mu.Unlock()
	if cachedRes != 0 {
		t.Errorf("cache kept after a change")
	}
	if obs := mustList(t, p, ""); obs.Skills[0].Description != "C2." {
		t.Errorf("description = %q", obs.Skills[0].Description)
	}
}

func TestWatchUnwatchesGoneDirectories(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	writeSkill(t, filepath.Join(root, "a"), "a", "A.", "")
	writeSkill(t, filepath.Join(root, "b"), "b", "B.", "")
	p, rec := newWatched(t, Options{ExtraRoots: []string{root}})
	mustList(t, p, "")
	if err := os.RemoveAll(filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, p, rec, "", hasNot("b"))
	p.ws.mu.Lock()
	defer p.ws.mu.Unlock()
	realB := filepath.Join(mustEval(t, root), "b")
	if p.ws.roles[realB] != nil || p.ws.added[realB] {
		t.Errorf("watch on removed skill directory kept")
	}
	if p.ws.roles[filepath.Join(mustEval(t, root), "a")] == nil {
		t.Errorf("watch on remaining skill directory dropped")
	}
}

func mustEval(t *testing.T, path string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func TestConcurrentUse(t *testing.T) {
	pt := setupProject(t)
	p, rec := newWatched(t, Options{HomeDir: pt.home, ClientDirs: []string{".claude"}, TrustProject: func(string) bool { return true }})
	cwds := []string{"", pt.appSrc, pt.nestedSrc, pt.repo, pt.home}
	done := make(chan struct{})
	errs := make(chan error, len(cwds))
	for _, cwd := range cwds {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if _, err := p.List(t.Context(), skills.ListRequest{Cwd: cwd}); err != nil {
					errs <- err
					return
				}
				if _, _, err := p.Load(t.Context(), skills.LoadRequest{Cwd: cwd, Name: "shared"}); err != nil {
					errs <- err
					return
				}
				_ = p.Diagnostics()
			}
		}()
	}
	root := filepath.Join(pt.repo, ".agents", "skills")
	for i := range 20 {
		dir := filepath.Join(root, fmt.Sprintf("churn-%02d", i))
		writeSkill(t, dir, fmt.Sprintf("churn-%02d", i), "Churn.", "")
		if i%2 == 1 {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(done)
	for range cwds {
		if err := <-errs; err != nil {
			t.Errorf("concurrent call: %v", err)
		}
	}
	obs := waitFor(t, p, rec, pt.appSrc, func(obs skills.Observation) bool {
		n := 0
		for _, name := range names(obs) {
			if len(name) > 6 && name[:6] == "churn-" {
				n++
			}
		}
		return obs.Complete && n == 10
	})
	if slices.Contains(names(obs), "churn-01") || !slices.Contains(names(obs), "churn-18") {
		t.Errorf("names = %v", names(obs))
	}
}
