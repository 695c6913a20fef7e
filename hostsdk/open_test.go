package hostsdk_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
)

// openMounted opens a host over the test skills with mount as
// OpenOptions.Mount and the given defaults turned off, and reports what the
// mount does: the tools the agent is offered, whether a user's `/name`
// invokes a skill, and the catalog's description of pdf-forms.
func openMounted(t *testing.T, o hostsdk.OpenOptions) (tools []string, invoked bool, catalog string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir()) // no user-level skills of the machine's
	o.SkillDirs, o.Logger = []string{"../testdata/skills"}, slog.New(slog.DiscardHandler)
	host, err := hostsdk.Open(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	s := host.Session("s1", &hostsdk.SessionOptions{Cwd: t.TempDir()})
	for _, d := range s.Tools() {
		tools = append(tools, d.Name)
	}
	res, err := s.Sync(context.Background(), []hostsdk.Message{userMsg("/pdf-forms fill in the W-9")})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.View {
		if v.Plugin && strings.Contains(v.Message.Text(), "pdf-forms") && catalog == "" {
			catalog = v.Message.Text()
		}
	}
	return tools, len(res.Invocations) > 0, catalog
}

// TestOpenMountCompletesTheDefaults: the mount options a user sets change
// only what they set; the rest keeps Open's defaults (skill_resource, and
// `/name` invocation).
func TestOpenMountCompletesTheDefaults(t *testing.T) {
	tools, invoked, _ := openMounted(t, hostsdk.OpenOptions{})
	if !slices.Contains(tools, "skill_resource") || !invoked {
		t.Fatalf("Open's defaults: tools %v, /name invoked %v; want skill_resource and /name", tools, invoked)
	}
	tools, invoked, catalog := openMounted(t, hostsdk.OpenOptions{Mount: &hostsdk.MountOptions{DescriptionMaxLength: 12}})
	if !slices.Contains(tools, "skill_resource") || !invoked {
		t.Errorf("with only DescriptionMaxLength set: tools %v, /name invoked %v; want skill_resource and /name kept", tools, invoked)
	}
	if strings.Contains(catalog, "flatten and validate") || !strings.Contains(catalog, "...") {
		t.Errorf("with DescriptionMaxLength 12 the catalog still holds the long description:\n%s", catalog)
	}
}

// TestOpenMountTurnsDefaultsOff: each of Open's defaults can still be
// turned off, one at a time.
func TestOpenMountTurnsDefaultsOff(t *testing.T) {
	tools, invoked, _ := openMounted(t, hostsdk.OpenOptions{NoResourceTool: true})
	if slices.Contains(tools, "skill_resource") || !invoked {
		t.Errorf("NoResourceTool: tools %v, /name invoked %v; want no skill_resource, /name kept", tools, invoked)
	}
	tools, invoked, _ = openMounted(t, hostsdk.OpenOptions{NoUserInvocation: true, Mount: &hostsdk.MountOptions{SearchTool: true}})
	if !slices.Contains(tools, "skill_resource") || !slices.Contains(tools, "skill_search") || invoked {
		t.Errorf("NoUserInvocation with SearchTool: tools %v, /name invoked %v; want skill_resource and skill_search, no /name", tools, invoked)
	}
}

// TestOpenRefusesContradictoryMountOptions: a default both turned off and
// asked for is a mistake, said by name, not a silent choice of one.
func TestOpenRefusesContradictoryMountOptions(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for i, o := range []hostsdk.OpenOptions{
		{NoResourceTool: true, Mount: &hostsdk.MountOptions{ResourceTool: true}},
		{NoUserInvocation: true, Mount: &hostsdk.MountOptions{UserInvocation: true}},
	} {
		o.Logger = slog.New(slog.DiscardHandler)
		host, err := hostsdk.Open(context.Background(), &o)
		if err == nil {
			host.Close()
			t.Errorf("case %d: Open succeeded; want an error naming both options", i)
		} else if !strings.Contains(err.Error(), "OpenOptions.No") {
			t.Errorf("case %d: %v; want an error naming the options", i, err)
		}
	}
}

