package skill

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseDirectives reads the directive fields as a YAML or JSON decoder
// hands them over: Claude Code's spellings, Eino's fork_with_context, and
// every kind of bad value, each reported and never fatal.
func TestParseDirectives(t *testing.T) {
	long := strings.Repeat("m", MaxDirectiveNameBytes+1)
	for _, tc := range []struct {
		name   string
		fields map[string]any
		want   *Directives
	}{
		{"none", map[string]any{"name": "x"}, nil},
		{"nulls and inherit ask for nothing", map[string]any{"context": nil, "agent": nil, "model": "inherit", "allowed-tools": nil}, nil},
		{"empty context is inline", map[string]any{"context": ""}, nil},
		{"fork with an agent", map[string]any{"context": "fork", "agent": "Explore"},
			&Directives{Context: ContextFork, Agent: "Explore"}},
		{"fork without an agent", map[string]any{"context": "fork"}, &Directives{Context: ContextFork}},
		{"Eino's fork_with_context", map[string]any{"context": "fork_with_context", "agent": "general-purpose"},
			&Directives{Context: ContextForkWithConversation, Agent: "general-purpose"}},
		{"a namespaced agent", map[string]any{"context": "fork", "agent": "plugin:analyst"},
			&Directives{Context: ContextFork, Agent: "plugin:analyst"}},
		{"model alias", map[string]any{"model": "opus"}, &Directives{Model: "opus"}},
		{"model id with brackets", map[string]any{"model": "claude-sonnet-4-5[1m]"}, &Directives{Model: "claude-sonnet-4-5[1m]"}},
		{"allowed-tools spaces", map[string]any{"allowed-tools": "Read Grep Glob"},
			&Directives{AllowedTools: []string{"Read", "Grep", "Glob"}}},
		{"allowed-tools commas", map[string]any{"allowed-tools": "Read, Grep, Glob"},
			&Directives{AllowedTools: []string{"Read", "Grep", "Glob"}}},
		{"allowed-tools patterns with spaces", map[string]any{"allowed-tools": "Bash(git add *) Bash(git commit *), Read"},
			&Directives{AllowedTools: []string{"Bash(git add *)", "Bash(git commit *)", "Read"}}},
		{"allowed-tools list", map[string]any{"allowed-tools": []any{"Bash(git:*)", " Read ", "", "Read"}},
			&Directives{AllowedTools: []string{"Bash(git:*)", "Read"}}},
		{"allowed-tools []string", map[string]any{"allowed-tools": []string{"Read", "mcp__notion__fetch"}},
			&Directives{AllowedTools: []string{"Read", "mcp__notion__fetch"}}},
		{"everything", map[string]any{"context": "fork", "agent": "Plan", "model": "sonnet", "allowed-tools": "WebFetch(domain:example.com)"},
			&Directives{Context: ContextFork, Agent: "Plan", Model: "sonnet", AllowedTools: []string{"WebFetch(domain:example.com)"}}},

		{"unknown context", map[string]any{"context": "forked", "model": "haiku"}, &Directives{Model: "haiku", Diagnostics: []string{
			`context "forked" is not "fork" or "fork_with_context"; the skill runs inline`}}},
		{"context in another case", map[string]any{"context": "Fork"}, &Directives{Diagnostics: []string{
			`context "Fork" is not "fork" or "fork_with_context"; the skill runs inline`}}},
		{"context not a string", map[string]any{"context": true}, &Directives{Diagnostics: []string{
			"context is a boolean, not a string; the skill runs inline"}}},
		{"agent without a fork", map[string]any{"agent": "Explore"}, &Directives{Diagnostics: []string{
			"agent \"Explore\" names the sub-agent of `context: fork`, which the skill does not ask for; ignored"}}},
		{"agent with a space", map[string]any{"context": "fork", "agent": "my agent"}, &Directives{Context: ContextFork, Diagnostics: []string{
			`agent "my agent" holds a space or a control character; ignored`}}},
		{"model a number", map[string]any{"model": 4}, &Directives{Diagnostics: []string{"model is a number, not a string; ignored"}}},
		{"model a JSON number", map[string]any{"model": float64(4)}, &Directives{Diagnostics: []string{"model is a number, not a string; ignored"}}},
		{"model a list", map[string]any{"model": []any{"opus"}}, &Directives{Diagnostics: []string{"model is a list, not a string; ignored"}}},
		{"model with a newline", map[string]any{"model": "opus\nsonnet"}, &Directives{Diagnostics: []string{
			`model "opus\nsonnet" holds a space or a control character; ignored`}}},
		{"model too long", map[string]any{"model": long}, &Directives{Diagnostics: []string{
			`model "` + strings.Repeat("m", maxQuotedValueBytes-3) + `..." is 257 bytes long; the limit is 256; ignored`}}},
		{"allowed-tools a mapping", map[string]any{"allowed-tools": map[string]any{"Read": true}}, &Directives{Diagnostics: []string{
			"allowed-tools is a mapping, not a string or a list; ignored"}}},
		{"allowed-tools non-string entries", map[string]any{"allowed-tools": []any{"Read", 3, map[string]any{}}},
			&Directives{AllowedTools: []string{"Read"}, Diagnostics: []string{
				"allowed-tools entry 2 is a number, not a string; ignored", "allowed-tools entry 3 is a mapping, not a string; ignored"}}},
		{"allowed-tools unclosed", map[string]any{"allowed-tools": "Read Bash(git add *"},
			&Directives{AllowedTools: []string{"Read", "Bash(git add *"}, Diagnostics: []string{
				`allowed-tools "Read Bash(git add *" opens a parenthesis it does not close; its last tool runs to the end`}}},
		{"allowed-tools control character", map[string]any{"allowed-tools": []any{"Read\u202e"}}, &Directives{Diagnostics: []string{
			`allowed-tools entry "Read\u202e" holds a control character; ignored`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseDirectives(tc.fields)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseDirectives(%v) (-want +got):\n%s", tc.fields, diff)
			}
		})
	}
}

