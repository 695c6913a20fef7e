package anthropicapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/internal/looptest"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// The model's three replies: it thinks and loads the skill, reads the
// skill's script, then answers.
var replies = []string{
	`{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
	  "usage":{"input_tokens":100,"output_tokens":20},
	  "content":[{"type":"thinking","thinking":"The catalog lists pdf-forms.","signature":"c2lnLTE="},
	             {"type":"text","text":"Loading the skill."},
	             {"type":"tool_use","id":"toolu_01","name":"skill","input":{"name":"pdf-forms"}}]}`,
	`{"id":"msg_02","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
	  "usage":{"input_tokens":200,"output_tokens":20},
	  "content":[{"type":"tool_use","id":"toolu_02","name":"skill_resource","input":{"name":"pdf-forms","path":"scripts/fill_form.py"}}]}`,
	`{"id":"msg_03","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,
	  "usage":{"input_tokens":300,"output_tokens":10},
	  "content":[{"type":"text","text":"Done: the form is filled in."}]}`,
}

// request is the part of a Messages API request the test reads.
type request struct {
	System []struct {
		Type, Text string
	} `json:"system"`
	Messages []struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   *bool           `json:"is_error"`
	Content   []block         `json:"content"`
}

// TestLoopThroughTheSkillTools runs three model turns with the real SDK
// client against a recording server: the model loads a skill with `skill`,
// reads its script with `skill_resource`, and answers. The requests carry
// the catalog as user content, both tools with their schemas, each call
// and its result with matching ids, the skill's instructions and the
// script's text.
func TestLoopThroughTheSkillTools(t *testing.T) {
	fx := looptest.New(t)
	srv := looptest.NewServer(t, replies...)
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	ctx := context.Background()

	var results []hostsdk.ToolResult
	for n := 1; n <= 3; n++ {
		conv := fx.Step(t, n)
		system, msgs, err := anthropicapi.Messages(conv)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Messages.New(ctx, anthropic.MessageNewParams{
			Model: "claude-test", MaxTokens: 1024, System: system, Messages: msgs,
			Tools: anthropicapi.Tools(fx.Offered()),
		})
		if err != nil {
			t.Fatalf("turn %d: %v", n, err)
		}
		reply, err := anthropicapi.Message(resp)
		if err != nil {
			t.Fatal(err)
		}
		calls, res := fx.Reply(t, n, reply)
		if want := []int{1, 1, 0}[n-1]; len(calls) != want {
			t.Fatalf("turn %d: %d tool calls, want %d", n, len(calls), want)
		}
		results = append(results, res...)
	}
	for i, r := range results {
		if r.IsError {
			t.Fatalf("tool result %d is an error: %s", i, r.Text)
		}
	}

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	parsed := make([]request, len(reqs))
	for i, r := range reqs {
		if r.Method != "POST" || r.Path != "/v1/messages" {
			t.Errorf("request %d: %s %s", i+1, r.Method, r.Path)
		}
		if err := json.Unmarshal(r.Body, &parsed[i]); err != nil {
			t.Fatalf("request %d: %v\n%s", i+1, err, r.Body)
		}
	}

	// The first request: the user's message and the catalog, as user
	// content; both tools with their schemas.
	first := parsed[0]
	if len(first.Messages) != 1 || first.Messages[0].Role != "user" {
		t.Fatalf("first request's messages: %s", reqs[0].Body)
	}
	var texts []string
	for _, raw := range first.Messages[0].Content {
		var b block
		if err := json.Unmarshal(raw, &b); err != nil || b.Type != "text" {
			t.Fatalf("first request: content %s", raw)
		}
		texts = append(texts, b.Text)
	}
	if len(texts) < 2 || texts[0] != looptest.Ask || !strings.Contains(texts[len(texts)-1], "<system-reminder>") ||
		!strings.Contains(texts[len(texts)-1], "pdf-forms") {
		t.Errorf("first request's user content: %q", texts)
	}
	defs := map[string]json.RawMessage{}
	for _, d := range fx.Offered() {
		defs[d.Definition.Name] = d.Definition.InputSchema
	}
	for i, p := range parsed {
		if len(p.Tools) != 2 || p.Tools[0].Name != "skill" || p.Tools[1].Name != "skill_resource" {
			t.Fatalf("request %d: tools %+v", i+1, p.Tools)
		}
		for _, tool := range p.Tools {
			if got, want := string(tool.InputSchema), looptest.Compact(t, defs[tool.Name]); got != want || tool.Description == "" {
				t.Errorf("request %d: tool %s: input_schema %s, want %s (description %q)", i+1, tool.Name, got, want, tool.Description)
			}
		}
	}

	// The second request: the first reply as it came (thinking included),
	// and the `skill` result answering its call.
	second := parsed[1]
	if len(second.Messages) != 3 || second.Messages[1].Role != "assistant" || second.Messages[2].Role != "user" {
		t.Fatalf("second request's messages: %s", reqs[1].Body)
	}
	assistant := second.Messages[1].Content
	if len(assistant) != 3 || string(assistant[0]) != `{"type":"thinking","thinking":"The catalog lists pdf-forms.","signature":"c2lnLTE="}` {
		t.Errorf("second request: assistant content %s", reqs[1].Body)
	}
	if want := `{"id":"toolu_01","input":{"name":"pdf-forms"},"name":"skill","type":"tool_use"}`; len(assistant) == 3 && string(assistant[2]) != want {
		t.Errorf("second request: tool call %s, want %s", assistant[2], want)
	}
	result := toolResult(t, second.Messages[2].Content, "toolu_01")
	if !strings.HasPrefix(result, `<skill_content name="pdf-forms">`) || !strings.Contains(result, "skill_resource") {
		t.Errorf("second request: skill result %q", result)
	}

	// The third request: the resource read and its page.
	third := parsed[2]
	if n := len(third.Messages); n != 5 || third.Messages[3].Role != "assistant" {
		t.Fatalf("third request's messages: %s", reqs[2].Body)
	}
	if want := `{"id":"toolu_02","input":{"name":"pdf-forms","path":"scripts/fill_form.py"},"name":"skill_resource","type":"tool_use"}`; string(third.Messages[3].Content[0]) != want {
		t.Errorf("third request: tool call %s, want %s", third.Messages[3].Content[0], want)
	}
	page := toolResult(t, third.Messages[4].Content, "toolu_02")
	if !strings.HasPrefix(page, `<skill_resource name="pdf-forms" path="scripts/fill_form.py"`) || !strings.Contains(page, looptest.Script) {
		t.Errorf("third request: resource result %q", page)
	}

	// The session holds the whole exchange, the answer last.
	conv := fx.Step(t, 4)
	if last := conv[len(conv)-1]; last.Role != hostsdk.RoleAssistant || last.Text() != "Done: the form is filled in." || last.ID != "msg_03" {
		t.Errorf("last message %+v", last)
	}
}

