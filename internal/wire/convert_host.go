package wire

import (
	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

// Conversions of the host's callbacks: snapshots, skill lookups, session events and resource reads.

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

// embedRequestToProto converts an embedding request.
func embedRequestToProto(r contract.EmbedRequest) *pb.EmbedRequest {
	return &pb.EmbedRequest{Kind: pb.EmbedKind(r.Kind), Texts: r.Texts}
}

// embedRequestFromProto converts an embedding request; a kind the plugin
// does not define stays as sent, for the host to refuse.
func embedRequestFromProto(r *pb.EmbedRequest) contract.EmbedRequest {
	return contract.EmbedRequest{Kind: contract.EmbedKind(min(max(int32(r.GetKind()), 0), 255)), Texts: r.GetTexts()}
}

// embeddingsToProto converts embeddings.
func embeddingsToProto(e contract.Embeddings) *pb.EmbedResponse {
	out := &pb.EmbedResponse{Model: e.Model, Vectors: make([]*pb.EmbeddingVector, len(e.Vectors))}
	for i, v := range e.Vectors {
		out.Vectors[i] = &pb.EmbeddingVector{Values: v}
	}
	return out
}

// embeddingsFromProto converts embeddings.
func embeddingsFromProto(r *pb.EmbedResponse) contract.Embeddings {
	out := contract.Embeddings{Model: r.GetModel(), Vectors: make([][]float32, len(r.GetVectors()))}
	for i, v := range r.GetVectors() {
		out.Vectors[i] = v.GetValues()
	}
	return out
}
