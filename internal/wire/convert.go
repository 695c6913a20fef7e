package wire

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// This file converts every protocol message to the Go types of package
// contract and back. Conversions from the wire accept nil and absent fields (proto3 has
// no required fields) and produce the zero Go value for them; only values
// with no Go meaning (an unknown outcome, an empty edit) are errors.

// roleToProto converts a message role; a role outside the four known ones
// becomes ROLE_UNSPECIFIED.
func roleToProto(r contract.Role) pb.Role {
	switch r {
	case contract.RoleUser:
		return pb.Role_ROLE_USER
	case contract.RoleAssistant:
		return pb.Role_ROLE_ASSISTANT
	case contract.RoleSystem:
		return pb.Role_ROLE_SYSTEM
	case contract.RoleTool:
		return pb.Role_ROLE_TOOL
	}
	return pb.Role_ROLE_UNSPECIFIED
}

// roleFromProto converts a message role; ROLE_UNSPECIFIED and unknown
// values become "".
func roleFromProto(r pb.Role) contract.Role {
	switch r {
	case pb.Role_ROLE_USER:
		return contract.RoleUser
	case pb.Role_ROLE_ASSISTANT:
		return contract.RoleAssistant
	case pb.Role_ROLE_SYSTEM:
		return contract.RoleSystem
	case pb.Role_ROLE_TOOL:
		return contract.RoleTool
	}
	return ""
}

// messageToProto converts a message; its source bytes are shared, not
// copied.
func messageToProto(m contract.Message) *pb.Message {
	out := &pb.Message{Id: m.ID, Role: roleToProto(m.Role), SourceJson: m.Source, UserInput: m.UserInput}
	if len(m.Content) > 0 {
		out.Content = make([]*pb.ContentBlock, len(m.Content))
		for i, b := range m.Content {
			out.Content[i] = &pb.ContentBlock{Type: b.Type, Text: b.Text, RawJson: b.Raw}
		}
	}
	return out
}

// messageFromProto converts a message.
func messageFromProto(m *pb.Message) contract.Message {
	out := contract.Message{ID: m.GetId(), Role: roleFromProto(m.GetRole()), Source: m.GetSourceJson(), UserInput: m.GetUserInput()}
	if blocks := m.GetContent(); len(blocks) > 0 {
		out.Content = make([]contract.ContentBlock, len(blocks))
		for i, b := range blocks {
			out.Content[i] = contract.ContentBlock{Type: b.GetType(), Text: b.GetText(), Raw: b.GetRawJson()}
		}
	}
	return out
}

func messagesToProto(ms []contract.Message) []*pb.Message {
	if len(ms) == 0 {
		return nil
	}
	out := make([]*pb.Message, len(ms))
	for i, m := range ms {
		out[i] = messageToProto(m)
	}
	return out
}

func messagesFromProto(ms []*pb.Message) []contract.Message {
	if len(ms) == 0 {
		return nil
	}
	out := make([]contract.Message, len(ms))
	for i, m := range ms {
		out[i] = messageFromProto(m)
	}
	return out
}

// decisionToProto converts a decision: a reject, or an enter with its
// messages.
func decisionToProto(d contract.Decision) *pb.Decision {
	if d.Reject != nil {
		return &pb.Decision{Kind: &pb.Decision_Reject{Reject: &pb.RejectDecision{Reason: d.Reject.Reason}}}
	}
	return &pb.Decision{Kind: &pb.Decision_Enter{Enter: &pb.EnterDecision{Messages: messagesToProto(d.Messages)}}}
}

// decisionFromProto converts a decision; a missing decision enters with no
// messages.
func decisionFromProto(d *pb.Decision) contract.Decision {
	if r := d.GetReject(); r != nil {
		return contract.Decision{Reject: &contract.Reject{Reason: r.GetReason()}}
	}
	return contract.Decision{Messages: messagesFromProto(d.GetEnter().GetMessages())}
}

