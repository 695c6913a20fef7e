package skillgenkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
)

// skills: begin
// newSkills opens the host and its skills. The host lives as long as the skills:
// the caller calls the returned func when it is done with them.
func newSkills(ctx context.Context, skillsDir, sessionDir string) (*skillgenkit.Skills, func() error, error) {
	host, err := hostsdk.Open(ctx, &hostsdk.OpenOptions{SkillDirs: []string{skillsDir}, SessionDir: sessionDir})
	if err != nil {
		return nil, nil, err
	}
	skills, err := skillgenkit.New(ctx, host, nil)
	if err != nil {
		return nil, nil, errors.Join(err, host.Close())
	}
	return skills, host.Close, nil
}

// skills: end

// generateWithSkills is one Generate of an existing Genkit application,
// with skills added: newSkills is what a user writes, and the
// application's own Generate (between the "generate" markers) names its
// conversation's session and offers the skills.
func generateWithSkills(ctx context.Context, g *genkit.Genkit, skillsDir, sessionDir string, history []*ai.Message) (*ai.ModelResponse, error) {
	skills, closeSkills, err := newSkills(ctx, skillsDir, sessionDir)
	if err != nil {
		return nil, err
	}
	defer closeSkills()
	// generate: begin
	resp, err := genkit.Generate(skillgenkit.WithSession(ctx, "conversation-1"), g, ai.WithMessages(history...),
		ai.WithTools(skills.Tools()...), ai.WithMiddleware(skills.Middleware()))
	// generate: end
	return resp, err
}

// An application that had no skills gets the catalog and the `skill`
// tool: the model loads a skill through Genkit's own tool loop.
func Example() {
	ctx := context.Background()
	sessionDir, err := os.MkdirTemp("", "skillgenkit-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(sessionDir)
	g := genkit.Init(ctx, genkit.WithDefaultModel("example/scripted"))
	model := newScriptedModel(g, "example/scripted")
	model.queue(toolCall("skill", map[string]any{"name": "pdf-forms"}), answer("I will list the form's fields first."))

	history := []*ai.Message{ai.NewUserTextMessage("Please fill in the W-9 form in forms/w9.pdf.")}
	resp, err := generateWithSkills(ctx, g, "../../testdata/skills", sessionDir, history)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("the model's first call holds %d catalog\n", len(catalogs(model.allRequests()[0])))
	for _, m := range resp.History()[len(history):] {
		if skillgenkit.IsPluginMessage(m) {
			continue
		}
		for _, p := range m.Content {
			switch {
			case p.IsToolRequest():
				input, _ := json.Marshal(p.ToolRequest.Input)
				fmt.Printf("%s: %s %s\n", m.Role, p.ToolRequest.Name, input)
			case p.IsToolResponse():
				first, _, _ := strings.Cut(fmt.Sprint(p.ToolResponse.Output), "\n")
				fmt.Printf("%s: %s\n", m.Role, first)
			default:
				fmt.Printf("%s: %s\n", m.Role, p.Text)
			}
		}
	}
	// Output:
	// the model's first call holds 1 catalog
	// model: skill {"name":"pdf-forms"}
	// tool: <skill_content name="pdf-forms">
	// model: I will list the form's fields first.
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

// readmeBlock is the block the READMEs show: the example's lines.
func readmeBlock(t *testing.T) string {
	return "```go\n" + exampleLines(t, "skills") + "\n\n// Each Generate names its conversation and offers the skills:\n" +
		exampleLines(t, "generate") + "\n```\n"
}

// The root README and this module's README show the example's lines
// exactly, and say how many lines the function that sets the skills up
// holds: ten at most.
func TestREADMEShowsTheExample(t *testing.T) {
	block := readmeBlock(t)
	n := 0
	for _, l := range strings.Split(exampleLines(t, "skills"), "\n") {
		if strings.HasPrefix(l, "\t") {
			n++
		}
	}
	for _, path := range []string{filepath.Join("..", "..", "README.md"), "README.md"} {
		readme, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), block) {
			t.Errorf("%s has no ```go block holding the example's lines exactly:\n%s", path, block)
		}
		if want := fmt.Sprintf("these %d lines", n); n > 10 || !strings.Contains(string(readme), want) {
			t.Errorf("%s does not say %q, or that is more than ten", path, want)
		}
	}
}
