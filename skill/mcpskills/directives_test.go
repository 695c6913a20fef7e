package mcpskills

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
)

// TestIndexedSkillDirectives: a skill of a server of the older index
// convention carries the directives of the SKILL.md it loads, as requests
// (not Trusted), malformed values reported; a skill without frontmatter
// asks for nothing.
func TestIndexedSkillDirectives(t *testing.T) {
	m := newMemServer()
	m.SetSkill("deploy", "Deploy.", "---\nname: deploy\ndescription: x\ncontext: fork\nagent: Explore\nmodel: 7\nallowed-tools: Bash(kubectl apply *), Read\n---\nDeploy it.\n")
	m.SetSkill("audit", "Audit logs.", "# Audit\n")
	p := newMemProvider(t, m, Options{Label: "remote"})
	listSkills(t, p, "s1")
	want := &skill.Directives{Context: skill.ContextFork, Agent: "Explore", AllowedTools: []string{"Bash(kubectl apply *)", "Read"},
		Diagnostics: []string{"model is a number, not a string; ignored"}}
	if diff := cmp.Diff(want, load(t, p, "s1", "deploy").Directives); diff != "" {
		t.Errorf("directives (-want +got):\n%s", diff)
	}
	if d := load(t, p, "s1", "audit").Directives; d != nil {
		t.Errorf("a skill without frontmatter: %+v", d)
	}
}
