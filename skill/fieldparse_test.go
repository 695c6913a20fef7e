package skill

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseLaterDirectives reads Claude Code's later directive fields
// (disallowed-tools, shell, effort, hooks): the documented values, and
// every kind of bad value, each reported and never fatal.
func TestParseLaterDirectives(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fields map[string]any
		want   *Directives
	}{
		{"bash is the default", map[string]any{"shell": "bash", "effort": ""}, nil},
		{"disallowed-tools string", map[string]any{"disallowed-tools": "AskUserQuestion, Bash(rm *)"},
			&Directives{DisallowedTools: []string{"AskUserQuestion", "Bash(rm *)"}}},
		{"disallowed-tools list", map[string]any{"disallowed-tools": []any{"Write", 3, "Write"}},
			&Directives{DisallowedTools: []string{"Write"}, Diagnostics: []string{"disallowed-tools entry 2 is a number, not a string; ignored"}}},
		{"disallowed-tools a mapping", map[string]any{"disallowed-tools": map[string]any{"a": 1}},
			&Directives{Diagnostics: []string{"disallowed-tools is a mapping, not a string or a list; ignored"}}},
		{"powershell", map[string]any{"shell": "powershell"}, &Directives{Shell: ShellPowerShell}},
		{"unknown shell", map[string]any{"shell": "zsh"}, &Directives{Diagnostics: []string{`shell "zsh" is not "bash" or "powershell"; ignored`}}},
		{"shell a list", map[string]any{"shell": []any{"bash"}}, &Directives{Diagnostics: []string{"shell is a list, not a string; ignored"}}},
		{"every effort", map[string]any{"effort": "xhigh"}, &Directives{Effort: "xhigh"}},
		{"effort in capitals", map[string]any{"effort": "High"}, &Directives{Diagnostics: []string{
			`effort "High" is not one of low, medium, high, xhigh, max; ignored`}}},
		{"effort a number", map[string]any{"effort": 3}, &Directives{Diagnostics: []string{"effort is a number, not a string; ignored"}}},
		{"hooks", map[string]any{"hooks": map[string]any{
			"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "./check.sh"}}}},
			"Stop":       []any{}}},
			&Directives{Hooks: `{"PreToolUse":[{"hooks":[{"command":"./check.sh","type":"command"}],"matcher":"Bash"}],"Stop":[]}`}},
		{"hooks of an unknown event and a bad entry", map[string]any{"hooks": map[string]any{"OnLoad": []any{"x"}, "Stop": "echo"}},
			&Directives{Hooks: `{"OnLoad":["x"]}`, Diagnostics: []string{
				`hooks event "OnLoad" is not one Claude Code documents; passed on as written`,
				`hooks event "Stop" is a string, not a list; ignored`}}},
		{"hooks a string", map[string]any{"hooks": "./run.sh"}, &Directives{Diagnostics: []string{
			"hooks is a string, not a mapping of hook events; ignored"}}},
		{"hooks too large", map[string]any{"hooks": map[string]any{"Stop": []any{strings.Repeat("x", MaxHooksBytes)}}},
			&Directives{Diagnostics: []string{"hooks are 65549 bytes long as JSON; the limit is 65536; ignored"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseDirectives(tc.fields)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseDirectives (-want +got):\n%s", diff)
			}
		})
	}
	if got := HookEventsOf(`{"Stop":[],"PreToolUse":[]}`); !cmp.Equal(got, []string{"PreToolUse", "Stop"}) {
		t.Errorf("HookEventsOf = %q", got)
	}
}

// TestParseArgumentNames reads `arguments` as Claude Code writes it: a
// string of names or a list, bound in order.
func TestParseArgumentNames(t *testing.T) {
	for _, tc := range []struct {
		name        string
		in          any
		names, diag []string
	}{
		{"absent", nil, nil, nil},
		{"string", "issue branch", []string{"issue", "branch"}, nil},
		{"commas", "issue, branch", []string{"issue", "branch"}, nil},
		{"list", []any{"from", " to ", ""}, []string{"from", "to"}, nil},
		{"bad names", []any{"1st", "a-b", "ARGUMENTS", "ok", "ok", true}, []string{"ok"}, []string{
			"arguments entry 6 is a boolean, not a string; ignored",
			`arguments name "1st" is not a letter or underscore followed by letters, digits and underscores, within 64 bytes; ignored`,
			`arguments name "a-b" is not a letter or underscore followed by letters, digits and underscores, within 64 bytes; ignored`,
			`arguments name "ARGUMENTS" is the placeholder of all the arguments; ignored`,
			`arguments name "ok" is listed more than once; the first is used`}},
		{"a mapping", map[string]any{}, nil, []string{"arguments is a mapping, not a string or a list; ignored"}},
	} {
		names, diag := ParseArgumentNames(tc.in)
		if !cmp.Equal(names, tc.names) || !cmp.Equal(diag, tc.diag) {
			t.Errorf("%s: ParseArgumentNames(%v) = %q, %q; want %q, %q", tc.name, tc.in, names, diag, tc.names, tc.diag)
		}
	}
	many := ""
	for i := range MaxArgumentNames + 2 {
		many += fmt.Sprintf("n%d ", i)
	}
	if names, diag := ParseArgumentNames(many); len(names) != MaxArgumentNames || len(diag) != 1 {
		t.Errorf("past the bound: %d names, %q", len(names), diag)
	}
}

// FuzzLaterDirectives: no text read as a shell, an effort, a tool list or
// argument names makes the parsers fail, and what they keep is within
// the bounds and valid.
func FuzzLaterDirectives(f *testing.F) {
	for _, s := range []string{"powershell", "max", "Bash(rm *), Read", "a b,c", "", "(((", "\x00", "ARGUMENTS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := ParseDirectives(map[string]any{"shell": s, "effort": s, "disallowed-tools": s,
			"hooks": map[string]any{s: []any{s}}})
		if d != nil {
			if err := d.CheckUTF8(); err != nil {
				t.Fatalf("kept text is not UTF-8: %v", err)
			}
			if len(d.Hooks) > MaxHooksBytes || len(d.DisallowedTools) > MaxAllowedTools {
				t.Fatalf("past the bounds: %d hooks bytes, %d tools", len(d.Hooks), len(d.DisallowedTools))
			}
			if d.Shell != "" && d.Shell != ShellPowerShell {
				t.Fatalf("shell %q kept", d.Shell)
			}
		}
		names, _ := ParseArgumentNames(s)
		if len(names) > MaxArgumentNames {
			t.Fatalf("%d names", len(names))
		}
		for _, n := range names {
			if !ValidArgumentName(n) || n == "ARGUMENTS" {
				t.Fatalf("name %q kept", n)
			}
		}
	})
}
