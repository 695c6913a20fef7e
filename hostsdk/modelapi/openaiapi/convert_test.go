package openaiapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/openaiapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func text(s string) hostsdk.ContentBlock { return hostsdk.TextBlock(s) }

func raw(s string) hostsdk.ContentBlock { return must(hostsdk.RawBlock(json.RawMessage(s))) }

func msg(id string, role hostsdk.Role, blocks ...hostsdk.ContentBlock) hostsdk.Message {
	return hostsdk.Message{ID: id, Role: role, Content: blocks}
}

var (
	pngBlock  = must(hostsdk.ImageBlock(hostsdk.Image{MediaType: "image/png", Data: []byte("\x89PNG\r\n")}))
	urlBlock  = must(hostsdk.ImageBlock(hostsdk.Image{URL: "https://example.com/form.png"}))
	use       = must(hostsdk.ToolUseBlock("call_1", "skill", json.RawMessage(`{"name":"pdf-forms"}`)))
	malformed = must(modelapi.ToolUseBlock("call_2", "skill_resource", `{"name":"pdf-forms",`))
	result    = must(hostsdk.ToolResultBlock("call_1", []hostsdk.ContentBlock{text("<skill_content>")}, false))
	failed    = must(hostsdk.ToolResultBlock("call_2", []hostsdk.ContentBlock{text("Error: "), text("no"), pngBlock}, true))
	thinking  = raw(`{"type":"thinking","thinking":"Load it.","signature":"c2ln"}`)
	reasoned  = raw(`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"ZW5j"}`)
	refused   = raw(`{"type":"refusal","refusal":"I cannot."}`)
)

const dataURL = "data:image/png;base64,iVBORw0K"

var definitions = []tools.ResolvedTool{
	{Definition: tools.Definition{Name: "skill", Description: "Load a skill.", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)}},
	{Definition: tools.Definition{Name: "ping"}},
}

// TestChatMessages converts each kind of message and block into Chat
// Completions messages.
func TestChatMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []hostsdk.Message
		want string
	}{{
		name: "system messages stay in place; one text is a string, more are parts",
		in:   []hostsdk.Message{msg("s1", hostsdk.RoleSystem, text("Be brief.")), msg("u1", hostsdk.RoleUser, text("Hi")), msg("s2", hostsdk.RoleSystem, text("Be exact."), text(""), text("Be kind."))},
		want: `[{"content":"Be brief.","role":"system"},{"content":"Hi","role":"user"},{"content":[{"text":"Be exact.","type":"text"},{"text":"Be kind.","type":"text"}],"role":"system"}]`,
	}, {
		name: "user text and images, inline as a data URL and by URL; the catalog is user text",
		in:   []hostsdk.Message{msg("u1", hostsdk.RoleUser, text("Fill this:"), pngBlock, urlBlock), msg("c1", hostsdk.RoleUser, text("<system-reminder>catalog</system-reminder>"))},
		want: `[{"content":[{"text":"Fill this:","type":"text"},{"image_url":{"url":"` + dataURL + `"},"type":"image_url"},{"image_url":{"url":"https://example.com/form.png"},"type":"image_url"}],"role":"user"},` +
			`{"content":"\u003csystem-reminder\u003ecatalog\u003c/system-reminder\u003e","role":"user"}]`,
	}, {
		name: "an assistant's text, refusal and function calls, malformed arguments as they came; thinking left out",
		in:   []hostsdk.Message{msg("a1", hostsdk.RoleAssistant, thinking, text("Loading."), text("Now."), refused, use, malformed), msg("a2", hostsdk.RoleAssistant, thinking, text(""))},
		want: `[{"refusal":"I cannot.","content":[{"text":"Loading.","type":"text"},{"text":"Now.","type":"text"}],"tool_calls":[` +
			`{"id":"call_1","function":{"arguments":"{\"name\":\"pdf-forms\"}","name":"skill"},"type":"function"},` +
			`{"id":"call_2","function":{"arguments":"{\"name\":\"pdf-forms\",","name":"skill_resource"},"type":"function"}],"role":"assistant"}]`,
	}, {
		name: "tool results become tool messages first, their images and the rest a user message after them",
		in:   []hostsdk.Message{msg("a1", hostsdk.RoleAssistant, use), msg("r1", hostsdk.RoleTool, text("<system-reminder>changed</system-reminder>"), result, failed)},
		want: `[{"tool_calls":[{"id":"call_1","function":{"arguments":"{\"name\":\"pdf-forms\"}","name":"skill"},"type":"function"}],"role":"assistant"},` +
			`{"content":"\u003cskill_content\u003e","tool_call_id":"call_1","role":"tool"},{"content":"Error: no","tool_call_id":"call_2","role":"tool"},` +
			`{"content":[{"image_url":{"url":"` + dataURL + `"},"type":"image_url"},{"text":"\u003csystem-reminder\u003echanged\u003c/system-reminder\u003e","type":"text"}],"role":"user"}]`,
	}, {
		name: "messages with no content are left out",
		in:   []hostsdk.Message{msg("u1", hostsdk.RoleUser), msg("u2", hostsdk.RoleUser, text(""), reasoned), msg("s1", hostsdk.RoleSystem), msg("a1", hostsdk.RoleAssistant)},
		want: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openaiapi.ChatMessages(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if s := string(must(json.Marshal(got))); s != tc.want {
				t.Errorf("messages\n%s\nwant\n%s", s, tc.want)
			}
		})
	}
}