// toolResult returns the text of the only tool_result block of content,
// which must answer callID and not be an error.
func toolResult(t *testing.T, content []json.RawMessage, callID string) string {
	t.Helper()
	if len(content) != 1 {
		t.Fatalf("%d blocks in the results message, want 1", len(content))
	}
	var b block
	if err := json.Unmarshal(content[0], &b); err != nil || b.Type != "tool_result" || b.ToolUseID != callID || b.IsError != nil ||
		len(b.Content) != 1 || b.Content[0].Type != "text" {
		t.Fatalf("tool result %s, want one answering %s", content[0], callID)
	}
	return b.Content[0].Text
}

// TestCatalogUpdateAfterToolResults: when the skills change between two
// steps, the plugin's new catalog follows the tool results in the log; the
// request carries both in the user turn after the tool call, the results
// first, as the API requires.
func TestCatalogUpdateAfterToolResults(t *testing.T) {
	fx := looptest.New(t)
	srv := looptest.NewServer(t, replies[0], replies[2])
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	for n := 1; n <= 2; n++ {
		if n == 2 {
			if err := fx.Registry.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "tax-forms", Description: "Fill in tax forms.", Content: "Check the totals."}); err != nil {
				t.Fatal(err)
			}
		}
		system, msgs, err := anthropicapi.Messages(fx.Step(t, n))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Messages.New(context.Background(), anthropic.MessageNewParams{Model: "claude-test", MaxTokens: 1024, System: system, Messages: msgs, Tools: anthropicapi.Tools(fx.Offered())})
		if err != nil {
			t.Fatal(err)
		}
		fx.Reply(t, n, must(anthropicapi.Message(resp)))
	}
	var second request
	if err := json.Unmarshal(srv.Requests()[1].Body, &second); err != nil {
		t.Fatal(err)
	}
	if len(second.Messages) != 3 || second.Messages[2].Role != "user" || len(second.Messages[2].Content) != 2 {
		t.Fatalf("second request: %s", srv.Requests()[1].Body)
	}
	var result, update block
	if json.Unmarshal(second.Messages[2].Content[0], &result) != nil || json.Unmarshal(second.Messages[2].Content[1], &update) != nil ||
		result.Type != "tool_result" || result.ToolUseID != "toolu_01" ||
		update.Type != "text" || !strings.HasPrefix(update.Text, "<system-reminder>") || !strings.Contains(update.Text, "`tax-forms`") {
		t.Errorf("second request's last user turn: %s", srv.Requests()[1].Body)
	}
}