// TestOpenShowsSpecValidDescriptionsWhole: Open mounts with the Agent
// Skills limit (1,024 characters) as catalogDescriptionMaxLength, so a
// spec-valid description longer than the plugin's default of 500, such as
// the 787 characters of the official docx skill, reaches the catalog
// whole; a DescriptionMaxLength the user sets still wins.
func TestOpenShowsSpecValidDescriptionsWhole(t *testing.T) {
	desc := strings.TrimSpace(strings.Repeat("Edits Word documents with tracked changes. ", 18)) + " Do NOT trigger when the file is a PDF."
	if n := len(desc); n <= 500 || n > agentskills.MaxDescriptionLength {
		t.Fatalf("the description is %d characters; want between 500 and the limit", n)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "docx"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "docx", "SKILL.md"), []byte("---\nname: docx\ndescription: "+desc+"\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	catalog := func(mount *hostsdk.MountOptions) string {
		t.Helper()
		t.Setenv("HOME", t.TempDir())
		host, err := hostsdk.Open(context.Background(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, Mount: mount, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		defer host.Close()
		res, err := host.Session("s1", &hostsdk.SessionOptions{Cwd: t.TempDir()}).Sync(context.Background(), []hostsdk.Message{userMsg("hello")})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range res.View {
			if v.Plugin && strings.Contains(v.Message.Text(), "docx") {
				return v.Message.Text()
			}
		}
		t.Fatal("no catalog lists docx")
		return ""
	}
	if got := catalog(nil); !strings.Contains(got, desc) {
		t.Errorf("Open's default cuts the %d-character description:\n%s", len(desc), got)
	}
	if got := catalog(&hostsdk.MountOptions{DescriptionMaxLength: 500}); strings.Contains(got, "Do NOT trigger") {
		t.Errorf("with DescriptionMaxLength 500 the catalog still holds the whole description:\n%s", got)
	}
}

// TestOpenDebounce: a skill written into a skill directory reaches the
// catalog of a later step, after the quiet period OpenOptions.Debounce
// sets; a period out of bounds is refused, naming the option and the bound.
func TestOpenDebounce(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	writeSkill := func(name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\nDo it.\n"
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeSkill("alpha")
	for _, bad := range []time.Duration{-time.Millisecond, agentskills.MaxDebounce + time.Second} {
		_, err := hostsdk.Open(context.Background(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, Debounce: bad, Logger: slog.New(slog.DiscardHandler)})
		if err == nil || !strings.Contains(err.Error(), "OpenOptions.Debounce") || !strings.Contains(err.Error(), agentskills.MaxDebounce.String()) {
			t.Errorf("Debounce %v: %v; want an error naming OpenOptions.Debounce and its bound", bad, err)
		}
	}
	host, err := hostsdk.Open(context.Background(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, Debounce: 5 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	s := host.Session("s1", &hostsdk.SessionOptions{Cwd: t.TempDir()})
	history := []hostsdk.Message{userMsg("hello")}
	catalog := func() string {
		res, err := s.Sync(context.Background(), history)
		if err != nil {
			t.Fatal(err)
		}
		var text string
		for _, v := range res.View {
			if v.Plugin {
				text = v.Message.Text() // the newest catalog
			}
		}
		return text
	}
	if c := catalog(); !strings.Contains(c, "alpha") || strings.Contains(c, "beta") {
		t.Fatalf("first catalog:\n%s", c)
	}
	writeSkill("beta")
	// The watcher's events arrive when the file system delivers them: wait
	// for the change, within a generous deadline, without timing it.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(catalog(), "beta") {
		if time.Now().After(deadline) {
			t.Fatal("a skill written on disk never reached the catalog")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