// TestParseDirectivesBounds: past MaxAllowedTools entries, the rest are
// left out, once said.
func TestParseDirectivesBounds(t *testing.T) {
	var list []any
	for i := range MaxAllowedTools + 5 {
		list = append(list, "T"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26))
	}
	d := ParseDirectives(map[string]any{"allowed-tools": list})
	if len(d.AllowedTools) != MaxAllowedTools || len(d.Diagnostics) != 1 {
		t.Fatalf("got %d tools and diagnostics %q", len(d.AllowedTools), d.Diagnostics)
	}
	big := strings.Repeat("x", MaxAllowedToolBytes+1)
	d = ParseDirectives(map[string]any{"allowed-tools": []any{big, "Read"}})
	if !cmp.Equal(d.AllowedTools, []string{"Read"}) || len(d.Diagnostics) != 1 || !strings.Contains(d.Diagnostics[0], "the limit is 1024") {
		t.Errorf("an over-long entry: %+v", d)
	}
}

func TestSplitAllowedTools(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want     []string
		unclosed bool
	}{
		{"", nil, false},
		{"  ,, ", nil, false},
		{"Read", []string{"Read"}, false},
		{"Read,Grep", []string{"Read", "Grep"}, false},
		{"Bash(npm run *),Read", []string{"Bash(npm run *)", "Read"}, false},
		{"Bash(a (b) c) Read", []string{"Bash(a (b) c)", "Read"}, false},
		{"Read) Grep", []string{"Read)", "Grep"}, false},
		{"Bash(git", []string{"Bash(git"}, true},
		{"Bash(git add  ", []string{"Bash(git add"}, true},
		{"Read\tGrep\nGlob", []string{"Read", "Grep", "Glob"}, false},
	} {
		got, unclosed := SplitAllowedTools(tc.in)
		if !cmp.Equal(got, tc.want) || unclosed != tc.unclosed {
			t.Errorf("SplitAllowedTools(%q) = %q, %v; want %q, %v", tc.in, got, unclosed, tc.want, tc.unclosed)
		}
	}
}

