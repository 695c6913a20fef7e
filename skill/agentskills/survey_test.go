package agentskills

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeFileIn(t *testing.T, path, content string) {
	t.Helper()
	mkdirAll(t, filepath.Dir(path))
	writeFile(t, path, content)
}

// TestSurveyCountsSkippedSkillsByReason: a provider's survey names the
// roots it read (and those absent), counts the skills it offers, and
// gives each skipped skill the reason it was skipped for.
func TestSurveyCountsSkippedSkillsByReason(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	writeSkill(t, filepath.Join(root, "good"), "good", "Good.", "Body.")
	for name, content := range map[string]string{
		"bad-yaml":       "---\nname: bad-yaml\ndescription: [unbalanced\n---\n",
		"no-description": "---\nname: no-description\n---\n",
		"no-frontmatter": "# Body only\n",
		"unclosed":       "---\nname: unclosed\n",
		"Bad_Name":       "---\nname: Bad_Name\ndescription: D.\n---\n",
		"not-a-mapping":  "---\n- a\n---\n",
	} {
		writeFileIn(t, filepath.Join(root, name, "SKILL.md"), content)
	}
	p := mustNew(t, Options{ExtraRoots: []string{root}, HomeDir: home})
	sv, err := p.Survey(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range sv.Skipped {
		got[filepath.Base(s.Path)] = s.Reason
	}
	want := map[string]string{
		"bad-yaml": ReasonInvalidYAML, "no-description": ReasonMissingDescription, "no-frontmatter": ReasonNoFrontmatter,
		"unclosed": ReasonUnclosedFrontmatter, "Bad_Name": ReasonInvalidName, "not-a-mapping": ReasonNotMapping,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skip reasons (-want +got):\n%s", diff)
	}
	line := "scanned 1 directory (" + root + "), 1 absent (" + filepath.Join(home, ".agents", "skills") + "): 1 skill loaded, 6 skipped " +
		"(1 frontmatter not a mapping, 1 invalid YAML, 1 invalid name, 1 missing description, 1 no frontmatter, 1 unclosed frontmatter)"
	if sv.Summary() != line {
		t.Errorf("Summary() =\n%s\nwant\n%s", sv.Summary(), line)
	}
	b, err := json.Marshal(sv)
	if err != nil || !strings.Contains(string(b), `"summary":"scanned 1 directory`) || !strings.Contains(string(b), `"notScanned":[]`) {
		t.Errorf("JSON %s, %v", b, err)
	}
}

// TestSurveyNamesDirectoriesLeftUnread: a project's .claude/skills is
// named as not scanned without the claude-code preset, and a preset's
// project roots as not scanned in a project that is not trusted.
func TestSurveyNamesDirectoriesLeftUnread(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	mkdirAll(t, filepath.Join(project, ".git"))
	writeSkill(t, filepath.Join(project, ".claude", "skills", "pdf"), "pdf", "PDF.", "Body.")
	writeSkill(t, filepath.Join(home, ".codex", "skills", "notes"), "notes", "Notes.", "Body.")
	claude := filepath.Join(project, ".claude", "skills")
	for _, tc := range []struct {
		opts Options
		want []NotScanned
	}{
		{Options{HomeDir: home}, []NotScanned{{claude, WhyClaudeCode}, {filepath.Join(home, ".codex", "skills"), WhyCodex}}},
		{Options{HomeDir: home, TrustProject: func(string) bool { return true }, Presets: []Preset{PresetCodex}}, []NotScanned{{claude, WhyClaudeCode}}},
		{Options{HomeDir: home, Presets: []Preset{PresetClaudeCode, PresetCodex}}, []NotScanned{{claude, WhyUntrusted}}},
		{Options{HomeDir: home, TrustProject: func(string) bool { return true }, Presets: []Preset{PresetClaudeCode, PresetCodex}}, nil},
	} {
		p := mustNew(t, tc.opts)
		sv, err := p.Survey(context.Background(), project)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, sv.NotScanned); diff != "" {
			t.Errorf("presets %q, trusted %v: not scanned (-want +got):\n%s", tc.opts.Presets, tc.opts.TrustProject != nil, diff)
		}
	}
}