// sessionHeadToProto converts a head hint; nil stays nil.
func sessionHeadToProto(h *contract.SessionHead) *pb.SessionHead {
	if h == nil {
		return nil
	}
	return &pb.SessionHead{HeadSeq: h.Seq, SurfaceRevision: h.SurfaceRevision}
}

// sessionHeadFromProto converts a head hint; nil stays nil.
func sessionHeadFromProto(h *pb.SessionHead) *contract.SessionHead {
	if h == nil {
		return nil
	}
	return &contract.SessionHead{Seq: h.GetHeadSeq(), SurfaceRevision: h.GetSurfaceRevision()}
}

// stepRequestToProto converts a pre-step request.
func stepRequestToProto(r contract.StepRequest) *pb.PreStepRequest {
	return &pb.PreStepRequest{
		MountId:           r.MountID,
		SessionId:         r.SessionID,
		Cwd:               r.Cwd,
		AgentScope:        r.AgentScope,
		Turn:              r.Turn,
		Step:              r.Step,
		Downstream:        decisionToProto(r.Downstream),
		SkillToolIdentity: r.SkillToolIdentity,
		SnapshotToken:     r.SnapshotToken,
		SessionHead:       sessionHeadToProto(r.Head),
		RecentEvents:      recentEventsToProto(r.Recent),
		Snapshot:          stepSnapshotToProto(r.Snapshot),
	}
}

// stepSnapshotToProto converts a step's inlined snapshot; nil stays nil.
func stepSnapshotToProto(s *contract.Snapshot) *pb.SnapshotResponse {
	if s == nil {
		return nil
	}
	return snapshotToProto(*s)
}

// stepSnapshotFromProto converts a step's inlined snapshot; nil stays nil.
func stepSnapshotFromProto(s *pb.SnapshotResponse) *contract.Snapshot {
	if s == nil {
		return nil
	}
	out := snapshotFromProto(s)
	return &out
}

// recentEventsToProto converts a step's inlined events; nil stays nil.
func recentEventsToProto(r *contract.RecentEvents) *pb.RecentEvents {
	if r == nil {
		return nil
	}
	return &pb.RecentEvents{AfterSeq: r.AfterSeq, Events: eventsToProto(r.Events)}
}

// recentEventsFromProto converts a step's inlined events; nil stays nil.
func recentEventsFromProto(r *pb.RecentEvents) *contract.RecentEvents {
	if r == nil {
		return nil
	}
	return &contract.RecentEvents{AfterSeq: r.GetAfterSeq(), Events: eventsFromProto(r.GetEvents())}
}

// stepRequestFromProto converts a pre-step request.
func stepRequestFromProto(r *pb.PreStepRequest) contract.StepRequest {
	return contract.StepRequest{
		MountID:           r.GetMountId(),
		SessionID:         r.GetSessionId(),
		Cwd:               r.GetCwd(),
		AgentScope:        r.GetAgentScope(),
		Turn:              r.GetTurn(),
		Step:              r.GetStep(),
		Downstream:        decisionFromProto(r.GetDownstream()),
		SkillToolIdentity: r.GetSkillToolIdentity(),
		SnapshotToken:     r.GetSnapshotToken(),
		Head:              sessionHeadFromProto(r.GetSessionHead()),
		Recent:            recentEventsFromProto(r.GetRecentEvents()),
		Snapshot:          stepSnapshotFromProto(r.GetSnapshot()),
	}
}

// outcomeToProto converts an outcome; one the protocol does not know is an
// error.
func outcomeToProto(o contract.Outcome) (pb.Outcome, error) {
	switch o {
	case contract.OutcomeRejectPassthrough:
		return pb.Outcome_OUTCOME_REJECT_PASSTHROUGH, nil
	case contract.OutcomeUnchanged:
		return pb.Outcome_OUTCOME_UNCHANGED, nil
	case contract.OutcomeIncomplete:
		return pb.Outcome_OUTCOME_INCOMPLETE, nil
	case contract.OutcomeInitial:
		return pb.Outcome_OUTCOME_INITIAL, nil
	case contract.OutcomeReplacement:
		return pb.Outcome_OUTCOME_REPLACEMENT, nil
	case contract.OutcomeTombstone:
		return pb.Outcome_OUTCOME_TOMBSTONE, nil
	}
	return pb.Outcome_OUTCOME_UNSPECIFIED, fmt.Errorf("outcome %q has no protocol value", o)
}

