package wire

import (
	"fmt"
	"math"

	"github.com/skillcatalog/skillcatalog/plugin"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// This file converts every protocol message to the plugin's Go types and
// back. Conversions from the wire accept nil and absent fields (proto3 has
// no required fields) and produce the zero Go value for them; only values
// with no Go meaning (an unknown outcome, an empty edit) are errors.

// RoleToProto converts a message role; a role outside the four known ones
// becomes ROLE_UNSPECIFIED.
func RoleToProto(r plugin.Role) pb.Role {
	switch r {
	case plugin.RoleUser:
		return pb.Role_ROLE_USER
	case plugin.RoleAssistant:
		return pb.Role_ROLE_ASSISTANT
	case plugin.RoleSystem:
		return pb.Role_ROLE_SYSTEM
	case plugin.RoleTool:
		return pb.Role_ROLE_TOOL
	}
	return pb.Role_ROLE_UNSPECIFIED
}

// RoleFromProto converts a message role; ROLE_UNSPECIFIED and unknown
// values become "".
func RoleFromProto(r pb.Role) plugin.Role {
	switch r {
	case pb.Role_ROLE_USER:
		return plugin.RoleUser
	case pb.Role_ROLE_ASSISTANT:
		return plugin.RoleAssistant
	case pb.Role_ROLE_SYSTEM:
		return plugin.RoleSystem
	case pb.Role_ROLE_TOOL:
		return plugin.RoleTool
	}
	return ""
}

// MessageToProto converts a message; its source bytes are shared, not
// copied.
func MessageToProto(m plugin.Message) *pb.Message {
	out := &pb.Message{Id: m.ID, Role: RoleToProto(m.Role), SourceJson: m.Source, UserInput: m.UserInput}
	if len(m.Content) > 0 {
		out.Content = make([]*pb.ContentBlock, len(m.Content))
		for i, b := range m.Content {
			out.Content[i] = &pb.ContentBlock{Type: b.Type, Text: b.Text}
		}
	}
	return out
}

// MessageFromProto converts a message.
func MessageFromProto(m *pb.Message) plugin.Message {
	out := plugin.Message{ID: m.GetId(), Role: RoleFromProto(m.GetRole()), Source: m.GetSourceJson(), UserInput: m.GetUserInput()}
	if blocks := m.GetContent(); len(blocks) > 0 {
		out.Content = make([]plugin.ContentBlock, len(blocks))
		for i, b := range blocks {
			out.Content[i] = plugin.ContentBlock{Type: b.GetType(), Text: b.GetText()}
		}
	}
	return out
}

func messagesToProto(ms []plugin.Message) []*pb.Message {
	if len(ms) == 0 {
		return nil
	}
	out := make([]*pb.Message, len(ms))
	for i, m := range ms {
		out[i] = MessageToProto(m)
	}
	return out
}

func messagesFromProto(ms []*pb.Message) []plugin.Message {
	if len(ms) == 0 {
		return nil
	}
	out := make([]plugin.Message, len(ms))
	for i, m := range ms {
		out[i] = MessageFromProto(m)
	}
	return out
}

// DecisionToProto converts a decision: a reject, or an enter with its
// messages.
func DecisionToProto(d plugin.Decision) *pb.Decision {
	if d.Reject != nil {
		return &pb.Decision{Kind: &pb.Decision_Reject{Reject: &pb.RejectDecision{Reason: d.Reject.Reason}}}
	}
	return &pb.Decision{Kind: &pb.Decision_Enter{Enter: &pb.EnterDecision{Messages: messagesToProto(d.Messages)}}}
}

// DecisionFromProto converts a decision; a missing decision enters with no
// messages.
func DecisionFromProto(d *pb.Decision) plugin.Decision {
	if r := d.GetReject(); r != nil {
		return plugin.Decision{Reject: &plugin.Reject{Reason: r.GetReason()}}
	}
	return plugin.Decision{Messages: messagesFromProto(d.GetEnter().GetMessages())}
}

// SessionHeadToProto converts a head hint; nil stays nil.
func SessionHeadToProto(h *plugin.SessionHead) *pb.SessionHead {
	if h == nil {
		return nil
	}
	return &pb.SessionHead{HeadSeq: h.Seq, SurfaceRevision: h.SurfaceRevision}
}

// SessionHeadFromProto converts a head hint; nil stays nil.
func SessionHeadFromProto(h *pb.SessionHead) *plugin.SessionHead {
	if h == nil {
		return nil
	}
	return &plugin.SessionHead{Seq: h.GetHeadSeq(), SurfaceRevision: h.GetSurfaceRevision()}
}

// StepRequestToProto converts a pre-step request.
func StepRequestToProto(r plugin.StepRequest) *pb.PreStepRequest {
	return &pb.PreStepRequest{
		MountId:           r.MountID,
		SessionId:         r.SessionID,
		Cwd:               r.Cwd,
		AgentScope:        r.AgentScope,
		Turn:              r.Turn,
		Step:              r.Step,
		Downstream:        DecisionToProto(r.Downstream),
		SkillToolIdentity: r.SkillToolIdentity,
		SnapshotToken:     r.SnapshotToken,
		SessionHead:       SessionHeadToProto(r.Head),
		RecentEvents:      RecentEventsToProto(r.Recent),
	}
}

// RecentEventsToProto converts a step's inlined events; nil stays nil.
func RecentEventsToProto(r *plugin.RecentEvents) *pb.RecentEvents {
	if r == nil {
		return nil
	}
	return &pb.RecentEvents{AfterSeq: r.AfterSeq, Events: eventsToProto(r.Events)}
}

// RecentEventsFromProto converts a step's inlined events; nil stays nil.
func RecentEventsFromProto(r *pb.RecentEvents) *plugin.RecentEvents {
	if r == nil {
		return nil
	}
	return &plugin.RecentEvents{AfterSeq: r.GetAfterSeq(), Events: eventsFromProto(r.GetEvents())}
}

// StepRequestFromProto converts a pre-step request.
func StepRequestFromProto(r *pb.PreStepRequest) plugin.StepRequest {
	return plugin.StepRequest{
		MountID:           r.GetMountId(),
		SessionID:         r.GetSessionId(),
		Cwd:               r.GetCwd(),
		AgentScope:        r.GetAgentScope(),
		Turn:              r.GetTurn(),
		Step:              r.GetStep(),
		Downstream:        DecisionFromProto(r.GetDownstream()),
		SkillToolIdentity: r.GetSkillToolIdentity(),
		SnapshotToken:     r.GetSnapshotToken(),
		Head:              SessionHeadFromProto(r.GetSessionHead()),
		Recent:            RecentEventsFromProto(r.GetRecentEvents()),
	}
}

// OutcomeToProto converts an outcome; one the protocol does not know is an
// error.
func OutcomeToProto(o plugin.Outcome) (pb.Outcome, error) {
	switch o {
	case plugin.OutcomeRejectPassthrough:
		return pb.Outcome_OUTCOME_REJECT_PASSTHROUGH, nil
	case plugin.OutcomeUnchanged:
		return pb.Outcome_OUTCOME_UNCHANGED, nil
	case plugin.OutcomeIncomplete:
		return pb.Outcome_OUTCOME_INCOMPLETE, nil
	case plugin.OutcomeInitial:
		return pb.Outcome_OUTCOME_INITIAL, nil
	case plugin.OutcomeReplacement:
		return pb.Outcome_OUTCOME_REPLACEMENT, nil
	case plugin.OutcomeTombstone:
		return pb.Outcome_OUTCOME_TOMBSTONE, nil
	}
	return pb.Outcome_OUTCOME_UNSPECIFIED, fmt.Errorf("outcome %q has no protocol value", o)
}

// OutcomeFromProto converts an outcome; OUTCOME_UNSPECIFIED and values this
// version does not know are errors.
func OutcomeFromProto(o pb.Outcome) (plugin.Outcome, error) {
	switch o {
	case pb.Outcome_OUTCOME_REJECT_PASSTHROUGH:
		return plugin.OutcomeRejectPassthrough, nil
	case pb.Outcome_OUTCOME_UNCHANGED:
		return plugin.OutcomeUnchanged, nil
	case pb.Outcome_OUTCOME_INCOMPLETE:
		return plugin.OutcomeIncomplete, nil
	case pb.Outcome_OUTCOME_INITIAL:
		return plugin.OutcomeInitial, nil
	case pb.Outcome_OUTCOME_REPLACEMENT:
		return plugin.OutcomeReplacement, nil
	case pb.Outcome_OUTCOME_TOMBSTONE:
		return plugin.OutcomeTombstone, nil
	}
	return "", fmt.Errorf("unknown outcome %v", o)
}

// EditToProto converts an edit; an unknown operation is an error.
func EditToProto(e plugin.Edit) (*pb.MessageEdit, error) {
	switch e.Op {
	case plugin.EditRemove:
		return &pb.MessageEdit{Edit: &pb.MessageEdit_Remove{Remove: toUint32(e.Index)}}, nil
	case plugin.EditReplace:
		return &pb.MessageEdit{Edit: &pb.MessageEdit_Replace{Replace: &pb.ReplaceEdit{Index: toUint32(e.Index), Message: MessageToProto(e.Message)}}}, nil
	case plugin.EditAppend:
		return &pb.MessageEdit{Edit: &pb.MessageEdit_Append{Append: MessageToProto(e.Message)}}, nil
	}
	return nil, fmt.Errorf("edit with unknown operation %d", e.Op)
}

// EditFromProto converts an edit; an edit with no operation is an error.
func EditFromProto(e *pb.MessageEdit) (plugin.Edit, error) {
	switch x := e.GetEdit().(type) {
	case *pb.MessageEdit_Remove:
		return plugin.Edit{Op: plugin.EditRemove, Index: int(x.Remove)}, nil
	case *pb.MessageEdit_Replace:
		return plugin.Edit{Op: plugin.EditReplace, Index: int(x.Replace.GetIndex()), Message: MessageFromProto(x.Replace.GetMessage())}, nil
	case *pb.MessageEdit_Append:
		return plugin.Edit{Op: plugin.EditAppend, Message: MessageFromProto(x.Append)}, nil
	}
	return plugin.Edit{}, fmt.Errorf("empty edit")
}

// StepResponseToProto converts a pre-step's result.
func StepResponseToProto(r plugin.StepResponse) (*pb.PreStepResponse, error) {
	o, err := OutcomeToProto(r.Outcome)
	if err != nil {
		return nil, err
	}
	out := &pb.PreStepResponse{Outcome: o, Diagnostics: r.Diagnostics}
	if len(r.Edits) > 0 {
		out.Edits = make([]*pb.MessageEdit, len(r.Edits))
		for i, e := range r.Edits {
			if out.Edits[i], err = EditToProto(e); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// StepResponseFromProto converts a pre-step's result.
func StepResponseFromProto(r *pb.PreStepResponse) (plugin.StepResponse, error) {
	o, err := OutcomeFromProto(r.GetOutcome())
	if err != nil {
		return plugin.StepResponse{}, err
	}
	out := plugin.StepResponse{Outcome: o, Diagnostics: r.GetDiagnostics()}
	if edits := r.GetEdits(); len(edits) > 0 {
		out.Edits = make([]plugin.Edit, len(edits))
		for i, e := range edits {
			if out.Edits[i], err = EditFromProto(e); err != nil {
				return plugin.StepResponse{}, fmt.Errorf("edit %d: %w", i, err)
			}
		}
	}
	return out, nil
}

// PolicyToProto converts an invocation policy.
func PolicyToProto(p skill.InvocationPolicy) *pb.InvocationPolicy {
	return &pb.InvocationPolicy{ModelInvocable: p.ModelInvocable, UserInvocable: p.UserInvocable}
}

// PolicyFromProto converts an invocation policy; a missing one allows
// nobody.
func PolicyFromProto(p *pb.InvocationPolicy) skill.InvocationPolicy {
	return skill.InvocationPolicy{ModelInvocable: p.GetModelInvocable(), UserInvocable: p.GetUserInvocable()}
}

// SummaryToProto converts a skill summary.
func SummaryToProto(s skill.Summary) *pb.SkillSummary {
	return &pb.SkillSummary{Name: s.Name, Description: s.Description, Invocation: PolicyToProto(s.Invocation), Provider: s.Provider,
		Origin: s.Origin, QualifiedName: s.QualifiedName}
}

// SummaryFromProto converts a skill summary.
func SummaryFromProto(s *pb.SkillSummary) skill.Summary {
	return skill.Summary{Name: s.GetName(), Description: s.GetDescription(), Invocation: PolicyFromProto(s.GetInvocation()), Provider: s.GetProvider(),
		Origin: s.GetOrigin(), QualifiedName: s.GetQualifiedName()}
}

// ResourceBaseToProto converts a resource base; nil (the provider manages
// resources) stays nil.
func ResourceBaseToProto(rb *skill.ResourceBase) *pb.ResourceBase {
	if rb == nil {
		return nil
	}
	return &pb.ResourceBase{Kind: string(rb.Kind), Path: rb.Path, Url: rb.URL, Description: rb.Description}
}

// ResourceBaseFromProto converts a resource base; nil stays nil. The kind
// is not validated here: rendering the tool result does that.
func ResourceBaseFromProto(rb *pb.ResourceBase) *skill.ResourceBase {
	if rb == nil {
		return nil
	}
	return &skill.ResourceBase{Kind: skill.ResourceKind(rb.GetKind()), Path: rb.GetPath(), URL: rb.GetUrl(), Description: rb.GetDescription()}
}

// DefinitionToProto converts a loaded skill.
func DefinitionToProto(d skill.Definition) *pb.SkillDefinition {
	return &pb.SkillDefinition{
		Name:          d.Name,
		Description:   d.Description,
		Invocation:    PolicyToProto(d.Invocation),
		Provider:      d.Provider,
		ResourceBase:  ResourceBaseToProto(d.ResourceBase),
		Content:       d.Content,
		Origin:        d.Origin,
		QualifiedName: d.QualifiedName,
	}
}

// DefinitionFromProto converts a loaded skill.
func DefinitionFromProto(d *pb.SkillDefinition) skill.Definition {
	return skill.Definition{
		Summary: skill.Summary{Name: d.GetName(), Description: d.GetDescription(), Invocation: PolicyFromProto(d.GetInvocation()), Provider: d.GetProvider(),
			Origin: d.GetOrigin(), QualifiedName: d.GetQualifiedName()},
		ResourceBase: ResourceBaseFromProto(d.GetResourceBase()),
		Content:      d.GetContent(),
	}
}

// SnapshotRequestToProto converts a snapshot request.
func SnapshotRequestToProto(r plugin.SnapshotRequest) *pb.SnapshotRequest {
	return &pb.SnapshotRequest{SessionId: r.SessionID, Cwd: r.Cwd, AgentScope: r.AgentScope, IfNoneMatch: r.IfNoneMatch, AcceptDelta: r.AcceptDelta}
}

// SnapshotRequestFromProto converts a snapshot request.
func SnapshotRequestFromProto(r *pb.SnapshotRequest) plugin.SnapshotRequest {
	return plugin.SnapshotRequest{SessionID: r.GetSessionId(), Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), IfNoneMatch: r.GetIfNoneMatch(), AcceptDelta: r.GetAcceptDelta()}
}

// SnapshotToProto converts a snapshot.
func SnapshotToProto(s plugin.Snapshot) *pb.SnapshotResponse {
	out := &pb.SnapshotResponse{NotModified: s.NotModified, Token: s.Token, Complete: s.Complete, DeltaBase: s.DeltaBase, Removed: s.Removed}
	if len(s.Skills) > 0 {
		// One allocation for every summary and one for every policy: a
		// snapshot of thousands of skills crosses the wire whenever a
		// skill changes.
		sums := make([]pb.SkillSummary, len(s.Skills))
		pols := make([]pb.InvocationPolicy, len(s.Skills))
		out.Skills = make([]*pb.SkillSummary, len(s.Skills))
		for i, sk := range s.Skills {
			pols[i].ModelInvocable, pols[i].UserInvocable = sk.Invocation.ModelInvocable, sk.Invocation.UserInvocable
			sums[i].Name, sums[i].Description, sums[i].Provider, sums[i].Invocation = sk.Name, sk.Description, sk.Provider, &pols[i]
			sums[i].Origin, sums[i].QualifiedName = sk.Origin, sk.QualifiedName
			out.Skills[i] = &sums[i]
		}
	}
	return out
}

// SnapshotFromProto converts a snapshot.
func SnapshotFromProto(s *pb.SnapshotResponse) plugin.Snapshot {
	out := plugin.Snapshot{NotModified: s.GetNotModified(), Token: s.GetToken(), Complete: s.GetComplete(), DeltaBase: s.GetDeltaBase(), Removed: s.GetRemoved()}
	if sums := s.GetSkills(); len(sums) > 0 {
		out.Skills = make([]skill.Summary, len(sums))
		for i, sk := range sums {
			out.Skills[i] = SummaryFromProto(sk)
		}
	}
	return out
}

// SkillRequestToProto converts a skill lookup request.
func SkillRequestToProto(r plugin.SkillRequest) *pb.GetSkillRequest {
	return &pb.GetSkillRequest{SessionId: r.SessionID, Cwd: r.Cwd, AgentScope: r.AgentScope, Name: r.Name, UserInvocation: r.UserInvocation}
}

// SkillRequestFromProto converts a skill lookup request.
func SkillRequestFromProto(r *pb.GetSkillRequest) plugin.SkillRequest {
	return plugin.SkillRequest{SessionID: r.GetSessionId(), Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), Name: r.GetName(), UserInvocation: r.GetUserInvocation()}
}

// SkillLookupToProto converts a skill lookup's answer; a definition is
// sent only when found.
func SkillLookupToProto(l plugin.SkillLookup) *pb.GetSkillResponse {
	out := &pb.GetSkillResponse{Found: l.Found, Error: l.Error}
	if l.Found {
		out.Skill = DefinitionToProto(l.Skill)
	}
	return out
}

// SkillLookupFromProto converts a skill lookup's answer. An answer that
// says found but carries no definition counts as not found.
func SkillLookupFromProto(r *pb.GetSkillResponse) plugin.SkillLookup {
	out := plugin.SkillLookup{Error: r.GetError()}
	if r.GetFound() && r.GetSkill() != nil {
		out.Found = true
		out.Skill = DefinitionFromProto(r.GetSkill())
	}
	return out
}

// EventsRequestToProto converts an events request. A page size outside
// uint32 is clamped (a negative one asks for the host's default).
func EventsRequestToProto(r plugin.EventsRequest) *pb.ReadEventsRequest {
	return &pb.ReadEventsRequest{SessionId: r.SessionID, BeforeSeq: r.BeforeSeq, AfterSeq: r.AfterSeq, MaxEvents: toUint32(r.MaxEvents)}
}

// EventsRequestFromProto converts an events request.
func EventsRequestFromProto(r *pb.ReadEventsRequest) plugin.EventsRequest {
	return plugin.EventsRequest{SessionID: r.GetSessionId(), BeforeSeq: r.GetBeforeSeq(), AfterSeq: r.GetAfterSeq(), MaxEvents: int(r.GetMaxEvents())}
}

// EventPageToProto converts a page of events; sources are shared, not
// copied.
func EventPageToProto(p plugin.EventPage) *pb.ReadEventsResponse {
	return &pb.ReadEventsResponse{
		Head:   &pb.SessionHead{HeadSeq: p.Head.Seq, SurfaceRevision: p.Head.SurfaceRevision},
		More:   p.More,
		Events: eventsToProto(p.Events),
	}
}

// EventPageFromProto converts a page of events; a missing head is the zero
// head.
func EventPageFromProto(p *pb.ReadEventsResponse) plugin.EventPage {
	out := plugin.EventPage{More: p.GetMore(), Events: eventsFromProto(p.GetEvents())}
	if h := SessionHeadFromProto(p.GetHead()); h != nil {
		out.Head = *h
	}
	return out
}

func eventsToProto(evs []plugin.Event) []*pb.SessionEvent {
	if len(evs) == 0 {
		return nil
	}
	all := make([]pb.SessionEvent, len(evs))
	out := make([]*pb.SessionEvent, len(evs))
	for i, ev := range evs {
		all[i].Seq, all[i].Type, all[i].SourceJson, all[i].Visible = ev.Seq, ev.Type, ev.Source, ev.Visible
		out[i] = &all[i]
	}
	return out
}

func eventsFromProto(evs []*pb.SessionEvent) []plugin.Event {
	if len(evs) == 0 {
		return nil
	}
	out := make([]plugin.Event, len(evs))
	for i, ev := range evs {
		out[i] = plugin.Event{Seq: ev.GetSeq(), Type: ev.GetType(), Source: ev.GetSourceJson(), Visible: ev.GetVisible()}
	}
	return out
}

// ToolCallToProto converts a `skill` tool call.
func ToolCallToProto(c plugin.ToolCall) *pb.ExecuteSkillToolRequest {
	return &pb.ExecuteSkillToolRequest{MountId: c.MountID, SessionId: c.SessionID, Cwd: c.Cwd, AgentScope: c.AgentScope, ArgumentsJson: string(c.Arguments), CallId: c.CallID, ToolName: c.ToolName, SkillToolIdentity: c.SkillToolIdentity}
}

// ToolCallFromProto converts a `skill` tool call.
func ToolCallFromProto(r *pb.ExecuteSkillToolRequest) plugin.ToolCall {
	c := plugin.ToolCall{MountID: r.GetMountId(), SessionID: r.GetSessionId(), Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), CallID: r.GetCallId(), ToolName: r.GetToolName(), SkillToolIdentity: r.GetSkillToolIdentity()}
	if args := r.GetArgumentsJson(); args != "" {
		c.Arguments = []byte(args)
	}
	return c
}

// ToolValueToProto converts the tool's value; nil stays nil.
func ToolValueToProto(v *skill.ToolValue) *pb.SkillToolValue {
	if v == nil {
		return nil
	}
	return &pb.SkillToolValue{Name: v.Name, Provider: v.Provider, ResourceBase: ResourceBaseToProto(v.ResourceBase), Content: v.Content, Origin: v.Origin}
}

// ToolValueFromProto converts the tool's value; nil stays nil.
func ToolValueFromProto(v *pb.SkillToolValue) *skill.ToolValue {
	if v == nil {
		return nil
	}
	return &skill.ToolValue{Name: v.GetName(), Provider: v.GetProvider(), ResourceBase: ResourceBaseFromProto(v.GetResourceBase()), Content: v.GetContent(), Origin: v.GetOrigin()}
}

// ToolResultToProto converts a tool result.
func ToolResultToProto(r plugin.ToolResult) *pb.ExecuteSkillToolResponse {
	return &pb.ExecuteSkillToolResponse{Value: ToolValueToProto(r.Value), Text: r.Text, IsError: r.IsError, ResourceValue: ResourcePageToProto(r.Resource)}
}

// ToolResultFromProto converts a tool result; an error result never
// carries a value.
func ToolResultFromProto(r *pb.ExecuteSkillToolResponse) plugin.ToolResult {
	out := plugin.ToolResult{Text: r.GetText(), IsError: r.GetIsError()}
	if !out.IsError {
		out.Value = ToolValueFromProto(r.GetValue())
		out.Resource = ResourcePageFromProto(r.GetResourceValue())
	}
	return out
}

// ResourcePageToProto converts the resource-read tool's value; nil stays
// nil.
func ResourcePageToProto(p *skill.ResourcePage) *pb.SkillResourceValue {
	if p == nil {
		return nil
	}
	out := &pb.SkillResourceValue{Name: p.Name, Path: p.Path, Offset: toUint64(p.Offset), TotalBytes: toUint64(p.TotalBytes), Content: p.Content}
	if p.NextOffset != nil {
		out.More, out.NextOffset = true, toUint64(*p.NextOffset)
	}
	return out
}

// ResourcePageFromProto converts the resource-read tool's value; nil stays
// nil.
func ResourcePageFromProto(v *pb.SkillResourceValue) *skill.ResourcePage {
	if v == nil {
		return nil
	}
	p := &skill.ResourcePage{Name: v.GetName(), Path: v.GetPath(), Offset: toInt64(v.GetOffset()), TotalBytes: toInt64(v.GetTotalBytes()), Content: v.GetContent()}
	if v.GetMore() {
		next := toInt64(v.GetNextOffset())
		p.NextOffset = &next
	}
	return p
}

// ResourceRequestToProto converts a resource read request.
func ResourceRequestToProto(r plugin.ResourceRequest) *pb.ReadResourceRequest {
	return &pb.ReadResourceRequest{Cwd: r.Cwd, AgentScope: r.AgentScope, SessionId: r.SessionID, Name: r.Name, Path: r.Path, Offset: toUint64(r.Offset), MaxBytes: toUint32(r.MaxBytes)}
}

// ResourceRequestFromProto converts a resource read request.
func ResourceRequestFromProto(r *pb.ReadResourceRequest) plugin.ResourceRequest {
	return plugin.ResourceRequest{Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), SessionID: r.GetSessionId(), Name: r.GetName(), Path: r.GetPath(), Offset: toInt64(r.GetOffset()), MaxBytes: int(r.GetMaxBytes())}
}

