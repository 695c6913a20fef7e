package agentskills

import (
	"path/filepath"
	"testing"
)

// TestArgumentHintReachesTheSummary: the `argument-hint` field is carried
// to the host in the listing and the loaded definition; a skill without
// one has none, one written unquoted as the documentation writes it
// (`[issue-number]`, a YAML sequence) reads as written, and a mapping is
// ignored with a warning.
func TestArgumentHintReachesTheSummary(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "skills")
	writeText(t, filepath.Join(root, "fix-issue", skillFileName), "---\nname: fix-issue\ndescription: Fix an issue.\nargument-hint: \"[issue-number] [priority]\"\n---\nFix issue $ARGUMENTS.\n")
	writeText(t, filepath.Join(root, "plain", skillFileName), "---\nname: plain\ndescription: Plain.\n---\nBody.\n")
	writeText(t, filepath.Join(root, "as-documented", skillFileName), "---\nname: as-documented\ndescription: Unquoted hint.\nargument-hint: [issue-number]\n---\nBody.\n")
	writeText(t, filepath.Join(root, "odd", skillFileName), "---\nname: odd\ndescription: Odd hint.\nargument-hint: {a: b}\n---\nBody.\n")
	p := mustNew(t, Options{HomeDir: filepath.Join(base, "home"), ExtraRoots: []string{root}})

	obs := mustList(t, p, "")
	for name, want := range map[string]string{"fix-issue": "[issue-number] [priority]", "as-documented": "[issue-number]", "plain": "", "odd": ""} {
		if got := summaryOf(t, obs, name).ArgumentHint; got != want {
			t.Errorf("%s: listed argument hint %q, want %q", name, got, want)
		}
		if got := mustLoad(t, p, "", name).ArgumentHint; got != want {
			t.Errorf("%s: loaded argument hint %q, want %q", name, got, want)
		}
	}
	requireDiag(t, p.Diagnostics(), "odd/SKILL.md", `field "argument-hint" is not a string`, SeverityWarning)
}
