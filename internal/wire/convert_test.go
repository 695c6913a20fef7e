package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/skillcatalog/skillcatalog/plugin"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Full values: every field set, so a conversion that drops one fails.
var (
	fullMessage = plugin.Message{
		ID:      "m1",
		Role:    plugin.RoleAssistant,
		Content: []plugin.ContentBlock{{Type: "text", Text: "hello"}, {Type: "image"}},
		Source:  json.RawMessage(`{"kind":"skill-catalog"}`),
		// Only user messages carry it in practice; the wire does not care.
		UserInput: true,
	}
	fullDefinition = skill.Definition{
		Summary: skill.Summary{Name: "docs:acme/pdf", Description: "Fill forms.", Invocation: skill.InvocationPolicy{ModelInvocable: true}, Provider: "docs",
			Origin: "docs", QualifiedName: "docs:acme/pdf"},
		ResourceBase: &skill.ResourceBase{Kind: skill.ResourceURL, URL: "skill://pdf/"},
		Content:      "Do it.",
	}
	fullValue = skill.ToolValue{Name: "pdf", Provider: "mcp", ResourceBase: &skill.ResourceBase{Kind: skill.ResourceOpaque, Description: "ask"}, Content: "body", Origin: "docs"}
)

// TestFullValuesAreFull keeps the full values above full: a field added to
// the shared types must be set there, so that its conversion is tested.
func TestFullValuesAreFull(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]any{"Summary": fullDefinition.Summary, "Definition": fullDefinition, "ToolValue": fullValue, "Message": fullMessage} {
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

func TestMessages(t *testing.T) {
	t.Parallel()
	fromNil(t, "Message", MessageFromProto, plugin.Message{})
	for name, m := range map[string]plugin.Message{"zero": {}, "full": fullMessage} {
		roundTrip(t, "Message/"+name, m, MessageToProto, MessageFromProto)
	}
	for _, r := range []plugin.Role{plugin.RoleUser, plugin.RoleAssistant, plugin.RoleSystem, plugin.RoleTool, ""} {
		roundTrip(t, "Role/"+string(r), r, RoleToProto, RoleFromProto)
	}
	if got := RoleToProto("moderator"); got != pb.Role_ROLE_UNSPECIFIED {
		t.Errorf("unknown role = %v, want unspecified", got)
	}
	if got := RoleFromProto(pb.Role(99)); got != "" {
		t.Errorf("unknown wire role = %q, want empty", got)
	}
	want := &pb.Message{Id: "m1", Role: pb.Role_ROLE_ASSISTANT, Content: []*pb.ContentBlock{{Type: "text", Text: "hello"}, {Type: "image"}}, SourceJson: []byte(`{"kind":"skill-catalog"}`), UserInput: true}
	if diff := cmp.Diff(want, MessageToProto(fullMessage), protocmp.Transform()); diff != "" {
		t.Errorf("MessageToProto (-want +got):\n%s", diff)
	}
}

func TestDecisions(t *testing.T) {
	t.Parallel()
	fromNil(t, "Decision", DecisionFromProto, plugin.Decision{})
	for name, d := range map[string]plugin.Decision{
		"zero":                     {},
		"enter":                    {Messages: []plugin.Message{fullMessage, {ID: "m2"}}},
		"reject":                   {Reject: &plugin.Reject{Reason: "budget"}},
		"reject with empty reason": {Reject: &plugin.Reject{}},
	} {
		roundTrip(t, "Decision/"+name, d, DecisionToProto, DecisionFromProto)
	}
	// A decision with no kind (an older or careless host) enters with
	// nothing.
	if diff := cmp.Diff(plugin.Decision{}, DecisionFromProto(&pb.Decision{})); diff != "" {
		t.Errorf("kindless decision (-want +got):\n%s", diff)
	}
}

func TestStepRequests(t *testing.T) {
	t.Parallel()
	fromNil(t, "StepRequest", StepRequestFromProto, plugin.StepRequest{})
	full := plugin.StepRequest{
		MountID: "mount-1", SessionID: "s", Cwd: "/w", AgentScope: "agent:a", Turn: 3, Step: 4,
		Downstream:        plugin.Decision{Messages: []plugin.Message{fullMessage}},
		SkillToolIdentity: "tooldef-1", SnapshotToken: "tok", Head: &plugin.SessionHead{Seq: 9, SurfaceRevision: 2},
	}
	withRecent := full
	withRecent.Recent = &plugin.RecentEvents{AfterSeq: 7, Events: []plugin.Event{{Seq: 9, Type: "message", Source: []byte(`{"kind":"x"}`), Visible: true}, {Seq: 8, Type: "message"}}}
	for name, r := range map[string]plugin.StepRequest{
		"zero":               {},
		"full":               full,
		"zero head":          {Head: &plugin.SessionHead{}},
		"recent events":      withRecent,
		"no recent events":   {Recent: &plugin.RecentEvents{AfterSeq: 3}},
		"recent after start": {Recent: &plugin.RecentEvents{}},
	} {
		roundTrip(t, "StepRequest/"+name, r, StepRequestToProto, StepRequestFromProto)
	}
}

func TestStepResponses(t *testing.T) {
	t.Parallel()
	for _, o := range []plugin.Outcome{plugin.OutcomeRejectPassthrough, plugin.OutcomeUnchanged, plugin.OutcomeIncomplete, plugin.OutcomeInitial, plugin.OutcomeReplacement, plugin.OutcomeTombstone} {
		p, err := OutcomeToProto(o)
		if err != nil {
			t.Fatalf("OutcomeToProto(%q): %v", o, err)
		}
		if back, err := OutcomeFromProto(p); err != nil || back != o {
			t.Errorf("outcome %q round trip = %q, %v", o, back, err)
		}
	}
	if _, err := OutcomeToProto("maybe"); err == nil {
		t.Error("an unknown outcome was sent")
	}
	for _, o := range []pb.Outcome{pb.Outcome_OUTCOME_UNSPECIFIED, pb.Outcome(99)} {
		if _, err := OutcomeFromProto(o); err == nil {
			t.Errorf("wire outcome %v was accepted", o)
		}
	}
	if _, err := StepResponseFromProto(nil); err == nil {
		t.Error("a missing response (no outcome) was accepted")
	}

	full := plugin.StepResponse{Outcome: plugin.OutcomeReplacement, Edits: []plugin.Edit{
		{Op: plugin.EditRemove, Index: 2},
		{Op: plugin.EditReplace, Index: 0, Message: fullMessage},
		{Op: plugin.EditAppend, Message: plugin.Message{ID: "new"}},
		{Op: plugin.EditRemove}, // index 0
	}, Diagnostics: []string{"catalogBudget 100: 2 of 3 catalog descriptions shortened to 5 characters"}}
	for name, r := range map[string]plugin.StepResponse{"no edits": {Outcome: plugin.OutcomeUnchanged}, "full": full} {
		p, err := StepResponseToProto(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := StepResponseFromProto(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(r, back); diff != "" {
			t.Errorf("StepResponse/%s round trip (-want +got):\n%s", name, diff)
		}
	}
	if _, err := StepResponseToProto(plugin.StepResponse{Outcome: plugin.OutcomeUnchanged, Edits: []plugin.Edit{{}}}); err == nil {
		t.Error("an edit without an operation was sent")
	}
	if _, err := StepResponseFromProto(&pb.PreStepResponse{Outcome: pb.Outcome_OUTCOME_UNCHANGED, Edits: []*pb.MessageEdit{{}}}); err == nil {
		t.Error("an empty wire edit was accepted")
	}
	if _, err := EditFromProto(nil); err == nil {
		t.Error("a nil wire edit was accepted")
	}
}

func TestSkills(t *testing.T) {
	t.Parallel()
	fromNil(t, "Summary", SummaryFromProto, skill.Summary{})
	fromNil(t, "Definition", DefinitionFromProto, skill.Definition{})
	fromNil(t, "Policy", PolicyFromProto, skill.InvocationPolicy{})
	fromNil(t, "ResourceBase", ResourceBaseFromProto, (*skill.ResourceBase)(nil))
	roundTrip(t, "Summary/zero", skill.Summary{}, SummaryToProto, SummaryFromProto)
	roundTrip(t, "Summary/full", fullDefinition.Summary, SummaryToProto, SummaryFromProto)
	roundTrip(t, "Definition/zero", skill.Definition{}, DefinitionToProto, DefinitionFromProto)
	roundTrip(t, "Definition/full", fullDefinition, DefinitionToProto, DefinitionFromProto)
	for _, rb := range []*skill.ResourceBase{nil, {}, {Kind: skill.ResourceDirectory, Path: "/p"}, {Kind: "zip", Path: "p", URL: "u", Description: "d"}} {
		roundTrip(t, "ResourceBase", rb, ResourceBaseToProto, ResourceBaseFromProto)
	}
	for _, p := range []skill.InvocationPolicy{{}, {ModelInvocable: true}, {UserInvocable: true}, skill.DefaultPolicy()} {
		roundTrip(t, "Policy", p, PolicyToProto, PolicyFromProto)
	}
}

func TestSnapshots(t *testing.T) {
	t.Parallel()
	fromNil(t, "SnapshotRequest", SnapshotRequestFromProto, plugin.SnapshotRequest{})
	fromNil(t, "Snapshot", SnapshotFromProto, plugin.Snapshot{})
	roundTrip(t, "SnapshotRequest/zero", plugin.SnapshotRequest{}, SnapshotRequestToProto, SnapshotRequestFromProto)
	roundTrip(t, "SnapshotRequest/full", plugin.SnapshotRequest{SessionID: "s", Cwd: "/w", AgentScope: "a", IfNoneMatch: "tok", AcceptDelta: true}, SnapshotRequestToProto, SnapshotRequestFromProto)
	for name, s := range map[string]plugin.Snapshot{
		"zero":         {},
		"not modified": {NotModified: true, Token: "tok", Complete: true},
		"full":         {Token: "tok", Complete: true, Skills: []skill.Summary{fullDefinition.Summary, {Name: "b"}}},
		"incomplete":   {Skills: []skill.Summary{{Name: "a", Description: "d"}}},
		"delta":        {Token: "tok-2", Complete: true, DeltaBase: "tok-1", Skills: []skill.Summary{{Name: "b"}}, Removed: []string{"a", "c"}},
	} {
		roundTrip(t, "Snapshot/"+name, s, SnapshotToProto, SnapshotFromProto)
	}
	// Each summary on the wire is its own message, even though they are
	// allocated together.
	p := SnapshotToProto(plugin.Snapshot{Skills: []skill.Summary{{Name: "a"}, {Name: "b"}}})
	p.Skills[0].Name = "changed"
	if p.Skills[1].GetName() != "b" {
		t.Error("summaries on the wire share storage")
	}
}

func TestSkillLookups(t *testing.T) {
	t.Parallel()
	fromNil(t, "SkillRequest", SkillRequestFromProto, plugin.SkillRequest{})
	fromNil(t, "SkillLookup", SkillLookupFromProto, plugin.SkillLookup{})
	roundTrip(t, "SkillRequest/zero", plugin.SkillRequest{}, SkillRequestToProto, SkillRequestFromProto)
	roundTrip(t, "SkillRequest/full", plugin.SkillRequest{SessionID: "s", Cwd: "/w", AgentScope: "a", Name: "pdf", UserInvocation: true}, SkillRequestToProto, SkillRequestFromProto)
	for name, l := range map[string]plugin.SkillLookup{
		"not found":      {},
		"found":          {Found: true, Skill: fullDefinition},
		"provider error": {Error: "disk on fire"},
	} {
		roundTrip(t, "SkillLookup/"+name, l, SkillLookupToProto, SkillLookupFromProto)
	}
	if got := SkillLookupFromProto(&pb.GetSkillResponse{Found: true}); got.Found {
		t.Error("found without a definition counted as found")
	}
	if got := SkillLookupToProto(plugin.SkillLookup{Skill: fullDefinition}); got.GetSkill() != nil {
		t.Error("a definition was sent for a skill that was not found")
	}
}

func TestEvents(t *testing.T) {
	t.Parallel()
	fromNil(t, "EventsRequest", EventsRequestFromProto, plugin.EventsRequest{})
	fromNil(t, "EventPage", EventPageFromProto, plugin.EventPage{})
	fromNil(t, "SessionHead", SessionHeadFromProto, (*plugin.SessionHead)(nil))
	fromNil(t, "RecentEvents", RecentEventsFromProto, (*plugin.RecentEvents)(nil))
	roundTrip(t, "EventsRequest/zero", plugin.EventsRequest{}, EventsRequestToProto, EventsRequestFromProto)
	roundTrip(t, "EventsRequest/full", plugin.EventsRequest{SessionID: "s", BeforeSeq: 10, AfterSeq: 2, MaxEvents: 64}, EventsRequestToProto, EventsRequestFromProto)
	for in, want := range map[int]uint32{-1: 0, 0: 0, 7: 7, math.MaxInt: math.MaxUint32} {
		if got := EventsRequestToProto(plugin.EventsRequest{MaxEvents: in}).GetMaxEvents(); got != want {
			t.Errorf("MaxEvents %d on the wire = %d, want %d", in, got, want)
		}
	}
	for name, p := range map[string]plugin.EventPage{
		"zero": {},
		"full": {Head: plugin.SessionHead{Seq: 5, SurfaceRevision: 1}, More: true, Events: []plugin.Event{
			{Seq: 5, Type: "message", Source: []byte(`{"kind":"x"}`), Visible: true},
			{Seq: 4, Type: "compaction"},
		}},
	} {
		roundTrip(t, "EventPage/"+name, p, EventPageToProto, EventPageFromProto)
	}
	for _, h := range []*plugin.SessionHead{nil, {}, {Seq: 1, SurfaceRevision: 2}} {
		roundTrip(t, "SessionHead", h, SessionHeadToProto, SessionHeadFromProto)
	}
}

func TestTools(t *testing.T) {
	t.Parallel()
	fromNil(t, "ToolCall", ToolCallFromProto, plugin.ToolCall{})
	fromNil(t, "ToolResult", ToolResultFromProto, plugin.ToolResult{})
	fromNil(t, "ToolValue", ToolValueFromProto, (*skill.ToolValue)(nil))
	fromNil(t, "ToolDefinition", ToolDefinitionFromProto, plugin.ToolDefinition{})
	roundTrip(t, "ToolCall/zero", plugin.ToolCall{}, ToolCallToProto, ToolCallFromProto)
	roundTrip(t, "ToolCall/full", plugin.ToolCall{MountID: "m", SessionID: "s", Cwd: "/w", AgentScope: "a", CallID: "c1", Arguments: json.RawMessage(`{"name":"pdf"}`)}, ToolCallToProto, ToolCallFromProto)
	for name, r := range map[string]plugin.ToolResult{
		"zero":    {},
		"success": {Value: &fullValue, Text: "<skill_content>"},
		"error":   {Text: "Error: x", IsError: true},
	} {
		roundTrip(t, "ToolResult/"+name, r, ToolResultToProto, ToolResultFromProto)
	}
	if got := ToolResultFromProto(&pb.ExecuteSkillToolResponse{IsError: true, Value: ToolValueToProto(&fullValue)}); got.Value != nil {
		t.Error("an error result carried a value")
	}
	for _, v := range []*skill.ToolValue{nil, {}, &fullValue} {
		roundTrip(t, "ToolValue", v, ToolValueToProto, ToolValueFromProto)
	}
	roundTrip(t, "ToolDefinition/zero", plugin.ToolDefinition{}, ToolDefinitionToProto, ToolDefinitionFromProto)
	roundTrip(t, "ToolDefinition/full", plugin.SkillTool(), ToolDefinitionToProto, ToolDefinitionFromProto)
}

func TestMountMessages(t *testing.T) {
	t.Parallel()
	req, id := ConfigureRequestFromProto(nil)
	if req != (plugin.ConfigureRequest{}) || id != 0 {
		t.Errorf("ConfigureRequest from nil = %+v, %d", req, id)
	}
	for _, r := range []plugin.ConfigureRequest{{}, {Config: `{"catalogDescriptionMaxLength": 9}`, Scope: "agent:a"}} {
		got, gotID := ConfigureRequestFromProto(ConfigureRequestToProto(r, 7))
		if got != r || gotID != 7 {
			t.Errorf("ConfigureRequest round trip = %+v, %d; want %+v, 7", got, gotID, r)
		}
	}
	fromNil(t, "ConfigureResponse", ConfigureResponseFromProto, plugin.ConfigureResponse{})
	for _, r := range []plugin.ConfigureResponse{{}, {MountID: "mount-1", Tools: []plugin.ToolDefinition{plugin.SkillTool(), {Name: "other"}}}} {
		roundTrip(t, "ConfigureResponse", r, ConfigureResponseToProto, ConfigureResponseFromProto)
	}
	mount, bindings := BindToolsFromProto(nil)
	if mount != "" || bindings != nil {
		t.Errorf("BindTools from nil = %q, %v", mount, bindings)
	}
	for _, b := range [][]plugin.ToolBinding{nil, {{ToolName: "skill", DefinitionIdentity: "tooldef-1"}, {}}} {
		gotMount, got := BindToolsFromProto(BindToolsToProto("mount-1", b))
		if gotMount != "mount-1" || !cmp.Equal(got, b) {
			t.Errorf("BindTools round trip = %q, %+v; want mount-1, %+v", gotMount, got, b)
		}
	}
}
