package wire

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
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
			Origin: "docs", OriginKind: skill.OriginWebsite, QualifiedName: "docs:acme/pdf", ArgumentHint: "[form-name]",
			WhenToUse: "When a form has fields.", Keywords: "pdf, forms", SearchText: "# PDF Fill the fields.", Paths: "forms/**/*.pdf\n*.fdf", ContentDigest: "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		ResourceBase:  &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://pdf/"},
		Content:       "Do it.",
		Directives:    &fullDirectives,
		ArgumentNames: []string{"form", "target"},
	}
	fullDirectives = skill.Directives{Context: skill.ContextForkWithConversation, Agent: "Explore", Model: "opus",
		AllowedTools: []string{"Bash(git add *)", "Read"}, Trusted: true, Honoured: skill.DirectiveContext | skill.DirectiveAllowedTools | skill.DirectiveHooks,
		DisallowedTools: []string{"WebFetch"}, Shell: skill.ShellPowerShell, Effort: "max", Hooks: `{"Stop":[]}`,
		Diagnostics: []string{`context "x" is not "fork"`}}
	fullInvocation = contract.Invocation{Name: "pdf", MessageID: "skill-invocation-s-3-pdf", Directives: &fullDirectives}
	fullValue      = skill.ToolValue{Name: "pdf", Provider: "mcp", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceOpaque, Description: "ask"}, Content: "body", Origin: "docs", OriginKind: skill.OriginWebsite}
	fullToolCall   = contract.ToolCall{MountID: "m", ToolName: "skill_search", SessionID: "s", Cwd: "/w", AgentScope: "a", CallID: "c1", Arguments: json.RawMessage(`{"name":"pdf"}`),
		SkillToolIdentity: "tooldef-1", SnapshotToken: "tok"}
	fullSearchHit = skill.SearchHit{Name: "pdf", Description: "Fill forms.", Origin: "docs", OriginKind: skill.OriginWebsite, Score: 2.5}
	fullSearch    = skill.SearchResult{Query: "fill a form", Hits: []skill.SearchHit{fullSearchHit, {Name: "docx", Description: "Word.", Score: 1}}}
)

// TestFullValuesAreFull keeps the full values above full: a field added to
// the shared types must be set there, so that its conversion is tested.
func TestFullValuesAreFull(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]any{"Summary": fullDefinition.Summary, "Definition": fullDefinition, "ToolValue": fullValue, "Message": fullMessage,
		"Directives": fullDirectives, "Invocation": fullInvocation, "ToolCall": fullToolCall, "SearchResult": fullSearch, "SearchHit": fullSearchHit} {
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

// TestOriginKindConversions: an MCP server's skill (and the host's own) is
// sent with the kind unset, as before kinds existed; a host that never sets
// it, or sets ORIGIN_KIND_MCP_SERVER, describes an MCP server's; a website's
// crosses as ORIGIN_KIND_WEBSITE; and a kind either end does not define
// stays one the other does not define, so it is refused, never shown as
// another.
func TestOriginKindConversions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		kind skill.OriginKind
		wire pb.OriginKind
	}{
		{skill.OriginMCPServer, pb.OriginKind_ORIGIN_KIND_UNSPECIFIED},
		{skill.OriginWebsite, pb.OriginKind_ORIGIN_KIND_WEBSITE},
		{skill.OriginKind(2), pb.OriginKind(3)},
		{skill.OriginKind(255), pb.OriginKind(256)},
	} {
		if got := originKindToProto(tt.kind); got != tt.wire {
			t.Errorf("originKindToProto(%v) = %v, want %v", tt.kind, got, tt.wire)
		}
		if back := originKindFromProto(tt.wire); back != tt.kind {
			t.Errorf("originKindFromProto(%v) = %v, want %v", tt.wire, back, tt.kind)
		}
	}
	for _, tt := range []struct {
		wire pb.OriginKind
		kind skill.OriginKind
	}{
		{pb.OriginKind_ORIGIN_KIND_MCP_SERVER, skill.OriginMCPServer},
		{pb.OriginKind(3), skill.OriginKind(2)},
		{pb.OriginKind(257), skill.OriginKind(255)},
		{pb.OriginKind(-1), skill.OriginKind(255)},
		{pb.OriginKind(1 << 30), skill.OriginKind(255)},
	} {
		got := originKindFromProto(tt.wire)
		if got != tt.kind {
			t.Errorf("originKindFromProto(%d) = %v, want %v", tt.wire, got, tt.kind)
		}
		if tt.wire != pb.OriginKind_ORIGIN_KIND_MCP_SERVER && got.Valid() {
			t.Errorf("originKindFromProto(%d) = %v, a kind the plugin would name", tt.wire, got)
		}
	}
	// The summary and value of an MCP server's skill leave the field unset,
	// so they encode as they did before kinds existed.
	mcp := fullDefinition.Summary
	mcp.OriginKind = skill.OriginMCPServer
	if k := summaryToProto(mcp).GetOriginKind(); k != pb.OriginKind_ORIGIN_KIND_UNSPECIFIED {
		t.Errorf("an MCP server's summary crosses with the kind %v", k)
	}
	mcpValue := fullValue
	mcpValue.OriginKind = skill.OriginMCPServer
	if k := toolValueToProto(&mcpValue).GetOriginKind(); k != pb.OriginKind_ORIGIN_KIND_UNSPECIFIED {
		t.Errorf("an MCP server's value crosses with the kind %v", k)
	}
	// The value of a website's skill and of its definition carry the kind.
	if v := toolValueToProto(&fullValue); v.GetOriginKind() != pb.OriginKind_ORIGIN_KIND_WEBSITE {
		t.Errorf("a website's value crosses as %v", v.GetOriginKind())
	}
	if d := definitionToProto(fullDefinition); d.GetOriginKind() != pb.OriginKind_ORIGIN_KIND_WEBSITE {
		t.Errorf("a website's definition crosses as %v", d.GetOriginKind())
	}
}