// outcomeFromProto converts an outcome; OUTCOME_UNSPECIFIED and values this
// version does not know are errors.
func outcomeFromProto(o pb.Outcome) (contract.Outcome, error) {
	switch o {
	case pb.Outcome_OUTCOME_REJECT_PASSTHROUGH:
		return contract.OutcomeRejectPassthrough, nil
	case pb.Outcome_OUTCOME_UNCHANGED:
		return contract.OutcomeUnchanged, nil
	case pb.Outcome_OUTCOME_INCOMPLETE:
		return contract.OutcomeIncomplete, nil
	case pb.Outcome_OUTCOME_INITIAL:
		return contract.OutcomeInitial, nil
	case pb.Outcome_OUTCOME_REPLACEMENT:
		return contract.OutcomeReplacement, nil
	case pb.Outcome_OUTCOME_TOMBSTONE:
		return contract.OutcomeTombstone, nil
	}
	return "", fmt.Errorf("unknown outcome %v", o)
}

// editToProto converts an edit; an unknown operation is an error.
func editToProto(e contract.Edit) (*pb.MessageEdit, error) {
	switch e.Op {
	case contract.EditRemove:
		return &pb.MessageEdit{Edit: &pb.MessageEdit_Remove{Remove: toUint32(e.Index)}}, nil
	case contract.EditReplace:
		return &pb.MessageEdit{Edit: &pb.MessageEdit_Replace{Replace: &pb.ReplaceEdit{Index: toUint32(e.Index), Message: messageToProto(e.Message)}}}, nil
	case contract.EditAppend:
		return &pb.MessageEdit{Edit: &pb.MessageEdit_Append{Append: messageToProto(e.Message)}}, nil
	}
	return nil, fmt.Errorf("edit with unknown operation %d", e.Op)
}

// editFromProto converts an edit; an edit with no operation is an error.
func editFromProto(e *pb.MessageEdit) (contract.Edit, error) {
	switch x := e.GetEdit().(type) {
	case *pb.MessageEdit_Remove:
		return contract.Edit{Op: contract.EditRemove, Index: int(x.Remove)}, nil
	case *pb.MessageEdit_Replace:
		return contract.Edit{Op: contract.EditReplace, Index: int(x.Replace.GetIndex()), Message: messageFromProto(x.Replace.GetMessage())}, nil
	case *pb.MessageEdit_Append:
		return contract.Edit{Op: contract.EditAppend, Message: messageFromProto(x.Append)}, nil
	}
	return contract.Edit{}, fmt.Errorf("empty edit")
}

