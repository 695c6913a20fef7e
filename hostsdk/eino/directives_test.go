package skilleino_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// openDirected opens a host over directedSkills whose log goes to logs.
func openDirected(t *testing.T, logs *syncBuffer) *hostsdk.Host {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{directedSkills(t)},
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	return host
}

// TestTwoAdaptersOnOneHost: each adapter answers for the skills its own
// agent loads. A fork skill loaded by the agent of an adapter without
// agents runs inline, and says so, though another adapter of the host,
// made later, has the agent; that adapter's agent runs it in its
// sub-agent.
func TestTwoAdaptersOnOneHost(t *testing.T) {
	logs := &syncBuffer{}
	host := openDirected(t, logs)
	logger := slog.New(slog.NewTextHandler(logs, nil))
	plain, err := skilleino.New(t.Context(), host, &skilleino.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	researcher, sub := subAgent(t, "researcher")
	forking, err := skilleino.New(t.Context(), host, &skilleino.Options{Agents: skilleino.Agents{"researcher": researcher}, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	plainModel, forkingModel := newScriptedModel(), newScriptedModel()
	plainConv := &conversation{runner: newAgentRunner(t, plainModel, plain.Middleware()), opts: []adk.AgentRunOption{skilleino.WithSession("plain")}}
	forkingConv := &conversation{runner: newAgentRunner(t, forkingModel, forking.Middleware()), opts: []adk.AgentRunOption{skilleino.WithSession("forking")}}

	plainModel.queue(toolCall("c1", "skill", `{"name":"deep-research"}`), answer("Done."))
	plainConv.turn(t, "Go.")
	got := lastToolResult(t, plainModel.last(t))
	want := &skill.Directives{Context: skill.ContextFork, Agent: "researcher", Trusted: true}
	if !hasBlock(got, "deep-research") || !strings.HasSuffix(got, "</skill_content>\n"+render.DirectivesNotice("deep-research", want)) {
		t.Errorf("the adapter without agents answers:\n%s\nwant the skill inline, said so", got)
	}
	if len(sub.requests()) != 0 {
		t.Error("the other adapter's sub-agent ran for the adapter without agents")
	}

	sub.queue(answer("Researched."))
	forkingModel.queue(toolCall("c1", "skill", `{"name":"deep-research"}`), answer("Done."))
	forkingConv.turn(t, "Go.")
	if got := lastToolResult(t, forkingModel.last(t)); got != "Researched." {
		t.Errorf("the adapter with the agent answers %q, want its sub-agent's answer", got)
	}
}

// hangingModel is a model that never answers, whatever its context says,
// until the test ends.
type hangingModel struct {
	release <-chan struct{}
	calls   atomic.Int32
}

func newHangingModel(t *testing.T) *hangingModel {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return &hangingModel{release: release}
}

func (m *hangingModel) Generate(context.Context, []*schema.Message, ...model.Option) (*schema.Message, error) {
	m.calls.Add(1)
	<-m.release
	return nil, errors.New("hanging model: released")
}

func (m *hangingModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	_, err := m.Generate(ctx, input, opts...)
	return nil, err
}

func (m *hangingModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

// TestForkSubAgentThatNeverAnswers: a sub-agent that never answers is
// stopped after Options.ForkTimeout; the skill runs inline, and its result
// says so and why. The caller's own deadline, far later, is not reached.
func TestForkSubAgentThatNeverAnswers(t *testing.T) {
	hanging := newHangingModel(t)
	researcher, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{Name: "researcher", Description: "Researches.", Instruction: "You research.", Model: hanging})
	if err != nil {
		t.Fatal(err)
	}
	d := newDirected(t, skilleino.Options{Agents: skilleino.Agents{"researcher": researcher}, ForkTimeout: 300 * time.Millisecond}, false)
	d.main.queue(toolCall("c1", "skill", `{"name":"deep-research"}`), answer("Done."))
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if _, err := runTurn(ctx, d.conv.runner, []*schema.Message{schema.UserMessage("Go.")}, d.conv.opts...); err != nil {
		t.Fatalf("the Run with a sub-agent that never answers: %v", err)
	}
	if hanging.calls.Load() != 1 {
		t.Fatalf("the sub-agent's model was called %d times, want once", hanging.calls.Load())
	}
	got := lastToolResult(t, d.main.last(t))
	want := &skill.Directives{Context: skill.ContextFork, Agent: "researcher", Trusted: true}
	notice := render.DirectivesNotice("deep-research", want)
	if !hasBlock(got, "deep-research") || !strings.HasSuffix(got, "</skill_content>\n"+notice+"\nThe skill's sub-agent was started first, did not answer within 300ms, and was stopped.") {
		t.Errorf("the result of a fork that timed out:\n%s\nwant the skill inline, said so, and that the sub-agent did not answer", got)
	}
}

// TestForkSubAgentWithTheAdaptersMiddleware: a sub-agent built with the
// adapter's own middleware runs in a session of its own, derived from its
// parent's, with the catalog; its answer is the tool result, and the
// parent's log holds none of its messages.
func TestForkSubAgentWithTheAdaptersMiddleware(t *testing.T) {
	agents := skilleino.Agents{}
	d := newDirected(t, skilleino.Options{Agents: agents}, false)
	subModel := newScriptedModel()
	researcher, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{Name: "researcher", Description: "Researches.",
		Instruction: "You research.", Model: subModel, Middlewares: []adk.AgentMiddleware{d.skills.Middleware()}})
	if err != nil {
		t.Fatal(err)
	}
	agents["researcher"] = researcher
	subModel.queue(answer("Researched with skills."))
	d.main.queue(toolCall("c1", "skill", `{"name":"deep-research"}`), answer("Done."))
	d.conv.turn(t, "Go.")
	if got := lastToolResult(t, d.main.last(t)); got != "Researched with skills." {
		t.Fatalf("the tool result is %q, want the sub-agent's answer", got)
	}
	var seen []string
	for _, m := range subModel.last(t).Messages {
		switch {
		case m.Role == schema.System:
		case hasBlock(m.Content, "deep-research"):
			seen = append(seen, "skill")
		case strings.Contains(m.Content, "<available_skills>"):
			seen = append(seen, "catalog")
		default:
			seen = append(seen, m.Content)
		}
	}
	if strings.Join(seen, ", ") != "skill, catalog" {
		t.Errorf("the sub-agent sees %q, want the skill and its catalog", seen)
	}
	child, err := d.host.Session("s1/fork/c1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(child) != 3 || !hasBlock(child[0].Message.Text(), "deep-research") || child[2].Message.Text() != "Researched with skills." {
		t.Errorf("the sub-agent's session holds %d messages, want the skill, its catalog and the answer", len(child))
	}
	parent, err := d.host.Session("s1", nil).Transcript(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range parent {
		if strings.Contains(e.Message.Text(), "Researched with skills.") && e.Message.Role != hostsdk.RoleTool {
			t.Errorf("the parent's log holds the sub-agent's message %q", e.Message.Text())
		}
	}
}

// TestForkTimeoutBound: a negative Options.ForkTimeout is refused, naming
// the option and its bound; 0 and a positive one are taken.
func TestForkTimeoutBound(t *testing.T) {
	d := newDirected(t, skilleino.Options{}, false)
	for _, tc := range []struct {
		timeout time.Duration
		ok      bool
	}{{-time.Nanosecond, false}, {0, true}, {time.Nanosecond, true}} {
		_, err := skilleino.New(t.Context(), d.host, &skilleino.Options{ForkTimeout: tc.timeout})
		if tc.ok != (err == nil) || (err != nil && (!strings.Contains(err.Error(), "Options.ForkTimeout") || !strings.Contains(err.Error(), "must be 0"))) {
			t.Errorf("ForkTimeout %v: %v", tc.timeout, err)
		}
	}
}
