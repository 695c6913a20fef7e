package skilleino_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skilleino "github.com/skillcatalog/skillcatalog/hostsdk/eino"
)

// skills: begin
// newAgent builds the agent with skills. The host lives as long as the agent:
// the caller calls the returned func when it is done with the agent.
func newAgent(ctx context.Context, config *adk.ChatModelAgentConfig, skillsDir, sessionDir string) (adk.Agent, func() error, error) {
	host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{SkillDirs: []string{skillsDir}, SessionDir: sessionDir})
	if err != nil {
		return nil, nil, err
	}
	skills, err := skilleino.New(ctx, host, nil)
	if err != nil {
		return nil, nil, errors.Join(err, host.Close())
	}
	config.Middlewares = append(config.Middlewares, skills.Middleware())
	agent, err := adk.NewChatModelAgent(ctx, config)
	if err != nil {
		return nil, nil, errors.Join(err, host.Close())
	}
	return agent, host.Close, nil
}

// skills: end

// runWithSkills is one Run of an existing Eino agent, built from config
// with skills added (newAgent, the lines a user writes); the Run names its
// conversation's session.
func runWithSkills(ctx context.Context, config *adk.ChatModelAgentConfig, skillsDir, sessionDir string, history []adk.Message) ([]adk.Message, error) {
	agent, closeAgent, err := newAgent(ctx, config, skillsDir, sessionDir)
	if err != nil {
		return nil, err
	}
	defer closeAgent()
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent})
	// run: begin
	events := runner.Run(ctx, history, skilleino.WithSession("conversation-1"))
	// run: end
	var out []adk.Message
	for {
		ev, ok := events.Next()
		if !ok {
			return out, nil
		}
		if ev.Err != nil {
			return out, ev.Err
		}
		msg, err := ev.Output.MessageOutput.GetMessage()
		if err != nil {
			return out, err
		}
		out = append(out, msg)
	}
}

// An agent that had no skills gets the catalog and the `skill` tool: the
// model loads a skill through Eino's own tool loop.
func Example() {
	sessionDir, err := os.MkdirTemp("", "skilleino-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(sessionDir)
	model := newScriptedModel()
	model.queue(toolCall("call-1", "skill", `{"name":"pdf-forms"}`), answer("I will list the form's fields first."))
	config := &adk.ChatModelAgentConfig{Name: "assistant", Description: "A helpful assistant.", Model: model}

	history := []adk.Message{schema.UserMessage("Please fill in the W-9 form in forms/w9.pdf.")}
	added, err := runWithSkills(context.Background(), config, "../../testdata/skills", sessionDir, history)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("the model's first call holds %d catalog\n", len(catalogs(model.requests()[0])))
	for _, m := range added {
		first, _, _ := strings.Cut(m.Content, "\n")
		for _, c := range m.ToolCalls {
			first = c.Function.Name + " " + c.Function.Arguments
		}
		fmt.Printf("%s: %s\n", m.Role, first)
	}
	// Output:
	// the model's first call holds 1 catalog
	// assistant: skill {"name":"pdf-forms"}
	// tool: <skill_content name="pdf-forms">
	// assistant: I will list the form's fields first.
}

// exampleLines returns the lines of example_test.go between "// name:
// begin" and "// name: end", without the markers' indentation.
func exampleLines(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	before, body, _ := strings.Cut(string(src), "// "+name+": begin\n")
	indent := before[strings.LastIndex(before, "\n")+1:]
	body, _, _ = strings.Cut(body, indent+"// "+name+": end")
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, indent))
	}
	return strings.Join(lines, "\n")
}

// TestREADMEShowsTheExample keeps the README's lines and the example's
// one text, and the number of lines the README says the constructor's body
// has true.
func TestREADMEShowsTheExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	setup, run := exampleLines(t, "skills"), exampleLines(t, "run")
	if !strings.Contains(string(readme), "```go\n"+setup+"\n\n// Each Run names its conversation:\n"+run+"\n```\n") {
		t.Errorf("README.md has no ```go block holding the example's lines exactly:\n%s\n\n%s", setup, run)
	}
	n := 0
	for _, l := range strings.Split(setup, "\n") {
		if strings.HasPrefix(l, "\t") {
			n++
		}
	}
	if want := fmt.Sprintf("%d lines", n); !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not say %q", want)
	}
}
