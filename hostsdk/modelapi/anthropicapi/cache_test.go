package anthropicapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/internal/looptest"
	"github.com/skillcatalog/skillcatalog/internal/golden"
)

// scriptedReply is the Messages API response of the scripted session's
// nth call: its text, or its tool call after a thinking block.
func scriptedReply(n int, r looptest.Reply) string {
	content := []any{map[string]any{"type": "text", "text": r.Text}}
	stop := "end_turn"
	if r.Tool != "" {
		content = []any{
			map[string]any{"type": "thinking", "thinking": "Call " + r.Tool + ".", "signature": "c2ln"},
			map[string]any{"type": "tool_use", "id": r.CallID, "name": r.Tool, "input": json.RawMessage(r.Args)},
		}
		stop = "tool_use"
	}
	raw, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("msg_%02d", n), "type": "message", "role": "assistant",
		"model": "claude-test", "stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1},
		"content": content})
	return string(raw)
}

// runScripted runs the scripted session with the real SDK client against a
// recording server, each request made by Request with caching, and returns
// the calls and the request bodies.
func runScripted(t *testing.T, caching *anthropicapi.Caching) ([]looptest.Call, [][]byte) {
	fx := looptest.New(t)
	calls := looptest.Calls()
	var replies []string
	for i, c := range calls {
		replies = append(replies, scriptedReply(i+1, c.Reply))
	}
	srv := looptest.NewServer(t, replies...)
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	fx.Run(t, func(i int, c looptest.Call, conv []hostsdk.Message) hostsdk.Message {
		params, err := anthropicapi.Request(conv, fx.Offered(), caching)
		if err != nil {
			t.Fatal(err)
		}
		params.Model, params.MaxTokens = "claude-test", 1024
		resp, err := client.Messages.New(context.Background(), params)
		if err != nil {
			t.Fatalf("call %d (%s): %v", i+1, c.Label, err)
		}
		return must(anthropicapi.Message(resp))
	})
	var bodies [][]byte
	for _, r := range srv.Requests() {
		bodies = append(bodies, r.Body)
	}
	if len(bodies) != len(calls) {
		t.Fatalf("%d requests, want %d", len(bodies), len(calls))
	}
	return calls, bodies
}

// TestScriptedSessionBreakpoints runs the scripted session (a loop through
// both tools, a step where nothing changed, a skill added, a `/pdf-forms`,
// a tombstone, a skill back, a compaction) with the default breakpoints,
// and checks the requests the SDK sent: each one's prompt (tools, system
// prompt, messages; breakpoints left out) extends the previous one's byte
// for byte, but across the compaction; each has at most four breakpoints;
// the breakpoint where one request ended is a breakpoint of the next, at
// the same offset, so the next reads back what the one wrote; and the
// breakpoints land where testdata/scripted_breakpoints.golden says.
func TestScriptedSessionBreakpoints(t *testing.T) {
	calls, bodies := runScripted(t, nil)
	var outline strings.Builder
	var prev modelapi.Prompt
	for i, body := range bodies {
		p, err := anthropicapi.Prompt(body)
		if err != nil {
			t.Fatal(err)
		}
		c := calls[i]
		fmt.Fprintf(&outline, "request %d: %s\n%s", i+1, c.Label, requestOutline(t, body))
		if n := len(p.Breakpoints); n > anthropicapi.MaxBreakpoints || n == 0 {
			t.Errorf("request %d (%s): %d breakpoints", i+1, c.Label, n)
		}
		if i > 0 {
			switch {
			case c.Compacted && p.Extends(prev):
				t.Errorf("request %d (%s): extends the request before the compaction", i+1, c.Label)
			case !c.Compacted && !p.Extends(prev):
				t.Errorf("request %d (%s): does not extend the previous request; they part at byte %d:\n%s", i+1, c.Label,
					modelapi.CommonPrefix(p, prev), p.Bytes[modelapi.CommonPrefix(p, prev):])
			case !c.Compacted && !slices.Contains(p.Breakpoints, prev.Breakpoints[len(prev.Breakpoints)-1]):
				t.Errorf("request %d (%s): breakpoints %v miss the previous request's last, %v", i+1, c.Label, p.Breakpoints, prev.Breakpoints)
			}
		}
		prev = p
	}
	golden.Check(t, filepath.Join("testdata", "scripted_breakpoints.golden"), []byte(outline.String()))
}

