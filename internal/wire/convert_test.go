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
			Origin: "docs", QualifiedName: "docs:acme/pdf", ArgumentHint: "[form-name]"},
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
	fromNil(t, "Message", messageFromProto, contract.Message{})
	for name, m := range map[string]contract.Message{"zero": {}, "full": fullMessage} {
		roundTrip(t, "Message/"+name, m, messageToProto, messageFromProto)
	}
	for _, r := range []contract.Role{contract.RoleUser, contract.RoleAssistant, contract.RoleSystem, contract.RoleTool, ""} {
		roundTrip(t, "Role/"+string(r), r, roleToProto, roleFromProto)
	}
	if got := roleToProto("moderator"); got != pb.Role_ROLE_UNSPECIFIED {
		t.Errorf("unknown role = %v, want unspecified", got)
	}
	if got := roleFromProto(pb.Role(99)); got != "" {
		t.Errorf("unknown wire role = %q, want empty", got)
	}
	want := &pb.Message{Id: "m1", Role: pb.Role_ROLE_ASSISTANT, Content: []*pb.ContentBlock{{Type: "text", Text: "hello"}, {Type: "tool_use", RawJson: []byte(`{"type":"tool_use","id":"c1","name":"skill","input":{}}`)}}, SourceJson: []byte(`{"kind":"skill-catalog"}`), UserInput: true}
	if diff := cmp.Diff(want, messageToProto(fullMessage), protocmp.Transform()); diff != "" {
		t.Errorf("messageToProto (-want +got):\n%s", diff)
	}
}

func TestDecisions(t *testing.T) {
	t.Parallel()
	fromNil(t, "Decision", decisionFromProto, contract.Decision{})
	for name, d := range map[string]contract.Decision{
		"zero":                     {},
		"enter":                    {Messages: []contract.Message{fullMessage, {ID: "m2"}}},
		"reject":                   {Reject: &contract.Reject{Reason: "budget"}},
		"reject with empty reason": {Reject: &contract.Reject{}},
	} {
		roundTrip(t, "Decision/"+name, d, decisionToProto, decisionFromProto)
	}
	// A decision with no kind (an older or careless host) enters with
	// nothing.
	if diff := cmp.Diff(contract.Decision{}, decisionFromProto(&pb.Decision{})); diff != "" {
		t.Errorf("kindless decision (-want +got):\n%s", diff)
	}
}

func TestStepRequests(t *testing.T) {
	t.Parallel()
	fromNil(t, "StepRequest", stepRequestFromProto, contract.StepRequest{})
	full := contract.StepRequest{
		MountID: "mount-1", SessionID: "s", Cwd: "/w", AgentScope: "agent:a", Turn: 3, Step: 4,
		Downstream:        contract.Decision{Messages: []contract.Message{fullMessage}},
		SkillToolIdentity: "tooldef-1", SnapshotToken: "tok", Head: &contract.SessionHead{Seq: 9, SurfaceRevision: 2},
	}
	withRecent := full
	withRecent.Recent = &contract.RecentEvents{AfterSeq: 7, Events: []contract.SessionEvent{{Seq: 9, Type: "message", Source: []byte(`{"kind":"x"}`), Visible: true}, {Seq: 8, Type: "message", SourceDigest: contract.SourceDigestOf([]byte(`{"kind":"skill-catalog"}`)), Visible: true}}}
	for name, r := range map[string]contract.StepRequest{
		"zero":               {},
		"full":               full,
		"zero head":          {Head: &contract.SessionHead{}},
		"recent events":      withRecent,
		"no recent events":   {Recent: &contract.RecentEvents{AfterSeq: 3}},
		"recent after start": {Recent: &contract.RecentEvents{}},
	} {
		roundTrip(t, "StepRequest/"+name, r, stepRequestToProto, stepRequestFromProto)
	}
}