var resourceStatuses = map[plugin.ResourceStatus]pb.ResourceStatus{
	plugin.ResourceOK:                pb.ResourceStatus_RESOURCE_STATUS_OK,
	plugin.ResourceSkillNotFound:     pb.ResourceStatus_RESOURCE_STATUS_SKILL_NOT_FOUND,
	plugin.ResourceNotModelInvocable: pb.ResourceStatus_RESOURCE_STATUS_NOT_MODEL_INVOCABLE,
	plugin.ResourceNotReadable:       pb.ResourceStatus_RESOURCE_STATUS_NOT_READABLE,
	plugin.ResourceInvalidPath:       pb.ResourceStatus_RESOURCE_STATUS_INVALID_PATH,
	plugin.ResourceNotFound:          pb.ResourceStatus_RESOURCE_STATUS_NOT_FOUND,
	plugin.ResourceTooLarge:          pb.ResourceStatus_RESOURCE_STATUS_TOO_LARGE,
	plugin.ResourceBinary:            pb.ResourceStatus_RESOURCE_STATUS_BINARY,
	plugin.ResourceProviderError:     pb.ResourceStatus_RESOURCE_STATUS_PROVIDER_ERROR,
}

// ResourceReadToProto converts a resource read answer; an unknown status
// becomes RESOURCE_STATUS_UNSPECIFIED, which the plugin reports as a
// provider error.
func ResourceReadToProto(r plugin.ResourceRead) *pb.ReadResourceResponse {
	return &pb.ReadResourceResponse{Status: resourceStatuses[r.Status], Data: r.Data, TotalBytes: toUint64(r.Total), Error: r.Error}
}