// TestExtraRootThatIsASkill: an extra root that holds SKILL.md itself is
// one skill's own directory, offered and loaded as that skill.
func TestExtraRootThatIsASkill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "solo")
	writeSkill(t, dir, "solo", "Alone.", "Do it alone.")
	mkdirAll(t, filepath.Join(dir, "scripts"))
	p := mustNew(t, Options{ExtraRoots: []string{dir}, HomeDir: t.TempDir()})
	obs := mustList(t, p, "")
	if got := names(obs); !cmp.Equal(got, []string{"solo"}) || !obs.Complete {
		t.Fatalf("listed %q (complete %v), want solo alone", got, obs.Complete)
	}
	def := mustLoad(t, p, "", "solo")
	if def.Content != "Do it alone." || def.ResourceBase == nil || def.ResourceBase.Path != dir {
		t.Errorf("loaded %+v", def)
	}
}

// TestYAMLErrorsNameTheLineOfTheFile: a YAML error names the line of the
// SKILL.md an editor shows, not the line within the frontmatter.
func TestYAMLErrorsNameTheLineOfTheFile(t *testing.T) {
	data := []byte("---\nname: d\ndescription: [unbalanced\n---\nBody\n")
	_, _, _, err := ParseSkillFile(data)
	if err == nil || !strings.Contains(err.Error(), "line 3 of SKILL.md: ") || SkipReason(err) != ReasonInvalidYAML {
		t.Errorf("ParseSkillFile: %v (reason %q), want line 3 of SKILL.md and %q", err, SkipReason(err), ReasonInvalidYAML)
	}
	c, err := CheckSkillFile("d", data)
	if err != nil || len(c.Errors) != 1 || !strings.Contains(c.Errors[0].Message, "line 3 of SKILL.md: ") || c.SkipReason != ReasonInvalidYAML {
		t.Errorf("CheckSkillFile: %+v, %v", c, err)
	}
}

// TestClaudeCodeFields: a field Claude Code documents is an error that
// says so without a preset, and a warning with the claude-code preset.
func TestClaudeCodeFields(t *testing.T) {
	data := []byte("---\nname: d\ndescription: D.\ndisable-model-invocation: true\nmodel: opus\nversion: 2\n---\n")
	c, err := CheckSkillFile("d", data)
	if err != nil {
		t.Fatal(err)
	}
	msgs := func(fs []Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Field+": "+f.Message)
		}
		return out
	}
	allowed := "which allows only allowed-tools, compatibility, description, license, metadata, name"
	want := []string{
		`disable-model-invocation: field "disable-model-invocation" is not in the specification, ` + allowed + `; it is a Claude Code field, which skillcatalog honours and the claude-code preset accepts`,
		`model: field "model" is not in the specification, ` + allowed + `; it is a Claude Code field, which skillcatalog passes to the host as a directive and the claude-code preset accepts`,
		`version: field "version" is not in the specification, ` + allowed,
	}
	if diff := cmp.Diff(want, msgs(c.Errors)); diff != "" {
		t.Errorf("without a preset (-want +got):\n%s", diff)
	}
	c, err = CheckSkillFile("d", data, PresetClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[2:], msgs(c.Errors)); diff != "" {
		t.Errorf("claude-code errors (-want +got):\n%s", diff)
	}
	wantWarnings := []string{
		`disable-model-invocation: field "disable-model-invocation" is a Claude Code field, not in the Agent Skills specification: skillcatalog honours it; other clients may ignore it`,
		`model: field "model" is a Claude Code field, not in the Agent Skills specification: skillcatalog passes it to the host as a directive; other clients may ignore it`,
	}
	if diff := cmp.Diff(wantWarnings, msgs(c.Warnings)); diff != "" {
		t.Errorf("claude-code warnings (-want +got):\n%s", diff)
	}
}
