//go:build unix

package skillserver_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skillserver"
)

// TestSurveySaysWhatIsNotServed: the server's survey counts the skills it
// serves and gives each skill it does not serve a short reason: the
// provider's own for a skill skillcatalog does not load, the extension's
// for one it loads and cannot serve (a name that is not its folder's, a
// description over the specification's limit, as in the anthropics/skills
// repository's template and claude-api skills).
func TestSurveySaysWhatIsNotServed(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "good/SKILL.md", "---\nname: good\ndescription: Good.\n---\nBody.\n")
	writeFile(t, root, "template/SKILL.md", "---\nname: template-skill\ndescription: Replace me.\n---\nBody.\n")
	writeFile(t, root, "skills/long/SKILL.md", "---\nname: long\ndescription: "+strings.Repeat("x", 1068)+"\n---\nBody.\n")
	writeFile(t, root, "no-description/SKILL.md", "---\nname: no-description\n---\nBody.\n")
	writeFile(t, root, "bad-yaml/SKILL.md", "---\nname: bad-yaml\ndescription: [x\n---\nBody.\n")
	s := skillserver.NewDir(root)
	if _, err := s.Index(); err != nil {
		t.Fatal(err)
	}
	sv := s.Survey()
	got := map[string]string{}
	for _, k := range sv.Skipped {
		got[k.Path] = k.Reason
	}
	want := map[string]string{
		"template":       skillserver.ReasonNameNotFolder,
		"skills/long":    skillserver.ReasonLongDescription,
		"no-description": agentskills.ReasonMissingDescription,
		"bad-yaml":       agentskills.ReasonInvalidYAML,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	line := "scanned 1 directory (" + root + "): 1 skill served, 4 skipped (1 description over 1024 characters, 1 invalid YAML, 1 missing description, 1 name differs from its folder)"
	if sv.Summary() != line {
		t.Errorf("Summary() =\n%s\nwant\n%s", sv.Summary(), line)
	}
	for _, d := range s.Diagnostics() {
		if strings.HasPrefix(d, "skill bad-yaml ") && !strings.Contains(d, "skillcatalog does not load it: frontmatter is not valid YAML: line 3 of SKILL.md") {
			t.Errorf("diagnostic %q does not give the loader's reason and the file's line", d)
		}
	}
}

// TestCheckServable: the judgement of one SKILL.md a validator reports.
func TestCheckServable(t *testing.T) {
	for _, tc := range []struct{ dir, data, reason string }{
		{"good", "---\nname: good\ndescription: Good.\n---\n", ""},
		{"template", "---\nname: template-skill\ndescription: D.\n---\n", skillserver.ReasonNameNotFolder},
		{"manual", "---\nname: manual\ndescription: D.\ndisable-model-invocation: true\n---\n", skillserver.ReasonNotModelInvocable},
		{"Bad_Name", "---\nname: Bad_Name\ndescription: D.\n---\n", agentskills.ReasonInvalidName},
	} {
		reason, why := skillserver.CheckServable(tc.dir, []byte(tc.data))
		if reason != tc.reason || (why == "") != (tc.reason == "") {
			t.Errorf("%s: %q, %q; want reason %q", tc.dir, reason, why, tc.reason)
		}
	}
}