// ResourceReadFromProto converts a resource read answer.
func ResourceReadFromProto(r *pb.ReadResourceResponse) plugin.ResourceRead {
	out := plugin.ResourceRead{Data: r.GetData(), Total: toInt64(r.GetTotalBytes()), Error: r.GetError(), Status: plugin.ResourceStatus(r.GetStatus().String())}
	for k, v := range resourceStatuses {
		if v == r.GetStatus() {
			out.Status = k
		}
	}
	return out
}

func toUint64(n int64) uint64 {
	if n < 0 {
		return 0
	}
	return uint64(n)
}

// toInt64 saturates what does not fit.
func toInt64(n uint64) int64 {
	if n > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(n)
}

// ToolDefinitionToProto converts a tool definition.
func ToolDefinitionToProto(d plugin.ToolDefinition) *pb.ToolDefinition {
	return &pb.ToolDefinition{Name: d.Name, Description: d.Description, InputSchemaJson: string(d.InputSchema), OutputSchemaJson: string(d.OutputSchema)}
}

// ToolDefinitionFromProto converts a tool definition.
func ToolDefinitionFromProto(d *pb.ToolDefinition) plugin.ToolDefinition {
	out := plugin.ToolDefinition{Name: d.GetName(), Description: d.GetDescription()}
	if s := d.GetInputSchemaJson(); s != "" {
		out.InputSchema = []byte(s)
	}
	if s := d.GetOutputSchemaJson(); s != "" {
		out.OutputSchema = []byte(s)
	}
	return out
}

