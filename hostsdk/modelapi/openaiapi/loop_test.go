package openaiapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/internal/looptest"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/openaiapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/skill/skills"
)

// The arguments of the model's two calls, as it writes them.
const (
	skillArgs    = `{"name":"pdf-forms"}`
	resourceArgs = `{"name":"pdf-forms","path":"scripts/fill_form.py"}`
	answer       = "Done: the form is filled in."
)

func client(srv *looptest.Server) openai.Client {
	return openai.NewClient(option.WithBaseURL(srv.URL+"/v1/"), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// loop runs three model turns: turn asks the model for its reply to the
// conversation of a step.
func loop(t *testing.T, fx *looptest.Fixture, turn func(n int, conv []hostsdk.Message) hostsdk.Message) {
	t.Helper()
	for n := 1; n <= 3; n++ {
		reply := turn(n, fx.Step(t, n))
		calls, results := fx.Reply(t, n, reply)
		if want := []int{1, 1, 0}[n-1]; len(calls) != want {
			t.Fatalf("turn %d: %d tool calls, want %d", n, len(calls), want)
		}
		for _, r := range results {
			if r.IsError {
				t.Fatalf("turn %d: the tool result is an error: %s", n, r.Text)
			}
		}
	}
	conv := fx.Step(t, 4)
	if last := conv[len(conv)-1]; last.Role != hostsdk.RoleAssistant || last.Text() != answer {
		t.Errorf("last message %+v", last)
	}
}

// checkTools checks a request's function tools against the definitions the
// agent sees: every one, its schema byte for byte.
func checkTools(t *testing.T, fx *looptest.Fixture, i int, got []function) {
	t.Helper()
	offered := fx.Offered()
	if len(got) != len(offered) || len(got) != 2 {
		t.Fatalf("request %d: %d tools, want the %d offered", i, len(got), len(offered))
	}
	for k, d := range offered {
		f := got[k]
		if f.Name != d.Definition.Name || f.Description != d.Definition.Description || string(f.Parameters) != looptest.Compact(t, d.Definition.InputSchema) {
			t.Errorf("request %d: tool %d is %+v, want %s with parameters %s", i, k, f, d.Definition.Name, d.Definition.InputSchema)
		}
	}
}

type function struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict"`
}

// chatReply returns a chat completion; each call is an id, a name and
// the arguments.
func chatReply(id, content, finish string, calls ...[3]string) string {
	var tc []map[string]any
	for _, c := range calls {
		tc = append(tc, map[string]any{"id": c[0], "type": "function",
			"function": map[string]string{"name": c[1], "arguments": c[2]}})
	}
	msg := map[string]any{"role": "assistant", "content": content, "refusal": nil}
	if tc != nil {
		msg["tool_calls"] = tc
	}
	raw, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion", "created": 1, "model": "gpt-test",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": nil, "message": msg}},
		"usage":   map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
	return string(raw)
}

// chatRequest is the part of a Chat Completions request the test reads.
type chatRequest struct {
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	} `json:"tools"`
}