// stepResponseToProto converts a pre-step's result.
func stepResponseToProto(r contract.StepResponse) (*pb.PreStepResponse, error) {
	o, err := outcomeToProto(r.Outcome)
	if err != nil {
		return nil, err
	}
	out := &pb.PreStepResponse{Outcome: o, Diagnostics: r.Diagnostics}
	if len(r.Reasons) > 0 {
		out.Reasons = make([]*pb.StepReason, len(r.Reasons))
		for i, rs := range r.Reasons {
			out.Reasons[i] = &pb.StepReason{Code: string(rs.Code), Detail: rs.Detail}
		}
	}
	if len(r.Edits) > 0 {
		out.Edits = make([]*pb.MessageEdit, len(r.Edits))
		for i, e := range r.Edits {
			if out.Edits[i], err = editToProto(e); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// stepResponseFromProto converts a pre-step's result.
func stepResponseFromProto(r *pb.PreStepResponse) (contract.StepResponse, error) {
	o, err := outcomeFromProto(r.GetOutcome())
	if err != nil {
		return contract.StepResponse{}, err
	}
	out := contract.StepResponse{Outcome: o, Diagnostics: r.GetDiagnostics()}
	if reasons := r.GetReasons(); len(reasons) > 0 {
		out.Reasons = make([]contract.Reason, len(reasons))
		for i, rs := range reasons {
			out.Reasons[i] = contract.Reason{Code: contract.ReasonCode(rs.GetCode()), Detail: rs.GetDetail()}
		}
	}
	if edits := r.GetEdits(); len(edits) > 0 {
		out.Edits = make([]contract.Edit, len(edits))
		for i, e := range edits {
			if out.Edits[i], err = editFromProto(e); err != nil {
				return contract.StepResponse{}, fmt.Errorf("edit %d: %w", i, err)
			}
		}
	}
	return out, nil
}

// policyFromProto converts an invocation policy; a missing one allows
// nobody.
func policyFromProto(p *pb.InvocationPolicy) skill.InvocationPolicy {
	return skill.InvocationPolicy{ModelInvocable: p.GetModelInvocable(), UserInvocable: p.GetUserInvocable()}
}

// A skill's summary is converted in one place each way: setSummary and
// summaryFromProto. A definition carries the same fields flattened
// (SkillDefinition repeats SkillSummary's, by name and number, a test
// checks), and is converted through a SkillSummary, so a field added to
// skill.Summary and both messages is added to these two functions only.

// summaryToProto converts a skill summary.
func summaryToProto(s skill.Summary) *pb.SkillSummary {
	out := &pb.SkillSummary{}
	setSummary(out, &pb.InvocationPolicy{}, s)
	return out
}

// setSummary writes s into out, with its policy in pol, which out then
// points to.
func setSummary(out *pb.SkillSummary, pol *pb.InvocationPolicy, s skill.Summary) {
	pol.ModelInvocable, pol.UserInvocable = s.Invocation.ModelInvocable, s.Invocation.UserInvocable
	out.Name, out.Description, out.Invocation, out.Provider = s.Name, s.Description, pol, s.Provider
	out.Origin, out.QualifiedName, out.ArgumentHint = s.Origin, s.QualifiedName, s.ArgumentHint
}

// summaryFromProto converts a skill summary.
func summaryFromProto(s *pb.SkillSummary) skill.Summary {
	return skill.Summary{Name: s.GetName(), Description: s.GetDescription(), Invocation: policyFromProto(s.GetInvocation()), Provider: s.GetProvider(),
		Origin: s.GetOrigin(), QualifiedName: s.GetQualifiedName(), ArgumentHint: s.GetArgumentHint()}
}

// copyFields sets every populated field of src on the field of dst with
// the same name, if dst has one.
func copyFields(dst, src protoreflect.Message) {
	fields := dst.Descriptor().Fields()
	src.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if f := fields.ByName(fd.Name()); f != nil {
			dst.Set(f, v)
		}
		return true
	})
}

// resourceBaseToProto converts a resource base; nil (the provider manages
// resources) stays nil.
func resourceBaseToProto(rb *skill.ResourceBase) *pb.ResourceBase {
	if rb == nil {
		return nil
	}
	return &pb.ResourceBase{Kind: string(rb.Kind), Path: rb.Path, Url: rb.URL, Description: rb.Description}
}

// resourceBaseFromProto converts a resource base; nil stays nil. The kind
// is not validated here: rendering the tool result does that.
func resourceBaseFromProto(rb *pb.ResourceBase) *skill.ResourceBase {
	if rb == nil {
		return nil
	}
	return &skill.ResourceBase{Kind: skill.ResourceKind(rb.GetKind()), Path: rb.GetPath(), URL: rb.GetUrl(), Description: rb.GetDescription()}
}

// definitionToProto converts a loaded skill: its summary as a summary
// (summaryToProto), then its resource base and content.
func definitionToProto(d skill.Definition) *pb.SkillDefinition {
	out := &pb.SkillDefinition{ResourceBase: resourceBaseToProto(d.ResourceBase), Content: d.Content}
	copyFields(out.ProtoReflect(), summaryToProto(d.Summary).ProtoReflect())
	return out
}

// definitionFromProto converts a loaded skill.
func definitionFromProto(d *pb.SkillDefinition) skill.Definition {
	var sum pb.SkillSummary
	copyFields(sum.ProtoReflect(), d.ProtoReflect())
	return skill.Definition{
		Summary:      summaryFromProto(&sum),
		ResourceBase: resourceBaseFromProto(d.GetResourceBase()),
		Content:      d.GetContent(),
	}
}

// snapshotRequestToProto converts a snapshot request.
func snapshotRequestToProto(r contract.SnapshotRequest) *pb.SnapshotRequest {
	return &pb.SnapshotRequest{SessionId: r.SessionID, Cwd: r.Cwd, AgentScope: r.AgentScope, IfNoneMatch: r.IfNoneMatch, AcceptDelta: r.AcceptDelta}
}

// snapshotRequestFromProto converts a snapshot request.
func snapshotRequestFromProto(r *pb.SnapshotRequest) contract.SnapshotRequest {
	return contract.SnapshotRequest{SessionID: r.GetSessionId(), Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), IfNoneMatch: r.GetIfNoneMatch(), AcceptDelta: r.GetAcceptDelta()}
}

