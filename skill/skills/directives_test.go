package skills_test

import (
	"testing"

	"github.com/skillcatalog/skillcatalog/skill"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// TestDirectivesTrust: the registry decides whether a skill's directives
// are Trusted. A remote skill's (one with an Origin) never are, whatever
// its provider says, unless the host opted in for the provider
// (ProviderOptions.TrustDirectives); any other skill's keep the mark its
// provider gave them; a runtime skill's always are. The provider's own
// directives are never changed.
func TestDirectivesTrust(t *testing.T) {
	asks := func(trusted bool) *skill.Directives {
		return &skill.Directives{Model: "opus", Trusted: trusted}
	}
	for _, tc := range []struct {
		name       string
		origin     string
		provider   bool // the provider's own mark
		optIn      bool
		wantTrusts bool
	}{
		{"remote, claims trust", "docs", true, false, false},
		{"remote, opted in", "docs", false, true, true},
		{"local, trusted by its provider", "", true, false, true},
		{"local, untrusted by its provider", "", false, false, false},
		{"local, opted in", "", false, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum := skill.Summary{Name: "deploy", Description: "Deploy.", Invocation: skill.DefaultPolicy(), Origin: tc.origin}
			if tc.origin != "" {
				sum.QualifiedName = tc.origin + ":deploy"
			}
			p := newFake(true, sum)
			own := asks(tc.provider)
			setLoaded(t, p, "deploy", skill.Definition{Summary: sum, Content: "Do it.", Directives: own})
			r := skilltest.NewRegistry(t)
			r.AddProvider("global", p, &skills.ProviderOptions{TrustDirectives: tc.optIn})
			def, found, err := r.Get(t.Context(), skills.Query{Chain: []string{"global"}}, "deploy")
			if err != nil || !found {
				t.Fatalf("Get: %v, %v", found, err)
			}
			if def.Directives == nil || def.Directives.Trusted != tc.wantTrusts || def.Directives.Model != "opus" {
				t.Errorf("directives %+v, want trusted %v", def.Directives, tc.wantTrusts)
			}
		})
	}
}

// TestRuntimeSkillDirectives: a runtime skill's directives are the host's
// own, Trusted; an unknown execution context is refused.
func TestRuntimeSkillDirectives(t *testing.T) {
	r := skilltest.NewRegistry(t)
	d := &skill.Directives{Context: skill.ContextFork, Agent: "Explore", AllowedTools: []string{"Read"}}
	if err := r.Register("global", skills.RuntimeSkill{Name: "explore", Description: "Explore.", Content: "Look.", Directives: d}); err != nil {
		t.Fatal(err)
	}
	d.AllowedTools[0] = "changed after"
	def, found, err := r.Get(t.Context(), skills.Query{Chain: []string{"global"}}, "explore")
	if err != nil || !found {
		t.Fatalf("Get: %v, %v", found, err)
	}
	if got := def.Directives; got == nil || !got.Trusted || got.Agent != "Explore" || got.AllowedTools[0] != "Read" {
		t.Errorf("directives %+v", got)
	}
	err = r.Register("global", skills.RuntimeSkill{Name: "odd", Description: "Odd.", Directives: &skill.Directives{Context: "sideways"}})
	if err == nil {
		t.Error("an unknown execution context was registered")
	}
	for name, bad := range map[string]skill.Directives{
		"shell": {Shell: "zsh"}, "effort": {Effort: "extreme"}, "hooks": {Hooks: "./run.sh"},
	} {
		if err := r.Register("global", skills.RuntimeSkill{Name: "odd", Description: "Odd.", Directives: &bad}); err == nil {
			t.Errorf("an unknown %s was registered", name)
		}
	}
	ok := skill.Directives{Shell: skill.ShellPowerShell, Effort: "xhigh", Hooks: `{"Stop":[]}`, DisallowedTools: []string{"Write"}}
	if err := r.Register("global", skills.RuntimeSkill{Name: "later", Description: "Later.", Directives: &ok}); err != nil {
		t.Errorf("Claude Code's later directives refused: %v", err)
	}
}
