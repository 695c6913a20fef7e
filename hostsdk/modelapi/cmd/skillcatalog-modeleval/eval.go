package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/openaiapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/sessionlog"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/hostsdk/triggereval"
	"github.com/skillcatalog/skillcatalog/skill/agentskills"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// agentScope is the scope of the agent the requests are sent for.
const agentScope = "agent:eval"

// readCases reads every FILE's cases, each with its skill: its own, else
// -skill, else the folder that holds evals/.
func readCases(o options) ([]triggereval.Case, error) {
	var out []triggereval.Case
	for _, f := range o.files {
		data, err := readBounded(f)
		if err != nil {
			return nil, err
		}
		cases, err := triggereval.ParseFile(f, data)
		if err != nil {
			return nil, err
		}
		folder := ""
		if d := filepath.Dir(f); filepath.Base(d) == "evals" {
			folder = filepath.Base(filepath.Dir(d))
		}
		for _, c := range cases {
			c.Skill = cmp.Or(c.Skill, o.skill, folder)
			if c.Skill == "" {
				return nil, fmt.Errorf("%s: the cases name no skill: give -skill NAME", f)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// readBounded reads a file of at most triggereval.MaxFileSize bytes (one
// more is read, for ParseFile to refuse).
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, triggereval.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// evaluate builds the host (the plugin in process over the skill
// directories) and runs the cases with the model.
func evaluate(ctx context.Context, o options, cases []triggereval.Case) (triggereval.Report, error) {
	fsys, err := agentskills.New(&agentskills.Options{ExtraRoots: o.skillsDirs, HomeDir: o.home})
	if err != nil {
		return triggereval.Report{}, err
	}
	defer fsys.Close()
	reg, err := skills.NewRegistry(nil)
	if err != nil {
		return triggereval.Report{}, err
	}
	reg.AddProvider(tools.GlobalScope, fsys, &skills.ProviderOptions{Label: "agentskills"})
	tree := tools.NewTree()
	if err := tree.AddScope(agentScope, tools.GlobalScope); err != nil {
		return triggereval.Report{}, err
	}
	host, err := hostsdk.New(&hostsdk.Options{Tools: tree, Skills: reg, Sessions: sessionlog.NewMemoryStore()})
	if err != nil {
		return triggereval.Report{}, err
	}
	defer host.Close()
	plugin, err := host.Load(ctx, &hostsdk.LoadOptions{InProcess: true})
	if err != nil {
		return triggereval.Report{}, err
	}
	mo := &hostsdk.MountOptions{CatalogBudget: o.catalogBudget, RelevantSkills: o.relevantSkills}
	if _, err := plugin.Mount(ctx, tools.GlobalScope, mo); err != nil {
		return triggereval.Report{}, err
	}
	return triggereval.Run(ctx, triggereval.Options{Host: host, Tools: tree, AgentScope: agentScope, Cwd: o.cwd,
		Runs: o.runs, Threshold: o.threshold}, newModel(o), cases)
}

// newModel is the -model API's adapter.
func newModel(o options) triggereval.Model {
	if o.model == "openai" {
		opts := []ooption.RequestOption{}
		if o.baseURL != "" {
			opts = append(opts, ooption.WithBaseURL(o.baseURL))
		}
		return openaiModel{client: openai.NewClient(opts...), name: cmp.Or(o.modelName, string(openai.ChatModelGPT4_1Mini)), maxTokens: o.maxTokens}
	}
	opts := []aoption.RequestOption{}
	if o.baseURL != "" {
		opts = append(opts, aoption.WithBaseURL(o.baseURL))
	}
	return anthropicModel{client: anthropic.NewClient(opts...), name: cmp.Or(o.modelName, string(anthropic.ModelClaudeHaiku4_5)), maxTokens: o.maxTokens}
}

// anthropicModel calls Anthropic's Messages API through anthropicapi.
type anthropicModel struct {
	client    anthropic.Client
	name      string
	maxTokens int64
}

func (m anthropicModel) Reply(ctx context.Context, conv []hostsdk.Message, offered []tools.ResolvedTool) (hostsdk.Message, error) {
	params, err := anthropicapi.Request(conv, offered, nil)
	if err != nil {
		return hostsdk.Message{}, err
	}
	params.Model, params.MaxTokens = anthropic.Model(m.name), m.maxTokens
	resp, err := m.client.Messages.New(ctx, params)
	if err != nil {
		return hostsdk.Message{}, err
	}
	return anthropicapi.Message(resp)
}

// openaiModel calls OpenAI's Chat Completions API through openaiapi.
type openaiModel struct {
	client    openai.Client
	name      string
	maxTokens int64
}

func (m openaiModel) Reply(ctx context.Context, conv []hostsdk.Message, offered []tools.ResolvedTool) (hostsdk.Message, error) {
	params, err := openaiapi.ChatRequest("trigger-eval", conv, offered, nil)
	if err != nil {
		return hostsdk.Message{}, err
	}
	params.Model = openai.ChatModel(m.name)
	params.MaxCompletionTokens = openai.Int(m.maxTokens)
	resp, err := m.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return hostsdk.Message{}, err
	}
	return openaiapi.ChatMessage(resp)
}

// write prints the report: a table, or with -json the report as JSON.
func write(w io.Writer, o options, rep triggereval.Report) error {
	if !o.json {
		return triggereval.WriteTable(w, rep)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
