package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// directed is a skill on disk that asks for a forked sub-agent, a model and
// tools, of which the host acts on the model.
func directed() skill.Definition {
	def := definition("deploy-preview", skill.DefaultPolicy(), "Deploy the branch to a preview environment.")
	def.Directives = &skill.Directives{Context: skill.ContextFork, Agent: "Explore", Model: "opus",
		AllowedTools: []string{"Bash(git add *)", "Read"}, Trusted: true, Honoured: skill.DirectiveModel,
		Diagnostics: []string{"a diagnostic"}}
	return def
}

// TestSkillToolDirectives: the `skill` tool returns the skill's directives
// beside its text, and the text ends with the notice of what the host
// does not act on; a skill without directives is answered as it always
// was.
func TestSkillToolDirectives(t *testing.T) {
	def := directed()
	plain := definition("plain", skill.DefaultPolicy(), "Plain.")
	mem := newMemHost(def.Summary, plain.Summary)
	mem.defs[def.Name], mem.defs[plain.Name] = def, plain
	e := newEngine()
	call := func(name string) contract.ToolResult {
		t.Helper()
		res, err := e.executeSkillTool(context.Background(), mem, testMount(), contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", Arguments: []byte(`{"name":"` + name + `"}`)})
		if err != nil || res.IsError {
			t.Fatalf("skill %s: %q, %v", name, res.Text, err)
		}
		return res
	}

	res := call(def.Name)
	if diff := cmp.Diff(def.Directives, res.Directives); diff != "" {
		t.Errorf("directives (-want +got):\n%s", diff)
	}
	want := render.WithDirectivesNotice(rendered(t, def), def.Name, def.Directives)
	if res.Text != want {
		t.Errorf("text (-want +got):\n%s", cmp.Diff(want, res.Text))
	}
	if notice := render.DirectivesNotice(def.Name, def.Directives); notice == "" || res.Text == rendered(t, def) {
		t.Error("the text does not state the directives the host does not act on")
	}

	res = call(plain.Name)
	if res.Directives != nil || res.Text != rendered(t, plain) {
		t.Errorf("a skill without directives: %+v, %q", res.Directives, res.Text)
	}
}

// TestSkillToolDirectivesOfARemoteListing: a skill its listing shows as
// remote, whose definition names no origin, is not vouched for: its
// directives are requests, stated as not acted on whatever the host says
// it honours.
func TestSkillToolDirectivesOfARemoteListing(t *testing.T) {
	def := directed()
	def.Directives.Honoured = skill.AllDirectives
	sum := def.Summary
	sum.Origin = "docs"
	mem := newMemHost(sum)
	mem.defs[def.Name] = def
	res, err := newEngine().executeSkillTool(context.Background(), mem, testMount(), contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", Arguments: []byte(`{"name":"deploy-preview"}`)})
	if err != nil || res.IsError {
		t.Fatalf("%q, %v", res.Text, err)
	}
	if res.Directives.Trusted || res.Directives.Acted() != 0 {
		t.Errorf("a remote listing's directives are trusted: %+v", res.Directives)
	}
	if def.Directives.Trusted != true {
		t.Error("the host's definition was changed")
	}
	value := def.ToolValue()
	value.Origin = "docs"
	text, err := render.SkillContent(value, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := render.WithDirectivesNotice(text, def.Name, res.Directives); res.Text != want {
		t.Errorf("text (-want +got):\n%s", cmp.Diff(want, res.Text))
	}
}

// TestUserInvocationDirectives: a skill the user invokes by name comes
// back in the step's Invocations with its directives, and its message ends
// with the same notice as the `skill` tool's text.
func TestUserInvocationDirectives(t *testing.T) {
	def := directed()
	plain := definition("plain", skill.DefaultPolicy(), "Plain.")
	mem := newMemHost(def.Summary, plain.Summary)
	mem.defs[def.Name], mem.defs[plain.Name] = def, plain
	e := newEngine()
	req := step(mem, enter(typed("u1", "/deploy-preview and /plain")))
	resp := mustPreStep(t, e, mem, invocationMount(), req)
	wantInv := []contract.Invocation{
		{Name: "deploy-preview", MessageID: "skill-invocation-s1-0-deploy-preview", Directives: def.Directives},
		{Name: "plain", MessageID: "skill-invocation-s1-0-plain"},
	}
	if diff := cmp.Diff(wantInv, resp.Invocations); diff != "" {
		t.Errorf("invocations (-want +got):\n%s", diff)
	}
	texts := map[string]string{}
	for _, ed := range resp.Edits {
		texts[ed.Message.ID] = ed.Message.Text()
	}
	tool, err := e.executeSkillTool(context.Background(), mem, invocationMount(), contract.ToolCall{SessionID: "s1", Cwd: "/w", AgentScope: "global", Arguments: []byte(`{"name":"deploy-preview"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := texts["skill-invocation-s1-0-deploy-preview"]; got != tool.Text {
		t.Errorf("the invocation's message differs from the skill tool's text (-tool +message):\n%s", cmp.Diff(tool.Text, got))
	}
	if got := texts["skill-invocation-s1-0-plain"]; got != rendered(t, plain) {
		t.Errorf("a skill without directives: %q", got)
	}
}

// TestUserInvocationDirectivesGolden pins the message a user invocation
// adds for a skill whose fork the host does not act on.
func TestUserInvocationDirectivesGolden(t *testing.T) {
	def := definition("deploy-prod", skill.InvocationPolicy{UserInvocable: true}, "# Deploy\n\nRun `make deploy` & watch <the dashboard>.")
	def.Provider = "agentskills"
	def.ResourceBase.Path = "/home/dev/.agents/skills/deploy-prod"
	def.Directives = &skill.Directives{Context: skill.ContextFork, Agent: "general-purpose", Trusted: true}
	mem := newMemHost(def.Summary)
	mem.defs[def.Name] = def
	h := &recordingHost{memHost: mem}
	resp, err := newEngine().preStep(context.Background(), h, invocationMount(), step(mem, enter(typed("u1", "Ship it: /deploy-prod"))))
	if err != nil || len(resp.Edits) != 1 {
		t.Fatalf("%+v, %v", resp.Edits, err)
	}
	golden, err := os.ReadFile(filepath.Join("..", "render", "testdata", "user_invocation_message_directives.golden"))
	if err != nil {
		t.Fatal(err)
	}
	want := string(golden)
	if diff := cmp.Diff(want, resp.Edits[0].Message.Text()); diff != "" {
		t.Errorf("injected text (-want +got):\n%s", diff)
	}
}
