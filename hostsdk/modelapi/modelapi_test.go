package modelapi_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
)

// TestToolUseBlock: arguments that are a JSON object become the block's
// input, compacted; anything else is kept as the model wrote it, and
// Arguments gives back what the tool must see.
func TestToolUseBlock(t *testing.T) {
	for _, tc := range []struct {
		args, block, arguments string
	}{
		{`{"name":"pdf-forms"}`, `{"type":"tool_use","id":"c1","name":"skill","input":{"name":"pdf-forms"}}`, `{"name":"pdf-forms"}`},
		{"{ \"name\" : \"pdf-forms\",\n \"x\": [1, 2] }", `{"type":"tool_use","id":"c1","name":"skill","input":{"name":"pdf-forms","x":[1,2]}}`, `{"name":"pdf-forms","x":[1,2]}`},
		{`{"name":"a<b"}`, `{"type":"tool_use","id":"c1","name":"skill","input":{"name":"a\u003cb"}}`, `{"name":"a\u003cb"}`},
		{``, `{"type":"tool_use","id":"c1","name":"skill","input":{},"arguments":""}`, ``},
		{`{"name":`, `{"type":"tool_use","id":"c1","name":"skill","input":{},"arguments":"{\"name\":"}`, `{"name":`},
		{`["pdf-forms"]`, `{"type":"tool_use","id":"c1","name":"skill","input":{},"arguments":"[\"pdf-forms\"]"}`, `["pdf-forms"]`},
		{`null`, `{"type":"tool_use","id":"c1","name":"skill","input":{},"arguments":"null"}`, `null`},
	} {
		b, err := modelapi.ToolUseBlock("c1", "skill", tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		raw, _ := json.Marshal(b)
		if string(raw) != tc.block {
			t.Errorf("%q: block %s, want %s", tc.args, raw, tc.block)
		}
		u, ok := b.ToolUse()
		if !ok || u.ID != "c1" || u.Name != "skill" {
			t.Errorf("%q: reads as %+v, %v", tc.args, u, ok)
		}
		args, ok := modelapi.Arguments(b)
		if !ok || string(args) != tc.arguments {
			t.Errorf("%q: arguments %q, want %q", tc.args, args, tc.arguments)
		}
	}
	if _, ok := modelapi.Arguments(hostsdk.TextBlock("x")); ok {
		t.Error("a text block has arguments")
	}
}

// TestCallsAndResults: Calls takes each tool_use block of a message, in
// order, with its id, name and arguments; ResultMessage answers them with
// their ids and error flags.
func TestCallsAndResults(t *testing.T) {
	use1, _ := hostsdk.ToolUseBlock("toolu_1", "skill", json.RawMessage(`{"name":"pdf-forms"}`))
	use2, _ := modelapi.ToolUseBlock("call_2", "skill_resource", `{"name":`)
	thinking, _ := hostsdk.RawBlock(json.RawMessage(`{"type":"thinking","thinking":"...","signature":"s"}`))
	msg := hostsdk.Message{ID: "a1", Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{thinking, hostsdk.TextBlock("Loading."), use1, use2}}
	calls := modelapi.Calls(msg)
	want := []hostsdk.ToolCall{
		{CallID: "toolu_1", Name: "skill", Arguments: json.RawMessage(`{"name":"pdf-forms"}`)},
		{CallID: "call_2", Name: "skill_resource", Arguments: json.RawMessage(`{"name":`)},
	}
	if len(calls) != len(want) {
		t.Fatalf("calls %+v", calls)
	}
	for i := range want {
		g, w := calls[i], want[i]
		if g.CallID != w.CallID || g.Name != w.Name || string(g.Arguments) != string(w.Arguments) {
			t.Errorf("call %d: %+v, want %+v", i, g, w)
		}
	}
	if calls := modelapi.Calls(hostsdk.Message{Role: hostsdk.RoleAssistant, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Done.")}}); calls != nil {
		t.Errorf("a message without tool calls gives %+v", calls)
	}

	res, err := modelapi.ResultMessage("r1",
		modelapi.Result{CallID: "toolu_1", Result: hostsdk.ToolResult{Text: `<skill_content name="pdf-forms">`}},
		modelapi.Result{CallID: "call_2", Result: hostsdk.ToolResult{Text: "Error: invalid", IsError: true}},
	)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if want := `{"id":"r1","role":"tool","content":[` +
		`{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"\u003cskill_content name=\"pdf-forms\"\u003e"}]},` +
		`{"type":"tool_result","tool_use_id":"call_2","content":[{"type":"text","text":"Error: invalid"}],"is_error":true}]}`; string(raw) != want {
		t.Errorf("result message\n%s\nwant\n%s", raw, want)
	}
	out, ok := res.Content[1].ToolResult()
	if !ok || out.CallID != "call_2" || !out.IsError || len(out.Content) != 1 || out.Content[0].Text != "Error: invalid" {
		t.Errorf("second result reads as %+v", out)
	}
}

// FuzzToolUseBlock: whatever arguments text a model sends, the block is
// made, reads back as a tool call with its id and name, and gives the tool
// the same arguments: the same JSON object, or (valid UTF-8) the same
// text.
func FuzzToolUseBlock(f *testing.F) {
	for _, s := range []string{`{"name":"pdf-forms"}`, `{ "a" : [1, 2.50, "é<"] }`, `{"name":`, `[]`, `null`, ``, `"x"`, "{\"a\":\"\xff\"}", `{"a":1}{"b":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		b, err := modelapi.ToolUseBlock("call_1", "skill", args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		u, ok := b.ToolUse()
		if !ok || u.ID != "call_1" || u.Name != "skill" {
			t.Fatalf("%q: reads as %+v, %v", args, u, ok)
		}
		got, ok := modelapi.Arguments(b)
		if !ok {
			t.Fatalf("%q: no arguments", args)
		}
		var want, have map[string]any
		if json.Unmarshal([]byte(args), &want) == nil && want != nil {
			if err := json.Unmarshal(got, &have); err != nil {
				t.Fatalf("%q: arguments %q: %v", args, got, err)
			}
			w, _ := json.Marshal(want)
			h, _ := json.Marshal(have)
			if string(w) != string(h) {
				t.Fatalf("%q: arguments %q", args, got)
			}
			return
		}
		if utf8.ValidString(args) && string(got) != args {
			t.Fatalf("%q: arguments %q", args, got)
		}
	})
}
