package skillgenkit_test

import (
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	skillgenkit "github.com/skillcatalog/skillcatalog/hostsdk/genkit"
)

// readInput is the input of the runtime's own file tool, named as Claude
// Code's Read names it.
type readInput struct {
	FilePath string `json:"file_path"`
}

// TestPathsThroughGenkitsLoop: a skill scoped by paths is not in the
// catalog until the model, through Genkit's own tool loop, calls a file
// tool on a matching file; the adapter's Sync derives the touched path
// from the call's input, and the next model call sees the skill in a
// replacement catalog.
func TestPathsThroughGenkitsLoop(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, dir, "alpha", "First skill.", "Do alpha.\n")
	writeFile(t, dir+"/go-style/SKILL.md", "---\nname: go-style\ndescription: Go style rules.\npaths: \"**/*.go\"\n---\nUse gofmt.\n")
	f := newFixture(t, dir, t.TempDir())
	read := genkit.DefineTool(f.conv.g, "read_file", "Read a file.", func(_ *ai.ToolContext, in readInput) (string, error) {
		return "package main\n", nil
	})
	f.model.queue(toolCall("read_file", map[string]any{"file_path": "/repo/README.md"}),
		toolCall("read_file", map[string]any{"file_path": "/repo/cmd/tool/main.go"}),
		answer("It is a Go program."))
	c := f.conv
	c.history = append(c.history, ai.NewUserTextMessage("What is in this repository?"))
	ctx := skillgenkit.WithWorkingDir(skillgenkit.WithSession(t.Context(), c.id), "/repo")
	resp, err := genkit.Generate(ctx, c.g, ai.WithModel(c.model.model), ai.WithMessages(c.history...),
		ai.WithTools(append(c.skills.Tools(), read)...), ai.WithMiddleware(c.skills.Middleware()))
	if err != nil {
		t.Fatal(err)
	}
	c.history = resp.History()
	reqs := f.model.allRequests()
	if len(reqs) != 3 {
		t.Fatalf("the model was called %d times, want 3", len(reqs))
	}
	for i, req := range reqs[:2] {
		for _, cat := range catalogs(req) {
			if strings.Contains(cat, "go-style") {
				t.Fatalf("request %d lists go-style before a Go file was touched:\n%s", i, cat)
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
