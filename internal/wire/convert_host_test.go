package wire

import (
	"math"
	"testing"

	"github.com/skillcatalog/skillcatalog/plugin/contract"
	pb "github.com/skillcatalog/skillcatalog/proto/skillcatalog/v1"
	"github.com/skillcatalog/skillcatalog/skill"
)

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

func TestEmbeddings(t *testing.T) {
	t.Parallel()
	fromNil(t, "EmbedRequest", embedRequestFromProto, contract.EmbedRequest{})
	roundTrip(t, "EmbedRequest", contract.EmbedRequest{Kind: contract.EmbedDocument, Texts: []string{"a", "b"}}, embedRequestToProto, embedRequestFromProto)
	roundTrip(t, "Embeddings", contract.Embeddings{Model: "m", Vectors: [][]float32{{1, 2}, {3, 4}}}, embeddingsToProto, embeddingsFromProto)
	if got := embedRequestFromProto(&pb.EmbedRequest{Kind: pb.EmbedKind(1000)}); got.Kind != 255 {
		t.Errorf("an unknown kind converts to %d", got.Kind)
	}
}
