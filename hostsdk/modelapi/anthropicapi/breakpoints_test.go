package anthropicapi_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/skillcatalog/skillcatalog/hostsdk"
	"github.com/skillcatalog/skillcatalog/hostsdk/modelapi/anthropicapi"
	"github.com/skillcatalog/skillcatalog/hostsdk/tools"
)

// loopConversation is a system prompt, the user's message with the
// catalog, a tool call and its result, a second call and its result.
func loopConversation() []hostsdk.Message {
	second := must(hostsdk.ToolUseBlock("toolu_2", "skill", json.RawMessage(`{"name":"tax-forms"}`)))
	secondResult := must(hostsdk.ToolResultBlock("toolu_2", []hostsdk.ContentBlock{text("<skill_content>tax")}, false))
	return []hostsdk.Message{
		msg("s1", hostsdk.RoleSystem, text("Be brief.")),
		msg("u1", hostsdk.RoleUser, text("Fill in the form.")),
		msg("c1", hostsdk.RoleUser, text("<system-reminder>catalog</system-reminder>")),
		msg("a1", hostsdk.RoleAssistant, thinking, use),
		msg("r1", hostsdk.RoleTool, result),
		msg("a2", hostsdk.RoleAssistant, second),
		msg("r2", hostsdk.RoleTool, secondResult),
	}
}

// offered returns two tools without input schemas.
func offered() []tools.ResolvedTool {
	return []tools.ResolvedTool{
		{Definition: tools.Definition{Name: "skill", Description: "Load a skill."}},
		{Definition: tools.Definition{Name: "skill_resource", Description: "Read a file."}},
	}
}