// snapshotToProto converts a snapshot.
func snapshotToProto(s contract.Snapshot) *pb.SnapshotResponse {
	out := &pb.SnapshotResponse{NotModified: s.NotModified, Token: s.Token, Complete: s.Complete, DeltaBase: s.DeltaBase, Removed: s.Removed}
	if len(s.Skills) > 0 {
		// One allocation for every summary and one for every policy: a
		// snapshot of thousands of skills crosses the wire whenever a
		// skill changes.
		sums := make([]pb.SkillSummary, len(s.Skills))
		pols := make([]pb.InvocationPolicy, len(s.Skills))
		out.Skills = make([]*pb.SkillSummary, len(s.Skills))
		for i, sk := range s.Skills {
			setSummary(&sums[i], &pols[i], sk)
			out.Skills[i] = &sums[i]
		}
	}
	return out
}

// snapshotFromProto converts a snapshot.
func snapshotFromProto(s *pb.SnapshotResponse) contract.Snapshot {
	out := contract.Snapshot{NotModified: s.GetNotModified(), Token: s.GetToken(), Complete: s.GetComplete(), DeltaBase: s.GetDeltaBase(), Removed: s.GetRemoved()}
	if sums := s.GetSkills(); len(sums) > 0 {
		out.Skills = make([]skill.Summary, len(sums))
		for i, sk := range sums {
			out.Skills[i] = summaryFromProto(sk)
		}
	}
	return out
}

// skillRequestToProto converts a skill lookup request.
func skillRequestToProto(r contract.SkillRequest) *pb.GetSkillRequest {
	return &pb.GetSkillRequest{SessionId: r.SessionID, Cwd: r.Cwd, AgentScope: r.AgentScope, Name: r.Name, UserInvocation: r.UserInvocation}
}

// skillRequestFromProto converts a skill lookup request.
func skillRequestFromProto(r *pb.GetSkillRequest) contract.SkillRequest {
	return contract.SkillRequest{SessionID: r.GetSessionId(), Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), Name: r.GetName(), UserInvocation: r.GetUserInvocation()}
}

// skillLookupToProto converts a skill lookup's answer; a definition is
// sent only when found.
func skillLookupToProto(l contract.SkillLookup) *pb.GetSkillResponse {
	out := &pb.GetSkillResponse{Found: l.Found, Error: l.Error}
	if l.Found {
		out.Skill = definitionToProto(l.Skill)
	}
	return out
}

// skillLookupFromProto converts a skill lookup's answer. An answer that
// says found but carries no definition counts as not found.
func skillLookupFromProto(r *pb.GetSkillResponse) contract.SkillLookup {
	out := contract.SkillLookup{Error: r.GetError()}
	if r.GetFound() && r.GetSkill() != nil {
		out.Found = true
		out.Skill = definitionFromProto(r.GetSkill())
	}
	return out
}

