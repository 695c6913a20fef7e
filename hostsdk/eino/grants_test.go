package skilleino_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
	"github.com/skillcatalog/skillcatalog/render"
)

// fetchTool is a runtime tool of the agent's own, counting its runs.
type fetchTool struct{ runs atomic.Int32 }

func (f *fetchTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "web_fetch", Desc: "Fetches a page."}, nil
}

func (f *fetchTool) InvokableRun(context.Context, string, ...tool.Option) (string, error) {
	f.runs.Add(1)
	return "the page", nil
}

func offeredNames(tools []*schema.ToolInfo) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

// TestToolGrantsThroughEinosLoop: with the host's enforced grants, once
// the model loads a skill whose disallowed-tools name web_fetch, Eino's
// own loop offers the model the tools without it, and a call of it is
// answered with the refusal naming the skill, the tool never run; the
// next user turn offers it again and runs it.
func TestToolGrantsThroughEinosLoop(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "release", "SKILL.md"),
		"---\nname: release\ndescription: Cuts a release.\ndisallowed-tools: web_fetch\n---\nCut the release.\n")
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, Logger: slog.New(slog.DiscardHandler),
		ToolGrants: hostsdk.ToolGrantsEnforce})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	skills, err := skilleino.New(t.Context(), host, &skilleino.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	main := newScriptedModel()
	fetch := &fetchTool{}
	agent, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "A helpful assistant.", Instruction: "You are a helpful assistant.",
		Model: skills.Model(main), Middlewares: []adk.AgentMiddleware{skills.Middleware()},
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{fetch}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	conv := &conversation{runner: adk.NewRunner(t.Context(), adk.RunnerConfig{Agent: agent}), opts: []adk.AgentRunOption{skilleino.WithSession("s1")}}

	main.queue(toolCall("c1", "skill", `{"name":"release"}`), toolCall("c2", "web_fetch", `{}`), answer("Released."))
	conv.turn(t, "Cut a release.")
	reqs := main.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls, want 3", len(reqs))
	}
	if got := offeredNames(reqs[0].Tools); !slices.Contains(got, "web_fetch") {
		t.Errorf("before the skill: offered %q", got)
	}
	if got := offeredNames(reqs[1].Tools); slices.Contains(got, "web_fetch") || !slices.Contains(got, "skill") {
		t.Errorf("while release is active: offered %q", got)
	}
	if loaded := lastToolResult(t, reqs[1]); strings.Contains(loaded, "does not withhold") || !strings.Contains(loaded, "Cut the release.") {
		t.Errorf("the skill's result says the host does not enforce what it enforces:\n%s", loaded)
	}
	if got, want := lastToolResult(t, reqs[2]), render.GrantRefusal("web_fetch", "release", false); got != want {
		t.Errorf("the refused call's result is %q, want %q", got, want)
	}
	if fetch.runs.Load() != 0 {
		t.Error("the withheld tool ran")
	}

	main.queue(toolCall("c3", "web_fetch", `{}`), answer("Fetched."))
	conv.turn(t, "Now fetch the page.")
	reqs = main.requests()
	if got := offeredNames(reqs[3].Tools); !slices.Contains(got, "web_fetch") {
		t.Errorf("after the turn: offered %q", got)
	}
	if fetch.runs.Load() != 1 || lastToolResult(t, reqs[4]) != "the page" {
		t.Errorf("after the turn the tool ran %d times, result %q", fetch.runs.Load(), lastToolResult(t, reqs[4]))
	}
}

// TestToolGrantsInAForkedSkillsSubAgent: a `context: fork` skill whose
// disallowed-tools name web_fetch runs in its sub-agent under its grants:
// the sub-agent's model is not offered web_fetch, and its call of it is
// refused naming the skill, the tool never run.
func TestToolGrantsInAForkedSkillsSubAgent(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "research", "SKILL.md"),
		"---\nname: research\ndescription: Researches offline.\ncontext: fork\nagent: researcher\ndisallowed-tools: web_fetch\n---\nResearch from the notes only.\n")
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, Logger: slog.New(slog.DiscardHandler),
		ToolGrants: hostsdk.ToolGrantsEnforce})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	agents := skilleino.Agents{}
	skills, err := skilleino.New(t.Context(), host, &skilleino.Options{Agents: agents, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	fetch := &fetchTool{}
	sub := newScriptedModel()
	researcher, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "researcher", Description: "Researches.", Instruction: "You research.",
		Model: skills.Model(sub), Middlewares: []adk.AgentMiddleware{skills.Middleware()},
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{fetch}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	agents["researcher"] = researcher
	main := newScriptedModel()
	agent, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "A helpful assistant.", Instruction: "You are a helpful assistant.",
		Model: skills.Model(main), Middlewares: []adk.AgentMiddleware{skills.Middleware()},
	})
	if err != nil {
		t.Fatal(err)
	}
	conv := &conversation{runner: adk.NewRunner(t.Context(), adk.RunnerConfig{Agent: agent}), opts: []adk.AgentRunOption{skilleino.WithSession("s1")}}

	sub.queue(toolCall("f1", "web_fetch", `{}`), answer("Researched offline."))
	main.queue(toolCall("c1", "skill", `{"name":"research"}`), answer("Done."))
	conv.turn(t, "Research it.")
	reqs := sub.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d sub-agent model calls, want 2", len(reqs))
	}
	if got := offeredNames(reqs[0].Tools); slices.Contains(got, "web_fetch") {
		t.Errorf("the sub-agent was offered %q while its skill withholds web_fetch", got)
	}
	if got, want := lastToolResult(t, reqs[1]), render.GrantRefusal("web_fetch", "research", false); got != want {
		t.Errorf("the sub-agent's refused call's result is %q, want %q", got, want)
	}
	if fetch.runs.Load() != 0 {
		t.Error("the withheld tool ran in the sub-agent")
	}
	if got := lastToolResult(t, main.last(t)); got != "Researched offline." {
		t.Errorf("the skill's result is %q, want the sub-agent's answer", got)
	}
}
