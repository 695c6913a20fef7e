package example_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/internal/example"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/internal/looptest"
)

// TestREADMEShowsThisFile keeps the example in hostsdk/modelapi/README.md
// and this package one text, so the code a reader copies compiles and runs
// (TestStep).
func TestREADMEShowsThisFile(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("turn.go")
	if err != nil {
		t.Fatal(err)
	}
	const open, fence = "```go\n// Package example", "\n```\n"
	i := strings.Index(string(readme), open)
	if i < 0 {
		t.Fatal("hostsdk/modelapi/README.md has no ```go block holding hostsdk/modelapi/internal/example/turn.go")
	}
	shown := string(readme[i+len("```go\n"):])
	shown = shown[:strings.Index(shown, fence)+1]
	if shown != string(file) {
		t.Errorf("hostsdk/modelapi/README.md's model API example differs from turn.go:\n%s", shown)
	}
}

// TestStep runs the example's steps against a recording server: the model
// loads a skill, then answers.
func TestStep(t *testing.T) {
	fx := looptest.New(t)
	srv := looptest.NewServer(t,
		`{"id":"msg_01","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},
		  "content":[{"type":"tool_use","id":"toolu_01","name":"skill","input":{"name":"pdf-forms"}},{"type":"tool_use","id":"toolu_02","name":"shell","input":{}}]}`,
		`{"id":"msg_02","type":"message","role":"assistant","model":"m","stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1},
		  "content":[{"type":"text","text":"Done."}]}`,
	)
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	ctx := context.Background()
	session := fx.Session()
	for n := 1; n <= 2; n++ {
		var proposed []hostsdk.Message
		if n == 1 {
			proposed = []hostsdk.Message{{ID: "u1", Role: hostsdk.RoleUser, UserInput: true, Content: []hostsdk.ContentBlock{hostsdk.TextBlock(looptest.Ask)}}}
		}
		done, err := example.Step(ctx, session, fx.Tree, client, "m", proposed)
		if err != nil || done != (n == 2) {
			t.Fatalf("step %d: done %v, %v", n, done, err)
		}
	}
	entries, err := session.Transcript(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var results []hostsdk.ToolOutput
	for _, e := range entries {
		for _, b := range e.Message.Content {
			if r, ok := b.ToolResult(); ok {
				results = append(results, r)
			}
		}
	}
	if len(results) != 2 || results[0].CallID != "toolu_01" || results[0].IsError || !strings.HasPrefix(results[0].Content[0].Text, `<skill_content name="pdf-forms">`) ||
		results[1].CallID != "toolu_02" || !results[1].IsError || results[1].Content[0].Text != `Error: no tool "shell"` {
		t.Errorf("results %+v", results)
	}
	if last := entries[len(entries)-1].Message; last.Text() != "Done." {
		t.Errorf("last message %+v", last)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `"cache_control":{"type":"ephemeral"}`) {
		t.Errorf("%d requests, the second without cache breakpoints", len(reqs))
	}
}
