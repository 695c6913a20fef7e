package agentskills

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

func writeText(t testing.TB, path, content string) {
	t.Helper()
	mkdirAll(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A SKILL.md without a name is the skill its directory names, as Claude
// Code loads it, with a warning saying so; Load finds it under that name.
func TestMissingNameIsTheDirectoryName(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	writeText(t, filepath.Join(root, "release-notes", skillFileName), "---\ndescription: Draft release notes.\n---\nCollect the merged changes.\n")
	writeText(t, filepath.Join(root, "Not_A_Name", skillFileName), "---\ndescription: A directory name that is no skill name.\n---\nBody.\n")
	p := mustNew(t, Options{HomeDir: filepath.Join(base, "home"), ExtraRoots: []string{root}})

	obs := mustList(t, p, "")
	if !obs.Complete || !slices.Equal(names(obs), []string{"release-notes"}) {
		t.Fatalf("listing = %v (complete %v); diagnostics:\n%s", names(obs), obs.Complete, diagText(p.Diagnostics(), base))
	}
	if got := summaryOf(t, obs, "release-notes").Description; got != "Draft release notes." {
		t.Errorf("description = %q", got)
	}
	ds := p.Diagnostics()
	requireDiag(t, ds, "release-notes/SKILL.md", `named after its directory "release-notes"`, SeverityWarning)
	requireDiag(t, ds, "Not_A_Name/SKILL.md", "frontmatter has no name", SeverityError)
	if def := mustLoad(t, p, "", "release-notes"); def.Content != "Collect the merged changes." {
		t.Errorf("loaded content = %q", def.Content)
	}
}

// recordHandler keeps every log record.
type recordHandler struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

func (h *recordHandler) at(level slog.Level) []slog.Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []slog.Record
	for _, r := range h.records {
		if r.Level == level {
			out = append(out, r)
		}
	}
	return out
}

func attr(r slog.Record, key string) string {
	var v string
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == key {
			v = a.Value.String()
			return false
		}
		return true
	})
	return v
}

// A SKILL.md whose YAML does not parse is skipped and logged at WARN with
// its path and the parser's reason, once while it stays broken, and again
// when it breaks anew after a repair.
func TestParseFailureLoggedAtWarn(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	file := filepath.Join(root, "broken", skillFileName)
	writeText(t, file, "---\nname: broken\ndescription: [unclosed\n---\nBody.\n")
	writeSkill(t, filepath.Join(root, "fine"), "fine", "Fine.", "")
	h := &recordHandler{}
	p := mustNew(t, Options{HomeDir: filepath.Join(base, "home"), ExtraRoots: []string{root}, Logger: slog.New(h)})

	for range 3 {
		if obs := mustList(t, p, ""); !slices.Equal(names(obs), []string{"fine"}) {
			t.Fatalf("listing = %v", names(obs))
		}
	}
	warns := h.at(slog.LevelWarn)
	if len(warns) != 1 {
		t.Fatalf("%d WARN records over three listings, want 1: %v", len(warns), warns)
	}
	if got := attr(warns[0], "path"); got != file {
		t.Errorf("path = %q, want %q", got, file)
	}
	if !strings.Contains(warns[0].Message, "frontmatter is not valid YAML") {
		t.Errorf("message %q does not give the reason", warns[0].Message)
	}

	writeSkill(t, filepath.Join(root, "broken"), "broken", "Repaired.", "")
	mustList(t, p, "")
	writeText(t, file, "---\nname: broken\ndescription: [unclosed again\n---\n")
	mustList(t, p, "")
	if n := len(h.at(slog.LevelWarn)); n != 2 {
		t.Errorf("%d WARN records after it broke again, want 2", n)
	}
}

// A root this provider saw and that is gone now makes the listing
// incomplete with a diagnostic naming it; a root that never existed is an
// empty, complete one; Invalidate accepts a root's removal.
func TestVanishedRootIsIncomplete(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	never := filepath.Join(base, "never")
	writeSkill(t, filepath.Join(root, "alpha"), "alpha", "Alpha.", "")
	p := mustNew(t, Options{HomeDir: filepath.Join(base, "home"), ExtraRoots: []string{root, never}})

	if obs := mustList(t, p, ""); !obs.Complete || !slices.Equal(names(obs), []string{"alpha"}) {
		t.Fatalf("initial listing = %+v", obs)
	}
	if err := os.Rename(root, root+".away"); err != nil {
		t.Fatal(err)
	}
	obs := mustList(t, p, "")
	if obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("after the root vanished: %+v, want incomplete", obs)
	}
	requireDiag(t, p.Diagnostics(), "/skills", "existed earlier and is gone now", SeverityError)
	if len(diagsMatching(p.Diagnostics(), "/never", "")) != 0 {
		t.Errorf("a root that never existed has diagnostics:\n%s", diagText(p.Diagnostics(), base))
	}
	if _, found, err := p.Load(context.Background(), skills.LoadRequest{SessionID: "s", Name: "alpha"}); err == nil || found {
		t.Errorf("Load of a skill in the vanished root: found %v, err %v; want an error", found, err)
	}

	// Back again: complete.
	if err := os.Rename(root+".away", root); err != nil {
		t.Fatal(err)
	}
	if obs := mustList(t, p, ""); !obs.Complete || !slices.Equal(names(obs), []string{"alpha"}) {
		t.Fatalf("after the root came back: %+v", obs)
	}

	// Removed on purpose and accepted by the host: complete and empty.
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if obs := mustList(t, p, ""); obs.Complete {
		t.Fatalf("after removal: %+v, want incomplete", obs)
	}
	p.Invalidate()
	if obs := mustList(t, p, ""); !obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("after Invalidate: %+v, want complete and empty", obs)
	}
}