// TestDirectivesActed: only trusted directives are acted on, and only the
// kinds the runtime honours that the skill asks for.
func TestDirectivesActed(t *testing.T) {
	d := &Directives{Context: ContextFork, Model: "opus", AllowedTools: []string{"Read"}, DisallowedTools: []string{"Bash"},
		Shell: ShellPowerShell, Effort: "high", Hooks: `{"Stop":[]}`, Honoured: DirectiveModel | DirectiveContext}
	if got := d.Requested(); got != AllDirectives {
		t.Errorf("Requested = %v", got)
	}
	if got := d.Acted(); got != 0 {
		t.Errorf("untrusted: Acted = %v, want none", got)
	}
	if got := d.Unhonoured(); got != AllDirectives {
		t.Errorf("untrusted: Unhonoured = %v, want all", got)
	}
	d.Trusted = true
	if got := d.Acted(); got != DirectiveModel|DirectiveContext {
		t.Errorf("trusted: Acted = %v", got)
	}
	if got := d.Unhonoured(); got != AllDirectives&^(DirectiveModel|DirectiveContext) {
		t.Errorf("trusted: Unhonoured = %v", got)
	}
	inline := &Directives{Trusted: true, Honoured: AllDirectives, Diagnostics: []string{"x"}}
	if inline.Requested() != 0 || inline.Acted() != 0 {
		t.Errorf("a skill that asks for nothing: %v %v", inline.Requested(), inline.Acted())
	}
	var none *Directives
	if none.Requested() != 0 || none.Unhonoured() != 0 || none.Clone() != nil || none.CheckUTF8() != nil {
		t.Error("nil directives ask for something")
	}
}

func TestDirectivesJSONAndClone(t *testing.T) {
	d := &Directives{Context: ContextForkWithConversation, Agent: "a", Model: "m", AllowedTools: []string{"Read"},
		Trusted: true, Honoured: DirectiveContext | DirectiveAllowedTools, Diagnostics: []string{"d"}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"context":"fork_with_context","agent":"a","model":"m","allowedTools":["Read"],"trusted":true,"honoured":["context","allowed-tools"],"diagnostics":["d"]}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
	var back Directives
	if err := json.Unmarshal(b, &back); err != nil || !cmp.Equal(&back, d) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"honoured":["fork"]}`), &back); err == nil {
		t.Error("an unknown directive name was read")
	}
	c := d.Clone()
	c.AllowedTools[0], c.Diagnostics[0] = "x", "y"
	if d.AllowedTools[0] != "Read" || d.Diagnostics[0] != "d" {
		t.Error("Clone shares slices")
	}
	if err := (&Directives{AllowedTools: []string{"\xff"}}).CheckUTF8(); err == nil {
		t.Error("CheckUTF8 passed an allowed tool that is not UTF-8")
	}
	def := Definition{Directives: &Directives{Model: "a\xffb"}}
	if err := def.CheckUTF8(); err == nil || !strings.Contains(err.Error(), "directive model") {
		t.Errorf("Definition.CheckUTF8 = %v", err)
	}
}

// TestQuoteValueCutsOnACharacter: a diagnostic repeats at most
// maxQuotedValueBytes of a value, cut where a character starts, and repeats
// a value of exactly that length whole; a value that is not UTF-8 (an
// allowed-tools entry may not be) is cut without reading before its start.
func TestQuoteValueCutsOnACharacter(t *testing.T) {
	exact := strings.Repeat("a", maxQuotedValueBytes)
	// "é" is two bytes: the one that straddles the cut at
	// maxQuotedValueBytes-3 is dropped whole.
	straddling := strings.Repeat("a", maxQuotedValueBytes-4) + "é" + strings.Repeat("b", 10)
	continuation := strings.Repeat("\x80", maxQuotedValueBytes+6)
	tests := []struct {
		name, in, want string
	}{
		{"short", "abc", `"abc"`},
		{"exactly the bound", exact, `"` + exact + `"`},
		{"one byte over", exact + "z", `"` + exact[:maxQuotedValueBytes-3] + `..."`},
		{"character across the cut", straddling, `"` + strings.Repeat("a", maxQuotedValueBytes-4) + `..."`},
		{"no character starts", continuation, `"..."`},
	}
	for _, tt := range tests {
		if got := quoteValue(tt.in); got != tt.want {
			t.Errorf("%s: quoteValue = %s, want %s", tt.name, got, tt.want)
		}
	}
}