// marked returns where a request's cache_control members are: "tools[i]",
// "system[i]", "messages[i][j]", each with its TTL when it has one.
func marked(t *testing.T, params anthropic.MessageNewParams) []string {
	t.Helper()
	var req struct {
		Tools    []map[string]json.RawMessage `json:"tools"`
		System   []map[string]json.RawMessage `json:"system"`
		Messages []struct {
			Content []map[string]json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(must(json.Marshal(params)), &req); err != nil {
		t.Fatal(err)
	}
	var out []string
	add := func(where string, b map[string]json.RawMessage) {
		if cc, ok := b["cache_control"]; ok {
			out = append(out, where+string(cc))
		}
	}
	for i, b := range req.Tools {
		add("tools["+itoa(i)+"]", b)
	}
	for i, b := range req.System {
		add("system["+itoa(i)+"]", b)
	}
	for i, m := range req.Messages {
		for j, b := range m.Content {
			add("messages["+itoa(i)+"]["+itoa(j)+"]", b)
		}
	}
	return out
}

func itoa(i int) string { return string(must(json.Marshal(i))) }

// TestCachePlaces: where each place puts its breakpoint, alone and all
// together, and what a request without a place's block gets.
func TestCachePlaces(t *testing.T) {
	const eph = `{"type":"ephemeral"}`
	for _, tc := range []struct {
		name   string
		conv   []hostsdk.Message
		tools  []tools.ResolvedTool
		cache  *anthropicapi.Caching
		held   []anthropicapi.Place
		marked []string
	}{{
		name: "the defaults: the last tool, the system prompt, the end of the previous request, the last block",
		conv: loopConversation(), tools: offered(),
		held:   []anthropicapi.Place{anthropicapi.PlaceLast, anthropicapi.PlaceHistory, anthropicapi.PlaceSystem, anthropicapi.PlaceTools},
		marked: []string{"tools[1]" + eph, "system[0]" + eph, "messages[2][0]" + eph, "messages[4][0]" + eph},
	}, {
		name: "the first request has no earlier turn, and no tools here",
		conv: loopConversation()[:3],
		held: []anthropicapi.Place{anthropicapi.PlaceLast, anthropicapi.PlaceSystem}, marked: []string{"system[0]" + eph, "messages[0][1]" + eph},
	}, {
		name: "chosen places, an hour's TTL",
		conv: loopConversation(), tools: offered(),
		cache:  &anthropicapi.Caching{Places: []anthropicapi.Place{anthropicapi.PlaceTools, anthropicapi.PlaceHistory}, TTL: anthropic.CacheControlEphemeralTTLTTL1h},
		held:   []anthropicapi.Place{anthropicapi.PlaceTools, anthropicapi.PlaceHistory},
		marked: []string{`tools[1]{"ttl":"1h","type":"ephemeral"}`, `messages[2][0]{"ttl":"1h","type":"ephemeral"}`},
	}, {
		name: "off", conv: loopConversation(), tools: offered(), cache: &anthropicapi.Caching{Off: true},
	}, {
		name: "a block passed as raw JSON takes none: the block before it does",
		conv: []hostsdk.Message{msg("u1", hostsdk.RoleUser, text("Read this."), document)},
		held: []anthropicapi.Place{anthropicapi.PlaceLast}, marked: []string{"messages[0][0]" + eph},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			params, err := anthropicapi.Request(tc.conv, tc.tools, tc.cache)
			if err != nil {
				t.Fatal(err)
			}
			if got := anthropicapi.Cache(&params, tc.cache); !slices.Equal(got, tc.held) {
				t.Errorf("places held %v, want %v", got, tc.held)
			}
			if got := marked(t, params); !slices.Equal(got, tc.marked) {
				t.Errorf("breakpoints %q, want %q", got, tc.marked)
			}
		})
	}
}

// TestCacheKeepsTheCallersBreakpoints: breakpoints the request already has
// stay and count against the four; the places given up are the last of
// the list; a place already marked keeps its breakpoint.
func TestCacheKeepsTheCallersBreakpoints(t *testing.T) {
	system, msgs := must2(anthropicapi.Messages(loopConversation()))
	params := anthropic.MessageNewParams{System: system, Messages: msgs, Tools: anthropicapi.Tools(offered())}
	params.CacheControl = anthropic.NewCacheControlEphemeralParam() // automatic caching: one of the four
	msgs[0].OfUser.Content[0].OfText.CacheControl = anthropic.NewCacheControlEphemeralParam()
	params.System[0].CacheControl = anthropic.NewCacheControlEphemeralParam()
	held := anthropicapi.Cache(&params, nil)
	if want := []anthropicapi.Place{anthropicapi.PlaceLast, anthropicapi.PlaceSystem}; !slices.Equal(held, want) {
		t.Errorf("places held %v, want %v", held, want)
	}
	body := string(must(json.Marshal(params)))
	if n := strings.Count(body, `"cache_control"`); n != anthropicapi.MaxBreakpoints {
		t.Errorf("%d breakpoints, want %d: %s", n, anthropicapi.MaxBreakpoints, body)
	}
	if got := marked(t, params); !slices.Equal(got, []string{`system[0]{"type":"ephemeral"}`, `messages[0][0]{"type":"ephemeral"}`, `messages[4][0]{"type":"ephemeral"}`}) {
		t.Errorf("breakpoints %q", got)
	}
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// TestPrompt reads a request body as its cache does: the breakpoints left
// out of the bytes, their offsets just after the blocks that carry them.
func TestPrompt(t *testing.T) {
	params := must(anthropicapi.Request(loopConversation()[:3], offered(), nil))
	p := must(anthropicapi.Prompt(must(json.Marshal(params))))
	want := "tools\n" +
		`{"input_schema":{"type":"object"},"name":"skill","description":"Load a skill."}` + "\n" +
		`{"input_schema":{"type":"object"},"name":"skill_resource","description":"Read a file."}` + "\n" +
		"system\n" + `{"text":"Be brief.","type":"text"}` + "\n" +
		"messages\n" + `{"content":[{"text":"Fill in the form.","type":"text"},{"text":"\u003csystem-reminder\u003ecatalog\u003c/system-reminder\u003e","type":"text"}],"role":"user"}` + "\n"
	if string(p.Bytes) != want {
		t.Fatalf("prompt\n%s\nwant\n%s", p.Bytes, want)
	}
	wantEnds := []string{`"description":"Read a file."}`, `{"text":"Be brief.","type":"text"}`, `catalog\u003c/system-reminder\u003e","type":"text"}`}
	if len(p.Breakpoints) != len(wantEnds) {
		t.Fatalf("breakpoints %v, want %d", p.Breakpoints, len(wantEnds))
	}
	for i, b := range p.Breakpoints {
		if !strings.HasSuffix(string(p.Bytes[:b]), wantEnds[i]) {
			t.Errorf("breakpoint %d ends %q, want just after %q", i, p.Bytes[max(0, b-40):b], wantEnds[i])
		}
	}
}
