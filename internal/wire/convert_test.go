package wire

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Full values: every field set, so a conversion that drops one fails.
var (
	fullMessage = contract.Message{
		ID:      "m1",
		Role:    contract.RoleAssistant,
		Content: []contract.ContentBlock{{Type: "text", Text: "hello"}, {Type: "tool_use", Raw: json.RawMessage(`{"type":"tool_use","id":"c1","name":"skill","input":{}}`)}},
		Source:  json.RawMessage(`{"kind":"skill-catalog"}`),
		// Only user messages carry it in practice; the wire does not care.
		UserInput: true,
	}
	fullDefinition = skill.Definition{
		Summary: skill.Summary{Name: "docs:acme/pdf", Description: "Fill forms.", Invocation: skill.InvocationPolicy{ModelInvocable: true}, Provider: "docs",
			Origin: "docs", QualifiedName: "docs:acme/pdf", ArgumentHint: "[form-name]"},
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://pdf/"},
		Content:      "Do it.",
		Directives:   &fullDirectives,
	}
	fullDirectives = skill.Directives{Context: skill.ContextForkWithConversation, Agent: "Explore", Model: "opus",
		AllowedTools: []string{"Bash(git add *)", "Read"}, Trusted: true, Honoured: skill.DirectiveContext | skill.DirectiveAllowedTools,
		Diagnostics: []string{`context "x" is not "fork"`}}
	fullInvocation = contract.Invocation{Name: "pdf", MessageID: "skill-invocation-s-3-pdf", Directives: &fullDirectives}
	fullValue      = skill.ToolValue{Name: "pdf", Provider: "mcp", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceOpaque, Description: "ask"}, Content: "body", Origin: "docs"}
)

// TestFullValuesAreFull keeps the full values above full: a field added to
// the shared types must be set there, so that its conversion is tested.
func TestFullValuesAreFull(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]any{"Summary": fullDefinition.Summary, "Definition": fullDefinition, "ToolValue": fullValue, "Message": fullMessage,
		"Directives": fullDirectives, "Invocation": fullInvocation} {
		rv := reflect.ValueOf(v)
		for i := range rv.NumField() {
			if rv.Field(i).IsZero() {
				t.Errorf("full %s leaves %s unset", name, rv.Type().Field(i).Name)
			}
		}
	}
}

// roundTrip checks one conversion pair on a Go value: to the wire and back
// gives the value again.
func roundTrip[G, P any](t *testing.T, name string, v G, to func(G) P, from func(P) G) {
	t.Helper()
	if diff := cmp.Diff(v, from(to(v))); diff != "" {
		t.Errorf("%s: round trip (-want +got):\n%s", name, diff)
	}
}

// fromNil checks that a conversion from an absent message gives want.
func fromNil[G any, P proto.Message](t *testing.T, name string, from func(P) G, want G) {
	t.Helper()
	var nilMsg P
	if diff := cmp.Diff(want, from(nilMsg)); diff != "" {
		t.Errorf("%s from nil (-want +got):\n%s", name, diff)
	}
}
