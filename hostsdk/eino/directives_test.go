package skilleino_test

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// directedSkills writes skills that ask for directives, as Claude Code and
// Eino write them, and returns their directory.
func directedSkills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, front := range map[string]string{
		"deep-research": "context: fork\nagent: researcher\n",
		"follow-up":     "context: fork_with_context\nagent: researcher\n",
		"hard-proof":    "model: opus\n",
		"no-agent":      "context: fork\nagent: Explore\n",
	} {
		writeFile(t, filepath.Join(dir, name, "SKILL.md"),
			"---\nname: "+name+"\ndescription: The "+name+" skill.\n"+front+"---\nDo "+name+" now.\n")
	}
	return dir
}

// directed is an agent with the adapter over skills that ask for
// directives, its model behind Skills.Model when wrap is set.
type directed struct {
	host   *hostsdk.Host
	main   *scriptedModel
	skills *skilleino.Skills
	conv   *conversation
}

func newDirected(t *testing.T, opts skilleino.Options, wrap bool) *directed {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{directedSkills(t)}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	opts.Logger = slog.New(slog.DiscardHandler)
	skills, err := skilleino.New(t.Context(), host, &opts)
	if err != nil {
		t.Fatal(err)
	}
	d := &directed{host: host, main: newScriptedModel(), skills: skills}
	var m model.ToolCallingChatModel = d.main
	if wrap {
		m = skills.Model(d.main)
	}
	d.conv = &conversation{runner: newAgentRunner(t, m, skills.Middleware()), opts: []adk.AgentRunOption{skilleino.WithSession("s1")}}
	return d
}

// subAgent is a sub-agent over its own scripted model.
func subAgent(t *testing.T, name string) (adk.Agent, *scriptedModel) {
	t.Helper()
	m := newScriptedModel()
	a, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{Name: name, Description: "Researches.", Instruction: "You research.", Model: m})
	if err != nil {
		t.Fatal(err)
	}
	return a, m
}

// hasBlock reports whether text starts with the <skill_content> block of a
// skill of directedSkills.
func hasBlock(text, name string) bool {
	return strings.HasPrefix(text, `<skill_content name="`+name+`">`) && strings.Contains(text, "Do "+name+" now.\n</skill_instructions>\n</skill_content>")
}

// TestForkSkillRunsInItsSubAgent: a `context: fork` skill the model loads
// runs in the sub-agent its `agent` names, which sees the skill and
// nothing of the conversation; its answer, alone, is the tool result.
func TestForkSkillRunsInItsSubAgent(t *testing.T) {
	researcher, sub := subAgent(t, "researcher")
	d := newDirected(t, skilleino.Options{Agents: skilleino.Agents{"researcher": researcher}}, false)
	sub.queue(answer("Three files define the parser."))
	d.main.queue(toolCall("c1", "skill", `{"name":"deep-research"}`), answer("Done."))
	d.conv.turn(t, "Where is the parser defined?")

	subReqs := sub.requests()
	if len(subReqs) != 1 {
		t.Fatalf("the sub-agent's model was called %d times, want once", len(subReqs))
	}
	var user []*schema.Message
	for _, m := range subReqs[0].Messages {
		if m.Role != schema.System {
			user = append(user, m)
		}
	}
	if len(user) != 1 || user[0].Role != schema.User || !hasBlock(user[0].Content, "deep-research") {
		t.Fatalf("the sub-agent sees %d messages besides its instruction, want the skill alone: %+v", len(user), user)
	}
	if strings.Contains(user[0].Content, "parser") || strings.Contains(user[0].Content, "<skill_directives") {
		t.Errorf("the sub-agent's task holds more than the skill:\n%s", user[0].Content)
	}
	reqs := d.main.requests()
	if got := lastToolResult(t, reqs[len(reqs)-1]); got != "Three files define the parser." {
		t.Errorf("the tool result is %q, want the sub-agent's answer", got)
	}
}

