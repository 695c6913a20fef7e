package anthropicapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
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
	png      = hostsdk.Image{MediaType: "image/png", Data: []byte("\x89PNG\r\n")}
	pngBlock = must(hostsdk.ImageBlock(png))
	urlBlock = must(hostsdk.ImageBlock(hostsdk.Image{URL: "https://example.com/form.png"}))
	use      = must(hostsdk.ToolUseBlock("toolu_1", "skill", json.RawMessage(`{"name":"pdf-forms"}`)))
	result   = must(hostsdk.ToolResultBlock("toolu_1", []hostsdk.ContentBlock{text("<skill_content>")}, false))
	failed   = must(hostsdk.ToolResultBlock("toolu_2", []hostsdk.ContentBlock{text("Error: no"), pngBlock}, true))
	thinking = raw(`{"type":"thinking","thinking":"Load it.","signature":"c2ln"}`)
	document = raw(`{"type":"document","source":{"type":"text","media_type":"text/plain","data":"W-9"}}`)
)

// TestMessages converts each kind of message and block into the request's
// system prompt and messages.
func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		name         string
		in           []hostsdk.Message
		system, msgs string
	}{{
		name:   "system messages become the system prompt, in order, wherever they are",
		in:     []hostsdk.Message{msg("s1", hostsdk.RoleSystem, text("Be brief."), text("")), msg("u1", hostsdk.RoleUser, text("Hi")), msg("s2", hostsdk.RoleSystem, text("Be exact."))},
		system: `[{"text":"Be brief.","type":"text"},{"text":"Be exact.","type":"text"}]`,
		msgs:   `[{"content":[{"text":"Hi","type":"text"}],"role":"user"}]`,
	}, {
		name:   "user text and images, inline and by URL; the catalog's user text joins the user turn",
		in:     []hostsdk.Message{msg("u1", hostsdk.RoleUser, text("Fill this:"), pngBlock, urlBlock), msg("c1", hostsdk.RoleUser, text("<system-reminder>catalog</system-reminder>"))},
		system: `null`,
		msgs: `[{"content":[{"text":"Fill this:","type":"text"},{"source":{"data":"iVBORw0K","media_type":"image/png","type":"base64"},"type":"image"},` +
			`{"source":{"url":"https://example.com/form.png","type":"url"},"type":"image"},{"text":"\u003csystem-reminder\u003ecatalog\u003c/system-reminder\u003e","type":"text"}],"role":"user"}]`,
	}, {
		name:   "an assistant's thinking, text and tool call, in order; a document as it is",
		in:     []hostsdk.Message{msg("u1", hostsdk.RoleUser, document), msg("a1", hostsdk.RoleAssistant, thinking, text("Loading."), use)},
		system: `null`,
		msgs: `[{"content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"W-9"}}],"role":"user"},` +
			`{"content":[{"type":"thinking","thinking":"Load it.","signature":"c2ln"},{"text":"Loading.","type":"text"},{"id":"toolu_1","input":{"name":"pdf-forms"},"name":"skill","type":"tool_use"}],"role":"assistant"}]`,
	}, {
		name: "tool results become a user turn, first in it; an error result keeps its flag and its image",
		in: []hostsdk.Message{msg("a1", hostsdk.RoleAssistant, use), msg("a2", hostsdk.RoleAssistant, text("")),
			msg("c1", hostsdk.RoleUser, text("<system-reminder>changed</system-reminder>")), msg("r1", hostsdk.RoleTool, result, failed)},
		system: `null`,
		msgs: `[{"content":[{"id":"toolu_1","input":{"name":"pdf-forms"},"name":"skill","type":"tool_use"}],"role":"assistant"},` +
			`{"content":[{"tool_use_id":"toolu_1","content":[{"text":"\u003cskill_content\u003e","type":"text"}],"type":"tool_result"},` +
			`{"tool_use_id":"toolu_2","is_error":true,"content":[{"text":"Error: no","type":"text"},{"source":{"data":"iVBORw0K","media_type":"image/png","type":"base64"},"type":"image"}],"type":"tool_result"},` +
			`{"text":"\u003csystem-reminder\u003echanged\u003c/system-reminder\u003e","type":"text"}],"role":"user"}]`,
	}, {
		name:   "a text with citations goes back with them",
		in:     []hostsdk.Message{msg("a1", hostsdk.RoleAssistant, raw(`{"type":"text","text":"Per the form,","citations":[{"type":"char_location","cited_text":"W-9","document_index":0,"start_char_index":0,"end_char_index":3}]}`), raw(`{"type":"text","text":"so.","citations":[]}`))},
		system: `null`,
		msgs:   `[{"content":[{"type":"text","text":"Per the form,","citations":[{"type":"char_location","cited_text":"W-9","document_index":0,"start_char_index":0,"end_char_index":3}]},{"text":"so.","type":"text"}],"role":"assistant"}]`,
	}, {
		name:   "messages with no content are left out",
		in:     []hostsdk.Message{msg("u1", hostsdk.RoleUser), msg("u2", hostsdk.RoleUser, text("")), msg("s1", hostsdk.RoleSystem)},
		system: `null`,
		msgs:   `null`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			system, msgs, err := anthropicapi.Messages(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(must(json.Marshal(system))); got != tc.system {
				t.Errorf("system\n%s\nwant\n%s", got, tc.system)
			}
			if got := string(must(json.Marshal(msgs))); got != tc.msgs {
				t.Errorf("messages\n%s\nwant\n%s", got, tc.msgs)
			}
		})
	}
}

