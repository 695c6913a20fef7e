package skilleino_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
)

// readFile is a file tool of the runtime's own, taking {"file_path": ...}
// as Claude Code's Read does; it reads nothing.
type readFile struct{}

func (readFile) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "read_file", Desc: "Read a file.", ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"file_path": {Type: schema.String, Desc: "The file.", Required: true},
	})}, nil
}

func (readFile) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	return "package main\n", nil
}

// TestPathsThroughEinosLoop: a skill scoped by paths is not in the
// catalog until the model, through Eino's own tool loop, calls a file
// tool on a matching file; the adapter's Sync derives the touched path
// from the call's arguments, and the next model call sees the skill in a
// replacement catalog.
func TestPathsThroughEinosLoop(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, dir, "alpha", "First skill.", "Do alpha.\n")
	writeFile(t, dir+"/go-style/SKILL.md", "---\nname: go-style\ndescription: Go style rules.\npaths: \"**/*.go\"\n---\nUse gofmt.\n")
	t.Setenv("HOME", t.TempDir())
	host, err := hostsdk.Open(t.Context(), &hostsdk.OpenOptions{SkillDirs: []string{dir}, SessionDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	skills, err := skilleino.New(t.Context(), host, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := newScriptedModel()
	agent, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "A helpful assistant.", Instruction: "You are a helpful assistant.",
		Model: m, Middlewares: []adk.AgentMiddleware{skills.Middleware()},
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{readFile{}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	conv := &conversation{runner: adk.NewRunner(t.Context(), adk.RunnerConfig{Agent: agent}),
		opts: []adk.AgentRunOption{adk.WithSessionValues(map[string]any{skilleino.SessionKey: "s1", skilleino.CwdKey: "/repo"})}}

	m.queue(toolCall("call-1", "read_file", `{"file_path":"/repo/README.md"}`),
		toolCall("call-2", "read_file", `{"file_path":"/repo/cmd/tool/main.go"}`),
		answer("It is a Go program."))
	conv.turn(t, "What is in this repository?")
	reqs := m.requests()
	if len(reqs) != 3 {
		t.Fatalf("the model was called %d times, want 3", len(reqs))
	}
	for i, req := range reqs[:2] {
		for _, c := range catalogs(req) {
			if strings.Contains(c, "go-style") {
				t.Fatalf("request %d lists go-style before a Go file was touched:\n%s", i, c)
			}
		}
	}
	cats := catalogs(reqs[2])
	if len(cats) != 2 || !strings.Contains(cats[1], "The available skills have changed") {
		t.Fatalf("after the Go file the model sees %d catalogs, want the first and one replacement:\n%s", len(cats), strings.Join(cats, "\n---\n"))
	}
	wantNames(t, cats[1], "alpha", "go-style")
	extends(t, reqs[1], reqs[2])
}