// ConfigureRequestToProto converts a mount's configuration together with
// the broker id on which the host serves its callbacks.
func ConfigureRequestToProto(r plugin.ConfigureRequest, hostBrokerID uint32) *pb.ConfigureRequest {
	return &pb.ConfigureRequest{ConfigJson: r.Config, Scope: r.Scope, HostServiceBrokerId: hostBrokerID}
}

// ConfigureRequestFromProto converts a mount's configuration and returns
// the host's broker id beside it.
func ConfigureRequestFromProto(r *pb.ConfigureRequest) (plugin.ConfigureRequest, uint32) {
	return plugin.ConfigureRequest{Config: r.GetConfigJson(), Scope: r.GetScope()}, r.GetHostServiceBrokerId()
}

// ConfigureResponseToProto converts a new mount's description.
func ConfigureResponseToProto(r plugin.ConfigureResponse) *pb.ConfigureResponse {
	out := &pb.ConfigureResponse{MountId: r.MountID}
	for _, t := range r.Tools {
		out.Tools = append(out.Tools, ToolDefinitionToProto(t))
	}
	return out
}

// ConfigureResponseFromProto converts a new mount's description.
func ConfigureResponseFromProto(r *pb.ConfigureResponse) plugin.ConfigureResponse {
	out := plugin.ConfigureResponse{MountID: r.GetMountId()}
	for _, t := range r.GetTools() {
		out.Tools = append(out.Tools, ToolDefinitionFromProto(t))
	}
	return out
}

// BindToolsToProto converts a mount's tool bindings.
func BindToolsToProto(mountID string, bindings []plugin.ToolBinding) *pb.BindToolsRequest {
	out := &pb.BindToolsRequest{MountId: mountID}
	for _, b := range bindings {
		out.Bindings = append(out.Bindings, &pb.ToolBinding{ToolName: b.ToolName, DefinitionIdentity: b.DefinitionIdentity})
	}
	return out
}

// BindToolsFromProto converts a mount's tool bindings.
func BindToolsFromProto(r *pb.BindToolsRequest) (mountID string, bindings []plugin.ToolBinding) {
	for _, b := range r.GetBindings() {
		bindings = append(bindings, plugin.ToolBinding{ToolName: b.GetToolName(), DefinitionIdentity: b.GetDefinitionIdentity()})
	}
	return r.GetMountId(), bindings
}

// toUint32 clamps an int index or count into the protocol's uint32.
func toUint32(n int) uint32 {
	switch {
	case n < 0:
		return 0
	case uint64(n) > math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(n)
}
