package discovery_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillcatalog/skillcatalog/events"
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/plugin/contract/contracttest"
)

// TestNestedDiscovery: a discovering mount finds the skill folders of
// every directory from the project root down to the step's working
// directory, under the project root's trust: a package's skills are in the
// catalog of a step working in it, not of one at the root, and none of an
// untrusted project's are.
func TestNestedDiscovery(t *testing.T) {
	t.Parallel()
	repo, home := t.TempDir(), t.TempDir()
	write := func(rel, name string) {
		dir := filepath.Join(repo, filepath.FromSlash(rel), name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\nDo it.\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/skills", "repo-wide")
	write("packages/web/.claude/skills", "web-build")
	write("packages/api/.agents/skills", "api-deploy")
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		trusted []string
		cwd     string
		want    []string
	}{
		{"root", []string{repo}, repo, []string{"repo-wide"}},
		{"web package", []string{repo}, "packages/web", []string{"repo-wide", "web-build"}},
		{"below the web package", []string{repo}, "packages/web/src/components", []string{"repo-wide", "web-build"}},
		{"api package", []string{repo}, "packages/api", []string{"api-deploy", "repo-wide"}},
		{"untrusted", []string{home}, "packages/web", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cwd := tc.cwd
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(repo, filepath.FromSlash(cwd))
				if err := os.MkdirAll(cwd, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			svc, host, ctx := newService(t), contracttest.NewHost(), context.Background()
			d := contract.Discovery{HomeDir: home, Presets: []string{"claude-code"}, TrustedProjects: tc.trusted}
			resp, err := svc.Configure(ctx, host, contract.ConfigureRequest{Discovery: d.JSON()})
			if err != nil {
				t.Fatal(err)
			}
			if err := svc.BindTools(ctx, resp.MountID, []contract.ToolBinding{{ToolName: "skill", DefinitionIdentity: "id-1"}}); err != nil {
				t.Fatal(err)
			}
			step, err := svc.PreStep(ctx, contract.StepRequest{MountID: resp.MountID, SessionID: "s1", Cwd: cwd, AgentScope: "agent", SkillToolIdentity: "id-1"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range step.Edits {
				if c, ok := events.ParseCatalog(e.Message.Source); ok {
					for _, en := range c.Entries {
						got = append(got, en.Name)
					}
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("catalog lists %q, want %q", got, tc.want)
			}
		})
	}
}