// eventsRequestToProto converts an events request. A page size outside
// uint32 is clamped (a negative one asks for the host's default).
func eventsRequestToProto(r contract.EventsRequest) *pb.ReadEventsRequest {
	return &pb.ReadEventsRequest{SessionId: r.SessionID, BeforeSeq: r.BeforeSeq, AfterSeq: r.AfterSeq, MaxEvents: toUint32(r.MaxEvents)}
}

// eventsRequestFromProto converts an events request.
func eventsRequestFromProto(r *pb.ReadEventsRequest) contract.EventsRequest {
	return contract.EventsRequest{SessionID: r.GetSessionId(), BeforeSeq: r.GetBeforeSeq(), AfterSeq: r.GetAfterSeq(), MaxEvents: int(r.GetMaxEvents())}
}

// eventPageToProto converts a page of events; sources are shared, not
// copied.
func eventPageToProto(p contract.EventPage) *pb.ReadEventsResponse {
	return &pb.ReadEventsResponse{
		Head:   &pb.SessionHead{HeadSeq: p.Head.Seq, SurfaceRevision: p.Head.SurfaceRevision},
		More:   p.More,
		Events: eventsToProto(p.Events),
	}
}

// eventPageFromProto converts a page of events; a missing head is the zero
// head.
func eventPageFromProto(p *pb.ReadEventsResponse) contract.EventPage {
	out := contract.EventPage{More: p.GetMore(), Events: eventsFromProto(p.GetEvents())}
	if h := sessionHeadFromProto(p.GetHead()); h != nil {
		out.Head = *h
	}
	return out
}

func eventsToProto(evs []contract.SessionEvent) []*pb.SessionEvent {
	if len(evs) == 0 {
		return nil
	}
	all := make([]pb.SessionEvent, len(evs))
	out := make([]*pb.SessionEvent, len(evs))
	for i, ev := range evs {
		all[i].Seq, all[i].Type, all[i].SourceJson, all[i].Visible = ev.Seq, ev.Type, ev.Source, ev.Visible
		all[i].SourceXxh3 = ev.SourceDigest
		out[i] = &all[i]
	}
	return out
}

func eventsFromProto(evs []*pb.SessionEvent) []contract.SessionEvent {
	if len(evs) == 0 {
		return nil
	}
	out := make([]contract.SessionEvent, len(evs))
	for i, ev := range evs {
		out[i] = contract.SessionEvent{Seq: ev.GetSeq(), Type: ev.GetType(), Source: ev.GetSourceJson(), SourceDigest: ev.GetSourceXxh3(), Visible: ev.GetVisible()}
	}
	return out
}

// toolCallToProto converts a `skill` tool call.
func toolCallToProto(c contract.ToolCall) *pb.ExecuteSkillToolRequest {
	return &pb.ExecuteSkillToolRequest{MountId: c.MountID, SessionId: c.SessionID, Cwd: c.Cwd, AgentScope: c.AgentScope, ArgumentsJson: string(c.Arguments), CallId: c.CallID, ToolName: c.ToolName, SkillToolIdentity: c.SkillToolIdentity}
}

// toolCallFromProto converts a `skill` tool call.
func toolCallFromProto(r *pb.ExecuteSkillToolRequest) contract.ToolCall {
	c := contract.ToolCall{MountID: r.GetMountId(), SessionID: r.GetSessionId(), Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), CallID: r.GetCallId(), ToolName: r.GetToolName(), SkillToolIdentity: r.GetSkillToolIdentity()}
	if args := r.GetArgumentsJson(); args != "" {
		c.Arguments = []byte(args)
	}
	return c
}

// toolValueToProto converts the tool's value; nil stays nil.
func toolValueToProto(v *skill.ToolValue) *pb.SkillToolValue {
	if v == nil {
		return nil
	}
	return &pb.SkillToolValue{Name: v.Name, Provider: v.Provider, ResourceBase: resourceBaseToProto(v.ResourceBase), Content: v.Content, Origin: v.Origin}
}