// TestForkWithContextSeesTheConversation: a `context: fork_with_context`
// skill's sub-agent sees the conversation so far (the caller's messages,
// not the plugin's catalog, no pending tool call), then the skill; its
// answer is the tool result.
func TestForkWithContextSeesTheConversation(t *testing.T) {
	researcher, sub := subAgent(t, "researcher")
	d := newDirected(t, skilleino.Options{Agents: skilleino.Agents{"researcher": researcher}}, false)
	d.main.queue(answer("It is in parse.go."))
	d.conv.turn(t, "Where is the parser?")
	sub.queue(answer("parse.go calls lex.go."))
	d.main.queue(toolCall("c1", "skill", `{"name":"follow-up"}`), answer("Done."))
	d.conv.turn(t, "And what does it call?")

	subReqs := sub.requests()
	if len(subReqs) != 1 {
		t.Fatalf("the sub-agent's model was called %d times, want once", len(subReqs))
	}
	var got []string
	for _, m := range subReqs[0].Messages {
		switch {
		case m.Role == schema.System:
		case strings.Contains(m.Content, "<available_skills>"):
			t.Errorf("the sub-agent sees the catalog:\n%s", m.Content)
		case len(m.ToolCalls) > 0:
			t.Errorf("the sub-agent sees a tool call: %+v", m.ToolCalls)
		case hasBlock(m.Content, "follow-up"):
			got = append(got, "skill")
		default:
			got = append(got, string(m.Role)+": "+m.Content)
		}
	}
	want := []string{"user: Where is the parser?", "assistant: It is in parse.go.", "user: And what does it call?", "skill"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the sub-agent sees:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	reqs := d.main.requests()
	if got := lastToolResult(t, reqs[len(reqs)-1]); got != "parse.go calls lex.go." {
		t.Errorf("the tool result is %q, want the sub-agent's answer", got)
	}
}

// TestModelSkillRunsOnTheNamedModel: a `model:` skill the model loads
// switches the rest of the Run to the model the hub gives, with the
// agent's tools; the next Run starts on the agent's own model again.
func TestModelSkillRunsOnTheNamedModel(t *testing.T) {
	opus := newScriptedModel()
	d := newDirected(t, skilleino.Options{Models: skilleino.Models{"opus": opus}}, true)
	d.main.queue(toolCall("c1", "skill", `{"name":"hard-proof"}`))
	opus.queue(answer("Proved on opus."))
	d.conv.turn(t, "Prove it.")
	if got := len(d.main.requests()); got != 1 {
		t.Errorf("the agent's model was called %d times, want once (before the skill)", got)
	}
	on := opus.requests()
	if len(on) != 1 {
		t.Fatalf("opus was called %d times, want once (after the skill)", len(on))
	}
	if result := lastToolResult(t, on[0]); !hasBlock(result, "hard-proof") || strings.Contains(result, "<skill_directives") {
		t.Errorf("the skill's result states a directive the adapter acted on:\n%s", result)
	}
	if toolNames(on[0]) != "skill,skill_resource" {
		t.Errorf("opus is offered the tools %s", toolNames(on[0]))
	}
	d.main.queue(answer("Back on the agent's model."))
	d.conv.turn(t, "Thanks.")
	if got := len(d.main.requests()); got != 2 || len(opus.requests()) != 1 {
		t.Errorf("the next Run: agent's model %d calls, opus %d; want it back on the agent's model", got, len(opus.requests()))
	}
}

// TestModelSkillInvokedByTheUser: a user's `/name` of a `model:` skill
// runs the Run's first model call on the named model.
func TestModelSkillInvokedByTheUser(t *testing.T) {
	opus := newScriptedModel()
	d := newDirected(t, skilleino.Options{Models: skilleino.Models{"opus": opus}}, true)
	opus.queue(answer("On opus from the start."))
	d.conv.turn(t, "/hard-proof the lemma")
	if len(d.main.requests()) != 0 || len(opus.requests()) != 1 {
		t.Fatalf("agent's model %d calls, opus %d; want opus alone", len(d.main.requests()), len(opus.requests()))
	}
	invoked := false
	for _, m := range opus.requests()[0].Messages {
		if hasBlock(m.Content, "hard-proof") {
			invoked = !strings.Contains(m.Content, "<skill_directives")
		}
	}
	if !invoked {
		t.Error("opus does not see the invoked skill, or it states the model it runs on as not acted on")
	}
}

// TestDirectivesWithoutHooks: with no hub, or none for what a skill asks,
// a skill runs inline on the agent's model, as before, and its result says
// so: the block, then the notice.
func TestDirectivesWithoutHooks(t *testing.T) {
	researcher, sub := subAgent(t, "researcher")
	for _, tc := range []struct {
		name  string
		opts  skilleino.Options
		skill string
		want  skill.Directives
	}{
		{"no hubs: a fork", skilleino.Options{}, "deep-research", skill.Directives{Context: skill.ContextFork, Agent: "researcher", Trusted: true}},
		{"no hubs: a model", skilleino.Options{}, "hard-proof", skill.Directives{Model: "opus", Trusted: true}},
		{"an agent the hub lacks", skilleino.Options{Agents: skilleino.Agents{"researcher": researcher}}, "no-agent", skill.Directives{Context: skill.ContextFork, Agent: "Explore", Trusted: true}},
		{"a model hub without Skills.Model", skilleino.Options{Models: skilleino.Models{"opus": newScriptedModel()}}, "hard-proof", skill.Directives{Model: "opus", Trusted: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDirected(t, tc.opts, false)
			d.main.queue(toolCall("c1", "skill", `{"name":"`+tc.skill+`"}`), answer("Done."))
			d.conv.turn(t, "Go.")
			reqs := d.main.requests()
			if len(reqs) != 2 {
				t.Fatalf("the agent's model was called %d times, want 2", len(reqs))
			}
			got := lastToolResult(t, reqs[1])
			notice := render.DirectivesNotice(tc.skill, &tc.want)
			if notice == "" || !strings.HasSuffix(got, "</skill_content>\n"+notice) || !hasBlock(got, tc.skill) {
				t.Errorf("the result does not end with the notice:\n%s\nwant notice:\n%s", got, notice)
			}
		})
	}
	if len(sub.requests()) != 0 {
		t.Error("a sub-agent ran")
	}
}

// TestForkSubAgentFailureRunsInline: a sub-agent that fails leaves the
// skill inline, and its result says so; the Run goes on.
func TestForkSubAgentFailureRunsInline(t *testing.T) {
	researcher, sub := subAgent(t, "researcher") // no reply queued: its model fails
	d := newDirected(t, skilleino.Options{Agents: skilleino.Agents{"researcher": researcher}}, false)
	d.main.queue(toolCall("c1", "skill", `{"name":"deep-research"}`), answer("Done."))
	d.conv.turn(t, "Go.")
	if len(sub.requests()) != 1 {
		t.Fatalf("the sub-agent's model was called %d times, want once", len(sub.requests()))
	}
	reqs := d.main.requests()
	got := lastToolResult(t, reqs[len(reqs)-1])
	want := &skill.Directives{Context: skill.ContextFork, Agent: "researcher", Trusted: true}
	if !hasBlock(got, "deep-research") || !strings.HasSuffix(got, "</skill_content>\n"+render.DirectivesNotice("deep-research", want)) {
		t.Errorf("the result of a failed fork:\n%s", got)
	}
}
