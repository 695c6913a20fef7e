package plugin

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	skillcatalogv1 "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
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
			if !strings.Contains(msg, OptionDescriptionMaxLength) && !strings.Contains(msg, "JSON object") {
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
// panic.
func FuzzSkillToolArguments(f *testing.F) {
	for _, s := range []string{`{"name":"alpha"}`, `{"name":"hidden"}`, `{"name":42}`, `{}`, `null`, `{"name":"A B"}`, `{"name":"alpha","x":[1,2]}`, "not json", `{"name":"\u0000"}`} {
		f.Add(s)
	}
	disabled := summary("hidden", "H.")
	disabled.Invocation.ModelInvocable = false
	f.Fuzz(func(t *testing.T, args string) {
		h := newMemHost(summary("alpha", "A."), disabled)
		h.defs["alpha"] = &skillcatalogv1.SkillDefinition{Name: "alpha", Provider: "runtime", Invocation: &skillcatalogv1.InvocationPolicy{ModelInvocable: true}, Content: "body"}
		resp, err := NewEngine().ExecuteSkillTool(context.Background(), h, mount(), &skillcatalogv1.ExecuteSkillToolRequest{ArgumentsJson: args})
		if err != nil {
			t.Fatalf("Go error for arguments %q: %v", args, err)
		}
		if resp.GetIsError() != strings.HasPrefix(resp.GetText(), "Error: ") {
			t.Fatalf("isError %v but text %q", resp.GetIsError(), resp.GetText())
		}
		if !resp.GetIsError() && resp.GetValue().GetName() != "alpha" {
			t.Fatalf("success for arguments %q: %+v", args, resp.GetValue())
		}
		if name, ok := skillNameArgument(args); ok && name == "hidden" && (h.gets != 0 || resp.GetText() != `Error: skill "hidden" is not available for model invocation`) {
			t.Fatalf("model-disabled skill: %d loads, text %q", h.gets, resp.GetText())
		}
		if !resp.GetIsError() && !utf8.ValidString(resp.GetText()) {
			t.Fatalf("result text is not UTF-8")
		}
	})
}
