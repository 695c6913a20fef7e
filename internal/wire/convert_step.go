package wire

import (
	"fmt"
	"math"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
)

// Conversions of a step: its request, the snapshot and recent events it may carry, and its response.

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
		TouchedPaths:      r.TouchedPaths,
		PreloadSkills:     r.PreloadSkills,
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
		TouchedPaths:      r.GetTouchedPaths(),
		PreloadSkills:     r.GetPreloadSkills(),
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
	out := &pb.PreStepResponse{Outcome: o, Diagnostics: r.Diagnostics, Invocations: invocationsToProto(r.Invocations),
		Reattached: attachedToProto(r.Reattached), Preloaded: attachedToProto(r.Preloaded)}
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
	out := contract.StepResponse{Outcome: o, Diagnostics: r.GetDiagnostics(), Invocations: invocationsFromProto(r.GetInvocations()),
		Reattached: attachedFromProto(r.GetReattached()), Preloaded: attachedFromProto(r.GetPreloaded())}
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

// attachedToProto converts the skills a step re-attached or preloaded; none
// stays nil.
func attachedToProto(in []contract.AttachedSkill) []*pb.AttachedSkill {
	if len(in) == 0 {
		return nil
	}
	out := make([]*pb.AttachedSkill, len(in))
	for i, a := range in {
		out[i] = &pb.AttachedSkill{Name: a.Name, State: a.State, MessageId: a.MessageID, KeptChars: clampUint32(a.Kept), TotalChars: clampUint32(a.Total)}
	}
	return out
}

// attachedFromProto converts the skills a step re-attached or preloaded;
// none stays nil.
func attachedFromProto(in []*pb.AttachedSkill) []contract.AttachedSkill {
	if len(in) == 0 {
		return nil
	}
	out := make([]contract.AttachedSkill, len(in))
	for i, a := range in {
		out[i] = contract.AttachedSkill{Name: a.GetName(), State: a.GetState(), MessageID: a.GetMessageId(), Kept: int(a.GetKeptChars()), Total: int(a.GetTotalChars())}
	}
	return out
}

// clampUint32 is n as a uint32, at most its maximum (a count of characters
// is never negative).
func clampUint32(n int) uint32 {
	return uint32(min(max(n, 0), math.MaxUint32))
}
