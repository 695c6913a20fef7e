package triggereval_test

import (
	"context"
	"encoding/json"
	"log"
	"os"
	"strings"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/hostsdk/triggereval"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// keywordModel stands in for a model API (hostsdk/modelapi's adapters
// make one for Anthropic's and OpenAI's): it loads the skill "pdf" when
// the user's request mentions a PDF.
type keywordModel struct{}

func (keywordModel) Reply(_ context.Context, conversation []hostsdk.Message, _ []tools.ResolvedTool) (hostsdk.Message, error) {
	reply := hostsdk.Message{Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("On it.")}}
	request := ""
	for _, m := range conversation {
		if m.UserInput { // the user's own words, not the plugin's catalog
			request = m.Text()
		}
	}
	if strings.Contains(strings.ToLower(request), "pdf") {
		args, _ := json.Marshal(map[string]string{"name": "pdf"})
		use, err := hostsdk.ToolUseBlock("call-1", "skill", args)
		if err != nil {
			return hostsdk.Message{}, err
		}
		reply.Content = append(reply.Content, use)
	}
	return reply, nil
}

// Run sends each trigger case's request to a model with the real catalog
// and tools, Runs times, and reports whether the model used the skill as
// the case says it should; WriteTable prints the report. The cases come
// from a skill's evals/ files (ParseFile), or are written out, as here.
func ExampleRun() {
	registry, err := skills.NewRegistry(nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []skills.RuntimeSkill{
		{Name: "pdf", Description: "Extract text from PDF files, merge and split them.", Content: "Use pypdf."},
		{Name: "xlsx", Description: "Edit Excel spreadsheets.", Content: "Use openpyxl."},
	} {
		if err := registry.Register(tools.GlobalScope, s); err != nil {
			log.Fatal(err)
		}
	}
	tree := tools.NewTree()
	ctx := context.Background()
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: registry, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, nil); err != nil {
		log.Fatal(err)
	}

	cases := []triggereval.Case{
		{Skill: "pdf", Request: "Merge a.pdf and b.pdf", ShouldTrigger: true},
		{Skill: "pdf", Request: "Split the report by chapter", ShouldTrigger: true},
		{Skill: "pdf", Request: "Add a pivot table to sales.xlsx", ShouldTrigger: false},
	}
	opts := triggereval.Options{Host: host, Tools: tree, AgentScope: tools.GlobalScope, Runs: 2}
	report, err := triggereval.Run(ctx, opts, keywordModel{}, cases)
	if err != nil {
		log.Fatal(err)
	}
	if err := triggereval.WriteTable(os.Stdout, report); err != nil {
		log.Fatal(err)
	}
	// Output:
	// RESULT  SKILL  TRIGGER  RATE  LOADED INSTEAD  REQUEST
	// pass    pdf    yes      2/2   -               Merge a.pdf and b.pdf
	// FAIL    pdf    yes      0/2   -               Split the report by chapter
	// pass    pdf    no       0/2   -               Add a pivot table to sales.xlsx
	//
	// 3 requests x 2 runs: 2 passed, 1 failed (threshold 0.50).
}