// TestResponsesInput converts each kind of message and block into
// Responses input items.
func TestResponsesInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []hostsdk.Message
		want string
	}{{
		name: "system messages stay in place",
		in:   []hostsdk.Message{msg("s1", hostsdk.RoleSystem, text("Be brief."), text("Be exact.")), msg("u1", hostsdk.RoleUser, text("Hi"))},
		want: `[{"content":[{"text":"Be brief.","type":"input_text"},{"text":"Be exact.","type":"input_text"}],"role":"system"},{"content":[{"text":"Hi","type":"input_text"}],"role":"user"}]`,
	}, {
		name: "user text and images; the catalog is user text",
		in:   []hostsdk.Message{msg("u1", hostsdk.RoleUser, text("Fill this:"), pngBlock, urlBlock), msg("c1", hostsdk.RoleUser, text("<system-reminder>catalog</system-reminder>"))},
		want: `[{"content":[{"text":"Fill this:","type":"input_text"},{"detail":"auto","image_url":"` + dataURL + `","type":"input_image"},{"detail":"auto","image_url":"https://example.com/form.png","type":"input_image"}],"role":"user"},` +
			`{"content":[{"text":"\u003csystem-reminder\u003ecatalog\u003c/system-reminder\u003e","type":"input_text"}],"role":"user"}]`,
	}, {
		name: "an assistant's reasoning as it came, text and function calls in order; thinking and refusals left out",
		in:   []hostsdk.Message{msg("a1", hostsdk.RoleAssistant, reasoned, thinking, text("Loading."), refused, use, malformed)},
		want: `[{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"ZW5j"},{"content":"Loading.","role":"assistant"},` +
			`{"arguments":"{\"name\":\"pdf-forms\"}","call_id":"call_1","name":"skill","type":"function_call"},` +
			`{"arguments":"{\"name\":\"pdf-forms\",","call_id":"call_2","name":"skill_resource","type":"function_call"}]`,
	}, {
		name: "tool results become function call outputs in place, with their images as a list",
		in:   []hostsdk.Message{msg("r1", hostsdk.RoleTool, text("Before."), result, failed, text("<system-reminder>changed</system-reminder>"))},
		want: `[{"content":[{"text":"Before.","type":"input_text"}],"role":"user"},{"output":"\u003cskill_content\u003e","call_id":"call_1","type":"function_call_output"},` +
			`{"output":[{"text":"Error: no","type":"input_text"},{"image_url":"` + dataURL + `","type":"input_image"}],"call_id":"call_2","type":"function_call_output"},` +
			`{"content":[{"text":"\u003csystem-reminder\u003echanged\u003c/system-reminder\u003e","type":"input_text"}],"role":"user"}]`,
	}, {
		name: "messages with no content are left out",
		in:   []hostsdk.Message{msg("u1", hostsdk.RoleUser), msg("u2", hostsdk.RoleUser, text(""), thinking), msg("s1", hostsdk.RoleSystem), msg("a1", hostsdk.RoleAssistant)},
		want: `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openaiapi.ResponsesInput(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if s := string(must(json.Marshal(got))); s != tc.want {
				t.Errorf("input\n%s\nwant\n%s", s, tc.want)
			}
		})
	}
}

// TestSystemMessagesHoldOnlyText: a system message with an image is an
// error for both APIs.
func TestSystemMessagesHoldOnlyText(t *testing.T) {
	in := []hostsdk.Message{msg("s1", hostsdk.RoleSystem, text("Look:"), pngBlock)}
	if _, err := openaiapi.ChatMessages(in); err == nil || !strings.Contains(err.Error(), `system message "s1"`) {
		t.Errorf("chat: %v", err)
	}
	if _, err := openaiapi.ResponsesInput(in); err == nil || !strings.Contains(err.Error(), `system message "s1"`) {
		t.Errorf("responses: %v", err)
	}
}

// TestTools: each definition with its schema byte for byte, for both APIs.
func TestTools(t *testing.T) {
	chat := must(json.Marshal(must(openaiapi.ChatTools(definitions))))
	if want := `[{"function":{"description":"Load a skill.","name":"skill","parameters":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}},"type":"function"},` +
		`{"function":{"name":"ping","parameters":{"type":"object"}},"type":"function"}]`; string(chat) != want {
		t.Errorf("chat tools\n%s\nwant\n%s", chat, want)
	}
	resp := must(json.Marshal(must(openaiapi.ResponsesTools(definitions))))
	if want := `[{"description":"Load a skill.","name":"skill","parameters":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false},"strict":false,"type":"function"},` +
		`{"name":"ping","parameters":{"type":"object"},"strict":false,"type":"function"}]`; string(resp) != want {
		t.Errorf("responses tools\n%s\nwant\n%s", resp, want)
	}
}

// The model's arguments: spaced, with characters JSON may escape, and one
// call's malformed.
const (
	spacedArgs    = `{ "name" : "pdf-forms" }`
	richArgs      = `{"z":1,"name":"pdf-forms","path":"scripts/a<b>.py","nested":{"list":[1,2.50,"é"]}}`
	malformedArgs = `{"name":"pdf-forms",`
)

const chatResponse = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test",
 "choices":[{"index":0,"finish_reason":"tool_calls","logprobs":null,"message":{"role":"assistant","content":"Loading.","refusal":"Not that.",
  "tool_calls":[
   {"id":"call_1","type":"function","function":{"name":"skill","arguments":"{ \"name\" : \"pdf-forms\" }"}},
   {"id":"call_2","type":"function","function":{"name":"skill_resource","arguments":"{\"z\":1,\"name\":\"pdf-forms\",\"path\":\"scripts/a<b>.py\",\"nested\":{\"list\":[1,2.50,\"é\"]}}"}},
   {"id":"call_3","type":"function","function":{"name":"skill","arguments":"{\"name\":\"pdf-forms\","}}]}}]}`

const responsesResponse = `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-test","output":[
 {"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"ZW5j"},
 {"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Loading.","annotations":[]},{"type":"refusal","refusal":"Not that."}]},
 {"type":"function_call","id":"fc_1","call_id":"call_1","name":"skill","arguments":"{ \"name\" : \"pdf-forms\" }","status":"completed"},
 {"type":"function_call","id":"fc_2","call_id":"call_2","name":"skill_resource","arguments":"{\"z\":1,\"name\":\"pdf-forms\",\"path\":\"scripts/a<b>.py\",\"nested\":{\"list\":[1,2.50,\"é\"]}}","status":"completed"},
 {"type":"function_call","id":"fc_3","call_id":"call_3","name":"skill","arguments":"{\"name\":\"pdf-forms\",","status":"completed"}]}`

// wantBlocks are the blocks both responses read as (a reasoning item only
// from the Responses API).
var wantBlocks = []string{
	`{"type":"text","text":"Loading."}`,
	`{"type":"refusal","refusal":"Not that."}`,
	`{"type":"tool_use","id":"call_1","name":"skill","input":{"name":"pdf-forms"}}`,
	`{"type":"tool_use","id":"call_2","name":"skill_resource","input":{"z":1,"name":"pdf-forms","path":"scripts/a\u003cb\u003e.py","nested":{"list":[1,2.50,"é"]}}}`,
	`{"type":"tool_use","id":"call_3","name":"skill","input":{},"arguments":"{\"name\":\"pdf-forms\","}`,
}

func checkBlocks(t *testing.T, m hostsdk.Message, id string, want []string) {
	t.Helper()
	if m.ID != id || m.Role != hostsdk.RoleAssistant || len(m.Content) != len(want) {
		t.Fatalf("message %+v", m)
	}
	for i, b := range m.Content {
		if got := string(must(json.Marshal(b))); got != want[i] {
			t.Errorf("block %d\n%s\nwant\n%s", i, got, want[i])
		}
	}
}

// TestChatMessage reads a chat completion: text, refusal, function calls.
func TestChatMessage(t *testing.T) {
	var resp openai.ChatCompletion
	if err := json.Unmarshal([]byte(chatResponse), &resp); err != nil {
		t.Fatal(err)
	}
	m, err := openaiapi.ChatMessage(&resp)
	if err != nil {
		t.Fatal(err)
	}
	checkBlocks(t, m, "chatcmpl-1", wantBlocks)

	for name, body := range map[string]string{
		"no choice":          `{"id":"chatcmpl-2","choices":[]}`,
		"a custom tool call": `{"id":"chatcmpl-3","choices":[{"message":{"role":"assistant","content":"","tool_calls":[{"id":"c","type":"custom","custom":{"name":"x","input":"y"}}]}}]}`,
	} {
		var resp openai.ChatCompletion
		if err := json.Unmarshal([]byte(body), &resp); err != nil {
			t.Fatal(err)
		}
		if _, err := openaiapi.ChatMessage(&resp); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestResponsesMessage reads a response: reasoning as it came, text,
// refusal, function calls.
func TestResponsesMessage(t *testing.T) {
	var resp responses.Response
	if err := json.Unmarshal([]byte(responsesResponse), &resp); err != nil {
		t.Fatal(err)
	}
	m, err := openaiapi.ResponsesMessage(&resp)
	if err != nil {
		t.Fatal(err)
	}
	checkBlocks(t, m, "resp_1", append([]string{`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"ZW5j"}`}, wantBlocks...))

	var other responses.Response
	if err := json.Unmarshal([]byte(`{"id":"resp_2","output":[{"type":"web_search_call","id":"ws_1","status":"completed"}]}`), &other); err != nil {
		t.Fatal(err)
	}
	if _, err := openaiapi.ResponsesMessage(&other); err == nil || !strings.Contains(err.Error(), "web_search_call") {
		t.Errorf("a hosted tool's item: %v", err)
	}
}

// TestToolCallRoundTrip: the model's function calls, read into a message
// and sent back through either API, keep their ids and names; arguments
// that are a JSON object go back as the message holds them (compact, the
// same value), malformed ones byte for byte.
func TestToolCallRoundTrip(t *testing.T) {
	var chatResp openai.ChatCompletion
	var respResp responses.Response
	if err := json.Unmarshal([]byte(chatResponse), &chatResp); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(responsesResponse), &respResp); err != nil {
		t.Fatal(err)
	}
	fromChat := must(openaiapi.ChatMessage(&chatResp))
	fromResponses := must(openaiapi.ResponsesMessage(&respResp))

	type call struct{ id, name, args string }
	model := []call{{"call_1", "skill", spacedArgs}, {"call_2", "skill_resource", richArgs}, {"call_3", "skill", malformedArgs}}

	var chatSent []struct {
		ToolCalls []struct {
			ID       string
			Function struct{ Name, Arguments string }
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(must(json.Marshal(must(openaiapi.ChatMessages([]hostsdk.Message{fromChat})))), &chatSent); err != nil {
		t.Fatal(err)
	}
	var respSent []struct {
		Type, Name, Arguments string
		CallID                string `json:"call_id"`
	}
	if err := json.Unmarshal(must(json.Marshal(must(openaiapi.ResponsesInput([]hostsdk.Message{fromResponses})))), &respSent); err != nil {
		t.Fatal(err)
	}
	var gotChat, gotResp []call
	for _, c := range chatSent[0].ToolCalls {
		gotChat = append(gotChat, call{c.ID, c.Function.Name, c.Function.Arguments})
	}
	for _, item := range respSent {
		if item.Type == "function_call" {
			gotResp = append(gotResp, call{item.CallID, item.Name, item.Arguments})
		}
	}
	for _, m := range []hostsdk.Message{fromChat, fromResponses} {
		calls := modelapi.Calls(m)
		for api, got := range map[string][]call{"chat": gotChat, "responses": gotResp} {
			if len(got) != len(model) || len(calls) != len(model) {
				t.Fatalf("%s: sent back %+v, calls %+v", api, got, calls)
			}
			for i, w := range model {
				g := got[i]
				if g.id != w.id || g.name != w.name || g.args != string(calls[i].Arguments) || calls[i].CallID != w.id || calls[i].Name != w.name {
					t.Errorf("%s: call %d sent back as %+v, the message's %+v, the model's %+v", api, i, g, calls[i], w)
				}
				if i < 2 && !sameJSON(t, g.args, w.args) || i == 2 && g.args != w.args {
					t.Errorf("%s: call %d: arguments %s, the model's %s", api, i, g.args, w.args)
				}
			}
		}
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return string(must(json.Marshal(x))) == string(must(json.Marshal(y)))
}