// A root emptied (its skills removed, the directory kept) is an
// authoritative empty listing, not a vanished root.
func TestEmptiedRootIsComplete(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	writeSkill(t, filepath.Join(root, "alpha"), "alpha", "Alpha.", "")
	p := mustNew(t, Options{HomeDir: filepath.Join(base, "home"), ExtraRoots: []string{root}})
	mustList(t, p, "")
	if err := os.RemoveAll(filepath.Join(root, "alpha")); err != nil {
		t.Fatal(err)
	}
	if obs := mustList(t, p, ""); !obs.Complete || len(obs.Skills) != 0 {
		t.Fatalf("emptied root: %+v", obs)
	}
}

// PresetClaudeCode scans .claude/skills in the home directory and the
// project, describes a skill without a description by its first
// paragraph, and loads a SKILL.md without frontmatter; without it none of
// that happens.
func TestPresetClaudeCode(t *testing.T) {
	pt := setupProject(t)
	writeText(t, filepath.Join(pt.home, ".claude", "skills", "tidy-imports", skillFileName),
		"---\nname: tidy-imports\n---\n# Tidy imports\n\nSort and group the imports\nof every changed file.\n\nMore detail.\n")
	writeText(t, filepath.Join(pt.home, ".claude", "skills", "bare", skillFileName),
		"# Bare\n\nA skill written without frontmatter.\n")
	writeSkill(t, filepath.Join(pt.repo, ".claude", "skills", "project-claude"), "project-claude", "From the project's .claude.", "")
	trust := func(string) bool { return true }

	plain := mustNew(t, Options{HomeDir: pt.home, TrustProject: trust})
	for _, n := range []string{"tidy-imports", "bare", "project-claude"} {
		if slices.Contains(names(mustList(t, plain, pt.appSrc)), n) {
			t.Errorf("without the preset %q is listed", n)
		}
	}

	p := mustNew(t, Options{HomeDir: pt.home, TrustProject: trust, Presets: []Preset{PresetClaudeCode}})
	obs := mustList(t, p, pt.appSrc)
	if !obs.Complete {
		t.Fatalf("incomplete:\n%s", diagText(p.Diagnostics(), pt.base))
	}
	if got := summaryOf(t, obs, "tidy-imports").Description; got != "Sort and group the imports of every changed file." {
		t.Errorf("tidy-imports description = %q", got)
	}
	if got := summaryOf(t, obs, "bare").Description; got != "A skill written without frontmatter." {
		t.Errorf("bare description = %q", got)
	}
	summaryOf(t, obs, "project-claude")
	ds := p.Diagnostics()
	requireDiag(t, ds, "tidy-imports/SKILL.md", "described by the first paragraph", SeverityWarning)
	requireDiag(t, ds, "bare/SKILL.md", "has no frontmatter", SeverityWarning)
	if def := mustLoad(t, p, pt.appSrc, "bare"); def.Content != "# Bare\n\nA skill written without frontmatter." || def.Description != "A skill written without frontmatter." {
		t.Errorf("bare loaded as %+v", def)
	}
}

// PresetCodex scans .codex/skills in the home directory and the project.
func TestPresetCodex(t *testing.T) {
	pt := setupProject(t)
	writeSkill(t, filepath.Join(pt.home, ".codex", "skills", "codex-user"), "codex-user", "From ~/.codex/skills.", "")
	writeSkill(t, filepath.Join(pt.repo, ".codex", "skills", "codex-project"), "codex-project", "From the project's .codex.", "")
	p := mustNew(t, Options{HomeDir: pt.home, TrustProject: func(string) bool { return true }, Presets: []Preset{PresetCodex}})
	got := names(mustList(t, p, pt.appSrc))
	for _, n := range []string{"codex-user", "codex-project"} {
		if !slices.Contains(got, n) {
			t.Errorf("%q not listed: %v", n, got)
		}
	}
	if _, err := New(&Options{Presets: []Preset{"cursor"}}); err == nil || !strings.Contains(err.Error(), `"cursor"`) {
		t.Errorf("an unknown preset: %v", err)
	}
}

func TestFirstParagraph(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   "",
		"# Title only\n":                     "",
		"# T\n\nOne\ntwo.\n\nThree.":         "One two.",
		"\n\n  Indented line.  \nNext.\n":    "Indented line. Next.",
		"```\ncode\n```\nAfter the fence.\n": "After the fence.",
		"<!-- a\ncomment -->\nText.":         "Text.",
		"***\nAfter a rule.":                 "After a rule.",
	} {
		if got := firstParagraph([]byte(in)); got != want {
			t.Errorf("firstParagraph(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("é", maxFirstParagraphBytes)
	if got := firstParagraph([]byte(long)); len(got) > maxFirstParagraphBytes || !strings.HasPrefix(long, got) || got == "" {
		t.Errorf("long paragraph cut to %d bytes", len(got))
	}
}
