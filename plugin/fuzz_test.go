package plugin

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/render"
	"github.com/skillcatalog/skillcatalog/skill"
)

// FuzzParseConfig: host-supplied configuration never panics, and every
// refusal names what is wrong.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "{}", `{"catalogDescriptionMaxLength": 3}`, `{"catalogDescriptionMaxLength": 2.5}`, `{"catalogDescriptionMaxLength": "9"}`, `{"x": 1}`, `[]`, `{"catalogDescriptionMaxLength": 1e999}`, `{} {}`, "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		cfg, err := ParseConfig(raw)
		if err != nil {
			msg := err.Error()
			if !strings.Contains(msg, contract.OptionDescriptionMaxLength) && !strings.Contains(msg, contract.OptionResourceTool) && !strings.Contains(msg, "JSON object") {
				t.Fatalf("error %q names neither the option nor the expected shape", msg)
			}
			return
		}
		if cfg.DescriptionMaxLength < 3 {
			t.Fatalf("accepted cap %d below the minimum", cfg.DescriptionMaxLength)
		}
	})
}

// FuzzSkillToolArguments: whatever the model sends as arguments, the tool
// answers with a result or one of its error texts, never a Go error or a
// panic; it loads a skill only for an object with nothing but a name, as
// the input schema says, and its error texts repeat at most
// render.MaxEchoBytes of what was sent.
func FuzzSkillToolArguments(f *testing.F) {
	for _, s := range []string{`{"name":"alpha"}`, `{"name":"hidden"}`, `{"name":42}`, `{}`, `null`, `{"name":"A B"}`, `{"name":"alpha","x":[1,2]}`, "not json", `{"name":"\u0000"}`, `{"Name":"alpha"}`, `{"name":"` + strings.Repeat("a", 300) + `"}`} {
		f.Add(s)
	}
	disabled := summary("hidden", "H.")
	disabled.Invocation.ModelInvocable = false
	f.Fuzz(func(t *testing.T, args string) {
		h := newMemHost(summary("alpha", "A."), disabled)
		h.defs["alpha"] = skill.Definition{Summary: skill.Summary{Name: "alpha", Provider: "runtime", Invocation: skill.InvocationPolicy{ModelInvocable: true}}, Content: "body"}
		resp, err := newEngine().executeSkillTool(context.Background(), h, testMount(), contract.ToolCall{Arguments: []byte(args)})
		if err != nil {
			t.Fatalf("Go error for arguments %q: %v", args, err)
		}
		if resp.IsError != strings.HasPrefix(resp.Text, "Error: ") {
			t.Fatalf("isError %v but text %q", resp.IsError, resp.Text)
		}
		if !resp.IsError && (resp.Value == nil || resp.Value.Name != "alpha") {
			t.Fatalf("success for arguments %q: %+v", args, resp.Value)
		}
		if name, refusal := skillNameArgument([]byte(args)); refusal == "" && name == "hidden" && (h.gets != 0 || resp.Text != `Error: skill "hidden" is not available for model invocation`) {
			t.Fatalf("model-disabled skill: %d loads, text %q", h.gets, resp.Text)
		}
		if !resp.IsError {
			var obj map[string]any
			if err := json.Unmarshal([]byte(args), &obj); err != nil || len(obj) != 1 {
				t.Fatalf("arguments %q loaded a skill: the schema admits an object with the name only", args)
			}
		}
		// The longest frame of an error text is the one for arguments
		// that are not an object, or JSON of another type (a boolean's,
		// whose type has the longest name).
		frame := max(len(render.ArgumentsNotObject("")), len(render.ArgumentsOtherJSON("true"))-len("true"))
		if resp.IsError && len(resp.Text) > frame+render.MaxEchoBytes {
			t.Fatalf("error text of %d bytes for %d bytes of arguments, over its frame and render.MaxEchoBytes = %d", len(resp.Text), len(args), render.MaxEchoBytes)
		}
		if !resp.IsError && !utf8.ValidString(resp.Text) {
			t.Fatalf("result text is not UTF-8")
		}
	})
}
