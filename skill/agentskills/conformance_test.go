package agentskills

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestProviderConformance runs the provider suite over a real skill root,
// scanned on every List and watched.
func TestProviderConformance(t *testing.T) {
	for _, tc := range []struct {
		name  string
		watch bool
	}{
		{"Scan", false},
		{"Watch", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skilltest.RunProvider(t, func(t *testing.T) skilltest.Harness {
				root := filepath.Join(t.TempDir(), "skills")
				mkdirAll(t, root)
				p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}, Watch: tc.watch})
				return skilltest.Harness{
					Provider: p,
					Cwd:      t.TempDir(),
					SetSkill: func(t *testing.T, name, description string) {
						writeSkill(t, filepath.Join(root, name), name, description, "# "+name)
					},
					RemoveSkill: func(t *testing.T, name string) {
						if err := os.RemoveAll(filepath.Join(root, name)); err != nil {
							t.Fatal(err)
						}
					},
				}
			})
		})
	}
}
