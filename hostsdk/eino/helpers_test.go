package skilleino_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// request is one model call as the scripted model received it.
type request struct {
	Messages []*schema.Message
	Tools    []*schema.ToolInfo
	// Wire is the request serialized deterministically, tools first, then
	// the messages (the system prompt among them), in the order a model
	// API would send them: the bytes a prompt cache sees.
	Wire []byte
}

// script holds a scripted model's replies and every request it was sent.
// Every copy WithTools makes shares it.
type script struct {
	mu       sync.Mutex
	replies  []*schema.Message
	requests []request
}

// scriptedModel is a model.ToolCallingChatModel that answers each call
// with the next queued reply, and records what it was sent.
type scriptedModel struct {
	s     *script
	tools []*schema.ToolInfo
}

func newScriptedModel() *scriptedModel { return &scriptedModel{s: &script{}} }

// queue adds replies for the next model calls.
func (m *scriptedModel) queue(replies ...*schema.Message) {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	m.s.replies = append(m.s.replies, replies...)
}

// drain drops the replies a failed Run left queued.
func (m *scriptedModel) drain() {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	m.s.replies = nil
}

// requests returns the requests so far.
func (m *scriptedModel) requests() []request {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	return slices.Clone(m.s.requests)
}

// last returns the newest request.
func (m *scriptedModel) last(t *testing.T) request {
	t.Helper()
	reqs := m.requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never called")
	}
	return reqs[len(reqs)-1]
}

func (m *scriptedModel) Generate(_ context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	tools := m.tools
	if o := model.GetCommonOptions(nil, opts...); o.Tools != nil {
		tools = o.Tools // the tools of this call, as a model API takes them
	}
	wire, err := serialize(tools, input)
	if err != nil {
		return nil, err
	}
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	m.s.requests = append(m.s.requests, request{Messages: slices.Clone(input), Tools: tools, Wire: wire})
	if len(m.s.replies) == 0 {
		return nil, errors.New("scripted model: no reply queued")
	}
	reply := *m.s.replies[0]
	m.s.replies = m.s.replies[1:]
	return &reply, nil
}

func (m *scriptedModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m *scriptedModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &scriptedModel{s: m.s, tools: tools}, nil
}

// serialize writes a request as JSON: each tool's name, description and
// parameter schema, then the messages as Eino encodes them.
func serialize(tools []*schema.ToolInfo, msgs []*schema.Message) ([]byte, error) {
	type wireTool struct {
		Name   string             `json:"name"`
		Desc   string             `json:"description"`
		Params *jsonschema.Schema `json:"parameters,omitempty"`
	}
	var wt []wireTool
	for _, t := range tools {
		w := wireTool{Name: t.Name, Desc: t.Desc}
		if t.ParamsOneOf != nil {
			p, err := t.ToJSONSchema()
			if err != nil {
				return nil, fmt.Errorf("tool %q: %w", t.Name, err)
			}
			w.Params = p
		}
		wt = append(wt, w)
	}
	return json.Marshal(struct {
		Tools    []wireTool        `json:"tools"`
		Messages []*schema.Message `json:"messages"`
	}{wt, msgs})
}

// toolCall is an assistant reply that calls one tool.
func toolCall(id, name, args string) *schema.Message {
	return schema.AssistantMessage("", []schema.ToolCall{{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}})
}

// answer is an assistant reply in text.
func answer(text string) *schema.Message { return schema.AssistantMessage(text, nil) }

// conversation is a caller of an Eino agent that keeps the conversation
// itself, as Eino's users do: it passes its whole history to every Run
// and appends the messages the Run's events carry.
type conversation struct {
	runner  *adk.Runner
	history []*schema.Message
	opts    []adk.AgentRunOption
}

// turn runs one user turn and returns the messages it added.
func (c *conversation) turn(t *testing.T, user string) []*schema.Message {
	t.Helper()
	c.history = append(c.history, schema.UserMessage(user))
	added, err := runTurn(t.Context(), c.runner, c.history, c.opts...)
	if err != nil {
		t.Fatalf("turn %q: %v", user, err)
	}
	c.history = append(c.history, added...)
	return added
}

// runTurn runs the agent on history and returns the messages its events
// carry, or the error an event carries.
func runTurn(ctx context.Context, runner *adk.Runner, history []*schema.Message, opts ...adk.AgentRunOption) ([]*schema.Message, error) {
	iter := runner.Run(ctx, history, opts...)
	var added []*schema.Message
	var runErr error
	for {
		ev, ok := iter.Next()
		if !ok {
			return added, runErr
		}
		if ev.Err != nil {
			runErr = ev.Err
			continue
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msg, err := ev.Output.MessageOutput.GetMessage()
			if err != nil {
				return added, err
			}
			added = append(added, msg)
		}
	}
}

// newAgentRunner builds an agent over m with the given middlewares.
func newAgentRunner(t *testing.T, m model.ToolCallingChatModel, mw ...adk.AgentMiddleware) *adk.Runner {
	t.Helper()
	agent, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "A helpful assistant.", Instruction: "You are a helpful assistant.",
		Model: m, Middlewares: mw,
	})
	if err != nil {
		t.Fatal(err)
	}
	return adk.NewRunner(t.Context(), adk.RunnerConfig{Agent: agent})
}

// copySkills copies the repository's testdata/skills into a new temporary
// directory, which the test may change, and returns it.
func copySkills(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "skills")
	dst := filepath.Join(t.TempDir(), "skills")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(filepath.Join(dst, rel))
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// writeSkill writes dir/name/SKILL.md.
func writeSkill(t *testing.T, dir, name, description, body string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, name, "SKILL.md"), fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n%s", name, description, body))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// catalogs returns the texts of the catalog messages a request holds
// (first catalogs and replacements), in order.
func catalogs(req request) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == schema.User && strings.Contains(m.Content, "<available_skills>") {
			out = append(out, m.Content)
		}
	}
	return out
}

// lastToolResult returns the content of the request's last message, which
// must be a tool result.
func lastToolResult(t *testing.T, req request) string {
	t.Helper()
	m := req.Messages[len(req.Messages)-1]
	if m.Role != schema.Tool {
		t.Fatalf("the last message is a %s message, not a tool result: %q", m.Role, m.Content)
	}
	return m.Content
}

// prefixShare is the share of cur's bytes that are a byte-identical prefix
// of prev.
func prefixShare(prev, cur []byte) float64 {
	n := 0
	for n < len(prev) && n < len(cur) && prev[n] == cur[n] {
		n++
	}
	if len(cur) == 0 {
		return 1
	}
	return float64(n) / float64(len(cur))
}
