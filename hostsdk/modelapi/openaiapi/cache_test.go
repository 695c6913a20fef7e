package openaiapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/internal/looptest"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/openaiapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
	"github.com/skillcatalog/skillcatalog/internal/golden"
)

// scriptedSession runs the scripted session with send, which sends the
// conversation with the real SDK client to the server that replies (the
// nth reply is reply(n, the call's reply)), and checks the requests' bodies
// it recorded: each has the session's prompt_cache_key; each one's prompt
// (read by prompt) extends the previous one's byte for byte, but across
// the compaction; and their outline is the golden file's.
func scriptedSession(t *testing.T, reply func(n int, r looptest.Reply) string, prompt func([]byte) (modelapi.Prompt, error),
	send func(c openai.Client, conv []hostsdk.Message, tools []tools.ResolvedTool) hostsdk.Message, goldenName string) {
	fx := looptest.New(t)
	calls := looptest.Calls()
	var replies []string
	for i, c := range calls {
		replies = append(replies, reply(i+1, c.Reply))
	}
	srv := looptest.NewServer(t, replies...)
	c := client(srv)
	fx.Run(t, func(i int, call looptest.Call, conv []hostsdk.Message) hostsdk.Message {
		return send(c, conv, fx.Offered())
	})
	reqs := srv.Requests()
	if len(reqs) != len(calls) {
		t.Fatalf("%d requests, want %d", len(reqs), len(calls))
	}
	var outline strings.Builder
	var prev modelapi.Prompt
	for i, r := range reqs {
		var body struct {
			Key      string            `json:"prompt_cache_key"`
			Messages []json.RawMessage `json:"messages"`
			Input    []json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Key != openaiapi.CacheKey(looptest.Session) {
			t.Errorf("request %d: prompt_cache_key %q, want %q", i+1, body.Key, openaiapi.CacheKey(looptest.Session))
		}
		p, err := prompt(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		switch c := calls[i]; {
		case i == 0:
		case c.Compacted && p.Extends(prev):
			t.Errorf("request %d (%s): extends the request before the compaction", i+1, c.Label)
		case !c.Compacted && !p.Extends(prev):
			n := modelapi.CommonPrefix(p, prev)
			t.Errorf("request %d (%s): does not extend the previous request; they part at byte %d:\n%s", i+1, c.Label, n, p.Bytes[n:])
		}
		prev = p
		fmt.Fprintf(&outline, "request %d: %s\n  prompt_cache_key: %s\n", i+1, calls[i].Label, body.Key)
		for k, item := range append(body.Messages, body.Input...) {
			fmt.Fprintf(&outline, "  %d %s\n", k, itemOutline(t, item))
		}
	}
	golden.Check(t, filepath.Join("testdata", goldenName), []byte(outline.String()))
}

// TestScriptedChatSession runs the scripted session (a loop through both
// tools, a step where nothing changed, a skill added, a `/pdf-forms`, a
// tombstone, a skill back, a compaction) through ChatRequest with the
// Chat Completions API; testdata/scripted_chat.golden holds the requests'
// outline.
func TestScriptedChatSession(t *testing.T) {
	scriptedSession(t, func(n int, r looptest.Reply) string {
		if r.Tool != "" {
			return chatReply(fmt.Sprintf("chatcmpl-%d", n), "", "tool_calls", [3]string{r.CallID, r.Tool, r.Args})
		}
		return chatReply(fmt.Sprintf("chatcmpl-%d", n), r.Text, "stop")
	}, openaiapi.ChatPrompt, func(c openai.Client, conv []hostsdk.Message, offered []tools.ResolvedTool) hostsdk.Message {
		params := must(openaiapi.ChatRequest(looptest.Session, conv, offered, nil))
		params.Model = "gpt-test"
		return must(openaiapi.ChatMessage(must(c.Chat.Completions.New(context.Background(), params))))
	}, "scripted_chat.golden")
}

// TestScriptedResponsesSession runs the scripted session through
// ResponsesRequest with the Responses API; testdata/scripted_responses.golden
// holds the requests' outline.
func TestScriptedResponsesSession(t *testing.T) {
	scriptedSession(t, func(n int, r looptest.Reply) string {
		id := fmt.Sprintf("resp_%02d", n)
		if r.Tool != "" {
			return responsesReply(id, reasoningItem(n), functionCall(r.CallID, r.Tool, r.Args))
		}
		return responsesReply(id, outputText(fmt.Sprintf("msg_%02d", n), r.Text))
	}, openaiapi.ResponsesPrompt, func(c openai.Client, conv []hostsdk.Message, offered []tools.ResolvedTool) hostsdk.Message {
		params := must(openaiapi.ResponsesRequest(looptest.Session, conv, offered, nil))
		params.Model = "gpt-test"
		return must(openaiapi.ResponsesMessage(must(c.Responses.New(context.Background(), params))))
	}, "scripted_responses.golden")
}

func reasoningItem(n int) string {
	return fmt.Sprintf(`{"type":"reasoning","id":"rs_%02d","summary":[],"encrypted_content":"ZW5j"}`, n)
}

// itemOutline describes a message or input item: its role or type, a
// text's first words, a call's tool, an output's call.
func itemOutline(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v struct {
		Role      string          `json:"role"`
		Type      string          `json:"type"`
		Content   json.RawMessage `json:"content"`
		Name      string          `json:"name"`
		CallID    string          `json:"call_id"`
		ToolCall  string          `json:"tool_call_id"`
		ToolCalls []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	s := v.Role
	if s == "" {
		s = v.Type
	}
	var text string
	if json.Unmarshal(v.Content, &text) != nil {
		var parts []struct{ Text string }
		json.Unmarshal(v.Content, &parts)
		for _, p := range parts {
			text += p.Text
		}
	}
	if text = strings.Join(strings.Fields(text), " "); len(text) > 24 {
		cut := strings.LastIndex(text[:24], " ")
		if cut < 0 {
			cut = 24
		}
		text = text[:cut] + "…"
	}
	if text != "" {
		s += fmt.Sprintf(" %q", text)
	}
	for _, c := range v.ToolCalls {
		s += " call " + c.Function.Name
	}
	if v.Name != "" {
		s += " " + v.Name
	}
	if id := v.CallID + v.ToolCall; id != "" {
		s += " " + id
	}
	return s
}

// TestCacheKey: one session, one key, of a fixed length; another session,
// another key; none for no session. Caching overrides the key or sends
// none, in both APIs.
func TestCacheKey(t *testing.T) {
	a, b := openaiapi.CacheKey("session-1"), openaiapi.CacheKey("session-2")
	if a != openaiapi.CacheKey("session-1") || a == b || len(a) != len(openaiapi.CacheKey(strings.Repeat("x", 500))) ||
		!strings.HasPrefix(a, "skillcatalog-") || len(a) > 64 || openaiapi.CacheKey("") != "" {
		t.Errorf("keys %q, %q", a, b)
	}
	conv := []hostsdk.Message{{ID: "u1", Role: hostsdk.RoleUser, Content: []hostsdk.ContentBlock{hostsdk.TextBlock("Hi")}}}
	for _, tc := range []struct {
		caching *openaiapi.Caching
		session string
		want    string
	}{
		{nil, "session-1", `"prompt_cache_key":"` + a + `"`},
		{&openaiapi.Caching{}, "session-1", `"prompt_cache_key":"` + a + `"`},
		{&openaiapi.Caching{Key: "agent-writer"}, "session-1", `"prompt_cache_key":"agent-writer"`},
		{&openaiapi.Caching{Off: true}, "session-1", ""},
		{nil, "", ""},
	} {
		chat := string(must(json.Marshal(must(openaiapi.ChatRequest(tc.session, conv, nil, tc.caching)))))
		resp := string(must(json.Marshal(must(openaiapi.ResponsesRequest(tc.session, conv, nil, tc.caching)))))
		for _, body := range []string{chat, resp} {
			if (tc.want == "" && strings.Contains(body, "prompt_cache_key")) || !strings.Contains(body, tc.want) {
				t.Errorf("%+v, session %q: %s, want %s", tc.caching, tc.session, body, tc.want)
			}
		}
	}
}