// TestChatLoopThroughTheSkillTools runs three model turns with the real
// SDK client's Chat Completions API against a recording server: the model
// loads a skill with `skill`, reads its script with `skill_resource`, and
// answers.
func TestChatLoopThroughTheSkillTools(t *testing.T) {
	fx := looptest.New(t)
	srv := looptest.NewServer(t,
		chatReply("chatcmpl-1", "Loading the skill.", "tool_calls", [3]string{"call_01", "skill", skillArgs}),
		chatReply("chatcmpl-2", "", "tool_calls", [3]string{"call_02", "skill_resource", resourceArgs}),
		chatReply("chatcmpl-3", answer, "stop"),
	)
	c := client(srv)
	loop(t, fx, func(n int, conv []hostsdk.Message) hostsdk.Message {
		msgs, err := openaiapi.ChatMessages(conv)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := openaiapi.ChatTools(fx.Offered())
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "gpt-test", Messages: msgs, Tools: defs})
		if err != nil {
			t.Fatalf("turn %d: %v", n, err)
		}
		reply, err := openaiapi.ChatMessage(resp)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	})

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	parsed := make([]chatRequest, len(reqs))
	for i, r := range reqs {
		if r.Method != "POST" || r.Path != "/v1/chat/completions" {
			t.Errorf("request %d: %s %s", i+1, r.Method, r.Path)
		}
		if err := json.Unmarshal(r.Body, &parsed[i]); err != nil {
			t.Fatalf("request %d: %v\n%s", i+1, err, r.Body)
		}
		var fns []function
		for _, tool := range parsed[i].Tools {
			if tool.Type != "function" {
				t.Errorf("request %d: a tool of type %q", i+1, tool.Type)
			}
			fns = append(fns, tool.Function)
		}
		checkTools(t, fx, i+1, fns)
	}
	text := func(raw json.RawMessage) string {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("content %s is not a string", raw)
		}
		return s
	}

	// The first request: the user's message, then the catalog, both user
	// content.
	first := parsed[0].Messages
	if len(first) != 2 || first[0].Role != "user" || text(first[0].Content) != looptest.Ask || first[1].Role != "user" ||
		!strings.HasPrefix(text(first[1].Content), "<system-reminder>") || !strings.Contains(text(first[1].Content), "`pdf-forms`") {
		t.Fatalf("first request: %s", reqs[0].Body)
	}

	// The second: the call, and the `skill` result answering it.
	second := parsed[1].Messages
	if len(second) != 4 || second[2].Role != "assistant" || text(second[2].Content) != "Loading the skill." ||
		len(second[2].ToolCalls) != 1 || second[3].Role != "tool" {
		t.Fatalf("second request: %s", reqs[1].Body)
	}
	call := second[2].ToolCalls[0]
	if call.ID != "call_01" || call.Type != "function" || call.Function.Name != "skill" || call.Function.Arguments != skillArgs {
		t.Errorf("second request: tool call %+v", call)
	}
	if second[3].ToolCallID != call.ID || !strings.HasPrefix(text(second[3].Content), `<skill_content name="pdf-forms">`) {
		t.Errorf("second request: tool result %q for %q", second[3].Content, second[3].ToolCallID)
	}

	// The third: the resource read and its page.
	third := parsed[2].Messages
	if len(third) != 6 || third[4].Role != "assistant" || len(third[4].ToolCalls) != 1 || third[5].Role != "tool" {
		t.Fatalf("third request: %s", reqs[2].Body)
	}
	if call := third[4].ToolCalls[0]; call.ID != "call_02" || call.Function.Name != "skill_resource" || call.Function.Arguments != resourceArgs ||
		third[5].ToolCallID != call.ID || !strings.Contains(text(third[5].Content), looptest.Script) {
		t.Errorf("third request: call %+v, result %s", call, third[5].Content)
	}
	if len(third[4].Content) != 0 {
		t.Errorf("third request: an assistant message without text has content %s", third[4].Content)
	}
}

func responsesReply(id string, output ...string) string {
	return `{"id":"` + id + `","object":"response","created_at":1,"status":"completed","model":"gpt-test","output":[` +
		strings.Join(output, ",") + `],"parallel_tool_calls":true,"tool_choice":"auto","tools":[]}`
}

func functionCall(callID, name, args string) string {
	raw, _ := json.Marshal(map[string]string{"type": "function_call", "id": "fc_" + callID, "call_id": callID, "name": name, "arguments": args, "status": "completed"})
	return string(raw)
}

func outputText(id, text string) string {
	raw, _ := json.Marshal(map[string]any{"type": "message", "id": id, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}})
	return string(raw)
}

const reasoning = `{"type":"reasoning","id":"rs_01","summary":[{"type":"summary_text","text":"Load pdf-forms."}],"encrypted_content":"ZW5j"}`

// responsesItem is an input item of a Responses request.
type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