// toolValueFromProto converts the tool's value; nil stays nil.
func toolValueFromProto(v *pb.SkillToolValue) *skill.ToolValue {
	if v == nil {
		return nil
	}
	return &skill.ToolValue{Name: v.GetName(), Provider: v.GetProvider(), ResourceBase: resourceBaseFromProto(v.GetResourceBase()), Content: v.GetContent(), Origin: v.GetOrigin()}
}

// toolResultToProto converts a tool result.
func toolResultToProto(r contract.ToolResult) *pb.ExecuteSkillToolResponse {
	return &pb.ExecuteSkillToolResponse{Value: toolValueToProto(r.Value), Text: r.Text, IsError: r.IsError, ResourceValue: resourcePageToProto(r.Resource)}
}

// toolResultFromProto converts a tool result; an error result never
// carries a value.
func toolResultFromProto(r *pb.ExecuteSkillToolResponse) contract.ToolResult {
	out := contract.ToolResult{Text: r.GetText(), IsError: r.GetIsError()}
	if !out.IsError {
		out.Value = toolValueFromProto(r.GetValue())
		out.Resource = resourcePageFromProto(r.GetResourceValue())
	}
	return out
}

// resourcePageToProto converts the resource-read tool's value; nil stays
// nil.
func resourcePageToProto(p *skill.ResourcePage) *pb.SkillResourceValue {
	if p == nil {
		return nil
	}
	out := &pb.SkillResourceValue{Name: p.Name, Path: p.Path, Offset: toUint64(p.Offset), TotalBytes: toUint64(p.TotalBytes), Content: p.Content}
	if p.NextOffset != nil {
		out.More, out.NextOffset = true, toUint64(*p.NextOffset)
	}
	return out
}