// TestScriptedSessionWithoutBreakpoints: with Caching.Off the SDK sends
// no cache_control at all, and each request's prompt is byte for byte the
// prompt of the same request with the default breakpoints, less them.
func TestScriptedSessionWithoutBreakpoints(t *testing.T) {
	fx := looptest.New(t)
	calls := looptest.Calls()
	var replies []string
	for i, c := range calls {
		replies = append(replies, scriptedReply(i+1, c.Reply))
	}
	srv := looptest.NewServer(t, replies...)
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	var cached [][]byte
	fx.Run(t, func(i int, c looptest.Call, conv []hostsdk.Message) hostsdk.Message {
		on := must(anthropicapi.Request(conv, fx.Offered(), nil))
		on.Model, on.MaxTokens = "claude-test", 1024
		cached = append(cached, must(json.Marshal(on)))
		params := must(anthropicapi.Request(conv, fx.Offered(), &anthropicapi.Caching{Off: true}))
		params.Model, params.MaxTokens = "claude-test", 1024
		return must(anthropicapi.Message(must(client.Messages.New(context.Background(), params))))
	})
	for i, r := range srv.Requests() {
		if strings.Contains(string(r.Body), "cache_control") {
			t.Errorf("request %d has a cache_control: %s", i+1, r.Body)
		}
		p, q := must(anthropicapi.Prompt(r.Body)), must(anthropicapi.Prompt(cached[i]))
		if len(q.Breakpoints) == 0 || string(p.Bytes) != string(q.Bytes) {
			t.Errorf("request %d: the prompt with breakpoints %v, less them, differs from the one without:\n%s\n%s", i+1, q.Breakpoints, q.Bytes, p.Bytes)
		}
	}
}

// requestOutline describes a Messages API request body a line per tool
// list, system prompt and message: each block's type (a text's first
// words, a tool call's tool, a result's call), a star after each block
// with a breakpoint.
func requestOutline(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Tools    []map[string]json.RawMessage `json:"tools"`
		System   []map[string]json.RawMessage `json:"system"`
		Messages []struct {
			Role    string                       `json:"role"`
			Content []map[string]json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  tools: %s\n", blocksOutline(req.Tools))
	fmt.Fprintf(&b, "  system: %s\n", blocksOutline(req.System))
	for i, m := range req.Messages {
		fmt.Fprintf(&b, "  %d %s: %s\n", i, m.Role, blocksOutline(m.Content))
	}
	return b.String()
}

func blocksOutline(blocks []map[string]json.RawMessage) string {
	var parts []string
	for _, b := range blocks {
		var typ, name, text, id string
		json.Unmarshal(b["type"], &typ)
		json.Unmarshal(b["name"], &name)
		json.Unmarshal(b["text"], &text)
		json.Unmarshal(b["tool_use_id"], &id)
		s := typ
		switch {
		case typ == "" && name != "":
			s = name
		case typ == "text":
			s = fmt.Sprintf("text %q", firstWords(text, 24))
		case typ == "tool_use":
			s = "tool_use " + name
		case typ == "tool_result":
			s = "tool_result " + id
		}
		if _, ok := b["cache_control"]; ok {
			s += " *"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// firstWords returns s up to n bytes, cut at a word.
func firstWords(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndex(s[:n], " "); i > 0 {
		return s[:i] + "…"
	}
	return s[:n] + "…"
}