// TestResponsesLoopThroughTheSkillTools runs three model turns with the
// real SDK client's Responses API against a recording server: the model
// reasons and loads a skill with `skill`, reads its script with
// `skill_resource`, and answers.
func TestResponsesLoopThroughTheSkillTools(t *testing.T) {
	fx := looptest.New(t)
	srv := looptest.NewServer(t,
		responsesReply("resp_01", reasoning, outputText("msg_01", "Loading the skill."), functionCall("call_01", "skill", skillArgs)),
		responsesReply("resp_02", functionCall("call_02", "skill_resource", resourceArgs)),
		responsesReply("resp_03", outputText("msg_03", answer)),
	)
	c := client(srv)
	loop(t, fx, func(n int, conv []hostsdk.Message) hostsdk.Message {
		input, err := openaiapi.ResponsesInput(conv)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := openaiapi.ResponsesTools(fx.Offered())
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Responses.New(context.Background(), responses.ResponseNewParams{
			Model: "gpt-test", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}, Tools: defs})
		if err != nil {
			t.Fatalf("turn %d: %v", n, err)
		}
		reply, err := openaiapi.ResponsesMessage(resp)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	})

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	var parsed [][]responsesItem
	for i, r := range reqs {
		if r.Method != "POST" || r.Path != "/v1/responses" {
			t.Errorf("request %d: %s %s", i+1, r.Method, r.Path)
		}
		var body struct {
			Input []json.RawMessage `json:"input"`
			Tools []function        `json:"tools"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("request %d: %v\n%s", i+1, err, r.Body)
		}
		for _, f := range body.Tools {
			if f.Type != "function" || f.Strict == nil || *f.Strict {
				t.Errorf("request %d: tool %+v, want a function tool, not strict", i+1, f)
			}
		}
		checkTools(t, fx, i+1, body.Tools)
		items := make([]responsesItem, len(body.Input))
		for k, raw := range body.Input {
			if err := json.Unmarshal(raw, &items[k]); err != nil {
				t.Fatal(err)
			}
		}
		if i == 1 && (len(body.Input) < 3 || string(body.Input[2]) != reasoning) {
			t.Errorf("second request: the reasoning item is not sent back as it came: %s", r.Body)
		}
		parsed = append(parsed, items)
	}
	inputText := func(raw json.RawMessage) string {
		var parts []struct{ Type, Text string }
		if err := json.Unmarshal(raw, &parts); err != nil || len(parts) != 1 || parts[0].Type != "input_text" {
			t.Fatalf("content %s", raw)
		}
		return parts[0].Text
	}
	output := func(raw json.RawMessage) string {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("output %s is not a string", raw)
		}
		return s
	}

	first := parsed[0]
	if len(first) != 2 || first[0].Role != "user" || inputText(first[0].Content) != looptest.Ask || first[1].Role != "user" ||
		!strings.HasPrefix(inputText(first[1].Content), "<system-reminder>") || !strings.Contains(inputText(first[1].Content), "`pdf-forms`") {
		t.Fatalf("first request: %s", reqs[0].Body)
	}

	second := parsed[1]
	if len(second) != 6 || second[3].Role != "assistant" || second[4].Type != "function_call" || second[5].Type != "function_call_output" {
		t.Fatalf("second request: %s", reqs[1].Body)
	}
	if c := second[4]; c.CallID != "call_01" || c.Name != "skill" || c.Arguments != skillArgs {
		t.Errorf("second request: function call %+v", c)
	}
	if r := second[5]; r.CallID != "call_01" || !strings.HasPrefix(output(r.Output), `<skill_content name="pdf-forms">`) {
		t.Errorf("second request: function call output %+v", r)
	}

	third := parsed[2]
	if len(third) != 8 || third[6].Type != "function_call" || third[7].Type != "function_call_output" {
		t.Fatalf("third request: %s", reqs[2].Body)
	}
	if c, r := third[6], third[7]; c.CallID != "call_02" || c.Name != "skill_resource" || c.Arguments != resourceArgs ||
		r.CallID != "call_02" || !strings.Contains(output(r.Output), looptest.Script) {
		t.Errorf("third request: call %+v, output %+v", c, r)
	}
}

// TestChatCatalogUpdateAfterToolResults: when the skills change between
// two steps, the plugin's new catalog follows the tool results in the log;
// the request carries the tool message right after the call, as the API
// requires, then the catalog as a user message.
func TestChatCatalogUpdateAfterToolResults(t *testing.T) {
	fx := looptest.New(t)
	srv := looptest.NewServer(t,
		chatReply("chatcmpl-1", "", "tool_calls", [3]string{"call_01", "skill", skillArgs}),
		chatReply("chatcmpl-2", answer, "stop"),
	)
	c := client(srv)
	for n := 1; n <= 2; n++ {
		if n == 2 {
			if err := fx.Registry.Register(tools.GlobalScope, skills.RuntimeSkill{Name: "tax-forms", Description: "Fill in tax forms.", Content: "Check the totals."}); err != nil {
				t.Fatal(err)
			}
		}
		msgs := must(openaiapi.ChatMessages(fx.Step(t, n)))
		resp, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "gpt-test", Messages: msgs, Tools: must(openaiapi.ChatTools(fx.Offered()))})
		if err != nil {
			t.Fatal(err)
		}
		fx.Reply(t, n, must(openaiapi.ChatMessage(resp)))
	}
	var second chatRequest
	body := srv.Requests()[1].Body
	if err := json.Unmarshal(body, &second); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range second.Messages {
		roles = append(roles, m.Role)
	}
	var update string
	if len(second.Messages) == 5 {
		json.Unmarshal(second.Messages[4].Content, &update)
	}
	if strings.Join(roles, " ") != "user user assistant tool user" || second.Messages[3].ToolCallID != "call_01" ||
		!strings.HasPrefix(update, "<system-reminder>") || !strings.Contains(update, "`tax-forms`") {
		t.Errorf("second request: %s", body)
	}
}