// TestMessagesRefuses a system message that holds more than text.
func TestMessagesRefuses(t *testing.T) {
	_, _, err := anthropicapi.Messages([]hostsdk.Message{msg("s1", hostsdk.RoleSystem, text("Be brief."), pngBlock)})
	if err == nil || !strings.Contains(err.Error(), `system message "s1"`) {
		t.Errorf("err %v", err)
	}
}

// TestTools: each definition with its schema byte for byte; a tool without
// a schema takes an empty object's, one without a description has none.
func TestTools(t *testing.T) {
	got := must(json.Marshal(anthropicapi.Tools([]tools.ResolvedTool{
		{Definition: tools.Definition{Name: "skill", Description: "Load a skill.", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)}},
		{Definition: tools.Definition{Name: "ping"}},
	})))
	want := `[{"input_schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false},"name":"skill","description":"Load a skill."},` +
		`{"input_schema":{"type":"object"},"name":"ping"}]`
	if string(got) != want {
		t.Errorf("tools\n%s\nwant\n%s", got, want)
	}
}

const response = `{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","stop_sequence":null,
 "usage":{"input_tokens":1,"output_tokens":1},
 "content":[
  {"type":"thinking","thinking":"Load it.","signature":"c2ln"},
  {"type":"redacted_thinking","data":"cmVk"},
  {"type":"text","text":"Loading."},
  {"type":"text","text":"Per the form,","citations":[{"type":"char_location","cited_text":"W-9","document_index":0,"document_title":"form","start_char_index":0,"end_char_index":3}]},
  {"type":"tool_use","id":"toolu_1","name":"skill","input":{ "name" : "pdf-forms" }},
  {"type":"tool_use","id":"toolu_2","name":"skill_resource","input":{"z":1,"name":"pdf-forms","path":"scripts/a<b>.py","nested":{"list":[1,2.50,"é"]}}}
 ]}`

// TestMessage reads a response: texts, a cited text, thinking and tool
// calls, in order.
func TestMessage(t *testing.T) {
	var resp anthropic.Message
	if err := json.Unmarshal([]byte(response), &resp); err != nil {
		t.Fatal(err)
	}
	m, err := anthropicapi.Message(&resp)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "msg_01" || m.Role != hostsdk.RoleAssistant || len(m.Content) != 6 {
		t.Fatalf("message %+v", m)
	}
	want := []string{
		`{"type":"thinking","thinking":"Load it.","signature":"c2ln"}`,
		`{"type":"redacted_thinking","data":"cmVk"}`,
		`{"type":"text","text":"Loading."}`,
		`{"type":"text","text":"Per the form,","citations":[{"type":"char_location","cited_text":"W-9","document_index":0,"document_title":"form","start_char_index":0,"end_char_index":3}]}`,
		`{"type":"tool_use","id":"toolu_1","name":"skill","input":{"name":"pdf-forms"}}`,
		`{"type":"tool_use","id":"toolu_2","name":"skill_resource","input":{"z":1,"name":"pdf-forms","path":"scripts/a\u003cb\u003e.py","nested":{"list":[1,2.50,"é"]}}}`,
	}
	for i, b := range m.Content {
		if got := string(must(json.Marshal(b))); got != want[i] {
			t.Errorf("block %d\n%s\nwant\n%s", i, got, want[i])
		}
	}
	if !m.Content[2].Equal(hostsdk.TextBlock("Loading.")) {
		t.Errorf("a plain text is not a plain text block: %+v", m.Content[2])
	}
}

// TestToolCallRoundTrip: a response's tool calls, read into a message and
// sent back, keep their ids, names and inputs byte for byte.
func TestToolCallRoundTrip(t *testing.T) {
	var resp anthropic.Message
	if err := json.Unmarshal([]byte(response), &resp); err != nil {
		t.Fatal(err)
	}
	m, err := anthropicapi.Message(&resp)
	if err != nil {
		t.Fatal(err)
	}
	_, msgs, err := anthropicapi.Messages([]hostsdk.Message{m})
	if err != nil {
		t.Fatal(err)
	}
	var sent []struct {
		Content []struct {
			Type, ID, Name string
			Input          json.RawMessage
		}
	}
	if err := json.Unmarshal(must(json.Marshal(msgs)), &sent); err != nil {
		t.Fatal(err)
	}
	var calls int
	for _, c := range resp.Content {
		if c.Type != "tool_use" {
			continue
		}
		calls++
		var block hostsdk.ToolUse
		for _, b := range m.Content {
			if u, ok := b.ToolUse(); ok && u.ID == c.ID {
				block = u
			}
		}
		var back *struct {
			Type, ID, Name string
			Input          json.RawMessage
		}
		for i, s := range sent[0].Content {
			if s.ID == c.ID {
				back = &sent[0].Content[i]
			}
		}
		compact := string(must(json.Marshal(c.Input)))
		if back == nil || back.Type != "tool_use" || back.Name != c.Name || block.Name != c.Name ||
			string(block.Input) != compact || string(back.Input) != compact {
			t.Errorf("call %s %s %s: in the message %+v, sent back %+v", c.ID, c.Name, c.Input, block, back)
		}
	}
	if calls != 2 {
		t.Fatalf("%d calls", calls)
	}
}
