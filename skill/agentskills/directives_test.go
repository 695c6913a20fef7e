package agentskills

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/skill"
)

// TestDirectivesAsClaudeCodeWritesThem: the Claude Code preset reads the
// skills of ~/.claude/skills, and their `context`, `agent`, `model` and
// `allowed-tools` as Claude Code's documentation writes them reach the
// loaded definition, trusted; a bad value is a warning and never stops the
// skill from loading.
func TestDirectivesAsClaudeCodeWritesThem(t *testing.T) {
	for _, tc := range []struct {
		name  string
		front string
		want  *skill.Directives
		warn  string // a warning the provider reports, "" for none
	}{
		{"fork-explore", "context: fork\nagent: Explore\n", &skill.Directives{Context: skill.ContextFork, Agent: "Explore", Trusted: true}, ""},
		{"fork-default-agent", "context: fork\n", &skill.Directives{Context: skill.ContextFork, Trusted: true}, ""},
		{"eino-with-context", "context: fork_with_context\nagent: researcher\n", &skill.Directives{Context: skill.ContextForkWithConversation, Agent: "researcher", Trusted: true}, ""},
		{"model-alias", "model: opus\n", &skill.Directives{Model: "opus", Trusted: true}, ""},
		{"model-inherit", "model: inherit\n", nil, ""},
		{"tools-commas", "allowed-tools: Read, Grep, Glob\n", &skill.Directives{AllowedTools: []string{"Read", "Grep", "Glob"}, Trusted: true}, ""},
		{"tools-patterns", "allowed-tools: Bash(git add *) Bash(git commit *) Bash(git status *)\n",
			&skill.Directives{AllowedTools: []string{"Bash(git add *)", "Bash(git commit *)", "Bash(git status *)"}, Trusted: true}, ""},
		{"tools-list", "allowed-tools:\n  - Bash(git:*)\n  - Read\n", &skill.Directives{AllowedTools: []string{"Bash(git:*)", "Read"}, Trusted: true}, ""},
		{"tools-flow", "allowed-tools: [Read, WebFetch(domain:example.com)]\n",
			&skill.Directives{AllowedTools: []string{"Read", "WebFetch(domain:example.com)"}, Trusted: true}, ""},
		{"everything", "context: fork\nagent: Plan\nmodel: sonnet\nallowed-tools: Bash(gh *)\n",
			&skill.Directives{Context: skill.ContextFork, Agent: "Plan", Model: "sonnet", AllowedTools: []string{"Bash(gh *)"}, Trusted: true}, ""},

		{"bad-context", "context: forked\nmodel: haiku\n", &skill.Directives{Model: "haiku", Trusted: true,
			Diagnostics: []string{`context "forked" is not "fork" or "fork_with_context"; the skill runs inline`}}, `context "forked" is not`},
		{"context-a-list", "context: [fork]\n", &skill.Directives{Trusted: true,
			Diagnostics: []string{"context is a list, not a string; the skill runs inline"}}, "context is a list"},
		{"model-a-number", "model: 4\n", &skill.Directives{Trusted: true,
			Diagnostics: []string{"model is a number, not a string; ignored"}}, "model is a number"},
		{"agent-without-fork", "agent: Explore\n", &skill.Directives{Trusted: true,
			Diagnostics: []string{"agent \"Explore\" names the sub-agent of `context: fork`, which the skill does not ask for; ignored"}}, "agent \"Explore\" names"},
		{"tools-a-mapping", "allowed-tools: {Read: true}\n", &skill.Directives{Trusted: true,
			Diagnostics: []string{"allowed-tools is a mapping, not a string or a list; ignored"}}, "allowed-tools is a mapping"},
		{"tools-unclosed", "allowed-tools: Read Bash(git add *\n", &skill.Directives{AllowedTools: []string{"Read", "Bash(git add *"}, Trusted: true,
			Diagnostics: []string{`allowed-tools "Read Bash(git add *" opens a parenthesis it does not close; its last tool runs to the end`}}, "opens a parenthesis"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			writeText(t, filepath.Join(home, ".claude", "skills", tc.name, skillFileName),
				"---\nname: "+tc.name+"\ndescription: A skill.\n"+tc.front+"---\nDo it.\n")
			p := mustNew(t, Options{HomeDir: home, Presets: []Preset{PresetClaudeCode}})
			mustList(t, p, "")
			def := mustLoad(t, p, "", tc.name)
			if diff := cmp.Diff(tc.want, def.Directives); diff != "" {
				t.Errorf("directives (-want +got):\n%s", diff)
			}
			if tc.warn != "" {
				requireDiag(t, p.Diagnostics(), tc.name+"/SKILL.md", tc.warn, SeverityWarning)
			}
		})
	}
}

// TestChangedDirectivesReachTheNextLoad: a SKILL.md whose `model:` changes,
// and nothing else, loads with the new model next time, and one whose
// directives go away loads without them.
func TestChangedDirectivesReachTheNextLoad(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "review", skillFileName)
	write := func(front string) {
		writeText(t, file, "---\nname: review\ndescription: Review a change.\n"+front+"---\nReview it.\n")
	}
	write("model: sonnet\n")
	p := mustNew(t, Options{HomeDir: t.TempDir(), ExtraRoots: []string{root}, Watch: true})
	mustList(t, p, "")
	if got := mustLoad(t, p, "", "review").Directives; got == nil || got.Model != "sonnet" {
		t.Fatalf("first load: %+v", got)
	}
	write("model: opus\n")
	if got := mustLoad(t, p, "", "review").Directives; got == nil || got.Model != "opus" {
		t.Errorf("after the edit: %+v, want model opus", got)
	}
	write("")
	if got := mustLoad(t, p, "", "review").Directives; got != nil {
		t.Errorf("after the directives went: %+v", got)
	}
}
