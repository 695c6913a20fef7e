package mcpskills

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// TestReadSkillResource: the skills.ResourceReader of the provider maps a
// path to the skill's canonical URI, reads it through the session's view,
// and maps refusals to the registry's errors. Paths that the plugin would
// refuse never reach the server either: dot segments and other packages
// fail ValidateChildURI, and a percent sign is encoded as itself.
func TestReadSkillResource(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "# Deploy\nRun scripts/run sh.py\n")
	m.SetResource("skill://deploy/scripts/run%20sh.py", "echo hi\n")
	m.SetResource("skill://other/secret.md", "secret")
	p := newMemProvider(t, m, Options{})
	ctx := t.Context()

	data, err := p.ReadSkillResource(ctx, skills.ResourceRequest{SessionID: "s1", Name: "deploy", Path: "scripts/run sh.py"})
	if err != nil || string(data) != "echo hi\n" {
		t.Fatalf("read = %q, %v", data, err)
	}
	if _, err := p.ReadSkillResource(ctx, skills.ResourceRequest{SessionID: "s1", Name: "deploy", Path: "scripts/missing.py"}); !errors.Is(err, skills.ErrResourceNotFound) {
		t.Errorf("missing resource = %v, want skills.ErrResourceNotFound", err)
	}
	if _, err := p.ReadSkillResource(ctx, skills.ResourceRequest{SessionID: "s1", Name: "other", Path: "secret.md"}); !errors.Is(err, skills.ErrSkillNotFound) {
		t.Errorf("unlisted skill = %v, want skills.ErrSkillNotFound", err)
	}
	for _, path := range []string{"..", "../other/secret.md", "a/../../other/secret.md", "./x", "", "a//b", "/abs"} {
		if _, err := p.ReadSkillResource(ctx, skills.ResourceRequest{SessionID: "s1", Name: "deploy", Path: path}); !errors.Is(err, skills.ErrInvalidResourcePath) {
			t.Errorf("path %q = %v, want skills.ErrInvalidResourcePath", path, err)
		}
	}
	// "%2e%2e" is a file name with percent signs, encoded as such.
	if _, err := p.ReadSkillResource(ctx, skills.ResourceRequest{SessionID: "s1", Name: "deploy", Path: "%2e%2e/other/secret.md"}); !errors.Is(err, skills.ErrResourceNotFound) {
		t.Errorf("percent path = %v, want skills.ErrResourceNotFound", err)
	}
	wantReads(t, m.Server, "skill://other/secret.md", 0)
}

func TestEscapePath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"scripts/run.py": "scripts/run.py",
		"a b/c~d_e-f.g":  "a%20b/c~d_e-f.g",
		"é":              "%C3%A9",
		"%2e":            "%252e",
		"a:b@c":          "a%3Ab%40c",
	} {
		if got := escapePath(in); got != want {
			t.Errorf("escapePath(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(want, "/") && ValidateChildURI("x", BaseURI("x")+escapePath(in)) != nil {
			t.Errorf("escaped %q is not canonical", in)
		}
	}
}