// resourcePageFromProto converts the resource-read tool's value; nil stays
// nil.
func resourcePageFromProto(v *pb.SkillResourceValue) *skill.ResourcePage {
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

// resourceRequestToProto converts a resource read request.
func resourceRequestToProto(r contract.ResourceRequest) *pb.ReadResourceRequest {
	return &pb.ReadResourceRequest{Cwd: r.Cwd, AgentScope: r.AgentScope, SessionId: r.SessionID, Name: r.Name, Path: r.Path, Offset: toUint64(r.Offset), MaxBytes: toUint32(r.MaxBytes)}
}

// resourceRequestFromProto converts a resource read request.
func resourceRequestFromProto(r *pb.ReadResourceRequest) contract.ResourceRequest {
	return contract.ResourceRequest{Cwd: r.GetCwd(), AgentScope: r.GetAgentScope(), SessionID: r.GetSessionId(), Name: r.GetName(), Path: r.GetPath(), Offset: toInt64(r.GetOffset()), MaxBytes: int(r.GetMaxBytes())}
}

var resourceStatuses = map[contract.ResourceStatus]pb.ResourceStatus{
	contract.ResourceOK:                pb.ResourceStatus_RESOURCE_STATUS_OK,
	contract.ResourceSkillNotFound:     pb.ResourceStatus_RESOURCE_STATUS_SKILL_NOT_FOUND,
	contract.ResourceNotModelInvocable: pb.ResourceStatus_RESOURCE_STATUS_NOT_MODEL_INVOCABLE,
	contract.ResourceNotReadable:       pb.ResourceStatus_RESOURCE_STATUS_NOT_READABLE,
	contract.ResourceInvalidPath:       pb.ResourceStatus_RESOURCE_STATUS_INVALID_PATH,
	contract.ResourceNotFound:          pb.ResourceStatus_RESOURCE_STATUS_NOT_FOUND,
	contract.ResourceTooLarge:          pb.ResourceStatus_RESOURCE_STATUS_TOO_LARGE,
	contract.ResourceBinary:            pb.ResourceStatus_RESOURCE_STATUS_BINARY,
	contract.ResourceProviderError:     pb.ResourceStatus_RESOURCE_STATUS_PROVIDER_ERROR,
}

// resourceReadToProto converts a resource read answer; an unknown status
// becomes RESOURCE_STATUS_UNSPECIFIED, which the plugin reports as a
// provider error.
func resourceReadToProto(r contract.ResourceRead) *pb.ReadResourceResponse {
	return &pb.ReadResourceResponse{Status: resourceStatuses[r.Status], Data: r.Data, TotalBytes: toUint64(r.Total), Error: r.Error}
}

// resourceReadFromProto converts a resource read answer.
func resourceReadFromProto(r *pb.ReadResourceResponse) contract.ResourceRead {
	out := contract.ResourceRead{Data: r.GetData(), Total: toInt64(r.GetTotalBytes()), Error: r.GetError(), Status: contract.ResourceStatus(r.GetStatus().String())}
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

// toolDefinitionToProto converts a tool definition.
func toolDefinitionToProto(d contract.ToolDefinition) *pb.ToolDefinition {
	return &pb.ToolDefinition{Name: d.Name, Description: d.Description, InputSchemaJson: string(d.InputSchema), OutputSchemaJson: string(d.OutputSchema)}
}

// toolDefinitionFromProto converts a tool definition.
func toolDefinitionFromProto(d *pb.ToolDefinition) contract.ToolDefinition {
	out := contract.ToolDefinition{Name: d.GetName(), Description: d.GetDescription()}
	if s := d.GetInputSchemaJson(); s != "" {
		out.InputSchema = []byte(s)
	}
	if s := d.GetOutputSchemaJson(); s != "" {
		out.OutputSchema = []byte(s)
	}
	return out
}

// configureRequestToProto converts a mount's configuration together with
// the broker id on which the host serves its callbacks.
func configureRequestToProto(r contract.ConfigureRequest, hostBrokerID uint32) *pb.ConfigureRequest {
	return &pb.ConfigureRequest{ConfigJson: r.Config, Scope: r.Scope, HostServiceBrokerId: hostBrokerID, DiscoveryJson: r.Discovery}
}

// configureRequestFromProto converts a mount's configuration and returns
// the host's broker id beside it.
func configureRequestFromProto(r *pb.ConfigureRequest) (contract.ConfigureRequest, uint32) {
	return contract.ConfigureRequest{Config: r.GetConfigJson(), Scope: r.GetScope(), Discovery: r.GetDiscoveryJson()}, r.GetHostServiceBrokerId()
}

// configureResponseToProto converts a new mount's description.
func configureResponseToProto(r contract.ConfigureResponse) *pb.ConfigureResponse {
	out := &pb.ConfigureResponse{MountId: r.MountID, AcceptsSourceDigests: r.AcceptsSourceDigests, AcceptsStepSnapshots: r.AcceptsStepSnapshots, DiscoversSkills: r.DiscoversSkills}
	for _, t := range r.Tools {
		out.Tools = append(out.Tools, toolDefinitionToProto(t))
	}
	return out
}

// configureResponseFromProto converts a new mount's description.
func configureResponseFromProto(r *pb.ConfigureResponse) contract.ConfigureResponse {
	out := contract.ConfigureResponse{MountID: r.GetMountId(), AcceptsSourceDigests: r.GetAcceptsSourceDigests(), AcceptsStepSnapshots: r.GetAcceptsStepSnapshots(), DiscoversSkills: r.GetDiscoversSkills()}
	for _, t := range r.GetTools() {
		out.Tools = append(out.Tools, toolDefinitionFromProto(t))
	}
	return out
}

// bindToolsToProto converts a mount's tool bindings.
func bindToolsToProto(mountID string, bindings []contract.ToolBinding) *pb.BindToolsRequest {
	out := &pb.BindToolsRequest{MountId: mountID}
	for _, b := range bindings {
		out.Bindings = append(out.Bindings, &pb.ToolBinding{ToolName: b.ToolName, DefinitionIdentity: b.DefinitionIdentity})
	}
	return out
}

// bindToolsFromProto converts a mount's tool bindings.
func bindToolsFromProto(r *pb.BindToolsRequest) (mountID string, bindings []contract.ToolBinding) {
	for _, b := range r.GetBindings() {
		bindings = append(bindings, contract.ToolBinding{ToolName: b.GetToolName(), DefinitionIdentity: b.GetDefinitionIdentity()})
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
