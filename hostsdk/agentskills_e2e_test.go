package hostsdk_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

func writeSkillFile(t *testing.T, root, name, description, body string) {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitForView waits until the host's registry, refreshed by the watcher's
// invalidations, observes the given skill names (complete), or an
// incomplete observation when complete is false. Only then is the plugin's
// next step asserted, so the test does not race the watcher's debounce. The
// wait is bounded so a watcher that never fires fails the test.
func waitForView(t *testing.T, reg *skills.Registry, cwd string, complete bool, names ...string) {
	t.Helper()
	q := skills.Query{SessionID: "s1", Cwd: cwd, Chain: []string{"agent:a", tools.GlobalScope}}
	deadline := time.Now().Add(20 * time.Second)
	for {
		snap, err := reg.Snapshot(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range snap.Skills {
			got = append(got, s.Name)
		}
		if snap.Complete == complete && (!complete || strings.Join(got, ",") == strings.Join(names, ",")) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the filesystem provider never observed %v (complete %v); last saw %v (complete %v)", names, complete, got, snap.Complete)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFilesystemSkillsLiveRefresh drives the Agent Skills provider through
// the real plugin: skills created, edited and removed on disk after start
// reach the model at the next step without a restart, and an unreadable
// root keeps the last-good catalog.
func TestFilesystemSkillsLiveRefresh(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	base := t.TempDir()
	// The root is a symbolic link, so it can later be swapped atomically for
	// something unreadable.
	root := filepath.Join(base, "skills")
	real := filepath.Join(base, "real")
	writeSkillFile(t, real, "alpha", "First skill.", "Alpha body v1.")
	swapRoot := func(target string) {
		t.Helper()
		tmp := filepath.Join(base, "skills.new")
		if err := os.Symlink(target, tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, root); err != nil {
			t.Fatal(err)
		}
	}
	swapRoot(real)
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{root}, HomeDir: filepath.Join(base, "home"), Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	e.reg.AddProvider(tools.GlobalScope, fsys, nil)
	e.mount(tools.GlobalScope)
	load := func(name string) hostsdk.ToolResult {
		t.Helper()
		out, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: base, AgentScope: "agent:a"}).CallTool(context.Background(), hostsdk.ToolCall{Name: "skill", Arguments: json.RawMessage(`{"name":"` + name + `"}`)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	step := func() hostsdk.StepResult {
		t.Helper()
		res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: base, AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	expect(t, step(), hostsdk.OutcomeInitial, "alpha")
	expect(t, step(), hostsdk.OutcomeUnchanged)

	// A skill directory created after start: replacement at the next step.
	writeSkillFile(t, real, "beta", "Second skill.", "Beta body.")
	waitForView(t, e.reg, base, true, "alpha", "beta")
	expect(t, step(), hostsdk.OutcomeReplacement, "alpha", "beta")

	// A body-only edit: no message, the new body on the next load.
	writeSkillFile(t, real, "alpha", "First skill.", "Alpha body v2.")
	expect(t, step(), hostsdk.OutcomeUnchanged)
	if out := load("alpha"); out.IsError || !strings.Contains(out.Value.Content, "Alpha body v2.") {
		t.Fatalf("load after a body edit = %+v", out)
	}

	// A resource file below a skill changes nothing.
	if err := os.WriteFile(filepath.Join(real, "alpha", "notes.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	expect(t, step(), hostsdk.OutcomeUnchanged)

	// The root becomes unreadable (it now resolves to a file; chmod would
	// not stop a test running as root): no message, the last-good catalog
	// stays.
	notDir := filepath.Join(base, "not-a-directory")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	swapRoot(notDir)
	waitForView(t, e.reg, base, false)
	expect(t, step(), hostsdk.OutcomeIncomplete)
	expect(t, step(), hostsdk.OutcomeIncomplete)

	// Readable again: the same skills, so nothing new.
	swapRoot(real)
	waitForView(t, e.reg, base, true, "alpha", "beta")
	expect(t, step(), hostsdk.OutcomeUnchanged)

	// Every skill directory deleted: the tombstone.
	for _, name := range []string{"alpha", "beta"} {
		if err := os.RemoveAll(filepath.Join(real, name)); err != nil {
			t.Fatal(err)
		}
	}
	waitForView(t, e.reg, base, true)
	expect(t, step(), hostsdk.OutcomeTombstone)
	if out := load("alpha"); !out.IsError || out.Text != `Error: skill "alpha" is unknown or no longer available` {
		t.Fatalf("load after deletion = %+v", out)
	}
}

// TestFilesystemRootVanished drives the Agent Skills provider through the
// real plugin: a skills root renamed away after the first step is an
// incomplete observation whose diagnostic names the root, so the last-good
// catalog stays (no tombstone); renamed back, nothing is republished. A
// root that never existed is an empty, complete one.
func TestFilesystemRootVanished(t *testing.T) {
	e := newEnv(t, hostsdk.Options{})
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	never := filepath.Join(base, "never-existed")
	writeSkillFile(t, root, "alpha", "First skill.", "Alpha body.")
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: []string{root, never}, HomeDir: filepath.Join(base, "home")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	e.reg.AddProvider(tools.GlobalScope, fsys, nil)
	e.mount(tools.GlobalScope)
	step := func() hostsdk.StepResult {
		t.Helper()
		res, err := e.host.Session("s1", &hostsdk.SessionOptions{Cwd: base, AgentScope: "agent:a"}).Step(context.Background(), hostsdk.Decision{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	expect(t, step(), hostsdk.OutcomeInitial, "alpha")
	if err := os.Rename(root, root+".away"); err != nil {
		t.Fatal(err)
	}
	gone := step()
	expect(t, gone, hostsdk.OutcomeIncomplete)
	// The step says why, naming the root.
	var said bool
	for _, r := range gone.Reasons {
		if r.Code == contract.ReasonProviderIncomplete && strings.Contains(r.Detail, root+": skill root existed earlier and is gone now") {
			said = true
		}
	}
	if !said {
		t.Errorf("the incomplete step's reasons do not name the vanished root %s: %+v", root, gone.Reasons)
	}
	expect(t, step(), hostsdk.OutcomeIncomplete)
	var named bool
	for _, d := range fsys.Diagnostics() {
		if d.Path == root && d.Severity == agentskills.SeverityError && strings.Contains(d.Message, "gone now") {
			named = true
		}
		if strings.HasPrefix(d.Path, never) {
			t.Errorf("a root that never existed has a diagnostic: %s", d)
		}
	}
	if !named {
		t.Errorf("no diagnostic names the vanished root %s: %v", root, fsys.Diagnostics())
	}

	if err := os.Rename(root+".away", root); err != nil {
		t.Fatal(err)
	}
	expect(t, step(), hostsdk.OutcomeUnchanged)
}
