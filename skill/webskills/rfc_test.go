package webskills

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// rfcFixtures holds sites in the shapes the RFC's example generators
// write (see testdata/webskills/README.md).
const rfcFixtures = "../../testdata/webskills/rfc"

// The provider reads what the RFC's own example generators publish: the
// Perl CGI's canonical JSON and the JavaScript examples' Response.json,
// with path-absolute URLs, and the v0.1.0 generator's files arrays. Every
// skill lists, loads (verified, where there are digests) and reads its
// files.
func TestRFCExampleIndexes(t *testing.T) {
	for _, tc := range []struct {
		site    string
		version string
		names   []string
		files   map[string]string // skill/path → fixture path
	}{
		{"agent-skills-cgi", versionV2, []string{"code-review", "git-workflow"}, nil},
		{"agent-skills-nextjs", versionV2, []string{"code-review", "git-workflow"}, nil},
		{"skills-v010-nextjs", versionLegacy, []string{"data-pipeline", "git-workflow"}, map[string]string{
			"data-pipeline/scripts/validate.py":   ".well-known/skills/data-pipeline/scripts/validate.py",
			"data-pipeline/references/SCHEMA.md":  ".well-known/skills/data-pipeline/references/SCHEMA.md",
			"data-pipeline/SKILL.md":              ".well-known/skills/data-pipeline/SKILL.md",
			"git-workflow/SKILL.md":               ".well-known/skills/git-workflow/SKILL.md",
			"git-workflow/references/missing.md?": "",
		}},
	} {
		t.Run(tc.site, func(t *testing.T) {
			root := filepath.Join(rfcFixtures, tc.site)
			p := newTestProvider(t, serveDir(t, root).URL)
			obs := list(t, p)
			var names []string
			for _, s := range obs.Skills {
				names = append(names, s.Name)
			}
			if strings.Join(names, ",") != strings.Join(tc.names, ",") || p.cur.ix.Version != tc.version || len(p.cur.ix.Diagnostics) != 0 {
				t.Fatalf("listed %v from a %s index, diagnostics %v", names, p.cur.ix.Version, p.cur.ix.Diagnostics)
			}
			for _, name := range tc.names {
				if body, err := load(t, p, name); err != nil || !strings.HasPrefix(body, "# ") {
					t.Errorf("Load(%s) = %q, %v", name, body, err)
				}
			}
			for key, fixture := range tc.files {
				name, path, _ := strings.Cut(strings.TrimSuffix(key, "?"), "/")
				got, err := p.ReadSkillResource(t.Context(), skills.ResourceRequest{SessionID: "s1", Name: name, Path: path})
				if fixture == "" {
					if err == nil {
						t.Errorf("%s: read a file the entry does not list", key)
					}
					continue
				}
				want, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(fixture)))
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: %q, %v", key, got, err)
				}
			}
		})
	}
}
