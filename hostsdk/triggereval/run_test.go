package triggereval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/hostsdk/triggereval"
	"github.com/skillcatalog/skillcatalog/internal/golden"
	"github.com/skillcatalog/skillcatalog/skill/skills"
	"github.com/skillcatalog/skillcatalog/skill/skills/skilltest"
)

// scriptedModel answers each request with the `skill` calls its script
// names for that request's runs in turn ("" for a reply that calls no
// tool), and records what it was sent.
type scriptedModel struct {
	mu     sync.Mutex
	script map[string][]string
	calls  map[string]int
	seen   []string // per reply: whether the catalog and the skill tool were there
}

func (m *scriptedModel) Reply(_ context.Context, conv []hostsdk.Message, offered []tools.ResolvedTool) (hostsdk.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	request := ""
	catalog := false
	for _, msg := range conv {
		catalog = catalog || strings.Contains(msg.Text(), "<available_skills>")
		if msg.UserInput {
			request = msg.Text()
		}
	}
	tool := false
	for _, d := range offered {
		tool = tool || d.Definition.Name == "skill"
	}
	m.seen = append(m.seen, fmt.Sprintf("catalog %v, skill tool %v", catalog, tool))
	runs, ok := m.script[request]
	if !ok {
		return hostsdk.Message{}, fmt.Errorf("no script for %q", request)
	}
	name := runs[m.calls[request]%len(runs)]
	m.calls[request]++
	reply := hostsdk.Message{Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("On it.")}}
	if name != "" {
		args, _ := json.Marshal(map[string]string{"name": name})
		use, err := hostsdk.ToolUseBlock(fmt.Sprintf("call-%d", m.calls[request]), "skill", args)
		if err != nil {
			return hostsdk.Message{}, err
		}
		reply.Content = append(reply.Content, use)
	}
	return reply, nil
}

// newHost is a host with the plugin in process, mounted globally, over a
// library of pdf, pdf-forms and xlsx.
func newHost(t *testing.T) (*hostsdk.Host, *tools.Tree) {
	t.Helper()
	reg := skilltest.NewRegistry(t)
	for _, s := range []skills.RuntimeSkill{
		{Name: "pdf", Description: "Extract text from PDF files, merge and split them.", Content: "Use pypdf."},
		{Name: "pdf-forms", Description: "Fill in PDF form fields.", Content: "Read the fields first."},
		{Name: "xlsx", Description: "Edit Excel spreadsheets.", Content: "Use openpyxl."},
	} {
		if err := reg.Register(tools.GlobalScope, s); err != nil {
			t.Fatal(err)
		}
	}
	tree := tools.NewTree()
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	p, err := host.Load(context.Background(), &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Mount(context.Background(), tools.GlobalScope, nil); err != nil {
		t.Fatal(err)
	}
	return host, tree
}

// TestRunWithAScriptedModel: each request is sent three times, each time
// with the catalog and the `skill` tool; a run triggers when the reply
// calls `skill` with the case's skill (another skill's load is named in
// the table); the rate decides pass or fail at the 0.5 threshold, both
// ways.
func TestRunWithAScriptedModel(t *testing.T) {
	model := &scriptedModel{calls: map[string]int{}, script: map[string][]string{
		"Merge a.pdf and b.pdf":             {"pdf", "pdf", "pdf"},
		"Fill in the form in this PDF":      {"pdf-forms", "pdf", "pdf-forms"},
		"Split report.pdf by chapter":       {"pdf", "", ""},
		"Add a pivot table to sales.xlsx":   {"xlsx", "xlsx", "xlsx"},
		"Summarise this PDF in three lines": {"pdf", "pdf", ""},
	}}
	cases := []triggereval.Case{
		{Skill: "pdf", Request: "Merge a.pdf and b.pdf", ShouldTrigger: true},
		{Skill: "pdf", Request: "Fill in the form in this PDF", ShouldTrigger: false},
		{Skill: "pdf", Request: "Split report.pdf by chapter", ShouldTrigger: true},
		{Skill: "pdf", Request: "Add a pivot table to sales.xlsx", ShouldTrigger: false},
		{Skill: "pdf", Request: "Summarise this PDF in three lines", ShouldTrigger: false},
	}
	host, tree := newHost(t)
	rep, err := triggereval.Run(context.Background(), triggereval.Options{Host: host, Tools: tree, AgentScope: tools.GlobalScope}, model, cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(model.seen) != 15 {
		t.Fatalf("%d model calls, want 5 requests x 3 runs", len(model.seen))
	}
	for i, s := range model.seen {
		if s != "catalog true, skill tool true" {
			t.Errorf("call %d: %s, want the catalog and the skill tool", i+1, s)
		}
	}
	if rep.Passed != 3 || rep.Failed != 2 {
		t.Errorf("passed %d, failed %d; want 3 and 2", rep.Passed, rep.Failed)
	}
	var table bytes.Buffer
	if err := triggereval.WriteTable(&table, rep); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "scripted.golden"), table.Bytes())
}