func TestStepResponses(t *testing.T) {
	t.Parallel()
	for _, o := range []contract.Outcome{contract.OutcomeRejectPassthrough, contract.OutcomeUnchanged, contract.OutcomeIncomplete, contract.OutcomeInitial, contract.OutcomeReplacement, contract.OutcomeTombstone} {
		p, err := outcomeToProto(o)
		if err != nil {
			t.Fatalf("outcomeToProto(%q): %v", o, err)
		}
		if back, err := outcomeFromProto(p); err != nil || back != o {
			t.Errorf("outcome %q round trip = %q, %v", o, back, err)
		}
	}
	if _, err := outcomeToProto("maybe"); err == nil {
		t.Error("an unknown outcome was sent")
	}
	for _, o := range []pb.Outcome{pb.Outcome_OUTCOME_UNSPECIFIED, pb.Outcome(99)} {
		if _, err := outcomeFromProto(o); err == nil {
			t.Errorf("wire outcome %v was accepted", o)
		}
	}
	if _, err := stepResponseFromProto(nil); err == nil {
		t.Error("a missing response (no outcome) was accepted")
	}

	full := contract.StepResponse{Outcome: contract.OutcomeReplacement, Edits: []contract.Edit{
		{Op: contract.EditRemove, Index: 2},
		{Op: contract.EditReplace, Index: 0, Message: fullMessage},
		{Op: contract.EditAppend, Message: contract.Message{ID: "new"}},
		{Op: contract.EditRemove}, // index 0
	}, Diagnostics: []string{"catalogBudget 100: 2 of 3 catalog descriptions shortened to 5 characters"},
		Reasons: []contract.Reason{
			{Code: contract.ReasonPublishedReplacement, Detail: "published a complete replacement listing 3 skills"},
			{Code: contract.ReasonBudget, Detail: "catalogBudget 100: 2 of 3 catalog descriptions shortened to 5 characters"},
			{Code: "a-code-of-a-newer-plugin"},
		}}
	for name, r := range map[string]contract.StepResponse{"no edits": {Outcome: contract.OutcomeUnchanged}, "full": full} {
		p, err := stepResponseToProto(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := stepResponseFromProto(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(r, back); diff != "" {
			t.Errorf("StepResponse/%s round trip (-want +got):\n%s", name, diff)
		}
	}
	if _, err := stepResponseToProto(contract.StepResponse{Outcome: contract.OutcomeUnchanged, Edits: []contract.Edit{{}}}); err == nil {
		t.Error("an edit without an operation was sent")
	}
	if _, err := stepResponseFromProto(&pb.PreStepResponse{Outcome: pb.Outcome_OUTCOME_UNCHANGED, Edits: []*pb.MessageEdit{{}}}); err == nil {
		t.Error("an empty wire edit was accepted")
	}
	if _, err := editFromProto(nil); err == nil {
		t.Error("a nil wire edit was accepted")
	}
}

func TestSkills(t *testing.T) {
	t.Parallel()
	fromNil(t, "Summary", summaryFromProto, skill.Summary{})
	fromNil(t, "Definition", definitionFromProto, skill.Definition{})
	fromNil(t, "Policy", policyFromProto, skill.InvocationPolicy{})
	fromNil(t, "ResourceBase", resourceBaseFromProto, (*skill.ResourceBase)(nil))
	roundTrip(t, "Summary/zero", skill.Summary{}, summaryToProto, summaryFromProto)
	roundTrip(t, "Summary/full", fullDefinition.Summary, summaryToProto, summaryFromProto)
	roundTrip(t, "Definition/zero", skill.Definition{}, definitionToProto, definitionFromProto)
	roundTrip(t, "Definition/full", fullDefinition, definitionToProto, definitionFromProto)
	for _, rb := range []*skill.ResourceBase{nil, {}, {Kind: skill.ResourceDirectory, Path: "/p"}, {Kind: "zip", Path: "p", URL: "u", Description: "d"}} {
		roundTrip(t, "ResourceBase", rb, resourceBaseToProto, resourceBaseFromProto)
	}
	for _, p := range []skill.InvocationPolicy{{}, {ModelInvocable: true}, {UserInvocable: true}, skill.DefaultPolicy()} {
		roundTrip(t, "Policy", p, func(p skill.InvocationPolicy) *pb.InvocationPolicy {
			return summaryToProto(skill.Summary{Invocation: p}).GetInvocation()
		}, policyFromProto)
	}
}

func TestSnapshots(t *testing.T) {
	t.Parallel()
	fromNil(t, "SnapshotRequest", snapshotRequestFromProto, contract.SnapshotRequest{})
	fromNil(t, "Snapshot", snapshotFromProto, contract.Snapshot{})
	roundTrip(t, "SnapshotRequest/zero", contract.SnapshotRequest{}, snapshotRequestToProto, snapshotRequestFromProto)
	roundTrip(t, "SnapshotRequest/full", contract.SnapshotRequest{SessionID: "s", Cwd: "/w", AgentScope: "a", IfNoneMatch: "tok", AcceptDelta: true}, snapshotRequestToProto, snapshotRequestFromProto)
	for name, s := range map[string]contract.Snapshot{
		"zero":         {},
		"not modified": {NotModified: true, Token: "tok", Complete: true},
		"full":         {Token: "tok", Complete: true, Skills: []skill.Summary{fullDefinition.Summary, {Name: "b"}}},
		"incomplete":   {Skills: []skill.Summary{{Name: "a", Description: "d"}}},
		"delta":        {Token: "tok-2", Complete: true, DeltaBase: "tok-1", Skills: []skill.Summary{{Name: "b"}}, Removed: []string{"a", "c"}},
	} {
		roundTrip(t, "Snapshot/"+name, s, snapshotToProto, snapshotFromProto)
	}
	// Each summary on the wire is its own message, even though they are
	// allocated together.
	p := snapshotToProto(contract.Snapshot{Skills: []skill.Summary{{Name: "a"}, {Name: "b"}}})
	p.Skills[0].Name = "changed"
	if p.Skills[1].GetName() != "b" {
		t.Error("summaries on the wire share storage")
	}
}

func TestSkillLookups(t *testing.T) {
	t.Parallel()
	fromNil(t, "SkillRequest", skillRequestFromProto, contract.SkillRequest{})
	fromNil(t, "SkillLookup", skillLookupFromProto, contract.SkillLookup{})
	roundTrip(t, "SkillRequest/zero", contract.SkillRequest{}, skillRequestToProto, skillRequestFromProto)
	roundTrip(t, "SkillRequest/full", contract.SkillRequest{SessionID: "s", Cwd: "/w", AgentScope: "a", Name: "pdf", UserInvocation: true}, skillRequestToProto, skillRequestFromProto)
	for name, l := range map[string]contract.SkillLookup{
		"not found":      {},
		"found":          {Found: true, Skill: fullDefinition},
		"provider error": {Error: "disk on fire"},
	} {
		roundTrip(t, "SkillLookup/"+name, l, skillLookupToProto, skillLookupFromProto)
	}
	if got := skillLookupFromProto(&pb.GetSkillResponse{Found: true}); got.Found {
		t.Error("found without a definition counted as found")
	}
	if got := skillLookupToProto(contract.SkillLookup{Skill: fullDefinition}); got.GetSkill() != nil {
		t.Error("a definition was sent for a skill that was not found")
	}
}

func TestEvents(t *testing.T) {
	t.Parallel()
	fromNil(t, "EventsRequest", eventsRequestFromProto, contract.EventsRequest{})
	fromNil(t, "EventPage", eventPageFromProto, contract.EventPage{})
	fromNil(t, "SessionHead", sessionHeadFromProto, (*contract.SessionHead)(nil))
	fromNil(t, "RecentEvents", recentEventsFromProto, (*contract.RecentEvents)(nil))
	roundTrip(t, "EventsRequest/zero", contract.EventsRequest{}, eventsRequestToProto, eventsRequestFromProto)
	roundTrip(t, "EventsRequest/full", contract.EventsRequest{SessionID: "s", BeforeSeq: 10, AfterSeq: 2, MaxEvents: 64}, eventsRequestToProto, eventsRequestFromProto)
	for in, want := range map[int]uint32{-1: 0, 0: 0, 7: 7, math.MaxInt: math.MaxUint32} {
		if got := eventsRequestToProto(contract.EventsRequest{MaxEvents: in}).GetMaxEvents(); got != want {
			t.Errorf("MaxEvents %d on the wire = %d, want %d", in, got, want)
		}
	}
	for name, p := range map[string]contract.EventPage{
		"zero": {},
		"full": {Head: contract.SessionHead{Seq: 5, SurfaceRevision: 1}, More: true, Events: []contract.SessionEvent{
			{Seq: 5, Type: "message", Source: []byte(`{"kind":"x"}`), Visible: true},
			{Seq: 4, Type: "compaction"},
		}},
	} {
		roundTrip(t, "EventPage/"+name, p, eventPageToProto, eventPageFromProto)
	}
	for _, h := range []*contract.SessionHead{nil, {}, {Seq: 1, SurfaceRevision: 2}} {
		roundTrip(t, "SessionHead", h, sessionHeadToProto, sessionHeadFromProto)
	}
}

func TestTools(t *testing.T) {
	t.Parallel()
	fromNil(t, "ToolCall", toolCallFromProto, contract.ToolCall{})
	fromNil(t, "ToolResult", toolResultFromProto, contract.ToolResult{})
	fromNil(t, "ToolValue", toolValueFromProto, (*skill.ToolValue)(nil))
	fromNil(t, "ToolDefinition", toolDefinitionFromProto, contract.ToolDefinition{})
	roundTrip(t, "ToolCall/zero", contract.ToolCall{}, toolCallToProto, toolCallFromProto)
	roundTrip(t, "ToolCall/full", contract.ToolCall{MountID: "m", SessionID: "s", Cwd: "/w", AgentScope: "a", CallID: "c1", Arguments: json.RawMessage(`{"name":"pdf"}`)}, toolCallToProto, toolCallFromProto)
	for name, r := range map[string]contract.ToolResult{
		"zero":    {},
		"success": {Value: &fullValue, Text: "<skill_content>"},
		"error":   {Text: "Error: x", IsError: true},
	} {
		roundTrip(t, "ToolResult/"+name, r, toolResultToProto, toolResultFromProto)
	}
	if got := toolResultFromProto(&pb.ExecuteSkillToolResponse{IsError: true, Value: toolValueToProto(&fullValue)}); got.Value != nil {
		t.Error("an error result carried a value")
	}
	for _, v := range []*skill.ToolValue{nil, {}, &fullValue} {
		roundTrip(t, "ToolValue", v, toolValueToProto, toolValueFromProto)
	}
	roundTrip(t, "ToolDefinition/zero", contract.ToolDefinition{}, toolDefinitionToProto, toolDefinitionFromProto)
	roundTrip(t, "ToolDefinition/full", plugin.SkillTool(), toolDefinitionToProto, toolDefinitionFromProto)
}

func TestMountMessages(t *testing.T) {
	t.Parallel()
	req, id := configureRequestFromProto(nil)
	if req != (contract.ConfigureRequest{}) || id != 0 {
		t.Errorf("ConfigureRequest from nil = %+v, %d", req, id)
	}
	for _, r := range []contract.ConfigureRequest{{}, {Config: `{"catalogDescriptionMaxLength": 9}`, Scope: "agent:a", Discovery: `{"skillRoots":["/srv/skills"]}`}} {
		got, gotID := configureRequestFromProto(configureRequestToProto(r, 7))
		if got != r || gotID != 7 {
			t.Errorf("ConfigureRequest round trip = %+v, %d; want %+v, 7", got, gotID, r)
		}
	}
	fromNil(t, "ConfigureResponse", configureResponseFromProto, contract.ConfigureResponse{})
	for _, r := range []contract.ConfigureResponse{{}, {MountID: "mount-1", Tools: []contract.ToolDefinition{plugin.SkillTool(), {Name: "other"}}, AcceptsSourceDigests: true, DiscoversSkills: true}} {
		roundTrip(t, "ConfigureResponse", r, configureResponseToProto, configureResponseFromProto)
	}
	mount, bindings := bindToolsFromProto(nil)
	if mount != "" || bindings != nil {
		t.Errorf("BindTools from nil = %q, %v", mount, bindings)
	}
	for _, b := range [][]contract.ToolBinding{nil, {{ToolName: "skill", DefinitionIdentity: "tooldef-1"}, {}}} {
		gotMount, got := bindToolsFromProto(bindToolsToProto("mount-1", b))
		if gotMount != "mount-1" || !cmp.Equal(got, b) {
			t.Errorf("BindTools round trip = %q, %+v; want mount-1, %+v", gotMount, got, b)
		}
	}
}
