package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// TestToolErrorsCapWhatTheyEcho: 256 KiB of bad arguments, over a thousand
// times render.MaxEchoBytes (200), give an error text that repeats at most
// that many bytes of them, ending in "...", not a text of their size.
func TestToolErrorsCapWhatTheyEcho(t *testing.T) {
	t.Parallel()
	const big = 256 << 10
	kept := func(c byte) string { return strings.Repeat(string(c), render.MaxEchoBytes-3) + "..." }
	tests := []struct {
		name, args, want string
	}{
		{"not JSON", strings.Repeat("x", big), `Error: the arguments are not a JSON object: "` + kept('x') + `"; the skill tool takes {"name": "<skill name>"}`},
		{"invalid name", `{"name":"` + strings.Repeat("X", big) + `"}`, `Error: invalid skill name "` + kept('X') + `"`},
		{"non-string name", `{"name":[` + strings.Repeat("1,", big/2) + `1]}`, `Error: invalid skill name "[` + strings.Repeat("1,", (render.MaxEchoBytes-4)/2) + `..."`},
		{"unknown valid name", `{"name":"` + strings.Repeat("a", big) + `"}`, `Error: skill "` + kept('a') + `" is unknown or no longer available`},
		{"unexpected field", `{"name":"alpha","` + strings.Repeat("f", big) + `":1}`, `Error: unexpected argument "` + kept('f') + `"; the skill tool takes only "name"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newMemHost(summary("alpha", "A."))
			resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(tc.args)})
			if err != nil {
				t.Fatal(err)
			}
			if !resp.IsError || resp.Text != tc.want {
				t.Errorf("%d bytes of arguments: result of %d bytes (error %v) %.300q..., want %q (render.MaxEchoBytes = %d)", len(tc.args), len(resp.Text), resp.IsError, resp.Text, tc.want, render.MaxEchoBytes)
			}
			if h.gets != 0 {
				t.Errorf("GetSkill called %d times", h.gets)
			}
		})
	}
}

// TestArgumentsFollowTheSchema: the input schema allows the name and
// nothing else (additionalProperties: false); a call with any other field
// is refused before anything is looked up, naming the first such field.
func TestArgumentsFollowTheSchema(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"extra field", `{"name":"alpha","path":"/etc/passwd"}`, `Error: unexpected argument "path"; the skill tool takes only "name"`},
		{"several extra fields, first in sorted order", `{"zeta":1,"name":"alpha","beta":null}`, `Error: unexpected argument "beta"; the skill tool takes only "name"`},
		{"a field instead of the name", `{"skill":"alpha"}`, `Error: unexpected argument "skill"; the skill tool takes only "name"`},
		{"name in another case", `{"Name":"alpha"}`, `Error: unexpected argument "Name"; the skill tool takes only "name"`},
		{"extra field with an invalid name", `{"name":"Bad Name","x":1}`, `Error: unexpected argument "x"; the skill tool takes only "name"`},
		{"empty field name", `{"name":"alpha","":1}`, `Error: unexpected argument ""; the skill tool takes only "name"`},
		{"name only", `{"name":"alpha"}`, ""},
		{"name only, repeated", `{"name":"beta","name":"alpha"}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(summary("alpha", "A."))
			h.defs["alpha"] = skill.Definition{Summary: summary("alpha", "A."), Content: "Do alpha."}
			resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(tc.args)})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if resp.IsError || resp.Value == nil || resp.Value.Name != "alpha" {
					t.Fatalf("arguments %s: %q (error %v), want alpha loaded", tc.args, resp.Text, resp.IsError)
				}
				return
			}
			if !resp.IsError || resp.Text != tc.want {
				t.Errorf("arguments %s: %q (error %v), want %q", tc.args, resp.Text, resp.IsError, tc.want)
			}
			if h.gets != 0 {
				t.Errorf("GetSkill called %d times for refused arguments", h.gets)
			}
		})
	}
}

// TestIncompleteSnapshotAsksTheHost: while the snapshot is incomplete, a
// name it does not list is not reported unknown from it; the host is asked,
// and a provider's error reaches the model with the Error: wrapper.
func TestIncompleteSnapshotAsksTheHost(t *testing.T) {
	h := newMemHost(summary("alpha", "A."))
	h.complete = false
	h.getErr = "remote server unreachable"
	resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(`{"name":"remote-one"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := string(render.ProviderFailed("remote server unreachable")); !resp.IsError || resp.Text != want {
		t.Errorf("result %q (error %v), want %q", resp.Text, resp.IsError, want)
	}
	if h.gets != 1 {
		t.Errorf("GetSkill called %d times, want 1", h.gets)
	}
}

// TestUnrenderableSkillErrors: a loaded skill that cannot be rendered (a
// resource base of an unknown kind) is refused with the provider's error,
// verbatim for the host's own skill and as untrusted text (escaped) for a
// remote one's, whose definition its server wrote.
func TestUnrenderableSkillErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		listing skill.Summary
		wrap    func(string) render.ToolError
	}{
		{"the host's own", summary("alpha", "A."), render.ProviderFailed},
		{"an MCP server's", remoteSummary("alpha", "A.", "docs", "alpha"), render.ProviderFailedUntrusted},
		{"a website's", websiteSummary("alpha", "A.", "docs", "alpha"), render.ProviderFailedUntrusted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newMemHost(tc.listing)
			h.defs["alpha"] = skill.Definition{Summary: tc.listing, ResourceBase: &skill.ResourceBase{Kind: "<zip>"}, Content: "Do alpha."}
			resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(`{"name":"alpha"}`)})
			want := string(tc.wrap(`skill "alpha": unsupported resource base kind "<zip>"`))
			if err != nil || !resp.IsError || resp.Text != want {
				t.Errorf("%q, %v; want %q", resp.Text, err, want)
			}
		})
	}
}
